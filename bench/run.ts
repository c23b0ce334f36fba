/**
 * `npm run bench`: performance figures as ratios against a baseline measured in the same run
 * (the machines are shared and noisy), written to docs/benchmarks.md. Not part of `npm test`.
 *
 * Sections: the keyed token endpoint through the Astro server vs a bare node:http server doing the
 * same work (issue 2); the same endpoint with quota counting on vs off (issue 5); the same in cluster
 * mode over PostgreSQL vs the bare server over the same PostgreSQL (issue 26); and, when their
 * modules exist, collector ingest/lag (bench/ingest.ts), rebuilds (bench/rebuild.ts), token
 * page rendering and size (bench/pages.ts), the creation feed under load (bench/stream.ts) and the static tier (bench/static-tier.ts).
 * Options (env): BENCH_ROUNDS (default 3), BENCH_SECONDS (default 8), BENCH_CONNECTIONS (default 50),
 * BENCH_ONLY (comma list of sections: token, quota, cluster, ingest, rebuild, home, pages, stream, tier, archive), BENCH_ARCHIVE_RECORDS (default
 * 1,000,000: the shared archive of bench/million-archive.ts, cached under .bench/archive/, that home and archive read),
 * BENCH_OTHER_ENTRY (optional: the dist/server/entry.mjs of another build, e.g. of main, measured as one more variant of the
 * token section in the same alternating rounds: a before/after comparison on a shared machine).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { renameSync } from 'node:fs';
import { BENCH_MINT, ROOT, buildBenchArchive, type BenchArchive } from './setup.ts';
import { LOAD_TOOL, compare, comparisonTable, median, ratioOf, startServer, type ServerUnderTest } from './load.ts';
import { soakSectionOf, withSoakSection } from './soak/docs-section.ts';
import { PgPrivateState } from '../src/db/private-state-pg.ts';
import { KeyService } from '../src/access/keys.ts';
import { startPostgres } from '../tests/helpers/postgres.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ONLY = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const wanted = (name: string) => !ONLY || ONLY.includes(name);
const log = (s: string) => process.stderr.write(s + '\n');

const ENTRY = join(ROOT, 'dist/server/entry.mjs');
const TARGET_RATIO = 0.5;
const STANDALONE_DIST = join(ROOT, '.bench/astro-standalone');
const PLAIN_DIST = join(ROOT, '.bench/astro-plain');
const PLAIN_VARIANT = 'Astro defaults (no src/fetch.ts, sessions on)';
const FLOOR_VARIANT = 'floor: bare node:http, precomputed body';
const OTHER_VARIANT = 'other build (BENCH_OTHER_ENTRY)';
/** Issue 26's Astro floor: a path answered by an Astro endpoint without a key check, quota count or lookup (schemas/[name].ts: a 404 JSON body). */
const FLOOR_PATH = '/api/v1/schemas/none';
/** Issue 26 "Speed": the single-machine keyed endpoint's bar against the precomputed-body floor. */
const FLOOR_TARGET = 0.25;

/**
 * Start the floor of the token section: bench/bare-token-floor.mjs sending the body and headers the
 * shipped server gave for one request (its per-request fields — generatedAt, RateLimit — frozen).
 */
async function startFloor(shipped: ServerUnderTest, path: string, headers: Record<string, string>, env: Record<string, string>): Promise<ServerUnderTest> {
  const r = await fetch(shipped.url + path, { headers });
  const body = Buffer.from(await r.arrayBuffer());
  const sent: Record<string, string> = {};
  // hop-by-hop and per-connection fields are the HTTP layer's own; the floor's sets its length itself
  const skip = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);
  r.headers.forEach((v, k) => void (skip.has(k) || (sent[k] = v)));
  const dir = mkdtempSync(join(tmpdir(), 'lpa-floor-'));
  writeFileSync(join(dir, 'body'), body);
  writeFileSync(join(dir, 'headers.json'), JSON.stringify(sent));
  const s = await startServer(FLOOR_VARIANT, [join(ROOT, 'bench/bare-token-floor.mjs')], { ...env, BENCH_BODY_FILE: join(dir, 'body'), BENCH_HEADERS_FILE: join(dir, 'headers.json') }, '/');
  return { ...s, stop: async () => (await s.stop(), rmSync(dir, { recursive: true, force: true })) };
}
const MIDDLEWARE_VARIANT = 'Astro, middleware mode in a bare node:http host (no doors)';
const STANDALONE_VARIANT = "Astro, the adapter's standalone server (same doors)";

