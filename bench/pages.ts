/**
 * Page figures for `npm run bench` (issue 23): how many token pages per second the template renders
 * (render alone, and render plus the atomic write the collector does), and how large a page with its
 * three SVG charts is, over a 2,000-trade curve. The curve is a launch the real collector recorded
 * from a simulated chain, its latest trade cloned up to 2,000 trades (new signatures, later slots,
 * the curve's reserves growing). Returns a markdown section.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { writeChain } from '../devchain/simulate/write-chain.ts';
import { startReplayRpc } from '../devchain/replay/server.ts';
import { collect } from '../collector/collect.ts';
import { SiteWriteBatch, WRITE_IN_FLIGHT, writeFileAtomic, writeFilesAtomic } from '../src/ingest/write-site.ts';
import { SITE_WRITE_CHUNK } from '../src/ingest/publish.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { PublicStore } from '../src/db/public-store.ts';
import { createArchiveRpc } from '../src/chain/rpc.ts';
import type { DecodedTransaction, LaunchDocument } from '../src/core/types.ts';
import { renderTokenPage, tokenPageOptions } from '../src/render/token-page.ts';
import { chartSeries, clearChartSeriesCache as clearSeries } from '../src/render/chart-data.ts';
import { forgetDrawnSections } from '../src/render/charts.ts';

/** Forget every remembered series, walk and drawn section: the next render of a record is its first. */
function clearChartSeriesCache(): void {
  clearSeries();
  forgetDrawnSections();
}
import { TransactionCache } from '../src/ingest/tx-cache.ts';
import { EARLY_TABLE_ROWS, TIMELINE_TABLE_ROWS } from '../src/render/token-page.ts';
import { commitHypedLaunch } from '../tests/helpers/hyped-launch.ts';
import { renderEarlyPage } from '../src/render/early-page.ts';
import { median } from './load.ts';

const TRADES = 2000;
const ROUND_MS = Number(process.env.BENCH_PAGES_MS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** Pages per second of `fn` over ROUND_MS (after a warm-up), median of ROUNDS. */
function rate(fn: () => void): number {
  for (let i = 0; i < 200; i++) fn();
  const rates: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < ROUND_MS) {
      for (let i = 0; i < 50; i++) fn();
      n += 50;
    }
    rates.push((n * 1000) / (performance.now() - t0));
  }
  return median(rates);
}

/** {@link rate} for an asynchronous batch of `batch` pages: pages per second over ROUND_MS, median of ROUNDS. */
async function rateAsync(batch: number, fn: () => Promise<void>): Promise<number> {
  for (let i = 0; i < 4; i++) await fn();
  const rates: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < ROUND_MS) {
      await fn();
      n += batch;
    }
    rates.push((n * 1000) / (performance.now() - t0));
  }
  return median(rates);
}

/**
 * What profiling the render showed (node --cpu-prof over this curve's record, issue 23): shares
 * of a first render's samples.
 */
