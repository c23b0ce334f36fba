/**
 * Operator commands on an archive that is not there (an operator audit): `lpa keys …` with a
 * mistyped DATA_DIR listed no keys with exit 0 and created the folder, a key secret and
 * private.db — `keys create` would then make a key under a secret the server never reads — and
 * `lpa keys revoke abc` was passed on as id NaN. Both are refused with exit 2 and one line.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const LPA = resolve(import.meta.dirname, '../../bin/lpa.mjs');
const run = promisify(execFile);
const tmp = mkdtempSync(join(tmpdir(), 'lpa-opcli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const lpa = (args: string[], dataDir: string) =>
  run(process.execPath, [LPA, ...args], { env: { ...process.env, DATA_DIR: dataDir, LOG_FORMAT: 'json' } }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

describe('operator commands on a DATA_DIR that does not exist', () => {
  it.each([['keys', 'list'], ['keys', 'create', '--label', 'me'], ['keys', 'revoke', '1'], ['keys', 'grant', '1', '--feed'], ['accounts', 'list']])(
    'lpa %s %s: exit 2, names DATA_DIR, creates nothing',
    async (...args) => {
      const typo = join(tmp, 'no-such-archive');
      const r = await lpa(args, typo);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`DATA_DIR ${typo} does not exist, so there is no archive there`);
      expect(existsSync(typo)).toBe(false);
    },
  );

  it('a key id that is not a whole number is refused, naming it', async () => {
    const r = await lpa(['keys', 'revoke', 'abc'], tmp);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('The key id must be a whole number (it is "abc")');
  });

  it('a failed command says why once, in the reader\'s form (it printed a plain line and a JSON line)', async () => {
    const missing = join(tmp, 'no-such-list.txt');
    const json = await lpa(['rebuild', '--file', missing], tmp);
    expect(json.code).toBe(1);
    const lines = json.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 50, msg: 'command failed' });
    const pretty = await run(process.execPath, [LPA, 'rebuild', '--file', missing], { env: { ...process.env, DATA_DIR: tmp, LOG_FORMAT: 'pretty' } }).catch((e: { stderr: string }) => e);
    expect(pretty.stderr.trim().split('\n')).toEqual([`lpa: ENOENT: no such file or directory, open '${missing}'`]);
  });

  it('an existing DATA_DIR is used as before', async () => {
    const r = await lpa(['keys', 'list'], tmp);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^id\tlabel/);
  });
});

describe('lpa demo with a bad setting', () => {
  it('PORT=abc: exit 2 and the configuration line naming PORT, as every command (it was a RangeError of listen)', async () => {
    const r = await run(process.execPath, [LPA, 'demo'], { env: { ...process.env, PORT: 'abc', LOG_FORMAT: 'json' } }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('invalid configuration');
    expect(r.stderr).toContain('PORT');
    expect(r.stderr).not.toContain('options.port');
  });
});