/** What profiling showed (node --cpu-prof on the standalone server under this load; see README of bench/). */
const WHERE_THE_TIME_GOES = [
  '### Where the time goes',
  '',
  'A CPU profile of the standalone server under this load (`node --cpu-prof`) put the Astro-only cost in: the adapter\'s static-file',
  'handler, which runs before the app for every request (`lstat` + `send` of the URL path under dist/client: ~7 % of samples);',
  'Web `Request`/`Response`/`Headers` objects built and converted back (undici: ~7 %); and Astro\'s pipeline stages',
  '(FetchState, action/API context, error fallback, `import()` of the route module on every request). The app already',
  'removes what it can while keeping Astro as the endpoint layer: `src/fetch.ts` sends `/api/*` and every other GET through Astro\'s router and',
  'endpoint dispatch only (`pages()`: no middleware, sessions, actions, i18n, which the app does not use), keeps the route',
  'modules\' import promises, and `session: false` drops the per-request session provider. The remaining adapter cost',
  '(static lookup) ran in the adapter\'s standalone server; the shipped server is now the app built in middleware mode in the',
  'archive\'s own node:http host (src/server/node-entry.ts: front door, static door, then Astro), and the standalone row measures',
  'the adapter\'s server with the same doors. The bare-host row is the same build with no front or static door.',
  '',
  'The keyed work itself (issue 26: CPU profiles of the built server at 50 connections, `node --cpu-prof`, shares of its samples;',
  'load average 8–9 on 2 cores, so read the shares, not the µs): before the in-memory key rows and the group-committed quota',
  'counts, the quota UPSERT took 8.2 % (its statement 7.4 % self), the key check 6.7 % (HMAC 3.4 %, the `api_key` read 2.5 %),',
  'the mint\'s base58 check 3.3 %, the coverage reads 2.2 %, the record read 1.4 % and `utcDay` (a `toISOString` per request) 0.9 %.',
  'After: the key check 6.2 % (HMAC 3.4 %, `PRAGMA data_version` 1.8 %, no read), the counts\' transaction 2.4 % for all the',
  'requests of one event-loop turn, `utcDay` ~0 %. What is left above the floor is mostly Astro\'s request/response handling',
  '(see above) and node:http\'s own writing.',
  '',
  'Issue 26, second bar (profiles at 50 connections, load 1-3 on 2 cores): the shipped server now calls Astro\'s app through',
  'src/server/astro-host.ts (one URL parse per GET/HEAD Request, no abort wiring; header fields appended to the Request\'s own',
  'Headers) and answers with a BytesResponse (src/server/bytes-response.ts: no body stream is made; the host writes the bytes).',
  'Coverage rows are kept per `PRAGMA data_version` (PublicStore.coverageReads) and its JSON once per change; the quota group',
  'commit reads and writes each key\'s count once per transaction.',
  '',
  'Issue 26, third round (profiles at 50 connections, load 0.3-1.5 on 2 cores; `.bench` A/B of built servers, CPU per request,',
  '4 alternating rounds of 6 s: 261 -> 194 µs): a key found once is hashed again by one SHA-256 of the key (node:crypto `hash`)',
  'instead of an HMAC (src/access/keys.ts: HMACs kept by the key\'s SHA-256, only for keys with a row); the record\'s row is kept',
  'in memory while no connection may have changed it (PublicStore.getLaunchBytes: the turn\'s `PRAGMA data_version` and the',
  'connection\'s `total_changes()`; 4,096 mints); a BytesResponse\'s fields are a FieldsHeaders, read by `get` as a plain list and',
  'handed to node:http as it is unless something changed or listed them (no undici header list per answer); addresses found',
  'valid are not decoded again; `generatedAt`\'s ISO text is made once per millisecond. The bare baseline (bench/bare-token-server.ts)',
  'now does the record work with the same functions (the kept row, the stored bytes spliced), where it used to read the row and',
  'JSON.parse and stringify the document each time: its CPU per request fell from ~190 to ~95 µs, so the ratios against it now',
  'measure the endpoint layer (Astro, its Request and Response, the host\'s doors) alone. What remains, by share of samples:',
  'Astro\'s FetchState, API context and route match (~15 %), the undici Request (~6 %), garbage collection (~6 %), the',
  'quota group commit (~3 %), node:http parsing and writing.',
].join('\n');

