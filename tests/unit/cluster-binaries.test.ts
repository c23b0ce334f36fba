/** `lpa cluster`'s checks for its binaries (devchain/cluster/): a missing one is named with the Debian package to install. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NginxError, requireNginx } from '../../devchain/cluster/nginx.ts';
import { PostgresError, postgresBinDir, requirePostgres } from '../../devchain/cluster/postgres.ts';

const tmp = mkdtempSync(join(tmpdir(), 'lpa-cluster-bin-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the local cluster\'s binaries', () => {
  it('a missing PostgreSQL: PostgresError naming the Debian package', () => {
    expect(() => requirePostgres(join(tmp, 'none'))).toThrow(PostgresError);
    expect(() => requirePostgres(join(tmp, 'none'))).toThrow(/apt-get install postgresql/);
  });

  it('finds the newest major version that has initdb', () => {
    for (const v of ['13', '15', '16']) mkdirSync(join(tmp, 'pg', v, 'bin'), { recursive: true });
    writeFileSync(join(tmp, 'pg', '13', 'bin', 'initdb'), '');
    writeFileSync(join(tmp, 'pg', '15', 'bin', 'initdb'), '');
    expect(postgresBinDir(join(tmp, 'pg'))).toBe(join(tmp, 'pg', '15', 'bin')); // 16 has no initdb
  });

  it('a missing nginx: NginxError naming the Debian package', () => {
    expect(() => requireNginx(join(tmp, 'nginx'))).toThrow(NginxError);
    expect(() => requireNginx(join(tmp, 'nginx'))).toThrow(/apt-get install nginx-light/);
  });
});