const WHERE_THE_TIME_GOES = [
  '### Where the render time goes',
  '',
  'A CPU profile of the first render of this record (`node --cpu-prof`, the series computed, then the HTML) puts about half of it in the',
  'chart series\' one walk over the 2,003 decoded transactions (chart-data.ts). That walk is bound by memory reads: a bare loop that only',
  'reads each transaction\'s slot and its events\' name and mint costs about half of the series, and the per-trade quote-mint and mint',
  'comparisons are most of the rest, so the series of a 2,000-trade curve cannot cost much less as long as it is computed from the decoded',
  'transactions at each render. The HTML from a computed series is spread out: timeline ~25 %, curve ~20 %, first-30-s table ~13 %,',
  'supply ~13 %, the rest of the page ~25 %, with no function above ~8 % self time (`esc` ~7 %, `sig` ~6 %, d3 scale setup ~4 %,',
  '`stepAfterPath` ~4 %). Changes for issue 23, each checked against the pinned page bytes (tests/integration/render-pinned.test.ts):',
  'the page\'s own `html` tag (html-tag.ts: hono\'s tag without an array per value; rows built as strings through `esc` and `htmlValue`),',
  'the curve\'s step path and its points\' scale arithmetic written directly (svg-text.ts stepAfterPath, linear-map.ts, each tested against',
  'd3-shape and d3-scale), the curve\'s quotes read with `rawNumber` and its pixel columns kept in one pass, a raw amount\'s plain number in',
  'one exact division, axes computing each tick once, supply-chart helpers as module functions (under tsx each closure made per page costs',
  'a `defineProperty`), UTC times without a Date, the explorer made once per prefix, one pass over the transactions instead of a filtered copy.',
  'A first render costs more than the series and the HTML measured apart: rendered between two walks, the HTML\'s allocation (about 170 KB',
  'a page) pushes the transactions out of the caches, and the same walk then takes about twice as long (timed alone after an HTML render:',
  'about 2x; after 1 MB of garbage: about 3x). Later changes: table rows appended (`joinMap`) rather than joined, and `sig` writing',
  '`toFixed`\'s digits from `Math.round` away from ties (toFixed was most of its time). Keeping the walk\'s curve points in columns',
  'allocated once (not three arrays grown a push at a time) cut a first render\'s allocation by a third and sped the series of a',
  'record read from JSON, but slowed this benchmark\'s series (~270 -> ~330 µs, in the process that collected the chain first), so it was not kept.',
  '',
  'What a first render leaves alive costs about as much as what it computes. Each young-generation collection copies every object still',
  'reachable, and a first render leaves reachable what the collector keeps for the record\'s next render: the walk (one point per trade), the',
  'series, and the markup of the sections drawn from the first window. Over first renders of distinct records in turn with 200 lists held',
  '(the row above; `node --trace-gc-nvp`) each scavenge took ~10 ms and promoted ~13 MB. Two changes (2026-11-28): a section\'s markup is',
  'kept from its second drawing on, not its first (most records are rendered once, and a 2,000-trade launch\'s sections are ~55 KB of',
  'strings), and the walk\'s times and slots are Float64Arrays grown by doubling (their bytes are outside the heap: not copied). In two pairs',
  'of runs, old code and new back to back: first render 3,948 -> 4,384 and 4,234 -> 5,573 pages/s, distinct records 3,487 -> 3,973 and',
  '3,862 -> 4,920, and the HTML drawn whole ~105 -> ~54 µs (its loop no longer keeps each page\'s sections); the price is a busy curve\'s second',
  'render drawing its sections again: the collector\'s render after each trade 22,656 -> 20,443 and 23,045 -> 19,551.',
  '',
  'A first render is once per record and process: the collector writes a busy curve\'s page again after each batch of its trades, and',
  'the walk and most of the HTML are the same each time. So the series\' walk is kept with the list it walked (the transaction cache\'s, appended',
  'to in place; a WeakMap keyed by the list, so a walk goes when its list goes) and resumed at the first new transaction, and the first',
  'window\'s part of the series (supply at birth, the buyer timeline, the first-30-s buyers: about half of the HTML\'s time) stays the same',
  'objects while the window holds the same transactions, which a launch older than 30 s always does; the sections drawn from them are',
  'remembered by those objects (charts.ts `remembered`). What is left per render is the new trades, the curve\'s downsampling and its chart,',
  'and the rest of the page. Both are held by tests: at every step of a growing launch the series equals the one computed whole',
  '(tests/unit/chart-data.test.ts) and the page the page of a series computed whole, byte for byte (tests/unit/page-resumed.test.ts).',
].join('\n');

/** CPU seconds of a plain loop of 1e8 integer additions in this process: the machine's speed, for reading the figures. */
function loopSeconds(): number {
  const c0 = process.cpuUsage();
  let s = 0;
  for (let i = 0; i < 1e8; i++) s += i & 7;
  const c = process.cpuUsage(c0);
  if (s !== 350_000_000) throw new Error('loop miscounted');
  return (c.user + c.system) / 1e6;
}

/** Trades appended, one render after each, per episode of {@link resumedRate}. */
const RESUME_STEPS = 10;

/**
 * Pages per second of a busy curve rendered again after each of its trades, as the collector renders
 * it: the launch's transactions are the transaction cache's list (src/ingest/tx-cache.ts), appended
 * to in place, so the series' walk resumes where it stopped and the first window's sections are
 * remembered (chart-data.ts chartSeriesCached, charts.ts `remembered`). Episodes: the curve's list
 * less its last {@link RESUME_STEPS} transactions, as a new array (its first render, a whole walk,
 * not timed), then those transactions appended one at a time, each followed by a render of the
 * record at that point (its history count and sha256 changed), timed. Median of ROUNDS rounds.
 */
