/**
 * The collector's scheduler of periodic jobs (collector/scheduler.ts): a job runs when due, a failure
 * is logged and the next job still runs, changed records have their pages written, a background job
 * runs one at a time, and the jobs' intervals and last runs reach /api/v1/status (collector.jobs).
 */
import { describe, expect, it } from 'vitest';
import { Scheduler, type Job } from '../../collector/scheduler.ts';
import { JOBS_META, parseJobs } from '../../src/core/jobs.ts';
import type { PublicStore } from '../../src/db/public-store.ts';
import type { Logger } from '../../src/log.ts';

function fakes(nowMs: number) {
  const meta = new Map<string, string>();
  const warnings: string[] = [];
  let pages = 0;
  const store = { getMeta: (k: string) => meta.get(k), setMeta: (k: string, v: string) => void meta.set(k, v) } as unknown as PublicStore;
  const log = { warn: (_o: unknown, msg: string) => void warnings.push(msg) } as unknown as Logger;
  return { meta, warnings, pages: () => pages, deps: { store, log, now: () => nowMs, writePages: () => void pages++ } };
}

describe('collector scheduler', () => {
  it('runs due jobs in order, skips the others, writes pages when records changed, and logs a failure without stopping', async () => {
    const f = fakes(1_000_000);
    const ran: string[] = [];
    const jobs: Job[] = [
      { name: 'a', setting: 'A_MS', intervalMs: 100, lastRunMs: () => null, run: async () => (ran.push('a'), 2) },
      { name: 'b', setting: 'B_MS', intervalMs: 100, lastRunMs: () => 999_950, run: async () => (ran.push('b'), 1) },
      { name: 'c', setting: 'C_MS', intervalMs: 100, lastRunMs: () => 999_900, run: async () => { ran.push('c'); throw new Error('boom'); } },
      { name: 'd', setting: null, intervalMs: 10, lastRunMs: () => null, isDue: () => true, run: async () => (ran.push('d'), null) },
      { name: 'inline', setting: null, intervalMs: 10, lastRunMs: () => 5 },
    ];
    await new Scheduler(f.deps, jobs).runDue(undefined, true);
    expect(ran).toEqual(['a', 'c', 'd']);
    expect(f.pages()).toBe(1);
    expect(f.warnings).toEqual(['c failed; it runs again after C_MS']);
    expect(parseJobs(f.meta.get(JOBS_META))).toEqual([
      { name: 'a', setting: 'A_MS', intervalMs: 100, lastRunMs: null },
      { name: 'b', setting: 'B_MS', intervalMs: 100, lastRunMs: 999_950 },
      { name: 'c', setting: 'C_MS', intervalMs: 100, lastRunMs: 999_900 },
      { name: 'd', setting: null, intervalMs: 10, lastRunMs: null },
      { name: 'inline', setting: null, intervalMs: 10, lastRunMs: 5 },
    ]);
  });

  it('runs a background job one at a time, and waits for it when asked (the cron form) and at settle', async () => {
    const f = fakes(0);
    let release!: () => void;
    let started = 0;
    const job: Job = { name: 'downloads', setting: 'X', intervalMs: 1, lastRunMs: () => null, background: true, failed: 'not written', run: () => { started++; return new Promise((r) => (release = () => r(0))); } };
    const s = new Scheduler(f.deps, [job]);
    await s.runDue(undefined, false);
    await s.runDue(undefined, false);
    expect(started).toBe(1);
    release();
    await s.settle();
    await s.runDue(undefined, false);
    expect(started).toBe(2);
    release();
    await s.settle();
  });

  it('runs nothing once stopped', async () => {
    const f = fakes(0);
    const ac = new AbortController();
    ac.abort();
    let ran = false;
    await new Scheduler(f.deps, [{ name: 'a', setting: null, intervalMs: 1, lastRunMs: () => null, run: async () => ((ran = true), 0) }]).runDue(ac.signal, true);
    expect(ran).toBe(false);
  });

  it('parseJobs refuses what is not a job list', () => {
    expect(parseJobs(undefined)).toBeNull();
    expect(parseJobs('{')).toBeNull();
    expect(parseJobs('[{"name":1}]')).toBeNull();
    expect(parseJobs('[]')).toEqual([]);
  });
});
