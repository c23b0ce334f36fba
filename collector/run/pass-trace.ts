import type { Logger } from '../../src/log.ts';

/**
 * Where the long-running collector's wall time goes, pass by pass (issue 24, the soak's lag): the
 * time of each named phase of a pass (ms, wall time, summed when a phase runs once per batch) and
 * the process's CPU over the pass (ms, `process.cpuUsage`: wall time well above CPU time in a phase
 * that only computes means the process waited for a core). Logged at debug level as "pass timings",
 * so it costs nothing at the default level beyond a few `performance.now()` calls.
 */
export class PassTrace {
  private phases: Record<string, number> = {};
  private counts: Record<string, number> = {};
  private t0 = performance.now();
  private cpu0 = process.cpuUsage();

  /** Run `fn`, adding its wall time to `phase`. */
  async time<T>(phase: string, fn: () => Promise<T>): Promise<T> {
    const t = performance.now();
    try {
      return await fn();
    } finally {
      this.add(phase, performance.now() - t);
    }
  }

  /** Run the synchronous `fn`, adding its wall time to `phase`. */
  timeSync<T>(phase: string, fn: () => T): T {
    const t = performance.now();
    try {
      return fn();
    } finally {
      this.add(phase, performance.now() - t);
    }
  }

  /** Add `ms` to `phase`. */
  add(phase: string, ms: number): void {
    this.phases[phase] = (this.phases[phase] ?? 0) + ms;
  }

  /** Add `n` to the count `name` (what a pass did: transactions fetched, and why). */
  count(name: string, n = 1): void {
    this.counts[name] = (this.counts[name] ?? 0) + n;
  }

  /** Log the pass (debug: `{ passMs, cpuMs, phases: { name: ms }, counts: { name: n }, ...extra }`) and start the next. */
  flush(log: Logger, extra: Record<string, unknown> = {}): void {
    if (log.isLevelEnabled('debug')) {
      const cpu = process.cpuUsage(this.cpu0);
      const phases = Object.fromEntries(Object.entries(this.phases).map(([k, v]) => [k, Math.round(v)]));
      log.debug({ passMs: Math.round(performance.now() - this.t0), cpuMs: Math.round((cpu.user + cpu.system) / 1000), phases, counts: this.counts, ...extra }, 'pass timings');
    }
    this.phases = {};
    this.counts = {};
    this.t0 = performance.now();
    this.cpu0 = process.cpuUsage();
  }
}
