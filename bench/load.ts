import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { freePort } from '../tests/helpers/net.ts';
import { WRK, runWrk } from './wrk.ts';

/** A server process under load. */
export interface ServerUnderTest {
  name: string;
  url: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

/** Start `node ...args` with `env` (+HOST/PORT) and wait until `probePath` answers. */
export async function startServer(name: string, args: string[], env: Record<string, string>, probePath: string): Promise<ServerUnderTest> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const proc = spawn(process.execPath, args, { env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout!.on('data', (d) => (log += d));
  proc.stderr!.on('data', (d) => (log += d));
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      await fetch(url + probePath);
      break;
    } catch {
      if (proc.exitCode !== null || Date.now() > until) throw new Error(`${name} did not start:\n${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    name,
    url,
    proc,
    stop: () =>
      new Promise((ok) => {
        if (proc.exitCode !== null) return ok();
        proc.once('exit', () => ok());
        proc.kill('SIGTERM');
      }),
  };
}

/** CPU time (user + system) of a process so far, in microseconds (Linux /proc). */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14, 15 of stat)
  return (ticks / 100) * 1e6; // USER_HZ = 100 on Linux
}

/** One load round's figures. */
export interface Round {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  serverCpuMicrosPerRequest: number;
}

/** The load generator of {@link loadRound}: wrk (one thread: every server here is one Node process) when installed, else autocannon. */
export const LOAD_TOOL = WRK ? `wrk (${WRK}, one thread)` : 'autocannon (in the bench process)';

/** Run the load generator ({@link LOAD_TOOL}) against `url` with `connections` for `seconds`, measuring the server's CPU. */
export async function loadRound(server: ServerUnderTest, path: string, headers: Record<string, string>, connections: number, seconds: number): Promise<Round> {
  const cpu0 = cpuMicros(server.proc.pid!);
  if (WRK) {
    const w = await runWrk(server.url + path, headers, { connections, threads: 1, seconds });
    const cpu1 = cpuMicros(server.proc.pid!);
    return { requestsPerSecond: w.rps, p99Ms: w.p99Ms, non2xx: w.non2xx, errors: w.errors, serverCpuMicrosPerRequest: w.requests ? (cpu1 - cpu0) / w.requests : NaN };
  }
  const r = await autocannon({ url: server.url + path, headers, connections, duration: seconds, pipelining: 1 });
  const cpu1 = cpuMicros(server.proc.pid!);
  return {
    requestsPerSecond: r.requests.average,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    serverCpuMicrosPerRequest: r.requests.total ? (cpu1 - cpu0) / r.requests.total : NaN,
  };
}

/** Median of numbers. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Per-variant results of alternating rounds. */
export interface Comparison {
  variants: { name: string; rounds: Round[] }[];
}

/**
 * Alternate rounds over the servers (order reversed every other round, so drift on a shared
 * machine hits every variant alike), after a warm-up round each.
 */
export async function compare(servers: ServerUnderTest[], path: string, headers: Record<string, string>, opts: { rounds: number; seconds: number; connections: number; log: (s: string) => void }): Promise<Comparison> {
  for (const s of servers) await loadRound(s, path, headers, opts.connections, 2);
  const out = servers.map((s) => ({ name: s.name, rounds: [] as Round[] }));
  for (let i = 0; i < opts.rounds; i++) {
    const order = i % 2 ? [...servers.keys()].reverse() : [...servers.keys()];
    for (const j of order) {
      const r = await loadRound(servers[j], path, headers, opts.connections, opts.seconds);
      out[j].rounds.push(r);
      opts.log(`  round ${i + 1} ${servers[j].name}: ${Math.round(r.requestsPerSecond)} req/s, p99 ${r.p99Ms} ms, server CPU ${r.serverCpuMicrosPerRequest.toFixed(0)} µs/req${r.non2xx || r.errors ? `, non-2xx ${r.non2xx}, errors ${r.errors}` : ''}`);
    }
  }
  return { variants: out };
}

/** Markdown table of a comparison, ratios against the variant named `baseline` (per-round ratios, median). */
export function comparisonTable(c: Comparison, baseline: string): string {
  const base = c.variants.find((v) => v.name === baseline)!;
  const lines = ['| variant | req/s per round | median req/s | median p99 ms | server CPU µs/req | ratio vs ' + baseline + ' (median of per-round) |', '|---|---|---|---|---|---|'];
  for (const v of c.variants) {
    const ratios = v.rounds.map((r, i) => r.requestsPerSecond / base.rounds[i].requestsPerSecond);
    lines.push(
      `| ${v.name} | ${v.rounds.map((r) => Math.round(r.requestsPerSecond)).join(' / ')} | ${Math.round(median(v.rounds.map((r) => r.requestsPerSecond)))} | ${median(v.rounds.map((r) => r.p99Ms)).toFixed(1)} | ${median(v.rounds.map((r) => r.serverCpuMicrosPerRequest)).toFixed(0)} | ${median(ratios).toFixed(3)} (min ${Math.min(...ratios).toFixed(3)}) |`,
    );
  }
  return lines.join('\n');
}

/** Median per-round ratio of variant `name` against `baseline`. */
export function ratioOf(c: Comparison, name: string, baseline: string): number {
  const a = c.variants.find((v) => v.name === name)!;
  const b = c.variants.find((v) => v.name === baseline)!;
  return median(a.rounds.map((r, i) => r.requestsPerSecond / b.rounds[i].requestsPerSecond));
}