async function withServers<T>(starts: Promise<ServerUnderTest>[], fn: (s: ServerUnderTest[]) => Promise<T>): Promise<T> {
  const started = await Promise.allSettled(starts);
  const servers = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) {
    await Promise.all(servers.map((s) => s.stop()));
    throw failed.reason;
  }
  try {
    return await fn(servers);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

/**
 * Issue 26 "Speed", first bar: the keyed token endpoint of one API node in cluster mode vs the bare
 * node:http server doing the same work (key check and quota count against the same PostgreSQL, a
 * throwaway cluster on a unix socket, fsync off: devchain/cluster/postgres.ts). Target ≥ 0.8, p99 ≤ 15 ms.
 */
async function benchCluster(env: Record<string, string>, path: string, opts: Parameters<typeof compare>[3]): Promise<string> {
  const loadBefore = loadavg()[0]!;
  const pgc = startPostgres();
  try {
    const state = PgPrivateState.open({ url: pgc.url });
    const { key } = await new KeyService(state, env.KEY_SECRET!).create('bench cluster');
    await state.close();
    const cenv = { ...env, PRIVATE_DB_URL: pgc.url };
    const headers = { Authorization: `Bearer ${key}` };
    const BARE = 'bare node:http, PostgreSQL';
    const ASTRO = 'Astro (@astrojs/node), cluster mode';
    const BARE_FLOOR = 'bare node:http, the same bytes';
    const ASTRO_FLOOR = 'Astro (@astrojs/node), cluster mode, an endpoint doing nothing';
    const c = await withServers(
      [startServer(BARE, ['--import', 'tsx', join(ROOT, 'bench/bare-token-server.ts')], cenv, '/'), startServer(ASTRO, [ENTRY], cenv, '/api/v1/status')],
      async (servers) => {
        for (const s of servers) {
          const r = await fetch(s.url + path, { headers });
          if (r.status !== 200) throw new Error(`${s.name}: ${r.status} ${(await r.text()).slice(0, 200)}`);
        }
        const keyed = await compare(servers, path, headers, opts);
        // Astro's own floor on this machine: the same API node answering a path that does no key check,
        // no quota count and no lookup (a schema name it does not publish: route match, Astro's context,
        // a 404 JSON body), against a bare node:http server sending the same bytes
        const floorBody = Buffer.from(await (await fetch(servers[1]!.url + FLOOR_PATH)).arrayBuffer());
        const file = join(pgc.dir, 'floor-answer.body');
        writeFileSync(file, floorBody);
        const floor = await withServers([startServer(BARE_FLOOR, [join(ROOT, 'bench/bare-static-server.mjs')], { ...cenv, BENCH_FILE: file }, '/')], (bare) =>
          compare([bare[0]!, { ...servers[1]!, name: ASTRO_FLOOR }], FLOOR_PATH, {}, opts),
        );
        return { keyed, floor, floorBytes: floorBody.length };
      },
    );
    const ratio = ratioOf(c.keyed, ASTRO, BARE);
    const rpsOf = (cmp: typeof c.keyed, name: string) => median(cmp.variants.find((v) => v.name === name)!.rounds.map((r) => r.requestsPerSecond));
    const floorRps = rpsOf(c.floor, ASTRO_FLOOR);
    const bareRps = rpsOf(c.keyed, BARE);
    return [
      '## Cluster mode: keyed token endpoint per API node vs bare node:http (issue 26)',
      '',
      `\`GET ${path}\` with a valid key, ${opts.connections} connections, ${opts.rounds} alternating rounds of ${opts.seconds} s (load: ${LOAD_TOOL}). Both servers run with \`PRIVATE_DB_URL\`: ` +
        'the key checks and quota counts (one `admit_keyed` statement for the requests of a turn: src/db/pg-admit-batch.ts) go to the same PostgreSQL (a local throwaway cluster on a unix socket, fsync off), the record comes from the node\'s public.db. ' +
        'The baseline is bench/bare-token-server.ts over the same deps.',
      '',
      comparisonTable(c.keyed, BARE),
      '',
      `**Ratio of the API node in cluster mode: ${ratio.toFixed(3)}** (target ≥ 0.8: ${ratio >= 0.8 ? 'met' : 'NOT met'}; p99 target ≤ 15 ms: see the table). ` +
        `Load average (1 min) before / after: ${loadBefore.toFixed(2)} / ${loadavg()[0]!.toFixed(2)} on ${cpus().length} cores.`,
      '',
      `**Astro's own floor**, the same API node and load, after the rounds above: \`GET ${FLOOR_PATH}\` (a schema name the archive does not publish: no key check, no quota count, no lookup; ` +
        `Astro matches the route, builds its context and the endpoint answers a ${c.floorBytes}-byte 404 JSON body), against bare node:http sending the same bytes and headers (bench/bare-static-server.mjs):`,
      '',
      comparisonTable(c.floor, BARE_FLOOR),
      '',
      `An Astro endpoint that does nothing answered ${Math.round(floorRps).toLocaleString('en')} req/s here, ${(floorRps / bareRps).toFixed(3)} × the bare PostgreSQL baseline's ${Math.round(bareRps).toLocaleString('en')}: ` +
        `the bar (≥ 0.8 × that baseline, ${Math.round(0.8 * bareRps).toLocaleString('en')} req/s) ${floorRps >= 0.8 * bareRps ? 'is within' : 'is above'} what Astro as the endpoint layer reaches on this machine before any work.`,
    ].join('\n');
  } finally {
    pgc.destroy();
  }
}

async function main(): Promise<void> {
  if (!existsSync(ENTRY)) throw new Error('dist/server/entry.mjs missing: run `npx astro build` (npm run bench does)');
  const sections: string[] = [];
  const startedAt = new Date();
  log('bench: building the archive from the shipped fixtures');
  const archive = await buildBenchArchive();
  const path = `/api/v1/token/${BENCH_MINT}`;
  const headers = { Authorization: `Bearer ${archive.key}` };
  // A quota no run can exhaust, so every request is a 200 that counts (the counting write is measured).
  const env = { ...archive.env, DAILY_QUOTA: '1000000000' };
  const opts = { rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, log };

  // Every server must answer the endpoint with 200 and the same record before it is measured.
  const check = async (s: ServerUnderTest) => {
    const r = await fetch(s.url + path, { headers });
    const body = (await r.json()) as { mint?: string };
    if (r.status !== 200 || body.mint !== BENCH_MINT) throw new Error(`${s.name}: ${r.status} ${JSON.stringify(body).slice(0, 200)}`);
  };

  try {
    if (wanted('token')) {
      log("bench: building the comparison variants (Astro defaults; the adapter's standalone server)");
      const astroBuild = (outDir: string, extra: Record<string, string>) =>
        execFileSync(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', outDir], {
          cwd: ROOT,
          env: { ...process.env, ...extra },
          stdio: 'ignore',
        });
      astroBuild(PLAIN_DIST, { LPA_ASTRO_PLAIN: '1', LPA_ASTRO_MODE: 'standalone' });
      astroBuild(STANDALONE_DIST, { LPA_ASTRO_MODE: 'standalone' });
      log('bench: token endpoint, Astro server vs bare node:http (same lookup, same databases) and the precomputed-body floor');
      const tokenLoadBefore = loadavg()[0]!;
      const c = await withServers(
        [
          startServer('bare node:http', ['--import', 'tsx', join(ROOT, 'bench/bare-token-server.ts')], env, '/'),
          startServer('Astro (@astrojs/node)', [ENTRY], env, '/api/v1/status'),
          startServer(PLAIN_VARIANT, [join(PLAIN_DIST, 'server/entry.mjs')], env, '/api/v1/status'),
          startServer(STANDALONE_VARIANT, [join(STANDALONE_DIST, 'server/entry.mjs')], env, '/api/v1/status'),
          startServer(MIDDLEWARE_VARIANT, [join(ROOT, 'bench/middleware-host.mjs')], { ...env, LPA_BENCH_DIST: join(ROOT, 'dist') }, '/api/v1/status'),
          ...(process.env.BENCH_OTHER_ENTRY ? [startServer(OTHER_VARIANT, [process.env.BENCH_OTHER_ENTRY], env, '/api/v1/status')] : []),
        ],
        async (servers) => {
          for (const s of servers) await check(s);
          const floor = await startFloor(servers[1]!, path, headers, env);
          try {
            await check(floor);
            return await compare([...servers, floor], path, headers, opts);
          } finally {
            await floor.stop();
          }
        },
      );
      const ratio = ratioOf(c, 'Astro (@astrojs/node)', 'bare node:http');
      const floorRatio = ratioOf(c, 'Astro (@astrojs/node)', FLOOR_VARIANT);
      const other = c.variants.some((v) => v.name === OTHER_VARIANT) ? ratioOf(c, OTHER_VARIANT, FLOOR_VARIANT) : null;
      sections.push(
        [
          '## Keyed token endpoint: Astro vs bare node:http (issue 2)',
          '',
          `\`GET ${path}\` with a valid key, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s (load: ${LOAD_TOOL}; each server is one Node process). ` +
            'The baseline (bench/bare-token-server.ts) does the same work on the same databases — address check, HMAC key check, quota count, record lookup, same body — without a framework.',
          '',
          comparisonTable(c, 'bare node:http'),
          '',
          `**Ratio of the shipped server (middleware mode in its own host with the doors): ${ratio.toFixed(3)}** (target ≥ ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'}). ` +
            `Before this project's changes (Astro's defaults: the adapter's standalone server, no src/fetch.ts, sessions on): ${ratioOf(c, PLAIN_VARIANT, 'bare node:http').toFixed(3)}. ` +
            `The adapter's standalone server with the same doors: ${ratioOf(c, STANDALONE_VARIANT, 'bare node:http').toFixed(3)}. ` +
            `The shipped build behind a three-line node:http host with no doors (bench/middleware-host.mjs): ${ratioOf(c, MIDDLEWARE_VARIANT, 'bare node:http').toFixed(3)}.`,
          '',
          `**Shipped server vs the floor** (bench/bare-token-floor.mjs: bare node:http sending the precomputed body and headers of the same answer): ` +
            `${floorRatio.toFixed(3)} (issue 26 target ≥ ${FLOOR_TARGET}: ${floorRatio >= FLOOR_TARGET ? 'met' : 'NOT met'}).` +
            (other === null ? '' : ` The other build (BENCH_OTHER_ENTRY) vs the floor: ${other.toFixed(3)}.`) +
            ` Load average (1 min) before / after: ${tokenLoadBefore.toFixed(2)} / ${loadavg()[0]!.toFixed(2)} on ${cpus().length} cores.`,
          '',
          WHERE_THE_TIME_GOES,
        ].join('\n'),
      );
    }

    if (wanted('quota')) {
      log('bench: token endpoint through Astro, quota counting on vs off');
      const c = await withServers(
        [
          startServer('counting off', [ENTRY], { ...env, QUOTA_COUNTING: 'off' }, '/api/v1/status'),
          startServer('counting on', [ENTRY], env, '/api/v1/status'),
        ],
        async (servers) => {
          for (const s of servers) await check(s);
          return compare(servers, path, headers, opts);
        },
      );
      const ratio = ratioOf(c, 'counting on', 'counting off');
      sections.push(
        [
          '## Quota counting cost (issue 5)',
          '',
          `The same Astro server and endpoint, with the daily-quota count (one SQLite UPSERT per request in private.db) on and off (\`QUOTA_COUNTING=off\`, benchmarks only). ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s (load: ${LOAD_TOOL}).`,
          '',
          comparisonTable(c, 'counting off'),
          '',
          `**Throughput with counting on = ${ratio.toFixed(3)} × counting off.**`,
        ].join('\n'),
      );
    }

    if (wanted('cluster')) {
      log('bench: cluster mode (PRIVATE_DB_URL): token endpoint per API node vs bare node:http, both over one PostgreSQL');
      sections.push(await benchCluster(env, path, opts));
    }

    for (const [name, file, fn] of [
      ['ingest', 'bench/ingest.ts', 'benchIngest'],
      ['rebuild', 'bench/rebuild.ts', 'benchRebuild'],
      ['home', 'bench/home-search.ts', 'benchHomeSearch'],
      ['pages', 'bench/pages.ts', 'benchPages'],
      ['stream', 'bench/stream.ts', 'benchStream'],
      ['tier', 'bench/static-tier.ts', 'benchStaticTier'],
      ['archive', 'bench/archive-api.ts', 'benchArchiveApi'],
    ] as const) {
      if (!wanted(name) || !existsSync(join(ROOT, file))) continue;
      log(`bench: ${name}`);
      const mod = (await import(join(ROOT, file))) as Record<string, (archive: BenchArchive) => Promise<string>>;
      sections.push(await mod[fn](archive));
    }
  } finally {
    rmSync(archive.dataDir, { recursive: true, force: true });
  }

  const out = join(ROOT, 'docs/benchmarks.md');
  const runLine = `Written by \`npm run bench\` on ${startedAt.toISOString()} — Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB.`;
  // BENCH_ONLY: the sections not run are kept as the previous run wrote them (and say so)
  // (the soak's section, always last, is set aside here and put back below)
  const previous = existsSync(out) ? readFileSync(out, 'utf8') : '';
  const withoutSoak = previous.slice(0, previous.length - soakSectionOf(previous).length);
  const kept = ONLY && previous ? mergeSections(withoutSoak, sections, runLine) : sections;
  const doc = [
    '# Benchmarks',
    '',
    `${ONLY ? `Sections ${ONLY.join(', ')} written by \`BENCH_ONLY=${ONLY.join(',')} npm run bench\` on ${startedAt.toISOString()}; the others are kept from earlier runs (each says when). ` : `${runLine} `}` +
      'Machines here are shared and noisy: compare the ratios, which are measured against a baseline in the same run, not the absolute figures.',
    '',
    ...kept.flatMap((s) => [s, '']),
  ].join('\n');
  mkdirSync(join(ROOT, 'docs'), { recursive: true });
  // the soak's section (npm run soak) stays
  const soak = soakSectionOf(previous);
  writeFileSync(out + '.tmp', soak ? withSoakSection(doc, soak) : doc);
  renameSync(out + '.tmp', out);
  log(`bench: wrote ${out}`);
  process.stdout.write(doc);
}

/**
 * The sections of an earlier docs/benchmarks.md (each from its `## ` heading to the next) with
 * those of this run put in place of the ones of the same heading (new ones appended); a section
 * kept from the earlier run is marked with that run's line, unless it carries one already.
 */
function mergeSections(previous: string, fresh: string[], runLine: string): string[] {
  const prevRun = /^(Written by `npm run bench`[^\n]*?GiB\.)/m.exec(previous)?.[1];
  const old = previous.split(/^(?=## )/m).filter((s) => s.startsWith('## ')).map((s) => s.trimEnd());
  const heading = (s: string) => s.split('\n')[0];
  const out = old.map((s) => {
    const f = fresh.find((x) => heading(x) === heading(s));
    if (f) return `${f}\n\n_${runLine}_`;
    return s.includes('\n_Written by') || !prevRun ? s : `${s}\n\n_${prevRun}_`;
  });
  for (const f of fresh) if (!old.some((s) => heading(s) === heading(f))) out.push(`${f}\n\n_${runLine}_`);
  return out;
}

main().catch((e) => {
  log(`bench failed: ${e instanceof Error ? e.stack : String(e)}`);
  process.exit(1);
});
