/**
 * Debian's wrk (`apt-get install wrk`; C, epoll) as the benchmarks' load generator when it is
 * installed: it takes a fraction of the CPU autocannon (one Node thread in the bench process)
 * takes for the same rate, and the servers measured here share the machine's cores with it, so
 * less of their time goes to the tool. `BENCH_LOAD=autocannon` forces autocannon.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

/** wrk's path, or undefined when it is not installed or BENCH_LOAD=autocannon. */
export const WRK: string | undefined = process.env.BENCH_LOAD === 'autocannon' ? undefined : ['/usr/bin/wrk', '/usr/local/bin/wrk'].find((p) => existsSync(p));

/** One wrk run's figures: requests/s, p99 latency (ms), requests completed, non-2xx/3xx answers, socket errors. */
export interface WrkResult {
  rps: number;
  p99Ms: number;
  /** the median latency (ms), when the report has it */
  p50Ms?: number;
  requests: number;
  non2xx: number;
  errors: number;
}

/**
 * Run wrk against `url` with `connections` over `threads` threads for `seconds` (`--latency` for
 * its percentiles). Errors: rejects when wrk fails or prints a report {@link parseWrk} cannot read.
 */
export function runWrk(url: string, headers: Record<string, string>, opts: { connections: number; threads: number; seconds: number; script?: string }, wrk = WRK): Promise<WrkResult> {
  if (!wrk) return Promise.reject(new Error('wrk is not installed (apt-get install wrk)'));
  const args = ['-t', String(Math.min(opts.threads, opts.connections)), '-c', String(opts.connections), '-d', `${opts.seconds}s`, '--latency'];
  if (opts.script) args.push('-s', opts.script);
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    execFile(wrk, args, { timeout: (opts.seconds + 30) * 1000 }, (err, out) => {
      if (err) return reject(new Error(`wrk failed: ${err.message}`));
      try {
        resolve(parseWrk(out));
      } catch (e) {
        reject(e);
      }
    });
  });
}

/**
 * wrk 4's text report: `Requests/sec:`, `N requests in`, the `99%` line of the latency
 * distribution (us, ms or s), `Non-2xx or 3xx responses:` and `Socket errors:` (absent when none).
 * Errors: throws when the rate, the count or the 99th percentile is missing.
 */
export function parseWrk(out: string): WrkResult {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const total = /(\d+) requests in /.exec(out);
  const p99 = /^\s*99(?:\.0+)?%\s+([\d.]+)(us|ms|s)\s*$/m.exec(out);
  if (!rps || !total || !p99) throw new Error(`wrk report not understood:\n${out}`);
  const unit = { us: 0.001, ms: 1, s: 1000 }[p99[2] as 'us' | 'ms' | 's'];
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = sock ? sock.slice(1).reduce((a, x) => a + Number(x), 0) : 0;
  const p50 = /^\s*50(?:\.0+)?%\s+([\d.]+)(us|ms|s)\s*$/m.exec(out);
  const p50Ms = p50 ? Number(p50[1]) * { us: 0.001, ms: 1, s: 1000 }[p50[2] as 'us' | 'ms' | 's'] : undefined;
  return { rps: Number(rps[1]), p99Ms: Number(p99[1]) * unit, ...(p50Ms !== undefined ? { p50Ms } : {}), requests: Number(total[1]), non2xx, errors };
}

/**
 * A wrk Lua script (`-s`) that sends `paths` in turn, each thread from its own place in the list
 * (`wrk.format` with the command line's headers), so a run takes its request paths from a list of
 * distinct ones as autocannon's `setupRequest` did. Paths are written as Lua long strings.
 */
export function pathsScript(paths: readonly string[]): string {
  const lit = (p: string) => {
    let eq = '';
    while (p.includes(`]${eq}]`)) eq += '=';
    return `[${eq}[${p}]${eq}]`;
  };
  return [
    `local paths = {${paths.map(lit).join(',\n')}}`,
    'local i = 0',
    'local n = #paths',
    'function setup(thread) thread:set("start", math.random(0, n - 1)) end',
    'function init(args) i = start or 0 end',
    'function request() i = i + 1; return wrk.format(nil, paths[(i % n) + 1]) end',
    '',
  ].join('\n');
}