export function resumedRate(doc: LaunchDocument, txs: DecodedTransaction[], config: ReturnType<typeof loadConfig>, sink?: { write: (html: string) => void; flush: () => void }): number {
  const base = txs.slice(0, txs.length - RESUME_STEPS);
  const tail = txs.slice(txs.length - RESUME_STEPS);
  const docs = tail.map((t, k) => ({ ...doc, history: { ...doc.history, transactions: base.length + k + 1, lastSlot: t.slot } }));
  let episode = 0;
  const run = (untilMs: number): { n: number; ms: number } => {
    let n = 0;
    let ms = 0;
    const end = performance.now() + untilMs;
    while (performance.now() < end) {
      episode++;
      const list = base.slice();
      renderTokenPage(doc, tokenPageOptions(config, `e${episode}`, list));
      for (let k = 0; k < RESUME_STEPS; k++) {
        list.push(tail[k]!);
        const opts = tokenPageOptions(config, `e${episode}-${k}`, list);
        const t0 = performance.now();
        const html = renderTokenPage(docs[k]!, opts);
        sink?.write(html);
        ms += performance.now() - t0;
        n++;
      }
    }
    if (sink) {
      const t0 = performance.now();
      sink.flush();
      ms += performance.now() - t0;
    }
    return { n, ms };
  };
  run(500);
  const rates: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const { n, ms } = run(ROUND_MS);
    rates.push((n * 1000) / ms);
  }
  return median(rates);
}

/** Transaction lists held at once by the distinct-records row (a transaction cache's worth of busy mints). */
const DISTINCT_HELD = 200;

/** Pages written at once by the overlapped writes (a publish pass's worth). */
const BATCH = 64;

/** A launch with the most trades of a collected simulated chain, its trades cloned up to {@link TRADES}. */
export async function longCurve(tmp: string): Promise<{ doc: LaunchDocument; txs: DecodedTransaction[]; sha256: string; config: ReturnType<typeof loadConfig> }> {
  const chainDir = join(tmp, 'chain');
  writeChain({ launches: 60, seed: 2623, out: chainDir });
  const replay = await startReplayRpc({ chainDir });
  const config = loadConfig({ DATA_DIR: join(tmp, 'data'), SOLANA_RPC_URL: replay.url, COLLECT_START: 'earliest', LOG_LEVEL: 'silent' });
  const store = new PublicStore(config.publicDbPath);
  try {
    await collect({ config, store, rpc: createArchiveRpc({ url: replay.url }), log: createLogger('silent'), now: () => Date.parse('2026-11-25T00:00:00Z') }, { once: true });
    const rows = store.db.prepare("SELECT l.mint, count(*) AS n FROM launch l JOIN launch_tx t ON t.mint = l.mint WHERE json_extract(l.document, '$.launch.completed') = 0 AND json_extract(l.document, '$.history.complete') = 1 AND json_extract(l.document, '$.launch.buyersFirst30s') > 0 GROUP BY l.mint ORDER BY n DESC LIMIT 1").get() as { mint: string };
    const row = store.getLaunch(rows.mint)!;
    const doc = JSON.parse(row.document) as LaunchDocument;
    const txs = store.transactionsFor(rows.mint);
    const template = [...txs].reverse().find((t) => t.err === null && t.events.some((e) => e.name === 'TradeEvent' && e.fields.is_buy === true))!;
    const ev = template.events.find((e) => e.name === 'TradeEvent')!;
    let slot = Math.max(...txs.map((t) => t.slot ?? 0));
    let time = Math.max(...txs.map((t) => t.blockTime ?? 0));
    let real = BigInt(String(ev.fields.real_sol_reserves ?? '0'));
    const sol = BigInt(String(ev.fields.sol_amount ?? '1000000'));
    for (let i = txs.filter((t) => t.events.some((e) => e.name === 'TradeEvent')).length; i < TRADES; i++) {
      slot += 3;
      time += 7;
      real += i % 5 === 4 ? -sol : sol / 4n;
      const fields = { ...ev.fields, real_sol_reserves: real.toString(), timestamp: String(time) };
      txs.push({ ...template, signature: `${template.signature.slice(0, 60)}${i.toString(36).padStart(6, '0')}`, slot, blockTime: time, events: [{ ...ev, fields }] });
    }
    doc.history = { ...doc.history, transactions: txs.length, lastSlot: slot };
    return { doc, txs, sha256: row.sha256, config };
  } finally {
    store.close();
    await replay.close();
  }
}

