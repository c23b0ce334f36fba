/**
 * SiteWriteBatch (src/ingest/write-site.ts): what a commit of a few changes makes durable, seen
 * through the fsyncs it asks of the kernel (node:fs's fsyncSync recorded by path; the writer
 * threads' own I/O is real). A removed page must not come back after a power loss once its record's
 * mark is cleared, so a removal's folder is fsynced like a written file's, with or without a
 * write beside it (the first cut of the writer threads fsynced only the written files' folders).
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** Paths fsynced by the main thread, in order. */
const synced: string[] = [];

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const pathOfFd = new Map<number, string>();
  const openSync = ((path: string, ...rest: unknown[]) => {
    const fd = (fs.openSync as (...a: unknown[]) => number)(path, ...rest);
    pathOfFd.set(fd, String(path));
    return fd;
  }) as typeof fs.openSync;
  const fsyncSync = ((fd: number) => {
    synced.push(pathOfFd.get(fd) ?? `fd ${fd}`);
    return fs.fsyncSync(fd);
  }) as typeof fs.fsyncSync;
  return { ...fs, default: { ...fs, openSync, fsyncSync }, openSync, fsyncSync };
});

const { SiteWriteBatch, FSYNC_EACH_UP_TO } = await import('../../src/ingest/write-site.ts');
const { closeSiteWriters } = await import('../../src/ingest/site-writers.ts');

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'lpa-durable-')));
  synced.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));
afterAll(() => closeSiteWriters());

describe('a commit of a few changes (fsyncs, no syncfs)', () => {
  it('fsyncs the folder of a removal, alone or beside a write in another folder', () => {
    const w = join(dir, 'w');
    const t = join(dir, 't');
    mkdirSync(w);
    mkdirSync(t);
    writeFileSync(join(w, 'gone.html'), 'old creator page');
    const b = new SiteWriteBatch();
    b.remove(join(w, 'gone.html'));
    b.commit();
    expect(synced).toContain(w);

    synced.length = 0;
    writeFileSync(join(w, 'gone2.html'), 'old');
    const c = new SiteWriteBatch();
    c.write(join(t, 'MINT.html'), '<p>page</p>');
    c.remove(join(w, 'gone2.html'));
    c.commit();
    expect(synced).toEqual(expect.arrayContaining([join(t, 'MINT.html'), t, w]));
    expect(FSYNC_EACH_UP_TO).toBeGreaterThanOrEqual(2); // both commits above took the fsync path
  });

  it('fsyncs the folder of a marker the caller removed itself and noted (noteRemoved)', () => {
    const settled = join(dir, 'settled');
    mkdirSync(settled);
    const b = new SiteWriteBatch();
    b.noteRemoved(join(settled, 'MINT'));
    b.commit();
    expect(synced).toEqual([settled]);
  });

  it('asks nothing of the disk for a batch that changed nothing', () => {
    new SiteWriteBatch().commit();
    expect(synced).toEqual([]);
  });
});
