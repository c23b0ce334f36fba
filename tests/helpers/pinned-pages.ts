/**
 * A fixed set of token pages for the render regression test (tests/unit/render-pinned.test.ts):
 * every kind of collected record of tests/helpers/page-records.ts (with its transactions, as the
 * collector renders it), the hostile record with the browser test's hostile name, symbol and URI,
 * the benchmark's 2,000-trade curve (bench/pages.ts `longCurve`), documents stated by the test
 * (tests/helpers/launch-doc.ts, no transactions), and synthetic 2,000-trade curves built from
 * tests/helpers/synthetic-launch.ts (reserves from the events, reserves summed from the trades, a
 * USDC quote, completion and migration). Every input is deterministic: fixed seeds, fixed clocks,
 * fixed addresses and signatures, so the same template gives the same bytes run after run.
 */
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { instant } from '../../src/core/canonical.ts';
import type { DecodedTransaction, LaunchDocument } from '../../src/core/types.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { analyzeLaunch } from '../../src/core/record/build-launch.ts';
import { classifyLaunch } from '../../src/core/record/classify.ts';
import { renderTokenPage, tokenPageOptions, type TokenPageOptions } from '../../src/render/token-page.ts';
import { CREATOR_PAGE_ROWS, creatorPageOptions, renderCreatorPage } from '../../src/render/creator-page.ts';
import { clearChartSeriesCache } from '../../src/render/chart-data.ts';
import { USDC_MINT } from '../../src/render/units.ts';
import { longCurve } from '../../bench/pages.ts';
import { buildPageRecords, type PageKind, type PageRecords } from './page-records.ts';
import { launchDoc } from './launch-doc.ts';
import { complete, createEvent, migration, trade, tx, OWN_FUNDERS } from './synthetic-launch.ts';

/** The browser test's hostile metadata (tests/browser/token-pages.test.ts). */
export const HOSTILE_NAME = '<script>window.__xss=1</script>"><img src=x onerror="window.__xss=2">evil\u202Egnp.exe' + 'N'.repeat(10_240);
export const HOSTILE_SYMBOL = '"><img onerror=alert(1)>';

const OPTS = { explorerTxUrl: 'https://solscan.io/tx/', baseUrl: 'https://archive.example' };
const SHA = 'ab'.repeat(32);

const MINT = 'MintAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAApump';
const CREATOR = 'Creator1111111111111111111111111111111111';
const A = 'WalletA111111111111111111111111111111111111';
const B = 'WalletB111111111111111111111111111111111111';
const C = 'WalletC111111111111111111111111111111111111';
const T0 = 1_785_000_000;
const NO_FUNDER = OWN_FUNDERS;

