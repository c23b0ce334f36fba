import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as crypto from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getBase58Encoder } from '@solana/kit';
import { loadConfig, type Config } from '../../src/config.ts';
import { PrivateStore } from '../../src/db/private-store.ts';
import { KeyService, bearerToken, generateKey, hashKey, keySecretConflict, loadKeySecret } from '../../src/access/keys.ts';
import { runKeysCreate, runKeysList, runKeysRevoke } from '../../collector/commands/keys.ts';

/** API keys: format, hash-only storage, verification, revocation, and the CLI functions. */

vi.mock('node:crypto', async (orig) => {
  const real = await orig<typeof import('node:crypto')>();
  return { ...real, timingSafeEqual: vi.fn(real.timingSafeEqual), createHmac: vi.fn(real.createHmac) };
});

let dir: string;
let config: Config;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lpa-keys-'));
  config = loadConfig({ DATA_DIR: dir });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The private store, a key service over it with secret `x…`, and one key created in it. */
async function oneKey() {
  const store = new PrivateStore(config.privateDbPath);
  const keys = new KeyService(store, 'x'.repeat(32));
  return { store, keys, ...(await keys.create('c')) };
}

/** Every byte of the private database files (main file and WAL), as latin1 text. */
function privateDbBytes(): string {
  return readdirSync(dir)
    .filter((f) => f.startsWith('private.db'))
    .map((f) => readFileSync(join(dir, f)).toString('latin1'))
    .join('');
}

describe('keys', () => {
  it('are lpa_ + base58 of 32 random bytes', () => {
    const a = generateKey();
    const b = generateKey();
    expect(a).toMatch(/^lpa_[1-9A-HJ-NP-Za-km-z]{43,44}$/);
    expect(a).not.toBe(b);
    expect(getBase58Encoder().encode(a.slice(4)).length).toBe(32);
  });

  it('are stored only as an HMAC: the key string is nowhere in the private database files', async () => {
    const store = new PrivateStore(config.privateDbPath);
    const keys = new KeyService(store, loadKeySecret(config));
    const { key, prefix } = await keys.create('customer');
    store.db.pragma('wal_checkpoint(FULL)');
    const bytes = privateDbBytes();
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes).not.toContain(key);
    expect(bytes).not.toContain(key.slice(4));
    expect(bytes).toContain(hashKey(loadKeySecret(config), key));
    expect(bytes).toContain(prefix);
    expect(prefix.length).toBeLessThan(key.length / 3);
    store.close();
  });

  it('verify: ok, invalid, revoked; the stored and computed digests are compared with timingSafeEqual', async () => {
    const { store, keys, id, key } = await oneKey();
    const tse = vi.mocked(crypto.timingSafeEqual);
    tse.mockClear();
    expect(await keys.verify(key)).toEqual({ status: 'ok', keyId: id });
    expect(tse).toHaveBeenCalledTimes(1);
    expect(await keys.verify(generateKey())).toEqual({ status: 'invalid_key' });
    expect(await keys.verify('not-a-key')).toEqual({ status: 'invalid_key' });
    // Another secret makes every key unknown.
    expect(await new KeyService(store, 'y'.repeat(32)).verify(key)).toEqual({ status: 'invalid_key' });
    expect(await keys.revoke(id)).toBe(true);
    expect(await keys.revoke(id)).toBe(false);
    expect(await keys.verify(key)).toEqual({ status: 'revoked_key' });
    store.close();
  });

  it('a key found once is hashed again by SHA-256 alone, with the same answers; guesses are HMACed each time', async () => {
    const { store, keys, id, key } = await oneKey();
    const hmac = vi.mocked(crypto.createHmac);
    hmac.mockClear();
    expect(await keys.verify(key)).toEqual({ status: 'ok', keyId: id });
    expect(hmac).toHaveBeenCalledTimes(1);
    expect(await keys.verify(key)).toEqual({ status: 'ok', keyId: id });
    expect((await keys.admit(key)).status).toBe('ok');
    expect(hmac).toHaveBeenCalledTimes(1);
    // a wrong key is HMACed on every try and never kept
    const guess = generateKey();
    expect(await keys.verify(guess)).toEqual({ status: 'invalid_key' });
    expect(await keys.verify(guess)).toEqual({ status: 'invalid_key' });
    expect(hmac).toHaveBeenCalledTimes(3);
    // revoking still shows at once: the row is read under its kept HMAC
    expect(await keys.revoke(id)).toBe(true);
    expect(await keys.verify(key)).toEqual({ status: 'revoked_key' });
    expect(hmac).toHaveBeenCalledTimes(3);
    // another secret: nothing kept carries over
    expect(await new KeyService(store, 'y'.repeat(32)).verify(key)).toEqual({ status: 'invalid_key' });
    store.close();
  });

  it('reads the key from Authorization: Bearer only', () => {
    const req = (h?: string) => new Request('http://x/', h ? { headers: { Authorization: h } } : {});
    expect(bearerToken(req('Bearer lpa_abc'))).toBe('lpa_abc');
    expect(bearerToken(req('bearer   lpa_abc '))).toBe('lpa_abc');
    expect(bearerToken(req())).toBeNull();
    expect(bearerToken(req('Bearer'))).toBeNull();
    expect(bearerToken(req('Basic lpa_abc'))).toBeNull();
  });

  it('without KEY_SECRET the secret is created once in DATA_DIR/key-secret with mode 0600', () => {
    const s1 = loadKeySecret(config);
    const s2 = loadKeySecret(config);
    expect(s1).toBe(s2);
    expect(s1.length).toBeGreaterThanOrEqual(64);
    expect(statSync(join(dir, 'key-secret')).mode & 0o777).toBe(0o600);
    expect(loadKeySecret({ ...config, KEY_SECRET: 'k'.repeat(40) })).toBe('k'.repeat(40));
  });
});

