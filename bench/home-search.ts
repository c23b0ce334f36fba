/**
 * Home page and search figures for `npm run bench` (issue 23; BENCH_ONLY=home). Reads the shared
 * archive of BENCH_HOME_RECORDS (default 1,000,000) records (bench/million-archive.ts, cached),
 * writes the home, list and status pages with the collector's publisher, then:
 * - search: p50/p99 of `answerSearch` (lookup + page) over 2,000 distinct queries
 *   ({@link searchQueries}), its thread CPU, and `GET /search` through the built server (one
 *   connection, no cache, no limit) with the server's CPU per request; overall and by query class;
 * - home: `GET /` through the built server and through a bare node:http server answering the same
 *   bytes from memory (the floor), alternating rounds (bench/load.ts: wrk when installed, else autocannon).
 * Returns a markdown section.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { getBase58Decoder } from '@solana/kit';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { PublicStore } from '../src/db/public-store.ts';
import { answerSearch } from '../src/server/search.ts';
import { publishLists } from '../collector/publish/lists.ts';
import { compare, comparisonTable, cpuMicros, loadRound, median, ratioOf, startServer, type ServerUnderTest } from './load.ts';
import { ROOT } from './setup.ts';
import { rawGet } from '../tests/helpers/net.ts';
import { WORDS, linkArchiveInto, millionArchive, rng, type MillionArchive } from './million-archive.ts';

const RECORDS = Number(process.env.BENCH_HOME_RECORDS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const QUERIES = 2_000;
const TARGET_RPS = 5_000;
const TARGET_P99_MS = 20;
const SHIPPED = 'server, GET / (written page answered before Astro: static-door.ts)';
const log = (s: string) => process.stderr.write(s + '\n');

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

/** What a bench query is (its class in the per-class figures). */
export type QueryClass = 'prefix 1' | 'prefix 2' | 'prefix 3' | 'prefix 4' | 'word' | 'two words' | 'symbol' | 'held mint' | 'unheld address';
export const QUERY_CLASSES: readonly QueryClass[] = ['prefix 1', 'prefix 2', 'prefix 3', 'prefix 4', 'word', 'two words', 'symbol', 'held mint', 'unheld address'];

/**
 * The bench's {@link QUERIES} distinct search texts over `archive`, each with its class (seeded: the
 * same on every run): word prefixes of 1-4 characters (some with trailing spaces), whole words, a
 * word and a 3-character prefix, symbols and mints of the archive, random unheld addresses.
 */
export function searchQueries(archive: Pick<MillionArchive, 'sampleMints' | 'sampleSymbols'>, count = QUERIES): { q: string; cls: QueryClass }[] {
  const r = rng(23);
  const pick = () => WORDS[Math.floor(r() * WORDS.length)]!;
  const b58 = getBase58Decoder();
  const mints = archive.sampleMints;
  const symbols = archive.sampleSymbols;
  const queries = new Map<string, QueryClass>();
  const add = (q: string, cls: QueryClass) => queries.has(q) || queries.set(q, cls);
  while (queries.size < count) {
    const k = r();
    const w = pick();
    if (k < 0.4) {
      const n = 1 + Math.floor(r() * 4);
      const p = [...w].slice(0, n);
      add(p.join('') + (queries.size % 7 === 0 ? '' : ' '.repeat(queries.size % 3)), `prefix ${Math.min(n, p.length)}` as QueryClass);
    } else if (k < 0.6) add(w, 'word');
    else if (k < 0.75) add(`${w} ${[...pick()].slice(0, 3).join('')}`, 'two words');
    else if (k < 0.85) add(symbols[Math.floor(r() * symbols.length)]!, 'symbol');
    else if (k < 0.95) add(mints[Math.floor(r() * mints.length)]!, 'held mint');
    else add(b58.decode(randomBytes(32)), 'unheld address');
  }
  return [...queries].map(([q, cls]) => ({ q, cls }));
}

