import type Database from 'better-sqlite3';
import { openDatabase } from './open.ts';
import { PRIVATE_MIGRATIONS } from './private-schema.ts';

/** An API key row. `hash` is HMAC-SHA-256(server secret, key) in hex; the key itself is never stored. */
export interface ApiKeyRow {
  id: number;
  label: string;
  prefix: string;
  hash: string;
  createdAtMs: number;
  revokedAtMs: number | null;
}

/**
 * The private database: API keys (hashes only) and per-key daily usage. Never published.
 * Prepared statements are made once; every method is synchronous (better-sqlite3).
 */
export class PrivateStore {
  readonly db: Database.Database;
  private readonly s;

  constructor(path: string) {
    this.db = openDatabase(path, PRIVATE_MIGRATIONS);
    const db = this.db;
    const cols = 'id, label, prefix, hash, created_at_ms AS createdAtMs, revoked_at_ms AS revokedAtMs';
    this.s = {
      insertKey: db.prepare('INSERT INTO api_key (label, prefix, hash, created_at_ms) VALUES (?, ?, ?, ?)'),
      keyByHash: db.prepare(`SELECT ${cols} FROM api_key WHERE hash = ?`),
      keys: db.prepare(`SELECT ${cols} FROM api_key ORDER BY id`),
      revoke: db.prepare('UPDATE api_key SET revoked_at_ms = ? WHERE id = ? AND revoked_at_ms IS NULL'),
      keyById: db.prepare(`SELECT ${cols} FROM api_key WHERE id = ?`),
      countUse: db.prepare(
        'INSERT INTO key_usage (key_id, day, requests) VALUES (?, ?, 1) ON CONFLICT (key_id, day) DO UPDATE SET requests = requests + 1 RETURNING requests',
      ),
    };
  }

  /** Store a new key's hash; returns its id. Errors: throws on a duplicate hash (a 2^-256 event). */
  insertKey(label: string, prefix: string, hash: string, nowMs: number): number {
    return Number(this.s.insertKey.run(label, prefix, hash, nowMs).lastInsertRowid);
  }

  keyByHash(hash: string): ApiKeyRow | undefined {
    return this.s.keyByHash.get(hash) as ApiKeyRow | undefined;
  }

  keyById(id: number): ApiKeyRow | undefined {
    return this.s.keyById.get(id) as ApiKeyRow | undefined;
  }

  /** Every key, oldest first. */
  listKeys(): ApiKeyRow[] {
    return this.s.keys.all() as ApiKeyRow[];
  }

  /** Revoke a key; false when no such key or it was already revoked (revocation time never moves). */
  revokeKey(id: number, nowMs: number): boolean {
    return this.s.revoke.run(nowMs, id).changes === 1;
  }

  /** Count one request of a key on a UTC day ('YYYY-MM-DD'); returns the day's count including this one. */
  countRequest(keyId: number, day: string): number {
    return (this.s.countUse.get(keyId, day) as { requests: number }).requests;
  }

  close(): void {
    this.db.close();
  }
}