/** A synthetic launch with `trades` later trades; `reserves` false: the era without real reserves in its events. */
function syntheticCurve(opts: { trades: number; reserves: boolean; quoteMint?: string; graduate: boolean }): { doc: LaunchDocument; txs: DecodedTransaction[] } {
  const q = opts.quoteMint ? { quote_mint: opts.quoteMint } : {};
  // (a quote_amount of '0' here overwrote every trade's amount: the USDC page showed "0 USDC" throughout)
  const real = (n: bigint): Record<string, unknown> => (opts.reserves ? (opts.quoteMint ? { real_quote_reserves: n.toString() } : { real_sol_reserves: n.toString() }) : {});
  const amt = (sol: bigint): Record<string, unknown> => (opts.quoteMint ? { quote_amount: sol.toString() } : {});
  const ev = (user: string, buy: boolean, tokens: bigint, sol: bigint, r: bigint) => trade(MINT, user, buy, tokens, sol, { ...q, ...amt(sol), ...real(r) });
  let k = 0;
  const s = (label: string) => `${label}${(k++).toString(36).padStart(8, '0')}`.padEnd(88, 'x');
  const txs: DecodedTransaction[] = [
    tx({ signature: s('create'), slot: 100, blockTime: T0, events: [createEvent(MINT, CREATOR, opts.quoteMint ? { quote_mint: opts.quoteMint } : {}), ev(CREATOR, true, 100_000_000_000_000n, 3n * 10n ** 9n, 3n * 10n ** 9n)] }),
    tx({ signature: s('bundle'), slot: 100, blockTime: T0, events: [ev(A, true, 50_000_000_000_000n, 2n * 10n ** 9n, 5n * 10n ** 9n)] }),
    tx({ signature: s('early'), slot: 110, blockTime: T0 + 5, events: [ev(B, true, 20_000_000_000_000n, 10n ** 9n, 6n * 10n ** 9n)] }),
    tx({ signature: s('early'), slot: 111, blockTime: T0 + 5, events: [ev(C, true, 1_000_000n, 123_456_789n, 6_123_456_789n)] }),
    tx({ signature: s('sell'), slot: 120, blockTime: T0 + 10, events: [ev(CREATOR, false, 40_000_000_000_000n, 10n ** 9n, 5_123_456_789n)] }),
    tx({ signature: s('failed'), slot: 121, blockTime: T0 + 11, err: { InstructionError: [0, 'Custom'] }, events: [] }),
  ];
  let r = 5_123_456_789n;
  for (let i = 0; i < opts.trades; i++) {
    const buy = i % 5 !== 4;
    const sol = BigInt(1_000_000 + ((i * 7919) % 97_000_000));
    r += buy ? sol : -sol / 2n;
    txs.push(tx({ signature: s('t'), slot: 200 + i * 3, blockTime: T0 + 40 + i * 7 + (i % 3), events: [ev(i % 2 ? A : C, buy, BigInt(1 + ((i * 104729) % 10 ** 13)), buy ? sol : sol / 2n, r)] }));
  }
  if (opts.graduate) {
    const end = 200 + opts.trades * 3 + 10;
    txs.push(tx({ signature: s('complete'), slot: end, blockTime: T0 + 40 + opts.trades * 7 + 5, events: [ev(B, true, 10n ** 12n, 10n ** 9n, r + 10n ** 9n), complete(MINT, B)] }));
    txs.push(tx({ signature: s('migrate'), slot: end + 50, blockTime: T0 + 40 + opts.trades * 7 + 30, events: migration(MINT, 'Pool111111111111111111111111111111111111111') }));
  }
  const doc = classifyLaunch(analyzeLaunch(MINT, txs, true, NO_FUNDER), { origin: 'observed', observedAtLaunch: true, asOfMs: (T0 + 40 + opts.trades * 7 + 3600) * 1000 });
  return { doc, txs };
}

/** One pinned page's input: its name, the document and the page options (transactions included). */
export interface PinnedInput {
  name: string;
  doc: LaunchDocument;
  opts: TokenPageOptions;
}

/**
 * The inputs of every pinned page, in a fixed order. `tmp` is a scratch folder (two simulated
 * chains are collected into it).
 */
