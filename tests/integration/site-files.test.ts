/**
 * Static pages and documents (README "Crash safety"): written from the records marked pending in
 * the same SQLite transaction that changed them; a mark is cleared only for the document that was
 * written, so a record changed by another process after the read keeps it. The long-running
 * collector writes them at most every LIVE_SITE_WRITE_MS: the pages of its last commit are written
 * without any further notification, and those still waiting when it stops are written at stop.
 * After a killed run, the next start removes the temporary files its page writes left.
 * A simulated chain served live by the replay RPC; the test lands its slots.
 */
import { closeSiteWriters } from '../../src/ingest/site-writers.ts';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeChain } from '../../devchain/simulate/write-chain.ts';
import type { SimulatedChain } from '../../devchain/simulate/chain.ts';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { collect, LIVE_SITE_WRITE_MS } from '../../collector/collect.ts';
import { writeSiteFiles } from '../../src/ingest/publish.ts';
import { TransactionCache } from '../../src/ingest/tx-cache.ts';
import { CREATOR_PAGE_ROWS, creatorPageOptions, renderCreatorPage } from '../../src/render/creator-page.ts';
import { FSYNC_EACH_UP_TO, PUBLIC_DIR, SITE_ASSETS, settledMarkerPath, sitePaths } from '../../src/ingest/write-site.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { createArchiveRpc } from '../../src/chain/rpc.ts';
import { sleep } from '../helpers/net.ts';
import { deadPid } from '../helpers/processes.ts';

let tmp: string;
let chain: SimulatedChain;
let rpc: ReplayRpc;
let creations: { mint: string; slot: number }[];

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-site-files-'));
  chain = writeChain({ launches: 30, seed: 77, out: join(tmp, 'chain') });
  // Live, with a clock too slow to move by itself: the test lands slots with advanceTo.
  rpc = await startReplayRpc({ chainDir: join(tmp, 'chain'), live: true, speed: 1e-6 });
  creations = Object.entries(chain.truth.records).map(([mint, t]) => ({ mint, slot: t.creationSlot })).sort((a, b) => a.slot - b.slot);
}, 120_000);

