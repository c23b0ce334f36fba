/**
 * Page figures for `npm run bench` (issue 23): how many token pages per second the template renders
 * (render alone, and render plus the atomic write the collector does), and how large a page with its
 * three SVG charts is, over a 2,000-trade curve. The curve is a launch the real collector recorded
 * from a simulated chain, its latest trade cloned up to 2,000 trades (new signatures, later slots,
 * the curve's reserves growing). Returns a markdown section.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { writeChain } from '../devchain/simulate/write-chain.ts';
import { startReplayRpc } from '../devchain/replay/server.ts';
import { collect } from '../collector/collect.ts';
import { writeFileAtomic } from '../src/ingest/write-site.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { PublicStore } from '../src/db/public-store.ts';
import { createArchiveRpc } from '../src/chain/rpc.ts';
import type { DecodedTransaction, LaunchDocument } from '../src/core/types.ts';
import { renderTokenPage, tokenPageOptions } from '../src/render/token-page.ts';
import { chartSeries, clearChartSeriesCache } from '../src/render/chart-data.ts';
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
    // the same record rendered again (the server's fallback until the file is written): the series remembered
    const renderRate = rate(() => renderTokenPage(doc, opts));
    const series = chartSeries(doc, txs);
    const htmlRate = rate(() => renderTokenPage(doc, { ...opts, series }));
    const seriesRate = rate(() => chartSeries(doc, txs));
    const out = join(tmp, 'site', 't', `${doc.mint}.html`);
    const writeRate = rate(() => {
      clearChartSeriesCache();
      writeFileAtomic(out, renderTokenPage(doc, opts));
    });
    const ok = (b: boolean) => (b ? 'met' : '**not met**');
    return [
      '## Token pages',
      '',
      `The token page template (src/render/token-page.ts with its three SVG charts) over a ${TRADES.toLocaleString('en')}-trade curve (${txs.length.toLocaleString('en')} transactions held; a collected simulated launch with first-30-s buyers whose latest buy is cloned), one process, median of ${ROUNDS} rounds of ${ROUND_MS / 1000} s; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores when it ran.`,
      '',
      '| measure | figure | target |',
      '|---|---|---|',
      `| render alone, a record's first render (series from the decoded transactions + HTML) | ${Math.round(firstRate).toLocaleString('en')} pages/s | ≥ 5,000 pages/s: ${ok(firstRate >= 5000)} |`,
      `| render alone, the same record again (series remembered: chartSeriesCached) | ${Math.round(renderRate).toLocaleString('en')} pages/s | ≥ 5,000 pages/s: ${ok(renderRate >= 5000)} |`,
      `| of which: chart series from the transactions alone | ${Math.round(seriesRate).toLocaleString('en')} series/s | — |`,
      `| of which: HTML from a computed series | ${Math.round(htmlRate).toLocaleString('en')} pages/s | — |`,
      `| render (first) + atomic write (temporary file, fsync, rename) | ${Math.round(writeRate).toLocaleString('en')} pages/s | ≥ 5,000 pages/s: ${ok(writeRate >= 5000)} |`,
      `| page size (HTML with its SVG) | ${(bytes / 1024).toFixed(1)} KB (SVG ${(svg / 1024).toFixed(1)} KB) | ≤ 60 KB: ${ok(bytes <= 60 * 1024)} |`,
      `| page size, gzip | ${(gz / 1024).toFixed(1)} KB | ≤ 15 KB: ${ok(gz <= 15 * 1024)} |`,
      '',
      'The publish step also reads the launch\'s transactions from `launch_tx` (JSON per row) before it renders; that read is not in these figures.',
    ].join('\n');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** `tsx bench/pages.ts`: this section alone, printed (docs/benchmarks.md is not written). */
if (import.meta.url === `file://${process.argv[1]}`) {
  benchPages().then((s) => process.stdout.write(s + '\n'));
}
