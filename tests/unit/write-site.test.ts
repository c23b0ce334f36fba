/**
 * writeFileAtomic (src/ingest/write-site.ts): the folder is made when missing, a file is replaced
 * whole, and a failed write leaves neither a half file nor its temporary file behind.
 * SiteWriteBatch: the same atomic writes, by the writer threads (site-writers.ts), in place and made
 * durable by one `sync -f` per commit (or fsyncs); a write's failure is thrown by its batch's commit.
 * removeStaleTemporaryFiles: a killed writer's temporary files go, a running writer's stay.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAILURES_KEPT, closeSiteWriters, countReached, setSiteWriterStallMs, setSyncAnswerMs, siteWriters } from '../../src/ingest/site-writers.ts';
import { FSYNC_EACH_UP_TO, SiteWriteBatch, removeStaleTemporaryFiles, writeFileAtomic, writeFilesAtomic } from '../../src/ingest/write-site.ts';
import { deadPid } from '../helpers/processes.ts';

/** A fresh folder for each test. */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lpa-write-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('creates missing folders, replaces an existing file whole, and leaves no temporary file', () => {
    const path = join(dir, 'site', 't', 'MINT.html');
    writeFileAtomic(path, '<p>first</p>');
    expect(readFileSync(path, 'utf8')).toBe('<p>first</p>');
    writeFileAtomic(path, 'é'.repeat(70_000)); // more than one write's worth, not ASCII
    expect(readFileSync(path, 'utf8')).toBe('é'.repeat(70_000));
    expect(readdirSync(join(dir, 'site', 't'))).toEqual(['MINT.html']);
  });

  it('writes many files of one folder under distinct temporary names', () => {
    for (let i = 0; i < 50; i++) writeFileAtomic(join(dir, 'd', `${i}.json`), JSON.stringify({ i }));
    const names = readdirSync(join(dir, 'd')).sort();
    expect(names).toHaveLength(50);
    expect(names.every((n) => n.endsWith('.json'))).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'd', '7.json'), 'utf8'))).toEqual({ i: 7 });
  });

  it('a failed rename throws, keeps what was there, and removes the temporary file', () => {
    const target = join(dir, 'd', 'taken');
    mkdirSync(join(target, 'inside'), { recursive: true }); // a non-empty folder cannot be renamed over
    writeFileSync(join(target, 'inside', 'x'), 'kept');
    expect(() => writeFileAtomic(target, 'new')).toThrow();
    expect(readdirSync(join(dir, 'd'))).toEqual(['taken']);
    expect(readFileSync(join(target, 'inside', 'x'), 'utf8')).toBe('kept');
  });
});

/**
 * A `sync` program first on PATH that notes its arguments (and fails when `fails`), for the length
 * of `fn`; the writer threads are started again on each side, as their helper reads PATH when it starts.
 */