afterAll(async () => {
  await rpc?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const until = async (what: string, ok: () => boolean, ms = 20_000) => {
  for (const t0 = Date.now(); !ok(); await sleep(5)) if (Date.now() - t0 > ms) throw new Error(`${what} within ${ms} ms`);
};

describe('static pages and documents', () => {
  it('long-running: the last commit\'s pages are written without another notification (paced by LIVE_SITE_WRITE_MS, not by the poll); pages still waiting are written at stop', async () => {
    const config = loadConfig({ DATA_DIR: join(tmp, 'live'), SOLANA_RPC_URL: rpc.url, SOLANA_WS_URL: rpc.wsUrl, COLLECT_START: 'earliest', POLL_INTERVAL_MS: '600000', LOG_LEVEL: 'silent' });
    const store = new PublicStore(config.publicDbPath);
    const ac = new AbortController();
    let commits = 0;
    let pendingAtAbort: boolean | null = null;
    let abortAfter = Infinity;
    const running = collect({ config, store, rpc: createArchiveRpc({ url: rpc.url }), log: createLogger('silent') }, {
      once: false,
      wsUrl: rpc.wsUrl,
      signal: ac.signal,
      onBatch: () => {
        commits++;
        if (commits >= abortAfter && pendingAtAbort === null) {
          pendingAtAbort = store.hasPendingPages();
          ac.abort();
        }
      },
    });
    await until('subscribed', () => (rpc.stats.calls.logsSubscribe ?? 0) > 0);
    const page = (mint: string) => sitePaths(config.siteDir, mint).document;

    // 1. One launch lands; nothing else happens. Its record is committed, and its files follow by themselves.
    const first = creations[0]!;
    rpc.advanceTo(first.slot);
    await until('first record committed', () => store.getLaunch(first.mint) !== undefined);
    // without the wake for pending pages it would wait for the next notification or the 10-minute poll
    await until('first page written', () => existsSync(page(first.mint)), 20 * LIVE_SITE_WRITE_MS);
    await until('marks cleared', () => !store.hasPendingPages());
    expect(readFileSync(page(first.mint), 'utf8')).toBe(store.getLaunch(first.mint)!.document);

    // 2. Two more launches land one after the other, within a second of the last write: the
    // second commit comes before its pages are due; the collector is stopped right after it.
    const second = creations.find((c) => c.slot > first.slot)!;
    const third = creations.find((c) => c.slot > second.slot)!;
    const commitsBefore = commits;
    abortAfter = commitsBefore + 2;
    rpc.advanceTo(second.slot);
    await until('second commit', () => commits > commitsBefore);
    rpc.advanceTo(third.slot);
    await running;
    expect(pendingAtAbort).toBe(true); // the last commit's pages were still to be written when it stopped
    expect(store.hasPendingPages()).toBe(false);
    const held = store.db.prepare('SELECT mint, document FROM launch').all() as { mint: string; document: string }[];
    expect(held.map((r) => r.mint)).toContain(second.mint);
    for (const r of held) {
      expect(readFileSync(page(r.mint), 'utf8'), r.mint).toBe(r.document);
      expect(existsSync(sitePaths(config.siteDir, r.mint).page)).toBe(true);
    }
    // the pages' stylesheet, the icon and robots.txt sit beside them, byte for byte as in public/, for a CDN serving the site folder
    expect(SITE_ASSETS).toEqual(['site.css', 'favicon.ico', 'robots.txt']);
    for (const name of SITE_ASSETS) expect(readFileSync(join(config.siteDir, name)).equals(readFileSync(join(PUBLIC_DIR, name))), name).toBe(true);
    store.close();
  }, 60_000);

  it('a mark is cleared only for the document written: a record changed after the read keeps it', async () => {
    const dataDir = join(tmp, 'marks');
    const config = loadConfig({ DATA_DIR: dataDir, SOLANA_RPC_URL: rpc.url, COLLECT_START: 'earliest', LOG_LEVEL: 'silent' });
    const store = new PublicStore(config.publicDbPath);
    await collect({ config, store, rpc: createArchiveRpc({ url: rpc.url }), log: createLogger('silent') }, { once: true });
    const mint = creations[0]!.mint;
    const held = store.getLaunch(mint)!;
    expect(store.hasPendingPages()).toBe(false);
    const mark = () => store.db.prepare('INSERT OR IGNORE INTO pending_page (mint) VALUES (?)').run(mint);

    mark();
    store.clearPending(new Map([[mint, 'a document read before the record changed']]));
    expect(store.pendingPages()).toEqual([mint]);
    store.clearPending(new Map([[mint, undefined]])); // read when not held: it is held now
    expect(store.pendingPages()).toEqual([mint]);
    store.clearPending(new Map([[mint, held.sha256]]));
    expect(store.pendingPages()).toEqual([]);

    const gone = 'So11111111111111111111111111111111111111112';
    store.db.prepare('INSERT INTO pending_page (mint) VALUES (?)').run(gone);
    store.clearPending(new Map([[gone, undefined]])); // not held then, not held now
    expect(store.pendingPages()).toEqual([]);

    mark();
    expect(writeSiteFiles(store, config, createLogger('silent'))).toBe(1);
    expect(store.pendingPages()).toEqual([]);
    expect(readFileSync(sitePaths(config.siteDir, mint).document, 'utf8')).toBe(held.document);
    store.close();
  }, 60_000);

  it('files reach the disk before their marks are cleared, and a settled record\'s marker only after its page and document did', async () => {
    rpc.advanceTo(creations[FSYNC_EACH_UP_TO + 4]!.slot); // enough launches landed for the chunks below
    const dataDir = join(tmp, 'durable');
    const config = loadConfig({ DATA_DIR: dataDir, SOLANA_RPC_URL: rpc.url, COLLECT_START: 'earliest', LOG_LEVEL: 'silent' });
    const store = new PublicStore(config.publicDbPath);
    await collect({ config, store, rpc: createArchiveRpc({ url: rpc.url }), log: createLogger('silent') }, { once: true });
    const mints = store.db.prepare('SELECT mint FROM launch ORDER BY mint').pluck().all() as string[];
    // more markers than a commit fsyncs one by one (FSYNC_EACH_UP_TO), so the markers' commit runs sync too
    const settled = mints.slice(0, FSYNC_EACH_UP_TO + 1);
    expect(mints.length).toBeGreaterThan(settled.length);
    store.db.prepare('UPDATE launch SET settled = (mint IN (SELECT value FROM json_each(?)))').run(JSON.stringify(settled));
    rmSync(join(config.siteDir, 't'), { recursive: true, force: true });
    rmSync(join(config.siteDir, 'settled'), { recursive: true, force: true });
    for (const m of mints) store.db.prepare('INSERT OR IGNORE INTO pending_page (mint) VALUES (?)').run(m);
    // a stand-in `sync` (first on PATH) noting, when the collector asks for durability, what is in
    // place and how many marks are still set (read from another connection: what a crash would leave)
    const bin = join(dataDir, 'bin');
    const log = join(dataDir, 'sync.log');
    mkdirSync(bin, { recursive: true });
    const sqlite = resolve('node_modules/better-sqlite3');
    writeFileSync(
      join(bin, 'sync'),
      `#!/usr/bin/env node
const fs = require('node:fs');
const db = new (require(${JSON.stringify(sqlite)}))(${JSON.stringify(config.publicDbPath)}, { readonly: true });
const ls = (d) => { try { return fs.readdirSync(d).filter((n) => !n.startsWith('.')).length; } catch { return 0; } };
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ args: process.argv.slice(2), pages: ls(${JSON.stringify(join(config.siteDir, 't'))}), markers: ls(${JSON.stringify(join(config.siteDir, 'settled'))}), marks: db.prepare('SELECT count(*) FROM pending_page').pluck().get() }) + '\\n');
`,
      { mode: 0o755 },
    );
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    await closeSiteWriters(); // the writers' helper reads PATH when it starts
    try {
      expect(writeSiteFiles(store, config, createLogger('silent'))).toBe(mints.length);
    } finally {
      process.env.PATH = path;
      await closeSiteWriters();
    }
    const calls = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { args: string[]; pages: number; markers: number; marks: number });
    // one chunk: its pages and documents made durable, then its markers, each while every mark is still set
    expect(calls.slice(0, 2)).toEqual([
      { args: ['-f', '--', expect.stringContaining(config.siteDir)], pages: mints.length, markers: 0, marks: mints.length },
      { args: ['-f', '--', dirname(settledMarkerPath(config.siteDir, settled[0]!))], pages: mints.length, markers: settled.length, marks: mints.length },
    ]);
    expect(store.pendingPages()).toEqual([]);
    for (const m of settled) expect(existsSync(settledMarkerPath(config.siteDir, m))).toBe(true);
    store.close();
  }, 60_000);

  it('a bounded write (untilMs, the long-running form) starts no page past its time and leaves the rest marked; marks are taken oldest first', async () => {
    const dataDir = join(tmp, 'bounded');
    const config = loadConfig({ DATA_DIR: dataDir, SOLANA_RPC_URL: rpc.url, COLLECT_START: 'earliest', LOG_LEVEL: 'silent' });
    const store = new PublicStore(config.publicDbPath);
    await collect({ config, store, rpc: createArchiveRpc({ url: rpc.url }), log: createLogger('silent') }, { once: true });
    const mints = (store.db.prepare('SELECT mint FROM launch ORDER BY mint').pluck().all() as string[]).slice(0, 3);
    expect(mints).toHaveLength(3);
    expect(store.hasPendingPages()).toBe(false);
    // marked last-first: the oldest mark is listed first, not the smallest mint
    const marked = [...mints].reverse();
    for (const m of marked) store.db.prepare('INSERT OR IGNORE INTO pending_page (mint) VALUES (?)').run(m);
    store.db.prepare('INSERT OR IGNORE INTO pending_page (mint) VALUES (?)').run(marked[0]); // marked again: keeps its place
    expect(store.pendingPages()).toEqual(marked);
    for (const m of mints) rmSync(sitePaths(config.siteDir, m).document, { force: true });
    // the marks a pass reads, a page (marksRead) at a time
    const read: number[] = [];
    const readMarks = store.pendingPagesAfter.bind(store);
    store.pendingPagesAfter = (after, limit) => {
      const marks = readMarks(after, limit);
      read.push(marks.length);
      return marks;
    };
    // a time already past: nothing is written, every mark stays, and only the first page of marks was read
    expect(writeSiteFiles(store, config, createLogger('silent'), { untilMs: performance.now() - 1, marksRead: 2 })).toBe(0);
    expect(read).toEqual([2]);
    expect(store.pendingPages()).toEqual(marked);
    for (const m of mints) expect(existsSync(sitePaths(config.siteDir, m).document)).toBe(false);
    // unbounded, two marks a read: all of them, oldest first
    read.length = 0;
    expect(writeSiteFiles(store, config, createLogger('silent'), { marksRead: 2 })).toBe(3);
    expect(read).toEqual([2, 1]);
    expect(store.pendingPages()).toEqual([]);
    for (const m of mints) expect(existsSync(sitePaths(config.siteDir, m).document)).toBe(true);
    store.close();
  }, 60_000);

  it('pages written with the collector\'s transaction cache read no history back from launch_tx, and are the same bytes', async () => {
    rpc.advanceTo(creations[4]!.slot); // at least five launches landed (a no-op when the clock is already past)
    const dataDir = join(tmp, 'cached');
    const config = loadConfig({ DATA_DIR: dataDir, SOLANA_RPC_URL: rpc.url, COLLECT_START: 'earliest', LOG_LEVEL: 'silent' });
    const store = new PublicStore(config.publicDbPath);
    const reads: string[] = [];
    const read = store.transactionsAndBytesFor.bind(store);
    store.transactionsAndBytesFor = (mint: string) => {
      reads.push(mint);
      return read(mint);
    };
    // the collector writes every record's page from the lists it recorded them with: a mint's
    // history is read from the store at most once in the run (into its cache), not again per page
    await collect({ config, store, rpc: createArchiveRpc({ url: rpc.url }), log: createLogger('silent') }, { once: true });
    const all = store.db.prepare('SELECT mint FROM launch ORDER BY mint').pluck().all() as string[];
    for (const m of all) expect(existsSync(sitePaths(config.siteDir, m).page)).toBe(true);
    expect(reads.length).toBe(new Set(reads).size);
    reads.length = 0;
    const mints = all.slice(0, 4);
    expect(mints).toHaveLength(4);
    const markAll = () => { for (const m of mints) store.db.prepare('INSERT OR IGNORE INTO pending_page (mint) VALUES (?)').run(m); };
    const pages = () => mints.map((m) => readFileSync(sitePaths(config.siteDir, m).page, 'utf8'));
    // without a cache: every page reads its launch's history
    markAll();
    expect(writeSiteFiles(store, config, createLogger('silent'))).toBe(4);
    expect(reads).toEqual(mints);
    const fromStore = pages();
    // with one: the first write of a mint not held reads it once, later writes none
    const txs = new TransactionCache();
    reads.length = 0;
    for (const m of mints) rmSync(sitePaths(config.siteDir, m).page);
    markAll();
    expect(writeSiteFiles(store, config, createLogger('silent'), { txs })).toBe(4);
    expect(reads).toEqual(mints);
    expect(pages()).toEqual(fromStore);
    reads.length = 0;
    for (const m of mints) rmSync(sitePaths(config.siteDir, m).page);
    markAll();
    expect(writeSiteFiles(store, config, createLogger('silent'), { txs })).toBe(4);
    expect(reads).toEqual([]);
    expect(pages()).toEqual(fromStore);
    store.close();
  }, 60_000);

  it('every creator page written equals its render from the records after they changed again: no change a page shows goes unmarked', async () => {
    // a replay of its own: half of the chain landed, collected; then the rest (later trades rewrite
    // those records: marks now follow only role and summary changes, tests/unit/wallet-page.test.ts)
    const own = await startReplayRpc({ chainDir: join(tmp, 'chain'), live: true, speed: 1e-6 });
    try {
      const config = loadConfig({ DATA_DIR: join(tmp, 'creator-pages'), SOLANA_RPC_URL: own.url, COLLECT_START: 'earliest', LOG_LEVEL: 'silent' });
      const store = new PublicStore(config.publicDbPath);
      own.advanceTo(creations[Math.floor(creations.length / 2)]!.slot + 1);
      await collect({ config, store, rpc: createArchiveRpc({ url: own.url }), log: createLogger('silent') }, { once: true });
      const early = new Map(readdirSync(join(config.siteDir, 'w')).map((f) => [f, readFileSync(join(config.siteDir, 'w', f), 'utf8')]));
      own.advanceTo(Math.max(...chain.transactions.map((t) => (JSON.parse(t) as { slot: number }).slot)));
      await collect({ config, store, rpc: createArchiveRpc({ url: own.url }), log: createLogger('silent') }, { once: true });
      const files = readdirSync(join(config.siteDir, 'w')).filter((f) => f.endsWith('.html'));
      expect(files.length).toBeGreaterThan(early.size);
      for (const f of files) {
        const wallet = f.slice(0, -'.html'.length);
        expect(readFileSync(join(config.siteDir, 'w', f), 'utf8'), wallet).toBe(renderCreatorPage(wallet, store.walletPage(wallet, CREATOR_PAGE_ROWS), creatorPageOptions(config)));
      }
      store.close();
    } finally {
      await own.close();
    }
  }, 60_000);

  it('the start after a killed run removes the temporary files a dead writer left; after a clean stop nothing is swept', async () => {
    const config = loadConfig({ DATA_DIR: join(tmp, 'killed'), SOLANA_RPC_URL: rpc.url, COLLECT_START: 'earliest', LOG_LEVEL: 'silent' });
    const store = new PublicStore(config.publicDbPath);
    store.startRun(Date.now() - 60_000, null); // a run that never stopped: killed
    const leftover = `.${deadPid().toString(36)}-0badf00d-0.tmp`;
    const another = `.${process.pid.toString(36)}-0badf00d-1.tmp`; // a writer still running
    for (const sub of ['t', 'd']) {
      mkdirSync(join(config.siteDir, sub), { recursive: true });
      writeFileSync(join(config.siteDir, sub, leftover), 'half');
    }
    writeFileSync(join(config.siteDir, 'd', another), 'in flight');
    const run = () => collect({ config, store, rpc: createArchiveRpc({ url: rpc.url }), log: createLogger('silent') }, { once: true });
    await run();
    const names = (sub: string) => readdirSync(join(config.siteDir, sub)).filter((n) => n.startsWith('.'));
    expect(names('t')).toEqual([]);
    expect(names('d')).toEqual([another]);
    expect(readdirSync(join(config.siteDir, 'd')).filter((n) => n.endsWith('.json')).length).toBeGreaterThan(0);
    writeFileSync(join(config.siteDir, 't', leftover), 'half');
    await run(); // the run before stopped cleanly
    expect(names('t')).toEqual([leftover]);
    store.close();
  }, 60_000);
});
