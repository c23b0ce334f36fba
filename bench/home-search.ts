/**
 * Home page and search figures for `npm run bench` (issue 23; BENCH_ONLY=home). Builds an archive
 * of BENCH_HOME_RECORDS (default 1,000,000) synthetic launch rows with realistic names and
 * symbols in one transaction (the FTS5 triggers of migration 9 fire for every row, as for the
 * collector's writes), writes the home, list and status pages with the collector's publisher, then:
 * - search: p50/p99 of `answerSearch` (lookup + page) over 2,000 distinct queries, and of
 *   `GET /search` through the built server (one connection, no cache, no limit);
 * - home: `GET /` through the built server and through a bare node:http server answering the same
 *   bytes from memory (the floor), alternating rounds with autocannon.
 * Returns a markdown section.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getBase58Decoder } from '@solana/kit';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { PublicStore } from '../src/db/public-store.ts';
import { answerSearch } from '../src/server/search.ts';
import { publishLists } from '../collector/publish/lists.ts';
import { compare, comparisonTable, median, ratioOf, startServer, type ServerUnderTest } from './load.ts';
import { ROOT } from './setup.ts';

const RECORDS = Number(process.env.BENCH_HOME_RECORDS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const QUERIES = 2_000;
const TARGET_RPS = 5_000;
const TARGET_P99_MS = 20;
const SHIPPED = 'server, GET / (written page answered before Astro: static-door.ts)';
const ASTRO_ROUTE = 'server, same file through Astro and the index route';
const log = (s: string) => process.stderr.write(s + '\n');

/** Words of memecoin names as they are seen on the launchpad (a mix of common and rare). */
const WORDS = (
  'pepe doge inu cat dog frog moon sun baby shiba elon trump based chad wojak bonk wif hat coin token ai agent gpt neko ' +
  'floki kitty panda bear bull ape monkey gorilla whale shark fish cult pump dump rocket mars jupiter solana sol meme ' +
  'king queen lord god devil angel ghost alien robot cyber punk pixel retro gold silver diamond hands degen giga smol ' +
  'tiny mega ultra super hyper turbo based real fake official grok simp wagmi ngmi gm gn lol kek cope seethe brain ' +
  'pizza burger taco sushi ramen coffee tea beer wine milk cookie donut banana apple cherry lemon mango peach berry ' +
  'dragon tiger lion wolf fox owl eagle hawk duck goose chicken penguin koala otter hamster rabbit bunny mouse rat ' +
  'bitcoin ether nft dao defi yield farm vault pool swap bridge chain block node hash mint burn stake ' +
  'ドージ 猫 狗 🐸 café münchen señor niño über'
).split(/\s+/);

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s ^ (s >>> 15), 2246822507) + 0x9e3779b9) >>> 0) / 2 ** 32);
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