async function withFakeSync<T>(fails: boolean, fn: (calls: () => string[][]) => T): Promise<T> {
  const bin = join(dir, 'bin');
  const log = join(dir, 'sync.log');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'sync'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexit ${fails ? 1 : 0}\n`, { mode: 0o755 });
  const path = process.env.PATH;
  process.env.PATH = `${bin}:${path}`;
  await closeSiteWriters();
  try {
    return fn(() => {
      try {
        return readFileSync(log, 'utf8').trim().split('\n').map((l) => l.split(' '));
      } catch {
        return [];
      }
    });
  } finally {
    process.env.PATH = path;
    await closeSiteWriters();
  }
}

describe('SiteWriteBatch', () => {
  it('puts each file whole in place at once (folders made), and makes them durable with one sync -f of their file system per commit', async () => {
    await withFakeSync(false, (calls) => {
      const b = new SiteWriteBatch();
      const page = join(dir, 'site', 't', 'MINT.html');
      b.write(page, '<p>é</p>'.repeat(10_000));
      for (let i = 0; i < FSYNC_EACH_UP_TO; i++) b.write(join(dir, 'site', 'd', `${i}.json`), `{"a":${i}}`);
      expect(b.pending).toBe(FSYNC_EACH_UP_TO + 1);
      expect(calls()).toEqual([]);
      b.commit();
      expect(readFileSync(page, 'utf8')).toBe('<p>é</p>'.repeat(10_000)); // in place once committed
      expect(calls()).toEqual([['-f', '--', join(dir, 'site', 't')]]); // the first file's folder
      expect(b.pending).toBe(0);
      b.commit(); // nothing written since: no sync
      expect(calls()).toHaveLength(1);
      expect(readdirSync(join(dir, 'site', 't'))).toEqual(['MINT.html']);
    });
  });

  it('sync requests are numbered past the 32-bit wrap and never 0 (no request): each is answered as its own', async () => {
    await withFakeSync(false, (calls) => {
      const writers = siteWriters();
      const numbered = writers as unknown as { syncSeq: number };
      const answered: boolean[] = [];
      numbered.syncSeq = 0x7ffffffe; // the next requests: 2³¹ - 1, then -2³¹ and -2³¹ + 1 (Int32 in the shared answer)
      for (let i = 0; i < 3; i++) answered.push(writers.syncFileSystem(dir, 10_000));
      const afterWrap = numbered.syncSeq;
      numbered.syncSeq = -2; // the next: -1, then 1 (0 is skipped)
      for (let i = 0; i < 2; i++) answered.push(writers.syncFileSystem(dir, 10_000));
      expect(answered).toEqual([true, true, true, true, true]);
      expect(afterWrap).toBe(-(2 ** 31) + 1);
      expect(numbered.syncSeq).toBe(1);
      expect(calls()).toHaveLength(5);
    });
  });

  it('a few files are fsynced each, without starting sync', async () => {
    await withFakeSync(false, (calls) => {
      const b = new SiteWriteBatch();
      for (let i = 0; i < FSYNC_EACH_UP_TO; i++) b.write(join(dir, 'w', `${i}.html`), `<p>${i}</p>`);
      b.commit();
      expect(calls()).toEqual([]);
      expect(b.pending).toBe(0);
    });
  });

  it('where sync -f cannot run, commit fsyncs each file and folder instead', async () => {
    await withFakeSync(true, (calls) => {
      const b = new SiteWriteBatch();
      const n = FSYNC_EACH_UP_TO + 2;
      for (let i = 0; i < n; i++) b.write(join(dir, 'w', `${i}.html`), `<p>${i}</p>`);
      expect(() => b.commit()).not.toThrow();
      expect(calls()).toHaveLength(1); // tried, failed, fell back
      expect(b.pending).toBe(0);
      expect(readdirSync(join(dir, 'w'))).toHaveLength(n);
    });
  });

  it("a failed write is thrown by its batch's commit (code kept), after the others are in place; what was there stays, no temporary file is left", () => {
    const target = join(dir, 'd', 'taken');
    mkdirSync(join(target, 'inside'), { recursive: true }); // a non-empty folder cannot be renamed over
    const b = new SiteWriteBatch();
    b.write(join(dir, 'd', 'a'), 'a');
    b.write(target, 'new');
    b.write(join(dir, 'd', 'b'), 'b');
    const other = new SiteWriteBatch();
    other.write(join(dir, 'd', 'c'), 'c');
    expect(() => other.commit()).not.toThrow(); // another batch's failure is not this one's
    expect(() => b.commit()).toThrow(expect.objectContaining({ code: 'EISDIR', path: target }));
    expect(readdirSync(join(dir, 'd')).sort()).toEqual(['a', 'b', 'c', 'taken']);
    expect(readdirSync(target)).toEqual(['inside']);
    expect(b.pending).toBe(0);
    expect(() => b.commit()).not.toThrow(); // reported once
  });

  it('the failures of batches never committed are kept for the newest FAILURES_KEPT batches: an abandoned older batch\'s are let go, a recent one\'s still thrown by its commit', () => {
    const target = join(dir, 'f', 'taken');
    mkdirSync(join(target, 'inside'), { recursive: true }); // every write of it fails (EISDIR), each batch's on the same thread, in order
    const abandoned = Array.from({ length: FAILURES_KEPT + 2 }, () => {
      const b = new SiteWriteBatch();
      b.write(target, 'x');
      return b;
    });
    expect(() => new SiteWriteBatch().commit()).not.toThrow(); // reads every report the threads sent
    expect(() => abandoned[0]!.commit()).not.toThrow();
    expect(() => abandoned[1]!.commit()).not.toThrow();
    expect(() => abandoned[2]!.commit()).toThrow(expect.objectContaining({ code: 'EISDIR', path: target }));
    expect(() => abandoned.at(-1)!.commit()).toThrow(expect.objectContaining({ code: 'EISDIR', path: target }));
    expect(readdirSync(target)).toEqual(['inside']);
  });

  it('writes and removals of one path land in the order they were asked, across many paths and both threads', () => {
    const b = new SiteWriteBatch();
    const paths = Array.from({ length: 64 }, (_, i) => join(dir, 't', `${i}.html`));
    for (let round = 0; round < 5; round++) for (const [i, p] of paths.entries()) b.write(p, `${round}:${i}`);
    for (const [i, p] of paths.entries()) if (i % 3 === 0) b.remove(p);
    for (const [i, p] of paths.entries()) if (i % 6 === 0) b.write(p, `again:${i}`);
    b.commit();
    for (const [i, p] of paths.entries()) {
      if (i % 6 === 0) expect(readFileSync(p, 'utf8')).toBe(`again:${i}`);
      else if (i % 3 === 0) expect(existsSync(p)).toBe(false);
      else expect(readFileSync(p, 'utf8')).toBe(`4:${i}`);
    }
    expect(readdirSync(join(dir, 't')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});

describe('SiteWriteBatch: the writer threads (a review of their first cut)', () => {
  it('a removal goes to the thread of the path\'s writes: a large write queued before it never lands after it', () => {
    const b = new SiteWriteBatch();
    const big = 'x'.repeat(4 << 20); // 4 MB: a write long enough for another thread to remove first
    const paths = Array.from({ length: 12 }, (_, i) => join(dir, 'w', `${i}.html`));
    for (const p of paths) {
      b.write(p, big);
      b.remove(p);
    }
    b.commit();
    expect(paths.filter((p) => existsSync(p))).toEqual([]);
  });

  it('asks for the syncfs only once every queued file is in place (a stand-in sync counts them as it starts)', async () => {
    const bin = join(dir, 'bin');
    const log = join(dir, 'in-place.log');
    const site = join(dir, 'site', 't');
    mkdirSync(bin, { recursive: true });
    // a shell stand-in starts at once, where a slow one would let the threads finish first
    writeFileSync(join(bin, 'sync'), `#!/bin/sh\nls '${site}' | grep -c '\\.html$' >> '${log}'\n`, { mode: 0o755 });
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    await closeSiteWriters();
    try {
      const b = new SiteWriteBatch();
      for (let i = 0; i < 200; i++) b.write(join(site, `${i}.html`), 'p'.repeat(64 << 10));
      b.commit();
      expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['200']);
    } finally {
      process.env.PATH = path;
      await closeSiteWriters();
    }
  });

  it('a sync -f that does not answer in time: the helper is killed, the commit fsyncs each file, and the next commit waits for its own syncfs, not the late answer', async () => {
    const bin = join(dir, 'bin');
    const log = join(dir, 'sync.log');
    mkdirSync(bin, { recursive: true });
    // the first call hangs 3 s, later ones answer at once; each notes its start and end
    writeFileSync(
      join(bin, 'sync'),
      `#!/bin/sh\nn=$(cat '${dir}/n' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '${dir}/n'\necho "start $n" >> '${log}'\n[ $n = 1 ] && sleep 3\necho "end $n" >> '${log}'\n`,
      { mode: 0o755 },
    );
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    await closeSiteWriters();
    setSyncAnswerMs(300);
    try {
      const a = new SiteWriteBatch();
      for (let i = 0; i < 20; i++) a.write(join(dir, 'site', 't', `a${i}.html`), `a${i}`);
      const t0 = performance.now();
      expect(() => a.commit()).not.toThrow(); // fsyncs instead: the files are durable all the same
      expect(performance.now() - t0).toBeLessThan(2_500);
      const b = new SiteWriteBatch();
      for (let i = 0; i < 20; i++) b.write(join(dir, 'site', 't', `b${i}.html`), `b${i}`);
      b.commit();
      // B's own sync ran to its end before B's commit returned (a new helper: the first one was killed)
      expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['start 1', 'start 2', 'end 2']);
    } finally {
      setSyncAnswerMs(120_000);
      process.env.PATH = path;
      await closeSiteWriters();
    }
  });

  it('a thread that ends without a word (terminated, out of memory) fails the commit once nothing moves, and the next batch gets new threads', async () => {
    setSiteWriterStallMs(1_500);
    try {
      const first = new SiteWriteBatch();
      first.write(join(dir, 'w', 'warm.html'), 'x');
      first.commit(); // the threads are up
      const pool = siteWriters() as unknown as { threads: { worker: { terminate(): Promise<number> } }[] };
      await Promise.all(pool.threads.map((t) => t.worker.terminate())); // no exit handler runs: no flag is set
      const b = new SiteWriteBatch();
      for (let i = 0; i < 4; i++) b.write(join(dir, 'w', `${i}.html`), `<p>${i}</p>`);
      const t0 = performance.now();
      expect(() => b.commit()).toThrow(/did none of its queued files in 2 s/);
      expect(performance.now() - t0).toBeLessThan(5_000);
      const c = new SiteWriteBatch();
      c.write(join(dir, 'w', 'after.html'), 'after');
      c.commit();
      expect(readFileSync(join(dir, 'w', 'after.html'), 'utf8')).toBe('after');
    } finally {
      setSiteWriterStallMs(600_000);
      await closeSiteWriters();
    }
  });

  it('counts requests modulo 2^32: past 2^31 a thread\'s count still reaches what was asked', () => {
    expect(countReached(-2147483647, 2147483649 | 0)).toBe(true); // 2^31 + 1 done, 2^31 + 1 asked
    expect(countReached(-2147483648, 2147483649 | 0)).toBe(false); // 2^31 done, 2^31 + 1 asked
    expect(countReached(5, 3)).toBe(true);
    expect(countReached(2, 3)).toBe(false);
  });

  it('a process killed with writes queued leaves only temporary files removeStaleTemporaryFiles takes, and no half page', () => {
    const site = join(dir, 'site');
    const script = join(dir, 'killed.mts');
    const module = join(import.meta.dirname, '../../src/ingest/write-site.ts');
    writeFileSync(
      script,
      `import { SiteWriteBatch } from ${JSON.stringify(module)};\nconst b = new SiteWriteBatch();\nconst page = 'p'.repeat(256 << 10);\nfor (let i = 0; i < 2000; i++) b.write(${JSON.stringify(join(site, 't'))} + '/' + i + '.html', page);\nprocess.kill(process.pid, 'SIGKILL');\n`,
    );
    const r = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
    expect(r.signal).toBe('SIGKILL');
    const names = readdirSync(join(site, 't'));
    for (const n of names.filter((x) => x.endsWith('.html'))) expect(readFileSync(join(site, 't', n), 'utf8')).toHaveLength(256 << 10);
    const tmps = names.filter((x) => x.endsWith('.tmp'));
    expect(removeStaleTemporaryFiles(site, 60_000, Date.now())).toBe(tmps.length);
    expect(readdirSync(join(site, 't')).filter((x) => x.endsWith('.tmp'))).toEqual([]);
  });
});