export async function pinnedInputs(tmp: string, records?: PageRecords): Promise<PinnedInput[]> {
  const out: PinnedInput[] = [];
  const render = (name: string, doc: LaunchDocument, opts: TokenPageOptions) => out.push({ name, doc, opts });

  // the collected records, each with its transactions, as the collector's publish step renders them
  const rec = records ?? (await buildPageRecords(join(tmp, 'records')));
  const config = loadConfig({ DATA_DIR: rec.dataDir, LOG_LEVEL: 'silent' });
  const store = new PublicStore(config.publicDbPath);
  try {
    for (const kind of Object.keys(rec.mints).sort() as PageKind[]) {
      const row = store.getLaunch(rec.mints[kind])!;
      const doc = JSON.parse(row.document) as LaunchDocument;
      const txs = store.transactionsFor(rec.mints[kind]);
      render(`records/${kind}`, doc, tokenPageOptions(config, row.sha256, txs));
      if (kind === 'hostile') {
        const bad = { ...doc, name: HOSTILE_NAME, symbol: HOSTILE_SYMBOL, uri: 'javascript:window.__xss=3' };
        render('records/hostile-metadata', bad, tokenPageOptions(config, row.sha256, txs));
        render('records/hostile-metadata-demo', bad, tokenPageOptions({ ...config, DEMO: true, CONTACT_EMAIL: 'reports@archive.example' }, row.sha256, txs));
      }
      if (kind === 'FINDINGS') render('records/FINDINGS-no-transactions', doc, { ...OPTS, sha256: row.sha256 });
    }
  } finally {
    store.close();
  }

  // the benchmark's page: a collected launch, its latest buy cloned up to 2,000 trades
  const long = await longCurve(join(tmp, 'long'));
  render('bench/long-curve', long.doc, tokenPageOptions(long.config, long.sha256, long.txs));
  render('bench/long-curve-hostile', { ...long.doc, name: HOSTILE_NAME, symbol: HOSTILE_SYMBOL, uri: 'https://ipfs.io/ipfs/Qm"onmouseover="x' }, tokenPageOptions(long.config, long.sha256, long.txs));

  // synthetic 2,000-trade curves
  for (const [name, o] of [
    ['events-graduated', { trades: 2000, reserves: true, graduate: true }],
    ['trades-sum', { trades: 2000, reserves: false, graduate: false }],
    ['usdc-graduated', { trades: 2000, reserves: true, quoteMint: USDC_MINT, graduate: true }],
    ['short', { trades: 12, reserves: true, graduate: false }],
  ] as const) {
    const { doc, txs } = syntheticCurve(o);
    render(`synthetic/${name}`, doc, { ...OPTS, sha256: SHA, transactions: txs });
  }

  // documents stated by the test, without transactions
  const created = Date.parse('2026-10-01T10:00:00.000Z');
  const base = launchDoc(MINT, created, {}, CREATOR);
  render('doc/no-markers', base, { ...OPTS, sha256: SHA });
  render('doc/hostile', { ...base, name: '<script>alert(1)</script>', symbol: HOSTILE_SYMBOL, uri: 'javascript:alert(2)' }, { ...OPTS, sha256: SHA, contactEmail: 'a"b@example.com' });
  render('doc/unknown-no-launch', { ...base, launch: null, cleanAtBirth: null, finding: { class: 'UNKNOWN', label: 'Not established', why: 'The creation transaction is not held.' } }, { ...OPTS, sha256: SHA, transactions: [] });
  render(
    'doc/graduated-pool',
    {
      ...base,
      asOf: instant(created + 90_000),
      launch: { ...base.launch!, completed: true, completedAt: instant(created + 60_000), graduated: true, graduationConfirmedBy: 'pool', graduatedAt: instant(created + 61_000), secondsToGraduate: 61 },
      pool: {
        address: 'Pool111111111111111111111111111111111111111',
        program: 'pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA',
        baseMint: MINT,
        quoteMint: 'So11111111111111111111111111111111111111112',
        baseReserves: '206900000000000',
        quoteReserves: '84987654321',
        price: null,
        lpSupply: '4193388349286',
        asOf: instant(created + 90_000),
      },
    },
    { ...OPTS, sha256: SHA },
  );
  return out;
}

/**
 * Every pinned page, `[name, html]`, in a fixed order: the token pages of {@link pinnedInputs} (the
 * chart-series cache cleared before each render), then creator pages of the collected records'
 * wallets as the collector writes them (src/ingest/publish.ts writeCreatorFiles: PublicStore.walletPage
 * and renderCreatorPage), so a change to the creator page alone also changes the pinned bytes.
 */
export async function pinnedPages(tmp: string): Promise<[string, string][]> {
  const rec = await buildPageRecords(join(tmp, 'records'));
  const pages: [string, string][] = (await pinnedInputs(tmp, rec)).map(({ name, doc, opts }) => {
    clearChartSeriesCache();
    return [name, renderTokenPage(doc, opts)];
  });
  return [...pages, ...pinnedCreatorPages(rec)];
}

/** The creator pages of the collected records (tests/helpers/page-records.ts): a FINDINGS record's creator (also as the demo shows it), its bundled buyer, and the graduated record's buyout wallet. */
function pinnedCreatorPages(rec: PageRecords): [string, string][] {
  const config = loadConfig({ DATA_DIR: rec.dataDir, LOG_LEVEL: 'silent' });
  const store = new PublicStore(config.publicDbPath);
  try {
    const page = (wallet: string, demo = false) => {
      const data = store.walletPage(wallet, CREATOR_PAGE_ROWS);
      if (!data.roles.length) throw new Error(`no roles for ${wallet}`);
      return renderCreatorPage(wallet, data, creatorPageOptions(demo ? { ...config, DEMO: true, CONTACT_EMAIL: 'reports@archive.example' } : config));
    };
    return [
      ['creator/FINDINGS-creator', page(rec.creator)],
      ['creator/FINDINGS-bundled-buyer', page(rec.bundledWallet)],
      ['creator/FINDINGS-creator-demo', page(rec.creator, true)],
      ['creator/graduated-buyout-wallet', page(rec.buyoutWallet)],
    ];
  } finally {
    store.close();
  }
}
