/**
 * CPU and memory of a process from Linux's /proc (the soak samples the collector and the server):
 * `/proc/<pid>/stat` fields 14–15 (utime, stime, in clock ticks) and `/proc/<pid>/status` `VmRSS`.
 * The parsers are pure; {@link readProc} reads the files.
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second (`getconf CLK_TCK`; 100 on every Linux this runs on). */
export const CLK_TCK = 100;

/** One sample of one process. */
export interface ProcSample {
  /** wall time, ms */
  atMs: number;
  /** user + system CPU since the process started, seconds */
  cpuS: number;
  /** resident set size, bytes */
  rssBytes: number;
}

/**
 * utime + stime (seconds) from the text of /proc/<pid>/stat. The command name (field 2) may hold
 * spaces and parentheses, so fields are counted after its last `)`.
 *
 * @example
 * cpuSecondsOfStat('42 (node) S 1 42 42 0 -1 4194560 1 0 0 0 250 50 0 0'); // 3
 */
export function cpuSecondsOfStat(stat: string): number {
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state): utime is field 14, stime field 15
  return (Number(rest[11]) + Number(rest[12])) / CLK_TCK;
}

/**
 * VmRSS (bytes) from the text of /proc/<pid>/status; NaN when absent (a zombie).
 *
 * @example
 * rssBytesOfStatus('Name:\tnode\nVmRSS:\t  123456 kB\n'); // 126418944
 */
export function rssBytesOfStatus(status: string): number {
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return m ? Number(m[1]) * 1024 : NaN;
}

/** A sample of `pid` now, or null when it is gone. */
export function readProc(pid: number): ProcSample | null {
  try {
    return { atMs: Date.now(), cpuS: cpuSecondsOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8')), rssBytes: rssBytesOfStatus(readFileSync(`/proc/${pid}/status`, 'utf8')) };
  } catch {
    return null;
  }
}

/** The child processes of `pid` (from /proc/<pid>/task/<pid>/children). */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** CPU used between two samples as a share of one core (1 = one core busy the whole time). */
export const coreShare = (a: ProcSample, b: ProcSample): number => (b.cpuS - a.cpuS) / ((b.atMs - a.atMs) / 1000);

/**
 * RSS growth after warm-up: the median RSS of the last `windowMs` of samples over the median of the
 * first `windowMs` after `warmupMs` (0.1 = grew 10 %). NaN when there are not enough samples.
 */
export function rssGrowth(samples: ProcSample[], warmupMs: number, windowMs: number): number {
  if (samples.length < 2) return NaN;
  const t0 = samples[0]!.atMs + warmupMs;
  const tEnd = samples.at(-1)!.atMs;
  const med = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length ? s[Math.floor(s.length / 2)]! : NaN;
  };
  const first = med(samples.filter((s) => s.atMs >= t0 && s.atMs < t0 + windowMs).map((s) => s.rssBytes));
  const last = med(samples.filter((s) => s.atMs > tEnd - windowMs && s.atMs >= t0).map((s) => s.rssBytes));
  return last / first - 1;
}