export async function benchHomeSearch(): Promise<string> {
  const tmp = mkdtempSync(join(tmpdir(), 'lpa-bench-home-'));
  const servers: ServerUnderTest[] = [];
  try {
    const dataDir = join(tmp, 'data');
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', LISTS_INTERVAL_MS: '0' });
    const store = new PublicStore(config.publicDbPath);
    const r = rng(23);
    const pick = () => WORDS[Math.floor(r() * WORDS.length)]!;
    const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1);
    const b58 = getBase58Decoder();
    const classes = ['FINDINGS', 'NOTE', 'NO_MARKERS', 'UNKNOWN'] as const;
    const t0 = Date.now() - RECORDS * 2_000; // one launch every 2 s, the newest now
    log(`bench: home/search: inserting ${RECORDS.toLocaleString('en-US')} synthetic launch rows`);
    const insert = store.db.prepare(`INSERT INTO launch (mint, creator, creation_signature, creation_slot, created_at_ms, origin, observed_at_launch,
      finding_class, clean_at_birth, settled, method_version, document, sha256, updated_at_ms, name, symbol, finding_label, finding_why, graduated_at_ms)
      VALUES (?, ?, ?, ?, ?, 'observed', 1, ?, ?, 0, 'markers-v2', ?, ?, ?, ?, ?, ?, ?, ?)`);
    const mints: string[] = [];
    const symbols: string[] = [];
    const creators = Array.from({ length: 5_000 }, () => b58.decode(randomBytes(32)));
    // a large page cache for the build (random mints land all over the primary key's B-tree)
    store.db.pragma('cache_size = -2000000');
    const tInsert = performance.now();
    store.transaction(() => {
      for (let i = 0; i < RECORDS; i++) {
        const mint = b58.decode(randomBytes(32));
        const words = r() < 0.5 ? [pick(), pick()] : r() < 0.7 ? [pick()] : [pick(), pick(), pick()];
        const name = words.map(cap).join(' ');
        const symbol = [...(r() < 0.8 ? words.join('') : words[0]! + Math.floor(r() * 100))].slice(0, 8).join('').toUpperCase();
        const cls = classes[Math.floor(r() * 4)]!;
        const created = t0 + i * 2_000;
        if (i % 500 === 0) (mints.push(mint), symbols.push(symbol));
        if (i % 100_000 === 0 && i) log(`  ${i.toLocaleString('en-US')} rows, ${((performance.now() - tInsert) / 1000).toFixed(0)} s`);
        insert.run(mint, creators[i % creators.length], `sig${i}`, 300_000_000 + i * 5, created, cls, cls === 'NO_MARKERS' ? 1 : cls === 'UNKNOWN' ? null : 0,
          `{"mint":"${mint}"}`, createHash('sha256').update(mint).digest('hex'), created, name, symbol,
          cls === 'FINDINGS' ? 'Bundled at launch' : 'Checked', cls === 'FINDINGS' ? 'Two outside wallets bought in the creation slot.' : 'Recorded from the launch’s complete history.',
          r() < 0.01 ? created + 3_600_000 : null);
      }
    });
    const insertS = (performance.now() - tInsert) / 1000;
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    store.db.exec('ANALYZE');
    log(`bench: home/search: inserted in ${insertS.toFixed(1)} s`);

    // the collector's publisher writes the home, list and status pages
    const tPublish = performance.now();
    publishLists(store, config, createLogger('silent'), Date.now());
    const publishMs = performance.now() - tPublish;

    // distinct queries: word prefixes of 1-4 characters, whole words, two words, symbols, held mints, unheld addresses
    const queries = new Set<string>();
    while (queries.size < QUERIES) {
      const k = r();
      const w = pick();
      if (k < 0.4) queries.add([...w].slice(0, 1 + Math.floor(r() * 4)).join('') + (queries.size % 7 === 0 ? '' : ' '.repeat(queries.size % 3)));
      else if (k < 0.6) queries.add(w);
      else if (k < 0.75) queries.add(`${w} ${[...pick()].slice(0, 3).join('')}`);
      else if (k < 0.85) queries.add(symbols[Math.floor(r() * symbols.length)]!);
      else if (k < 0.95) queries.add(mints[Math.floor(r() * mints.length)]!);
      else queries.add(b58.decode(randomBytes(32)));
    }
    const qs = [...queries];
    const deps = { publicStore: store, config, now: Date.now };
    for (const q of qs.slice(0, 200)) answerSearch(q, deps); // warm-up
    const fn: number[] = [];
    for (const q of qs) {
      const a = performance.now();
      answerSearch(q, deps);
      fn.push(performance.now() - a);
    }
    store.close();

    log('bench: home/search: starting the server and the bare floor');
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', SEARCH_PER_MINUTE: '0', SEARCH_CACHE_MS: '0' };
    servers.push(await startServer(SHIPPED, [join(ROOT, 'dist/server/entry.mjs')], env, '/'));
    servers.push(await startServer('bare node:http, same bytes', [join(ROOT, 'bench/bare-static-server.mjs')], { ...env, BENCH_FILE: join(config.siteDir, 'index.html') }, '/'));
    const astro = servers[0]!;
    for (const q of qs.slice(0, 200)) await (await fetch(`${astro.url}/search?q=${encodeURIComponent(q)}`, { redirect: 'manual' })).arrayBuffer();
    const http: number[] = [];
    const statuses: Record<number, number> = {};
    for (const q of qs) {
      const a = performance.now();
      const res = await fetch(`${astro.url}/search?q=${encodeURIComponent(q)}`, { redirect: 'manual' });
      await res.arrayBuffer();
      http.push(performance.now() - a);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
    log(`bench: home/search: search p99 ${pct(fn, 99).toFixed(2)} ms (function), ${pct(http, 99).toFixed(2)} ms (HTTP)`);

    log('bench: home/search: GET / load');
    // the same server, the same file through Astro's pipeline and the index route: a query string
    // passes the written-pages answer of src/server/static-door.ts by (`GET /?via=astro/`)
    const viaAstro: ServerUnderTest = { ...astro, name: ASTRO_ROUTE, url: `${astro.url}/?via=astro`, stop: async () => undefined };
    const c = await compare([astro, viaAstro, servers[1]!], '/', {}, { rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, log });
    const homeRps = median(c.variants[0]!.rounds.map((x) => x.requestsPerSecond));
    const ratio = ratioOf(c, SHIPPED, 'bare node:http, same bytes');
    // what one core of the server answers per second of its CPU (the load tool shares the machine's 2 cores with it)
    const perCpu = (i: number) => 1e6 / median(c.variants[i]!.rounds.map((x) => x.serverCpuMicrosPerRequest));
    const p99 = pct(http, 99);
    return [
      '## Home page and search (issue 23)',
      '',
      `An archive of ${RECORDS.toLocaleString('en-US')} synthetic launch rows (names and symbols of 1–3 words from a list of ${WORDS.length} memecoin words, some non-Latin; one launch every 2 s up to now; a document stub each), inserted in one transaction with the FTS5 triggers firing: ${insertS.toFixed(1)} s. The collector's publisher (collector/publish/lists.ts) wrote the home, list and status pages over it in ${publishMs.toFixed(0)} ms.`,
      '',
      `**Search** (${qs.length.toLocaleString('en-US')} distinct queries: word prefixes of 1–4 characters, whole words, two words, symbols, held mints, unheld addresses; answers ${Object.entries(statuses).map(([s, k]) => `${k} × ${s}`).join(', ')}):`,
      '',
      '| measured | p50 ms | p99 ms | max ms |',
      '|---|---:|---:|---:|',
      `| \`answerSearch\` (lookup + page), in process | ${pct(fn, 50).toFixed(2)} | ${pct(fn, 99).toFixed(2)} | ${Math.max(...fn).toFixed(2)} |`,
      `| \`GET /search?q=\` through the built server, one connection, cache and limit off | ${pct(http, 50).toFixed(2)} | ${p99.toFixed(2)} | ${Math.max(...http).toFixed(2)} |`,
      '',
      `Search p99 through the server: **${p99.toFixed(1)} ms** (target ≤ ${TARGET_P99_MS} ms: ${p99 <= TARGET_P99_MS ? 'met' : 'NOT met'}).`,
      '',
      `**Home page** \`GET /\` (the collector's file, served from memory by the server), ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s, against a bare node:http server answering the same bytes and headers (bench/bare-static-server.mjs):`,
      '',
      comparisonTable(c, 'bare node:http, same bytes'),
      '',
      `Home page through the server: **${Math.round(homeRps).toLocaleString('en-US')} req/s** (target ≥ ${TARGET_RPS.toLocaleString('en-US')}: ${homeRps >= TARGET_RPS ? 'met' : 'NOT met'}), ${ratio.toFixed(3)} × the bare floor; per CPU second of the server process ${Math.round(perCpu(0)).toLocaleString('en-US')} req/s (bare floor ${Math.round(perCpu(2)).toLocaleString('en-US')}, through Astro ${Math.round(perCpu(1)).toLocaleString('en-US')}). ` +
        `Through Astro's pipeline and the index route (the same bytes from the same memory cache) it would be ${Math.round(median(c.variants[1]!.rounds.map((x) => x.requestsPerSecond))).toLocaleString('en-US')} req/s (${ratioOf(c, ASTRO_ROUTE, 'bare node:http, same bytes').toFixed(3)} × the floor): hence the written pages are answered before it, as the adapter answers its own static files.`,
    ].join('\n');
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(tmp, { recursive: true, force: true });
  }
}