export async function benchHomeSearch(): Promise<string> {
  const tmp = mkdtempSync(join(tmpdir(), 'lpa-bench-home-'));
  const servers: ServerUnderTest[] = [];
  try {
    const dataDir = join(tmp, 'data');
    // the shared archive (bench/million-archive.ts: built once, cached by schema version), its clock
    const archive = await millionArchive(RECORDS);
    linkArchiveInto(archive, dataDir);
    const nowMs = archive.endMs;
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', LISTS_INTERVAL_MS: '0' });
    const store = new PublicStore(config.publicDbPath);
    const insertS = archive.buildSeconds;

    // the collector's publisher writes the home, list and status pages
    const tPublish = performance.now();
    publishLists(store, config, createLogger('silent'), nowMs);
    const publishMs = performance.now() - tPublish;

    const queries = searchQueries(archive);
    const qs = queries.map((x) => x.q);
    const deps = { publicStore: store, config, now: () => nowMs };
    for (const q of qs.slice(0, 200)) answerSearch(q, deps); // warm-up
    const fn: number[] = [];
    for (const q of qs) {
      const a = performance.now();
      answerSearch(q, deps);
      fn.push(performance.now() - a);
    }
    // CPU of this thread per answer (each query answered 5 times more: the clock ticks in µs but is read coarsely)
    const threadMs = () => {
      const u = process.threadCpuUsage();
      return (u.user + u.system) / 1000;
    };
    const fnCpu = qs.map((q) => {
      const c0 = threadMs();
      for (let i = 0; i < 5; i++) answerSearch(q, deps);
      return (threadMs() - c0) / 5;
    });
    store.close();

    log('bench: home/search: starting the server and the bare floor');
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', SEARCH_PER_MINUTE: '0', SEARCH_CACHE_MS: '0' };
    servers.push(await startServer(SHIPPED, [join(ROOT, 'dist/server/entry.mjs')], env, '/'));
    servers.push(await startServer('bare node:http, same bytes', [join(ROOT, 'bench/bare-static-server.mjs')], { ...env, BENCH_FILE: join(config.siteDir, 'index.html') }, '/'));
    const astro = servers[0]!;
    for (const q of qs.slice(0, 200)) await (await fetch(`${astro.url}/search?q=${encodeURIComponent(q)}`, { redirect: 'manual' })).arrayBuffer();
    const http: number[] = [];
    const statuses: Record<number, number> = {};
    const cpu0 = cpuMicros(astro.proc.pid!);
    for (const q of qs) {
      const a = performance.now();
      const res = await fetch(`${astro.url}/search?q=${encodeURIComponent(q)}`, { redirect: 'manual' });
      await res.arrayBuffer();
      http.push(performance.now() - a);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
    const serverCpuUs = (cpuMicros(astro.proc.pid!) - cpu0) / qs.length;
    log(`bench: home/search: search p99 ${pct(fn, 99).toFixed(2)} ms (function), ${pct(http, 99).toFixed(2)} ms (HTTP)`);

    log('bench: home/search: GET / load');
    // (no row through Astro's pipeline: the written-pages door, src/server/static-door.ts, answers every GET of / it can,
    // query strings included; Astro's own floor on this machine, an endpoint doing nothing, is the cluster section's row)
    const c = await compare([astro, servers[1]!], '/', {}, { rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, log });
    const homeRps = median(c.variants[0]!.rounds.map((x) => x.requestsPerSecond));
    const ratio = ratioOf(c, SHIPPED, 'bare node:http, same bytes');
    // what one core of the server answers per second of its CPU (the load tool shares the machine's 2 cores with it)
    const perCpu = (i: number) => 1e6 / median(c.variants[i]!.rounds.map((x) => x.serverCpuMicrosPerRequest));
    const p99 = pct(http, 99);
    // the home page for a client that asks for compression (a browser): the kept brotli copy (src/server/compress.ts), alternating with the plain answer
    log('bench: home/search: GET / compressed');
    const ASKING = { 'Accept-Encoding': 'br, gzip' };
    // node:http, which neither asks for nor decodes an encoding: fetch would hide the bytes sent
    const [plainAnswer, askedAnswer] = [await rawGet(`${astro.url}/`), await rawGet(`${astro.url}/`, ASKING)];
    const sentBytes = { plain: plainAnswer.body.length, compressed: askedAnswer.body.length, encoding: String(askedAnswer.headers['content-encoding'] ?? 'identity') };
    const zRounds: { plain: number[]; compressed: number[]; cpuPlain: number[]; cpuCompressed: number[] } = { plain: [], compressed: [], cpuPlain: [], cpuCompressed: [] };
    await loadRound(astro, '/', ASKING, CONNECTIONS, 2);
    for (let i = 0; i < ROUNDS; i++) {
      for (const asking of i % 2 ? [true, false] : [false, true]) {
        const r = await loadRound(astro, '/', asking ? ASKING : {}, CONNECTIONS, SECONDS);
        (asking ? zRounds.compressed : zRounds.plain).push(r.requestsPerSecond);
        (asking ? zRounds.cpuCompressed : zRounds.cpuPlain).push(r.serverCpuMicrosPerRequest);
      }
    }
    const zRatio = median(zRounds.compressed.map((x, i) => x / zRounds.plain[i]!));
    return [
      '## Home page and search (issue 23)',
      '',
      `The shared archive of bench/million-archive.ts: ${RECORDS.toLocaleString('en-US')} records (real documents of a collected simulated chain with mint, creator, name and symbol changed; names and symbols of 1–3 words from a list of ${WORDS.length} memecoin words, some non-Latin; one launch every 2 s; its search index merged into one segment, as the collector's search index merge leaves it: collector/publish/search-index.ts), ${insertS ? `built in ${insertS.toFixed(0)} s this run` : 'reused from its cache (.bench/archive/)'}. The collector's publisher (collector/publish/lists.ts) wrote the home, list and status pages over it in ${publishMs.toFixed(0)} ms.`,
      '',
      `**Search** (${qs.length.toLocaleString('en-US')} distinct queries: word prefixes of 1–4 characters, whole words, two words, symbols, held mints, unheld addresses; answers ${Object.entries(statuses).map(([s, k]) => `${k} × ${s}`).join(', ')}):`,
      '',
      '| measured | p50 ms | p99 ms | max ms |',
      '|---|---:|---:|---:|',
      `| \`answerSearch\` (lookup + page), in process | ${pct(fn, 50).toFixed(2)} | ${pct(fn, 99).toFixed(2)} | ${Math.max(...fn).toFixed(2)} |`,
      `| the same, CPU of the thread | ${pct(fnCpu, 50).toFixed(2)} | ${pct(fnCpu, 99).toFixed(2)} | ${Math.max(...fnCpu).toFixed(2)} |`,
      `| \`GET /search?q=\` through the built server, one connection, cache and limit off | ${pct(http, 50).toFixed(2)} | ${p99.toFixed(2)} | ${Math.max(...http).toFixed(2)} |`,
      '',
      `Server CPU per search request through the built server (sequential, all queries): ${serverCpuUs.toFixed(0)} µs. Load average at the end: ${loadavg().map((x) => x.toFixed(1)).join(' ')}.`,
      '',
      'By query class (ms; CPU: this thread\'s CPU per `answerSearch`, mean of 5 more answers of each query):',
      '',
      '| class | queries | in process p50 | p99 | max | CPU p50 | CPU p99 | server p50 | server p99 | server max |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...QUERY_CLASSES.map((cls) => {
        const at = (xs: number[]) => xs.filter((_, i) => queries[i]!.cls === cls);
        const [f, c, h] = [at(fn), at(fnCpu), at(http)];
        return `| ${cls} | ${f.length} | ${pct(f, 50).toFixed(2)} | ${pct(f, 99).toFixed(2)} | ${Math.max(...f).toFixed(2)} | ${pct(c, 50).toFixed(2)} | ${pct(c, 99).toFixed(2)} | ${pct(h, 50).toFixed(2)} | ${pct(h, 99).toFixed(2)} | ${Math.max(...h).toFixed(2)} |`;
      }),
      '',
      `Search p99 through the server: **${p99.toFixed(1)} ms** (target ≤ ${TARGET_P99_MS} ms: ${p99 <= TARGET_P99_MS ? 'met' : 'NOT met'}).`,
      '',
      `**Home page** \`GET /\` (the collector's file, served from memory by the server), ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s, against a bare node:http server answering the same bytes and headers (bench/bare-static-server.mjs):`,
      '',
      comparisonTable(c, 'bare node:http, same bytes'),
      '',
      `Home page through the server: **${Math.round(homeRps).toLocaleString('en-US')} req/s** (target ≥ ${TARGET_RPS.toLocaleString('en-US')}: ${homeRps >= TARGET_RPS ? 'met' : 'NOT met'}), ${ratio.toFixed(3)} × the bare floor; per CPU second of the server process ${Math.round(perCpu(0)).toLocaleString('en-US')} req/s (bare floor ${Math.round(perCpu(1)).toLocaleString('en-US')}). ` +
        'The written pages are answered from memory before Astro\'s pipeline (src/server/static-door.ts), as the adapter answers its own static files: Astro answering an endpoint that does nothing is measured in the cluster section.',
      '',
      `**Home page for a client that asks for compression** (\`Accept-Encoding: br, gzip\`, as a browser sends it; ${ROUNDS} alternating rounds with the plain request, same server): ${Math.round(median(zRounds.compressed)).toLocaleString('en-US')} req/s (rounds ${zRounds.compressed.map((x) => Math.round(x)).join(' / ')}; server CPU ${median(zRounds.cpuCompressed).toFixed(0)} µs/req) against ${Math.round(median(zRounds.plain)).toLocaleString('en-US')} plain (${zRounds.plain.map((x) => Math.round(x)).join(' / ')}; ${median(zRounds.cpuPlain).toFixed(0)} µs/req): ${zRatio.toFixed(3)} × (median of per-round ratios), ${zRatio * median(zRounds.plain) >= TARGET_RPS ? 'above' : 'below'} the ${TARGET_RPS.toLocaleString('en-US')} req/s bar. ${(sentBytes.compressed / 1024).toFixed(1)} KB sent (${sentBytes.encoding}: the copy made once per version of the file) instead of ${(sentBytes.plain / 1024).toFixed(1)} KB.`,
    ].join('\n');
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(tmp, { recursive: true, force: true });
  }
}
