import { createHmac, hash as digestOf, randomBytes, timingSafeEqual } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getBase58Decoder } from '@solana/kit';
import { ConfigError, type Config } from '../config.ts';
import { PrivateStore, type ApiKeyRow } from '../db/private-store.ts';
import type { PrivateState } from '../db/private-state.ts';
import { SqlitePrivateState } from '../db/private-state-sqlite.ts';
import { DAILY_QUOTA, secondsToUtcMidnight, utcDay, type Usage } from './quota-day.ts';

/**
 * API keys: format `lpa_` + base58 of 32 random bytes (256 bits). The service stores only
 * HMAC-SHA-256(server secret, key); a stolen private.db without the secret gives no usable key.
 * Keys are never logged and never stored in plain text; a key created by a checkout is kept only
 * sealed (seal.ts) until its one display.
 */

/** The most key rows a key service keeps in memory (cleared when full; a key is then read again). */
export const KEY_CACHE_MAX = 10_000;

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

/** A new key with its display prefix and its HMAC (what is stored). */
export function mintKey(secret: string): { key: string; prefix: string; hash: string } {
  const key = generateKey();
  return { key, prefix: key.slice(0, DISPLAY_PREFIX_LENGTH), hash: hashKey(secret, key) };
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
    return checkedSecret(readFileSync(path, 'utf8').trim(), path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  // written whole under another name, then linked into place: link never replaces a secret another process created
  // meanwhile, and no process reads a half-written one (it was created empty, then written: a security review)
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  try {
    linkSync(tmp, path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    rmSync(tmp, { force: true });
  }
  return checkedSecret(readFileSync(path, 'utf8').trim(), path);
}

/** A key secret of at least 32 characters, as KEY_SECRET must be; else a ConfigError naming the file (never its content). */
function checkedSecret(secret: string, path: string): string {
  if (secret.length < 32) {
    throw new ConfigError(
      `${path} holds a key secret of ${secret.length} characters; a secret has at least 32. Remove the file to have a new one made (every key made with the old one stops working), or set KEY_SECRET.`,
    );
  }
  return secret;
}

/**
 * Why KEY_SECRET and DATA_DIR/key-secret disagree, or null: both are there and differ. Keys are
 * checked with KEY_SECRET when it is set, so a command run without it (`lpa keys create` from a
 * shell without the service's environment) uses the file and makes keys the server refuses with
 * 401 invalid_key. Said at the server's start and by the key commands (an operator review).
 */
export function keySecretConflict(config: Pick<Config, 'KEY_SECRET' | 'dataDir'>): string | null {
  if (!config.KEY_SECRET) return null;
  let file: string;
  try {
    file = readFileSync(join(config.dataDir, 'key-secret'), 'utf8').trim();
  } catch {
    return null;
  }
  return file === config.KEY_SECRET
    ? null
    : `KEY_SECRET is set and differs from ${join(config.dataDir, 'key-secret')}: keys are made and checked with KEY_SECRET here, but a command run without it (lpa keys create in another shell) uses the file, and its keys are refused (401 invalid_key). Set KEY_SECRET for every command, or remove the file.`;
}

/** The stored HMAC of a key row as bytes, made once per row (the key cache keeps rows across requests). */
const digests = new WeakMap<ApiKeyRow, Buffer>();
function storedDigest(row: ApiKeyRow): Buffer {
  let d = digests.get(row);
  if (!d) digests.set(row, (d = Buffer.from(row.hash, 'hex')));
  return d;
}

/** A bearer token that can be a key of this archive (its prefix, at most 128 characters); anything else is refused unhashed. */
function wellFormedKey(key: string): boolean {
  return key.startsWith(KEY_PREFIX) && key.length <= 128;
}

/** The stored digest equals the computed one (lower-case hex), compared in constant time. */
function sameDigest(stored: Buffer, computedHex: string): boolean {
  const computed = Buffer.from(computedHex, 'hex');
  return stored.length === computed.length && timingSafeEqual(stored, computed);
}

/** Outcome of checking the key on a request. */
export type KeyCheck =
  | { status: 'ok'; keyId: number }
  | { status: 'missing_key' | 'invalid_key' | 'revoked_key' };

/** Outcome of checking the key on a request and counting it ({@link KeyService.admit}). */
export type KeyAdmit = { status: 'ok'; keyId: number; usage: Usage } | { status: 'missing_key' | 'invalid_key' | 'revoked_key' };

/**
 * The key of a request: the token of `Authorization: Bearer <key>` (scheme case-insensitive),
 * or null when there is no Authorization header, another scheme, or an empty token.
 */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get('Authorization');
  const m = header?.match(/^\s*Bearer\s+(\S+)\s*$/i);
  return m ? m[1] : null;
}

/**
 * Creating, checking, listing and revoking keys over the private state (SQLite or PostgreSQL:
 * src/db/private-state.ts). Every method is async; with SQLite they settle at once. A PrivateStore
 * given here is used through its SQLite state (the operator CLI and tests).
 * Errors: methods reject with PrivateStateUnavailable when PostgreSQL cannot be reached.
 */
export class KeyService {
  readonly state: PrivateState;
  /**
   * Key rows by HMAC hash, valid while `state.changeMark()` equals {@link cacheMark} (SQLite:
   * `PRAGMA data_version`, read once per event-loop turn, moves on any other process's commit —
   * `lpa keys revoke` — and the key writes of any connection of this process move it at once). Only rows that exist are kept (an unknown hash is read
   * each time); at most {@link KEY_CACHE_MAX} rows. Empty where the state has no mark (PostgreSQL).
   */
  private readonly cache = new Map<string, ApiKeyRow>();
  private cacheMark: string | null = null;
  /**
   * HMAC hashes of keys already found in the state, by the SHA-256 of the key (base64): a key seen
   * again is hashed with one SHA-256 instead of an HMAC (`createHmac` makes a stream object per
   * call). The HMAC of a key under this process's secret never changes, so nothing invalidates it;
   * only keys whose row exists are kept (a stranger's guesses are not), at most
   * {@link KEY_CACHE_MAX}, cleared when full. Holds no key: a SHA-256 of a 256-bit random key
   * gives it back to no one, and the HMAC is what private.db already stores.
   */
  private readonly hmacs = new Map<string, string>();

  constructor(
    state: PrivateState | PrivateStore,
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {
    this.state = state instanceof PrivateStore ? SqlitePrivateState.over(state) : state;
  }

  /**
   * Create a key (in a subscriber account when `accountId` is given; inside the transaction `state`
   * when given); the returned `key` exists nowhere else afterwards (show it once).
   */
  async create(label: string, accountId: number | null = null, state: PrivateState = this.state): Promise<{ id: number; key: string; prefix: string }> {
    const { key, prefix, hash } = mintKey(this.secret);
    const id = await state.insertKey(label, prefix, hash, this.now(), accountId);
    return { id, key, prefix };
  }

  /**
   * Check the key on a request: compute its HMAC, look the row up by that hash, then compare the
   * stored and computed digests with `timingSafeEqual` (the lookup narrows, the compare decides).
   */
  check(request: Request): Promise<KeyCheck> {
    const key = bearerToken(request);
    if (key === null) return Promise.resolve({ status: 'missing_key' });
    return this.verify(key);
  }

  /** Check a key string (see {@link check}). */
  verify(key: string): Promise<KeyCheck> {
    return this.verifyIn(this.state, key);
  }

  /**
   * The key row of an HMAC hash: from memory while the state's change mark has not moved since it
   * was read, else from the state (and kept). Inside a transaction (`state` not this service's own)
   * always from the state.
   */
  private async keyRow(state: PrivateState, hash: string): Promise<ApiKeyRow | undefined> {
    const mark = state === this.state ? (state.changeMark?.() ?? null) : null;
    if (mark === null) return state.keyByHash(hash);
    if (mark === this.cacheMark) {
      const hit = this.cache.get(hash);
      if (hit) return hit;
    } else {
      this.cache.clear();
      this.cacheMark = mark;
    }
    const row = await state.keyByHash(hash);
    // kept only if nothing changed while it was read (the read may have waited for a transaction)
    if (row && this.cacheMark === mark && state.changeMark!() === mark) {
      if (this.cache.size >= KEY_CACHE_MAX) this.cache.clear();
      this.cache.set(hash, row);
    }
    return row;
  }

  /** Keep the HMAC of a key found in the state under the key's SHA-256 (see {@link hmacs}). */
  private keepHmac(seen: string, hash: string): void {
    if (this.hmacs.get(seen) === hash) return;
    if (this.hmacs.size >= KEY_CACHE_MAX) this.hmacs.clear();
    this.hmacs.set(seen, hash);
  }

  private async verifyIn(state: PrivateState, key: string): Promise<KeyCheck> {
    if (!wellFormedKey(key)) return { status: 'invalid_key' };
    const seen = digestOf('sha256', key, 'base64');
    const hash = this.hmacs.get(seen) ?? hashKey(this.secret, key);
    const row = await this.keyRow(state, hash);
    if (!row || !sameDigest(storedDigest(row), hash)) return { status: 'invalid_key' };
    this.keepHmac(seen, hash);
    if (row.revokedAtMs !== null) return { status: 'revoked_key' };
    return { status: 'ok', keyId: row.id };
  }

  /**
   * Check the key of a keyed request (`key`: its bearer token, null when none) and, when usable,
   * admit and count the request against its daily quota: {@link verify} then {@link countRequest},
   * with the same answers. Where the state checks and counts together (PostgreSQL:
   * PrivateState.admitByHash, one statement for all the requests of a turn) it does so in one ask:
   * the key is looked up by its HMAC in the same statement that counts, and the stored and computed
   * digests are then compared with `timingSafeEqual` as in {@link verify}.
   */
  async admit(key: string | null, quota: number = DAILY_QUOTA): Promise<KeyAdmit> {
    if (key === null) return { status: 'missing_key' };
    if (!this.state.admitByHash) {
      const check = await this.verify(key);
      return check.status === 'ok' ? { ...check, usage: await this.countRequest(check.keyId, quota) } : check;
    }
    if (!wellFormedKey(key)) return { status: 'invalid_key' };
    const seen = digestOf('sha256', key, 'base64');
    const hash = this.hmacs.get(seen) ?? hashKey(this.secret, key);
    const nowMs = this.now();
    const { key: row, count } = await this.state.admitByHash(hash, utcDay(nowMs), quota);
    if (!row || !sameDigest(Buffer.from(row.hash, 'hex'), hash)) return { status: 'invalid_key' };
    this.keepHmac(seen, hash);
    if (row.revokedAtMs !== null || count === null) return { status: 'revoked_key' };
    return { status: 'ok', keyId: row.id, usage: { used: count.used, quota, resetSeconds: secondsToUtcMidnight(nowMs), exceeded: !count.admitted } };
  }

  /**
   * Admit and count one request of a key against its daily quota (UTC day, spec §8). Exact under
   * concurrency: one statement (SQLite or PostgreSQL) increments the day's count only while it is below `quota`;
   * a refused request is not counted. Returns the count today (including this request when
   * admitted), the quota, seconds until the reset at 00:00 UTC, and whether it was refused.
   */
  async countRequest(keyId: number, quota: number = DAILY_QUOTA): Promise<Usage> {
    const nowMs = this.now();
    const day = utcDay(nowMs);
    const admitted = await this.state.admitRequest(keyId, day, quota);
    const used = admitted ?? Math.max(quota, await this.state.usage(keyId, day));
    return { used, quota, resetSeconds: secondsToUtcMidnight(nowMs), exceeded: admitted === null };
  }

  /**
   * Admit and count `n` requests of a key at once (the batch endpoint, one per mint) in one
   * transaction: the first `min(n, quota − used)` are admitted, exactly as `n` calls of
   * {@link countRequest} in a row would. Returns the count before them, how many were admitted, and
   * the usage each of the `n` would have reported (`exceeded` for the refused ones).
   */
  async countRequests(keyId: number, n: number, quota: number = DAILY_QUOTA): Promise<{ before: number; admitted: number; usages: Usage[] }> {
    const nowMs = this.now();
    const { before, admitted } = n > 0 ? await this.state.admitRequests(keyId, utcDay(nowMs), quota, n) : { before: 0, admitted: 0 };
    const resetSeconds = secondsToUtcMidnight(nowMs);
    const refusedAt = Math.max(quota, before + admitted);
    const usages = Array.from({ length: n }, (_, i): Usage =>
      i < admitted ? { used: before + i + 1, quota, resetSeconds, exceeded: false } : { used: refusedAt, quota, resetSeconds, exceeded: true },
    );
    return { before, admitted, usages };
  }

  /** Today's usage of a key without counting a request. */
  async peekUsage(keyId: number, quota: number = DAILY_QUOTA): Promise<Usage> {
    const nowMs = this.now();
    const used = await this.state.usage(keyId, utcDay(nowMs));
    return { used, quota, resetSeconds: secondsToUtcMidnight(nowMs), exceeded: used >= quota };
  }

  /**
   * Rotate a key: check `current`; if it is usable, create a new key with the same label and
   * account, carry today's request count and the feed entitlement over (rotation never resets the daily quota), and revoke
   * `current` — all in one transaction. The new key exists nowhere else afterwards (show it once).
   */
  rotate(current: string): Promise<KeyCheck | { status: 'rotated'; id: number; key: string; prefix: string; oldId: number; oldPrefix: string }> {
    return this.state.transaction(async (tx) => {
      const check = await this.verifyIn(tx, current);
      if (check.status !== 'ok') return check;
      const old = (await tx.keyById(check.keyId))!;
      const created = await this.create(old.label, old.accountId, tx);
      const day = utcDay(this.now());
      const used = await tx.usage(old.id, day);
      if (used > 0) await tx.setUsage(created.id, day, used);
      if (old.feedGrantedAtMs !== null) await tx.setFeed(created.id, old.feedGrantedAtMs); // the feed agreement stays with the holder
      await tx.revokeKey(old.id, this.now());
      return { status: 'rotated' as const, ...created, oldId: old.id, oldPrefix: old.prefix };
    });
  }

  /**
   * May the key hold a creation feed stream now: it exists, is not revoked (nor rotated away) and
   * holds the feed entitlement? Read from the state each time (no cache: asked every few seconds per
   * key holding a stream, feed-hub.ts). Errors: rejects as the state does (PrivateStateUnavailable).
   */
  async mayStream(keyId: number): Promise<boolean> {
    const row = await this.state.keyById(keyId);
    return row !== undefined && row.revokedAtMs === null && row.feedGrantedAtMs !== null;
  }

  /** Does the key hold the creation feed entitlement (`lpa keys grant --feed`)? False for an unknown id. */
  async hasFeed(keyId: number): Promise<boolean> {
    return ((await this.state.keyById(keyId))?.feedGrantedAtMs ?? null) !== null;
  }

  async list(): Promise<Omit<ApiKeyRow, 'hash'>[]> {
    return (await this.state.listKeys()).map(({ hash: _hash, ...rest }) => rest);
  }

  revoke(id: number): Promise<boolean> {
    return this.state.revokeKey(id, this.now());
  }
}