describe('lpa keys create|list|revoke', () => {
  it('create prints the key alone as the last line; list never shows it; revoke makes it revoked_key', async () => {
    const out: string[] = [];
    const id = await runKeysCreate(config, { label: 'acme' }, (l) => out.push(l));
    const key = out.at(-1)!;
    expect(key).toMatch(/^lpa_[1-9A-HJ-NP-Za-km-z]{43,44}$/);
    expect(out.length).toBe(2);
    expect(out[0]).not.toContain(key);

    const listed: string[] = [];
    await runKeysList(config, (l) => listed.push(l));
    expect(listed[0]).toBe('id\tlabel\tprefix\tcreated\trevoked\tfeed');
    expect(listed[1]).toMatch(new RegExp(`^${id}\\tacme\\tlpa_\\w{6}\\t\\d{4}-.*Z\\t-\\t-$`));
    expect(listed.join('\n')).not.toContain(key);
    expect(listed.join('\n')).not.toContain(hashKey(loadKeySecret(config), key));

    const revoked: string[] = [];
    await runKeysRevoke(config, id, (l) => revoked.push(l));
    expect(revoked[0]).toMatch(/^revoked key/);
    await expect(runKeysRevoke(config, 999, () => {})).rejects.toThrow(/no key/);
    await expect(runKeysRevoke(config, Number('abc'), () => {})).rejects.toThrow(/whole number/);

    const store = new PrivateStore(config.privateDbPath);
    expect(await new KeyService(store, loadKeySecret(config)).verify(key)).toEqual({ status: 'revoked_key' });
    store.close();
    const after: string[] = [];
    await runKeysList(config, (l) => after.push(l));
    expect(after[1]).toMatch(/\t\d{4}-[^\t]*Z\t-$/);
  });
});