describe('writeFilesAtomic', () => {
  it('writes every file whole into folders it creates, several at once, leaving no temporary file', async () => {
    const files = Array.from({ length: 40 }, (_, i) => ({ path: join(dir, 'site', i % 2 ? 't' : 'w', `${i}.html`), content: `<p>${i}</p>${'é'.repeat(i * 997)}` }));
    await writeFilesAtomic(files, 8);
    for (const f of files) expect(readFileSync(f.path, 'utf8')).toBe(f.content);
    expect(readdirSync(join(dir, 'site', 't'))).toHaveLength(20);
    expect(readdirSync(join(dir, 'site', 'w'))).toHaveLength(20);
    await writeFilesAtomic([{ path: files[0]!.path, content: 'replaced' }]);
    expect(readFileSync(files[0]!.path, 'utf8')).toBe('replaced');
  });

  it('of two files given for one path the later one is written', async () => {
    const path = join(dir, 'site', 't', 'same.html');
    const big = 'x'.repeat(300_000);
    await writeFilesAtomic([{ path, content: `first${big}` }, ...Array.from({ length: 9 }, (_, i) => ({ path: join(dir, 'site', 't', `${i}.html`), content: big })), { path, content: 'second' }], 4);
    expect(readFileSync(path, 'utf8')).toBe('second');
    expect(readdirSync(join(dir, 'site', 't')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('a failed write rejects after the others are written, keeps what was there, and removes its temporary file', async () => {
    const target = join(dir, 'd', 'taken');
    mkdirSync(join(target, 'inside'), { recursive: true });
    writeFileSync(join(target, 'inside', 'x'), 'kept');
    await expect(writeFilesAtomic([{ path: join(dir, 'd', 'a'), content: 'a' }, { path: target, content: 'new' }, { path: join(dir, 'd', 'b'), content: 'b' }], 2)).rejects.toThrow();
    expect(readdirSync(join(dir, 'd')).sort()).toEqual(['a', 'b', 'taken']);
    expect(readFileSync(join(target, 'inside', 'x'), 'utf8')).toBe('kept');
  });
});

describe('removeStaleTemporaryFiles', () => {
  it('removes a dead writer\'s temporary files and old ones without a process id; keeps pages, a running writer\'s files and fresh ones', () => {
    const t = join(dir, 't');
    mkdirSync(t);
    const dead = `.${deadPid().toString(36)}-0123abcd-5.tmp`;
    const alive = `.${process.pid.toString(36)}-0123abcd-6.tmp`;
    const oldFormatOld = '.0123456789ab.tmp';
    const oldFormatNew = '.ba9876543210.tmp';
    for (const n of ['MINT.html', '.keep', dead, alive, oldFormatOld, oldFormatNew]) writeFileSync(join(t, n), 'x');
    const now = Date.now();
    utimesSync(join(t, oldFormatOld), new Date(now - 20 * 60_000), new Date(now - 20 * 60_000));
    expect(removeStaleTemporaryFiles(dir, 10 * 60_000, now)).toBe(2); // no d/ folder: skipped
    expect(readdirSync(t).sort()).toEqual(['.keep', alive, oldFormatNew, 'MINT.html'].sort());
    expect(removeStaleTemporaryFiles(join(dir, 'missing'), 0, now)).toBe(0);
  });

  it('sweeps the settled markers\' folder too (a killed writer of a marker leaves its temporary file there)', () => {
    const settled = join(dir, 'settled');
    mkdirSync(settled);
    const dead = `.${deadPid().toString(36)}-0123abcd-7.tmp`;
    for (const n of ['MINTpump', dead]) writeFileSync(join(settled, n), '');
    expect(removeStaleTemporaryFiles(dir, 10 * 60_000, Date.now())).toBe(1);
    expect(readdirSync(settled)).toEqual(['MINTpump']);
  });
});