export async function benchPages(): Promise<string> {
  const tmp = mkdtempSync(join(tmpdir(), 'lpa-bench-pages-'));
  const loadAtStart = loadavg()[0]!;
  try {
    const { doc, txs, sha256, config } = await longCurve(tmp);
    const opts = tokenPageOptions(config, sha256, txs);
    const page = renderTokenPage(doc, opts);
    const bytes = Buffer.byteLength(page);
    const gz = gzipSync(page).length;
    const svg = [...page.matchAll(/<svg[\s\S]*?<\/svg>/g)].reduce((n, m) => n + Buffer.byteLength(m[0]), 0);
    // a record's first render: the series computed from the transactions (the publisher's case: it writes a page once per change)
    const firstRate = rate(() => {
      clearChartSeriesCache();
      renderTokenPage(doc, opts);
    });
    // first renders of distinct records in turn, as a publish pass after a restart renders them: each render a new
    // list (as the transaction cache holds one per mint), the last DISTINCT_HELD of them held with their walks, and the
    // series and sections kept as the collector keeps them (what stays alive between renders is what the GC copies)
    const heldLists: DecodedTransaction[][] = [];
    let distinct = 0;
    const distinctFirstRate = rate(() => {
      const list = txs.slice();
      heldLists[distinct % DISTINCT_HELD] = list;
      renderTokenPage(doc, tokenPageOptions(config, `distinct-${distinct++}`, list));
    });
    heldLists.length = 0;
    clearChartSeriesCache();
    // the same record rendered again (the server's fallback until the file is written): the series remembered
    const renderRate = rate(() => renderTokenPage(doc, opts));
    const resumed = resumedRate(doc, txs, config);
    // the same, each page written the collector's way (SiteWriteBatch: temporary file + rename, one syncfs per SITE_WRITE_CHUNK pages)
    const resumedBatch = new SiteWriteBatch();
    let written = 0;
    const resumedWriteRate = resumedRate(doc, txs, config, {
      write: (html) => {
        resumedBatch.write(join(tmp, 'site', 'r', `${written++ % SITE_WRITE_CHUNK}.html`), html);
        if (written % SITE_WRITE_CHUNK === 0) resumedBatch.commit();
      },
      flush: () => resumedBatch.commit(),
    });
    // baseline of this run: the same, each file put in place on the rendering thread and `sync -f` started from
    // this process per chunk (the collector's way before the writer threads of src/ingest/site-writers.ts)
    let inlineWritten = 0;
    const inlineWriteRate = resumedRate(doc, txs, config, {
      write: (html) => {
        const path = join(tmp, 'site', 'i', `${inlineWritten++ % SITE_WRITE_CHUNK}.html`);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(`${path}.tmp`, html);
        renameSync(`${path}.tmp`, path);
        if (inlineWritten % SITE_WRITE_CHUNK === 0) execFileSync('sync', ['-f', path]);
      },
      flush: () => execFileSync('sync', ['-f', tmp]),
    });
    // the same again, the files on a RAM filesystem (/dev/shm: tmpfs, where a rename or a syncfs costs no disk): what the
    // render and the atomic write cost apart from this machine's disk (pages are derived from the database; the
    // server renders one it does not find, so a site directory on tmpfs loses nothing a restart cannot write again)
    const shm = existsSync('/dev/shm') ? mkdtempSync(join('/dev/shm', 'lpa-bench-pages-')) : null;
    let ramWriteRate: number | null = null;
    let ramFloorRate: number | null = null;
    if (shm) {
      try {
        const ramBatch = new SiteWriteBatch();
        let n = 0;
        ramWriteRate = resumedRate(doc, txs, config, {
          write: (html) => {
            ramBatch.write(join(shm, 'r', `${n++ % SITE_WRITE_CHUNK}.html`), html);
            if (n % SITE_WRITE_CHUNK === 0) ramBatch.commit();
          },
          flush: () => ramBatch.commit(),
        });
        const ramPaths = Array.from({ length: SITE_WRITE_CHUNK }, (_, i) => join(shm, 'c', `${i}.html`));
        ramFloorRate = await rateAsync(SITE_WRITE_CHUNK, async () => {
          for (const path of ramPaths) ramBatch.write(path, page);
          ramBatch.commit();
        });
      } finally {
        rmSync(shm, { recursive: true, force: true });
      }
    }
    const series = chartSeries(doc, txs);
    // the HTML drawn whole from a computed series (no section remembered)
    const htmlRate = rate(() => {
      forgetDrawnSections();
      renderTokenPage(doc, { ...opts, series });
    });
    const seriesRate = rate(() => chartSeries(doc, txs));
    const out = join(tmp, 'site', 't', `${doc.mint}.html`);
    const writeRate = rate(() => {
      clearChartSeriesCache();
      writeFileAtomic(out, renderTokenPage(doc, opts));
    });
    // the disk's floor, in this run: the same write without the render (the collector's policy:
    // temporary file, fsync, rename), and without the fsync for comparison
    const floorRate = rate(() => writeFileAtomic(out, page));
    const bare = join(tmp, 'site', 'bare');
    mkdirSync(bare, { recursive: true });
    let k = 0;
    const noSyncRate = rate(() => {
      const t = join(bare, `.${k++}.tmp`);
      const fd = openSync(t, 'w');
      writeFileSync(fd, page, 'utf8');
      closeSync(fd);
      renameSync(t, join(bare, `${k % BATCH}.html`));
    });
    // grouped: a batch of pages (distinct files) rendered, then written by writeFilesAtomic (each
    // file's temporary file written, fsynced and renamed, WRITE_IN_FLIGHT at once; then one fsync
    // of the folder for the batch)
    const paths = Array.from({ length: BATCH }, (_, i) => join(tmp, 'site', 'o', `${i}.html`));
    const overlapRate = await rateAsync(BATCH, () =>
      writeFilesAtomic(paths.map((path) => {
        clearChartSeriesCache();
        return { path, content: renderTokenPage(doc, opts) };
      })),
    );
    const overlapFloorRate = await rateAsync(BATCH, () => writeFilesAtomic(paths.map((path) => ({ path, content: page }))));
    // the collector's way (src/ingest/publish.ts): temporary file + rename per page, then one
    // syncfs for a chunk of SITE_WRITE_CHUNK records (write-site.ts SiteWriteBatch)
    const chunkPaths = Array.from({ length: SITE_WRITE_CHUNK }, (_, i) => join(tmp, 'site', 'c', `${i}.html`));
    const batch = new SiteWriteBatch();
    const chunkRate = await rateAsync(SITE_WRITE_CHUNK, async () => {
      for (const path of chunkPaths) {
        clearChartSeriesCache();
        batch.write(path, renderTokenPage(doc, opts));
      }
      batch.commit();
    });
    const chunkFloorRate = await rateAsync(SITE_WRITE_CHUNK, async () => {
      for (const path of chunkPaths) batch.write(path, page);
      batch.commit();
    });
    // the launch's history as the publisher gets it: read back from launch_tx (a row's JSON parsed
    // each), which it did for every page before it took the collector's transaction cache
    // (publish.ts writeSiteFiles `txs`), and from that cache (a list held: no read)
    const readStore = new PublicStore(join(tmp, 'read', 'public.db'));
    let readRate: number;
    let readFirstRate: number;
    let cachedFirstRate: number;
    try {
      readStore.db.transaction(() => {
        for (const tx of txs) readStore.addTransaction(doc.mint, tx);
      })();
      if (readStore.transactionsFor(doc.mint).length !== txs.length) throw new Error('bench: the history read back is not the one written');
      readRate = rate(() => readStore.transactionsFor(doc.mint));
      readFirstRate = rate(() => {
        clearChartSeriesCache();
        renderTokenPage(doc, tokenPageOptions(config, sha256, readStore.transactionsFor(doc.mint)));
      });
      const cache = new TransactionCache();
      cache.transactionsFor(readStore, doc.mint);
      cachedFirstRate = rate(() => {
        clearChartSeriesCache();
        renderTokenPage(doc, tokenPageOptions(config, sha256, cache.transactionsFor(readStore, doc.mint)));
      });
    } finally {
      readStore.close();
    }
    // a launch that drew attention: its page's size with 30 and 300 first-30-s buyers
    const hypedStore = new PublicStore(join(tmp, 'hyped', 'public.db'));
    const hyped: { early: number; bytes: number; gz: number; rate: number; earlyBytes: number; earlyGz: number }[] = [];
    try {
      for (const early of [30, 300]) {
        const { mint, txs: htxs } = commitHypedLaunch(hypedStore, { slot: 1000 * early, bundled: 4, early });
        const row = hypedStore.getLaunch(mint)!;
        const hdoc = JSON.parse(row.document) as LaunchDocument;
        const hopts = tokenPageOptions(config, row.sha256, htxs);
        const hpage = renderTokenPage(hdoc, hopts);
        // and its first-30-seconds page (render/early-page.ts), which holds every buyer the token page does not list
        const epage = renderEarlyPage(hdoc, hopts) ?? '';
        hyped.push({ early, bytes: Buffer.byteLength(hpage), gz: gzipSync(hpage).length, rate: rate(() => { clearChartSeriesCache(); renderTokenPage(hdoc, hopts); }), earlyBytes: Buffer.byteLength(epage), earlyGz: gzipSync(epage).length });
      }
    } finally {
      hypedStore.close();
    }
    const loop = loopSeconds();
    const ok = (b: boolean) => (b ? 'met' : '**not met**');
    const us = (r: number) => `${Math.round(r).toLocaleString('en')} pages/s (${Math.round(1e6 / r).toLocaleString('en')} µs a page)`;
    return [
      '## Token pages',
      '',
      `The token page template (src/render/token-page.ts with its three SVG charts) over a ${TRADES.toLocaleString('en')}-trade curve (${txs.length.toLocaleString('en')} transactions held; a collected simulated launch with first-30-s buyers whose latest buy is cloned), one process, median of ${ROUNDS} rounds of ${ROUND_MS / 1000} s; load average (1 min) ${loadAtStart.toFixed(1)} at the start and ${loadavg()[0]!.toFixed(1)} at the end, on ${cpus().length} cores.`,
      '',
      '| measure | figure | target |',
      '|---|---|---|',
      `| render alone, a record's first render (series from the decoded transactions + HTML) | ${us(firstRate)} | ≥ 5,000 pages/s: ${ok(firstRate >= 5000)} |`,
      `| render alone, first renders of distinct records in turn, as a publish pass after a restart renders them (each its own transaction list, the last ${DISTINCT_HELD} held as the transaction cache holds them, with the walks, series and sections the collector keeps; every list holds the same ${txs.length.toLocaleString('en')} transactions, which a real pass would read from other records, outside the CPU's caches) | ${us(distinctFirstRate)} | ≥ 5,000 pages/s: ${ok(distinctFirstRate >= 5000)} |`,
      `| render alone, the same record again (series remembered: chartSeriesCached, and the sections drawn from its first window: charts.ts \`remembered\`) | ${us(renderRate)} | ≥ 5,000 pages/s: ${ok(renderRate >= 5000)} |`,
      `| render alone, a busy curve rendered again after each of its trades: the collector's way (the transaction cache's list appended to in place: the series' walk resumed from the last render, the first window's sections remembered; episodes of ${RESUME_STEPS} trades appended to the curve less its last ${RESUME_STEPS}) | ${us(resumed)} | ≥ 5,000 pages/s: ${ok(resumed >= 5000)} |`,
      `| of which: chart series from the transactions alone | ${Math.round(seriesRate).toLocaleString('en')} series/s (${Math.round(1e6 / seriesRate)} µs a series) | — |`,
      `| of which: HTML from a computed series, drawn whole | ${us(htmlRate)} | — |`,
      `| the history read from \`launch_tx\` alone (PublicStore.transactionsFor: ${txs.length.toLocaleString('en')} rows, each row's JSON parsed) | ${Math.round(readRate).toLocaleString('en')} reads/s (${Math.round(1e6 / readRate).toLocaleString('en')} µs a read) | — |`,
      `| history read from \`launch_tx\` + first render (each page's way before the publisher took the collector's transaction cache) | ${us(readFirstRate)} | — |`,
      `| history from the collector's transaction cache (held) + first render (the publisher's way now: publish.ts writeSiteFiles \`txs\`) | ${us(cachedFirstRate)} | — |`,
      `| render again after each trade (the collector's way, as above) + atomic write, durable per chunk: the collector's way (SiteWriteBatch: each file put in place by the writer threads while the next page renders, one syncfs per ${SITE_WRITE_CHUNK} pages asked of their helper) | ${Math.round(resumedWriteRate).toLocaleString('en')} pages/s | ≥ 5,000 pages/s: ${ok(resumedWriteRate >= 5000)} |`,
      `| baseline: the same, each file put in place on the rendering thread and \`sync -f\` started from the process per ${SITE_WRITE_CHUNK} pages (the collector's way before its writer threads) | ${Math.round(inlineWriteRate).toLocaleString('en')} pages/s | the writer threads: ${(resumedWriteRate / inlineWriteRate).toFixed(2)} × this |`,
      `| render (first) + atomic write (temporary file, fsync, rename), one at a time (writeFileAtomic) | ${Math.round(writeRate).toLocaleString('en')} pages/s | ≥ 5,000 pages/s: ${ok(writeRate >= 5000)} |`,
      `| render (first) + atomic write grouped, ${BATCH} pages a batch (writeFilesAtomic: temporary file written, fsynced and renamed, ${WRITE_IN_FLIGHT} files at once, then one fsync of the folder) | ${Math.round(overlapRate).toLocaleString('en')} pages/s | ≥ 5,000 pages/s: ${ok(overlapRate >= 5000)} |`,
      `| render (first) + atomic write, durable per chunk: the collector's way (SiteWriteBatch: temporary file + rename per page, then one syncfs — \`sync -f\` — for ${SITE_WRITE_CHUNK} pages) | ${Math.round(chunkRate).toLocaleString('en')} pages/s | ≥ 5,000 pages/s: ${ok(chunkRate >= 5000)} |`,
      ...(ramWriteRate !== null && ramFloorRate !== null
        ? [
            `| the same as the collector's way above (render again after each trade + SiteWriteBatch), the files on a RAM filesystem (/dev/shm, tmpfs): the code's own rate, apart from this machine's disk | ${Math.round(ramWriteRate).toLocaleString('en')} pages/s | ≥ 5,000 pages/s: ${ok(ramWriteRate >= 5000)} on tmpfs; not the disk's |`,
            `| RAM filesystem floor: the collector's chunked write alone (SiteWriteBatch to /dev/shm, ${SITE_WRITE_CHUNK} a chunk) | ${Math.round(ramFloorRate).toLocaleString('en')} files/s | — |`,
          ]
        : []),
      `| disk floor: the atomic write alone (no render), one at a time | ${Math.round(floorRate).toLocaleString('en')} files/s | — |`,
      `| disk floor: the collector's chunked write alone (SiteWriteBatch, ${SITE_WRITE_CHUNK} a chunk, one syncfs) | ${Math.round(chunkFloorRate).toLocaleString('en')} files/s | — |`,
      `| disk floor: the grouped atomic write alone (writeFilesAtomic, ${BATCH} a batch) | ${Math.round(overlapFloorRate).toLocaleString('en')} files/s | — |`,
      `| disk floor without the fsync (temporary file + rename), one at a time | ${Math.round(noSyncRate).toLocaleString('en')} files/s | — |`,
      `| page size (HTML with its SVG) | ${(bytes / 1024).toFixed(1)} KB (SVG ${(svg / 1024).toFixed(1)} KB) | ≤ 60 KB: ${ok(bytes <= 60 * 1024)} |`,
      `| page size, gzip | ${(gz / 1024).toFixed(1)} KB | ≤ 15 KB: ${ok(gz <= 15 * 1024)} |`,
      ...hyped.map((h) => `| a launch that drew attention, ${h.early} first-30-s buyers (4 bundled; tests/helpers/hyped-launch.ts): token page size, gzip; first render | ${(h.bytes / 1024).toFixed(1)} KB, ${(h.gz / 1024).toFixed(1)} KB gzip; ${Math.round(h.rate).toLocaleString('en')} pages/s | ≤ 60 KB: ${ok(h.bytes <= 60 * 1024)}; ≤ 15 KB gzip: ${ok(h.gz <= 15 * 1024)} |`),
      ...hyped.map((h) => `| the first-30-seconds page of the launch of ${h.early} first-30-s buyers (every buyer and trade of its first 30 s, linked from its token page; not a page the bar names) | ${(h.earlyBytes / 1024).toFixed(1)} KB, ${(h.earlyGz / 1024).toFixed(1)} KB gzip | — |`),
      '',
      `Render plus write is bounded by the write alone (the two measured seconds apart on a disk whose rate swings by 2 × within minutes here, so either may come out ahead): in this run the disk took ${Math.round(floorRate).toLocaleString('en')} atomic writes a second one at a time and ${Math.round(overlapFloorRate).toLocaleString('en')} with ${WRITE_IN_FLIGHT} in flight (each file fsynced before its rename), ${Math.round(chunkFloorRate).toLocaleString('en')} the collector's way (no fsync per file; one syncfs per ${SITE_WRITE_CHUNK}, before the records' marks are cleared: the same crash-safety), ${Math.round(noSyncRate).toLocaleString('en')} without any sync${Math.max(floorRate, overlapFloorRate, chunkFloorRate) < 5000 ? `, so 5,000 pages a second written is not reachable on this disk, whatever the render costs${noSyncRate < 5000 ? ' (nor without any sync: creating and filling a file of this size is itself below that rate here)' : ''}` : ''}.${
        ramWriteRate !== null && ramFloorRate !== null
          ? ` The same code writing to a RAM filesystem (/dev/shm) in the same run: ${Math.round(ramWriteRate).toLocaleString('en')} pages a second rendered and written the collector's way, against ${Math.round(resumedWriteRate).toLocaleString('en')} on this disk, and ${Math.round(ramFloorRate).toLocaleString('en')} files a second written alone: the gap is the disk's (a virtual disk here), not the render's or the write's code.`
          : ''
      }`,
      '',
      // the load at the start: the end's counts this bench's own writer threads
      ...(loadAtStart > cpus().length
        ? [`**The load average (${loadAtStart.toFixed(1)}) exceeded the ${cpus().length} cores when this started: these figures measure a contended machine (other processes took most of the CPU and the disk); compare them only with figures taken under a similar load.**`, '']
        : []),
      `The curve above has few first-30-s buyers. A launch that draws attention on mainnet has tens to hundreds, and each is a row of six facts with links (about 0.8 KB of HTML, a card of six lines on a phone; the transactions are linked by their full signatures, 87–88 characters, as on chain). Until template 12 the token page carried every one of them (the largest ${EARLY_TABLE_ROWS} in the table, the others in a folded list) and every trade of the buyer timeline in a folded table: 64.2 KB for 30 buyers, 166.3 KB (55.6 KB gzip) for 300. Now it keeps the ${EARLY_TABLE_ROWS} largest and the chart, and a launch with more than ${EARLY_TABLE_ROWS} buyers or ${TIMELINE_TABLE_ROWS} trades in its timeline has a first-30-seconds page (\`t/{mint}.early.html\`, render/early-page.ts) with all of them, linked: the token page stays one size however many bought, and no evidence leaves the site.`,
      '',
      `A page needs its launch's history (the decoded transactions: its charts and first-30-s wallets). Read back from \`launch_tx\`, ${txs.length.toLocaleString('en')} rows of JSON parsed one by one, it costs ${Math.round(1e6 / readRate).toLocaleString('en')} µs, ${(1e6 / readRate / (1e6 / firstRate)).toFixed(0)} times the first render: the collector's publisher did that for every page it wrote until it took the lists from the transaction cache the collector records the launches with (src/ingest/tx-cache.ts; a mint not held is read once into it). The rows above without a read start from the transactions in memory.`,
      '',
      WHERE_THE_TIME_GOES,
      '',
      `For scale: a plain loop of 1e8 integer additions took ${loop.toFixed(2)} s of CPU time in this process, and creating, filling and renaming a new file of the page's size without an fsync ran at ${Math.round(noSyncRate).toLocaleString('en')} files a second (above). Compare the figures only with figures taken on the same machine under a similar load.`,
    ].join('\n');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** `tsx bench/pages.ts`: this section alone, printed (docs/benchmarks.md is not written). */
if (import.meta.url === `file://${process.argv[1]}`) {
  benchPages().then((s) => process.stdout.write(s + '\n'));
}
