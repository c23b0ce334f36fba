import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { getBase58Decoder } from '@solana/kit';
import type { Config } from '../config.ts';
import type { ApiKeyRow, PrivateStore } from '../db/private-store.ts';
import { DAILY_QUOTA, secondsToUtcMidnight, utcDay, type Usage } from './quota-day.ts';

/**
 * API keys: format `lpa_` + base58 of 32 random bytes (256 bits). The service stores only
 * HMAC-SHA-256(server secret, key); a stolen private.db without the secret gives no usable key.
 * Keys are never logged and never stored in plain text; a key created by a checkout is kept only
 * sealed (seal.ts) until its one display.
 */

/** Every key starts with this. */
export const KEY_PREFIX = 'lpa_';
/** Characters of a key kept for display (`lpa_` + 6 base58 characters ≈ 35 bits: not usable). */
export const DISPLAY_PREFIX_LENGTH = 10;
export { DAILY_QUOTA } from './quota-day.ts';

const base58 = getBase58Decoder();

/** A new random key: `lpa_` + base58 of 32 bytes from the OS CSPRNG. */
export function generateKey(): string {
  return KEY_PREFIX + base58.decode(randomBytes(32));
}

/** Lower-case hex HMAC-SHA-256 of a key under the server secret. */
export function hashKey(secret: string, key: string): string {
  return createHmac('sha256', secret).update(key, 'utf8').digest('hex');
}

/**
 * The server secret: `KEY_SECRET`, or a random secret created once in `${dataDir}/key-secret`
 * (mode 0600) and read from there afterwards. Changing it invalidates every key.
 */
export function loadKeySecret(config: Pick<Config, 'KEY_SECRET' | 'dataDir'>): string {
  if (config.KEY_SECRET) return config.KEY_SECRET;
  const path = join(config.dataDir, 'key-secret');
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  try {
    // 'wx': never overwrite a secret another process created meanwhile.
    writeFileSync(path, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  return readFileSync(path, 'utf8').trim();
}

/** Outcome of checking the key on a request. */
export type KeyCheck =
  | { status: 'ok'; keyId: number }
  | { status: 'missing_key' | 'invalid_key' | 'revoked_key' };

/**
 * The key of a request: the token of `Authorization: Bearer <key>` (scheme case-insensitive),
 * or null when there is no Authorization header, another scheme, or an empty token.
 */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get('Authorization');
  const m = header?.match(/^\s*Bearer\s+(\S+)\s*$/i);
  return m ? m[1] : null;
}

/** Creating, checking, listing and revoking keys over the private store. */
export class KeyService {
  constructor(
    private readonly store: PrivateStore,
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Create a key (in a subscriber account when `accountId` is given); the returned `key` exists
   * nowhere else afterwards (show it once).
   */
  create(label: string, accountId: number | null = null): { id: number; key: string; prefix: string } {
    const key = generateKey();
    const prefix = key.slice(0, DISPLAY_PREFIX_LENGTH);
    const id = this.store.insertKey(label, prefix, hashKey(this.secret, key), this.now(), accountId);
    return { id, key, prefix };
  }

  /**
   * Check the key on a request: compute its HMAC, look the row up by that hash, then compare the
   * stored and computed digests with `timingSafeEqual` (the lookup narrows, the compare decides).
   */
  check(request: Request): KeyCheck {
    const key = bearerToken(request);
    if (key === null) return { status: 'missing_key' };
    return this.verify(key);
  }

  /** Check a key string (see {@link check}). */
  verify(key: string): KeyCheck {
    if (!key.startsWith(KEY_PREFIX) || key.length > 128) return { status: 'invalid_key' };
    const computed = Buffer.from(hashKey(this.secret, key), 'hex');
    const row = this.store.keyByHash(computed.toString('hex'));
    if (!row) return { status: 'invalid_key' };
    const stored = Buffer.from(row.hash, 'hex');
    if (stored.length !== computed.length || !timingSafeEqual(stored, computed)) return { status: 'invalid_key' };
    if (row.revokedAtMs !== null) return { status: 'revoked_key' };
    return { status: 'ok', keyId: row.id };
  }

  /**
   * Admit and count one request of a key against its daily quota (UTC day, spec §8). Exact under
   * concurrency: one SQLite statement increments the day's count only while it is below `quota`;
   * a refused request is not counted. Returns the count today (including this request when
   * admitted), the quota, seconds until the reset at 00:00 UTC, and whether it was refused.
   */
  countRequest(keyId: number, quota: number = DAILY_QUOTA): Usage {
    const nowMs = this.now();
    const day = utcDay(nowMs);
    const admitted = this.store.admitRequest(keyId, day, quota);
    const used = admitted ?? Math.max(quota, this.store.usage(keyId, day));
    return { used, quota, resetSeconds: secondsToUtcMidnight(nowMs), exceeded: admitted === null };
  }

  /** Today's usage of a key without counting a request. */
  peekUsage(keyId: number, quota: number = DAILY_QUOTA): Usage {
    const nowMs = this.now();
    const used = this.store.usage(keyId, utcDay(nowMs));
    return { used, quota, resetSeconds: secondsToUtcMidnight(nowMs), exceeded: used >= quota };
  }

  /**
   * Rotate a key: check `current`; if it is usable, create a new key with the same label and
   * account, carry today's request count and the feed entitlement over (rotation never resets the daily quota), and revoke
   * `current` — all in one transaction. The new key exists nowhere else afterwards (show it once).
   */
  rotate(current: string): KeyCheck | { status: 'rotated'; id: number; key: string; prefix: string; oldId: number; oldPrefix: string } {
    return this.store.transaction(() => {
      const check = this.verify(current);
      if (check.status !== 'ok') return check;
      const old = this.store.keyById(check.keyId)!;
      const created = this.create(old.label, old.accountId);
      const day = utcDay(this.now());
      const used = this.store.usage(old.id, day);
      if (used > 0) this.store.setUsage(created.id, day, used);
      if (old.feedGrantedAtMs !== null) this.store.setFeed(created.id, old.feedGrantedAtMs); // the feed agreement stays with the holder
      this.store.revokeKey(old.id, this.now());
      return { status: 'rotated' as const, ...created, oldId: old.id, oldPrefix: old.prefix };
    });
  }

  /** Does the key hold the creation feed entitlement (`lpa keys grant --feed`)? False for an unknown id. */
  hasFeed(keyId: number): boolean {
    return (this.store.keyById(keyId)?.feedGrantedAtMs ?? null) !== null;
  }

  list(): Omit<ApiKeyRow, 'hash'>[] {
    return this.store.listKeys().map(({ hash: _hash, ...rest }) => rest);
  }

  revoke(id: number): boolean {
    return this.store.revokeKey(id, this.now());
  }
}