describe('keys of the paid plan (private schema v2)', () => {
  it('a private.db at schema version 1 upgrades in place: its keys keep working and belong to no account', async () => {
    const { openDatabase } = await import('../../src/db/open.ts');
    const { PRIVATE_MIGRATIONS } = await import('../../src/db/private-schema.ts');
    const secret = 'z'.repeat(32);
    const key = generateKey();
    const v1 = openDatabase(config.privateDbPath, PRIVATE_MIGRATIONS.filter((m) => m.version === 1));
    v1.prepare('INSERT INTO api_key (label, prefix, hash, created_at_ms) VALUES (?, ?, ?, ?)').run('old', key.slice(0, 10), hashKey(secret, key), 1);
    v1.close();
    const store = new PrivateStore(config.privateDbPath);
    const keys = new KeyService(store, secret);
    expect(await keys.verify(key)).toMatchObject({ status: 'ok' });
    expect((await keys.list())[0]).toMatchObject({ label: 'old', accountId: null });
    store.close();
  });

  it('rotate: same label and account, today’s count carried over, the old key revoked; only a usable key rotates', async () => {
    const store = new PrivateStore(config.privateDbPath);
    const now = Date.parse('2026-11-20T10:00:00.000Z');
    const keys = new KeyService(store, 'x'.repeat(32), () => now);
    const { id, key } = await keys.create('acme');
    for (let i = 0; i < 5; i++) await keys.countRequest(id);
    const r = await keys.rotate(key);
    if (r.status !== 'rotated') throw new Error(r.status);
    expect(r.key).not.toBe(key);
    expect(r.oldId).toBe(id);
    expect(await keys.verify(key)).toEqual({ status: 'revoked_key' });
    expect(await keys.verify(r.key)).toEqual({ status: 'ok', keyId: r.id });
    expect(await keys.peekUsage(r.id)).toMatchObject({ used: 5, exceeded: false });
    expect(store.keyById(r.id)).toMatchObject({ label: 'acme', accountId: null });
    expect(await keys.rotate(key)).toEqual({ status: 'revoked_key' });
    expect(await keys.rotate('lpa_unknown')).toEqual({ status: 'invalid_key' });
    expect(privateDbBytes()).not.toContain(r.key);
    store.close();
  });
});

describe('KEY_SECRET beside DATA_DIR/key-secret (keySecretConflict)', () => {
  it('says so when both are there and differ: a command without KEY_SECRET would make keys the server refuses', () => {
    const fileSecret = loadKeySecret(config); // writes DATA_DIR/key-secret
    expect(keySecretConflict(config)).toBeNull(); // no KEY_SECRET
    const same = loadConfig({ DATA_DIR: dir, KEY_SECRET: fileSecret });
    expect(keySecretConflict(same)).toBeNull();
    const other = loadConfig({ DATA_DIR: dir, KEY_SECRET: 'another-secret-of-at-least-32-characters' });
    expect(keySecretConflict(other)).toMatch(/^KEY_SECRET is set and differs from .*key-secret: .*401 invalid_key/);
    expect(keySecretConflict(other)).not.toContain('another-secret'); // never the secret itself
    // and the keys of the two do not meet
    expect(hashKey(loadKeySecret(other), 'lpa_x')).not.toBe(hashKey(fileSecret, 'lpa_x'));
    expect(keySecretConflict(loadConfig({ DATA_DIR: join(dir, 'none'), KEY_SECRET: 'another-secret-of-at-least-32-characters' }))).toBeNull();
  });
});

describe('DATA_DIR/key-secret (a security review: an empty file was taken as the secret, and the file was created empty then written)', () => {
  it('is made whole, 64 hex characters, with no file left beside it; one shorter than 32 characters is refused with a ConfigError naming the file, never its content', () => {
    const d = mkdtempSync(join(tmpdir(), 'lpa-key-secret-'));
    try {
      const cfg = loadConfig({ DATA_DIR: d });
      const secret = loadKeySecret(cfg);
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      expect(readdirSync(d).filter((f) => f.startsWith('key-secret'))).toEqual(['key-secret']);
      expect(loadKeySecret(cfg)).toBe(secret);
      writeFileSync(join(d, 'key-secret'), 'short-secret\n');
      let err: unknown;
      try {
        loadKeySecret(cfg);
      } catch (e) {
        err = e;
      }
      expect((err as Error).name).toBe('ConfigError');
      expect((err as Error).message).toMatch(/key-secret holds a key secret of 12 characters; a secret has at least 32/);
      expect((err as Error).message).not.toContain('short-secret');
      writeFileSync(join(d, 'key-secret'), '');
      expect(() => loadKeySecret(cfg)).toThrow(/of 0 characters/);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });
});
