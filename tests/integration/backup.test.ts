/**
 * `lpa backup --out DIR` (docs/operations.md "Upgrade", "Restore"): an online backup of both
 * databases and the key secret, taken while a writer holds public.db open; restored into a fresh
 * DATA_DIR, the records and the API keys work; a second backup into the same folder is refused.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { PrivateStore } from '../../src/db/private-store.ts';
import { KeyService, loadKeySecret } from '../../src/access/keys.ts';

const run = promisify(execFile);
const LPA = resolve(import.meta.dirname, '../../bin/lpa.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'lpa-backup-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('lpa backup', () => {
  it('backs up while open, restores to a working archive, refuses to overwrite', async () => {
    const data = join(tmp, 'data');
    const config = loadConfig({ DATA_DIR: data });
    const store = new PublicStore(config.publicDbPath);
    store.setMeta('coverage_from_ms', '1795000000000');
    const priv = new PrivateStore(config.privateDbPath);
    const { key } = await new KeyService(priv, loadKeySecret(config)).create('me');
    priv.close();

    const out = join(tmp, 'backup-1');
    const env = { ...process.env, DATA_DIR: data, LOG_FORMAT: 'json' };
    const r = await run(process.execPath, [LPA, 'backup', '--out', out], { env });
    expect(r.stdout.trim().split('\n').map((l) => l.slice(out.length + 1)).sort()).toEqual(['key-secret', 'private.db', 'public.db']);
    // the private copies are owner-only, as in DATA_DIR (private.db was 0644), and the folder 0700
    expect(statSync(join(out, 'private.db')).mode & 0o777).toBe(0o600);
    expect(statSync(join(out, 'key-secret')).mode & 0o777).toBe(0o600);
    expect(statSync(out).mode & 0o777).toBe(0o700);
    store.setMeta('coverage_from_ms', '1'); // written after the backup: not in it
    store.close();

    const restored = join(tmp, 'restored');
    mkdirSync(restored);
    for (const f of ['public.db', 'private.db', 'key-secret']) copyFileSync(join(out, f), join(restored, f));
    const rc = loadConfig({ DATA_DIR: restored });
    const rs = new PublicStore(rc.publicDbPath);
    expect(rs.getMeta('coverage_from_ms')).toBe('1795000000000');
    rs.close();
    const rp = new PrivateStore(rc.privateDbPath);
    expect((await new KeyService(rp, loadKeySecret(rc)).verify(key)).status).toBe('ok');
    rp.close();

    await expect(run(process.execPath, [LPA, 'backup', '--out', out], { env })).rejects.toMatchObject({ code: 1 });
  });

  it('a DATA_DIR without some of the files says which; one with none of them creates nothing', async () => {
    const data = join(tmp, 'only-public');
    new PublicStore(loadConfig({ DATA_DIR: data }).publicDbPath).close();
    const out = join(tmp, 'backup-2');
    const r = await run(process.execPath, [LPA, 'backup', '--out', out], { env: { ...process.env, DATA_DIR: data, LOG_FORMAT: 'json' } });
    expect(r.stderr).toContain(`${join(data, 'private.db')} does not exist; the backup is without it`);
    expect(r.stdout.trim()).toBe(join(out, 'public.db'));
    const typo = join(tmp, 'no-such-data');
    const none = join(tmp, 'backup-3');
    await expect(run(process.execPath, [LPA, 'backup', '--out', none], { env: { ...process.env, DATA_DIR: typo, LOG_FORMAT: 'json' } })).rejects.toMatchObject({ code: 1 });
    expect(existsSync(none)).toBe(false); // no empty folder left behind
  });
});
