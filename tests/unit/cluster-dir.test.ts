import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLUSTER_PID_FILE, CLUSTER_TRIAL_MARK, claimClusterDir } from '../../collector/commands/cluster.ts';

/** `npm run cluster`'s folder (collector/commands/cluster.ts claimClusterDir): a trial starts again where one stopped, never on an archive. */
let root: string;
beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'lpa-cluster-dir-'))));
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the cluster trial\'s folder', () => {
  it('is taken when new or empty, and again after a trial stopped (its pid file removed, its mark kept)', () => {
    const dir = join(root, 'cluster-4321');
    claimClusterDir(dir);
    expect(existsSync(join(dir, CLUSTER_TRIAL_MARK))).toBe(true);
    expect(readFileSync(join(dir, CLUSTER_PID_FILE), 'utf8').trim()).toBe(String(process.pid));
    // the trial ran (its parts wrote their files) and stopped: the pid file goes, the rest stays
    mkdirSync(join(dir, 'pg'));
    writeFileSync(join(dir, 'pg', 'x'), 'data');
    rmSync(join(dir, CLUSTER_PID_FILE));
    claimClusterDir(dir);
    expect(existsSync(join(dir, 'pg'))).toBe(false); // emptied for the new trial
    expect(existsSync(join(dir, CLUSTER_PID_FILE))).toBe(true);
  });

  it('is taken after a trial was killed (its pid file names a process gone), refused while one runs', () => {
    const dir = join(root, 'c');
    claimClusterDir(dir);
    writeFileSync(join(dir, CLUSTER_PID_FILE), '999999\n');
    expect(() => claimClusterDir(dir, () => true)).toThrow(/another cluster trial \(pid 999999\) is using/);
    claimClusterDir(dir, () => false);
    expect(readFileSync(join(dir, CLUSTER_PID_FILE), 'utf8').trim()).toBe(String(process.pid));
  });

  it('refuses a folder that is not a trial\'s and leaves it as it was', () => {
    const dir = join(root, 'archive');
    mkdirSync(dir);
    writeFileSync(join(dir, 'public.db'), 'not to be deleted');
    expect(() => claimClusterDir(dir)).toThrow(/is not empty and is not a cluster trial's folder/);
    expect(readFileSync(join(dir, 'public.db'), 'utf8')).toBe('not to be deleted');
  });
});
