/**
 * markers-v10 (docs/methodology.md "Multi-hop routes: the middle coin is no wallet's"): a curve hop
 * of PumpSwap's `multi_hop_swap` trades a wallet's coin only at the route's far end — what a buy
 * route delivers to `user_out_token_account`, what a sell route takes from `user_in_token_account`
 * (idl/2026-10 docs/instructions/MULTI_HOP_SWAP.md: "Coin A never touches the user's wallet"; FACTS
 * §1: "the middle coin nets to zero for the user"). A middle coin's hop is recorded as the route's
 * (MULTI_HOP_ROUTE: no wallet, never an outside buyer or the creator), and the far-end buy is the
 * wallet's that owns the delivering account (markers-v9's receiver rule, through the route). A
 * synthetic completion's pool part (PostCompleteBuyEvent) belongs to the buy it follows whatever
 * `user` it names; one that follows no buy makes the record claim nothing from its transaction.
 *
 * The transactions are built by hand in the decoder's output form (no fixture holds a route through
 * a curve of a coin another coin is quoted in); the real multi-hop fixture 28 is checked as well.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PublicStore } from '../../src/db/public-store.ts';
import { recordLaunch } from '../../src/ingest/record-launch.ts';
import { METHOD_VERSION } from '../../src/core/record/classify.ts';
import { canonicalJson, sha256Hex } from '../../src/core/canonical.ts';
import { analyzeLaunch } from '../../src/core/record/build-launch.ts';
import { classifyLaunch } from '../../src/core/record/classify.ts';
import { tradesOf } from '../../src/core/record/launch-events.ts';
import { decodeTransaction } from '../../src/core/decode/index.ts';
import { MULTI_HOP_ROUTE } from '../../src/core/programs.ts';
import type { DecodedEvent, DecodedTransaction, LaunchDocument } from '../../src/core/types.ts';
import { OWN_FUNDERS } from '../helpers/synthetic-launch.ts';
import { loadFixtureTransaction } from '../helpers/mainnet-fixtures.ts';

const A = 'AAAAcoinAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAApump'; // a SOL-quoted coin on its curve
const B = 'BBBBcoinBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBpump'; // a coin quoted in A, on its curve
const CA = 'CreatorOfA1111111111111111111111111111111111';
const U = 'RouteUser111111111111111111111111111111111111';
const W = 'OtherWallet11111111111111111111111111111111111';
const SOL = '11111111111111111111111111111111';
const T0 = 1_792_000_000;

const ev = (name: string, fields: Record<string, unknown>, outerIndex = 0): DecodedEvent => ({ program: 'pump', name, fields: fields as DecodedEvent['fields'], outerIndex, source: 'cpi' });
const tx = (signature: string, slot: number, blockTime: number, events: DecodedEvent[], extra: Partial<DecodedTransaction> = {}): DecodedTransaction => ({
  signature, slot, blockTime, err: null, accountKeys: [], signers: [], instructions: [], events, preTokenBalances: [], postTokenBalances: [],
  logsTruncated: false, fromLogsOnly: false, jitoTipLamports: '0', skipped: [], ...extra,
});
const create = (mint: string, creator: string, quote = SOL) => ev('CreateEvent', { name: 'T', symbol: 'T', uri: 'u', mint, bonding_curve: 'c', user: creator, creator, token_total_supply: '1000000000000000', quote_mint: quote, timestamp: String(T0) });
const trade = (mint: string, user: string, isBuy: boolean, tokens: bigint, quote: bigint, quoteMint: string, ix = 'multi_hop_swap') =>
  ev('TradeEvent', { mint, user, is_buy: isBuy, token_amount: String(tokens), sol_amount: quoteMint === SOL ? String(quote) : '0', quote_amount: String(quote), quote_mint: quoteMint, fee: '0', creator_fee: '0', ix_name: ix });
/** PumpSwap's multi_hop_swap at top level 0 and its pump CPI, as the decoder lists them. */
const route = (user: string, inAccount: string, outAccount: string): DecodedTransaction['instructions'] => [
  { program: 'pump_amm', name: 'multi_hop_swap', inner: false, path: '0', accounts: { user, user_in_token_account: inAccount, user_out_token_account: outAccount }, args: {} },
  { program: 'pump', name: 'multi_hop_curve_swap', inner: true, path: '0.0', accounts: { user, source_authority: user, source: inAccount, destination: 'dest' }, args: {} },
];
const balance = (account: string, mint: string, owner: string, amount: bigint) => ({ accountIndex: 1, account, mint, owner, amount: String(amount), decimals: 6 });

function record(mint: string, txs: DecodedTransaction[]): LaunchDocument {
  return classifyLaunch(analyzeLaunch(mint, txs, true, OWN_FUNDERS), { origin: 'observed', observedAtLaunch: true, asOfMs: (T0 + 3600) * 1000 });
}
const codes = (d: LaunchDocument) => d.flags.map((f) => f.code).sort();

describe('markers-v10: a multi-hop route through a coin is no wallet\'s trade of it', () => {
  it('SOL → A → B in A\'s creation slot: the route\'s user is not A\'s bundled buyer (its A went to B\'s curve)', () => {
    const creation = tx('sigCreateA', 100, T0, [create(A, CA), trade(A, CA, true, 10n ** 12n, 3n * 10n ** 7n, SOL, 'buy_v3')]);
    const hop = tx('sigRoute', 100, T0, [trade(A, U, true, 5n * 10n ** 13n, 2n * 10n ** 9n, SOL), trade(B, U, true, 7n * 10n ** 13n, 5n * 10n ** 13n, A)], {
      instructions: route(U, 'U-wsol', 'U-ata-of-B'),
      postTokenBalances: [balance('U-ata-of-B', B, U, 7n * 10n ** 13n)],
    });
    const trades = tradesOf(A, [creation, hop]);
    expect(trades.map((t) => [t.wallet, t.payer])).toEqual([[CA, undefined], [MULTI_HOP_ROUTE, U]]);
    const d = record(A, [creation, hop]);
    expect(d.launch!.bundledBuyers).toBe(0);
    expect(d.launch!.curveBuyers).toBe(0);
    expect(codes(d)).not.toContain('bundled_buyers');
    // B's record: the far-end coin, U's own buy (delivered to U's account), a buyer in B's creation slot if B were created there
    expect(tradesOf(B, [hop]).map((t) => t.wallet)).toEqual([U]);
  });

  it('the creator routes SOL → A → B in A\'s creation slot: it kept none of A (it was credited 60 % and creator_kept_majority)', () => {
    const creation = tx('sigCreateA2', 200, T0, [create(A, CA)]);
    const hop = tx('sigRoute2', 200, T0, [trade(A, CA, true, 6n * 10n ** 14n, 60n * 10n ** 9n, SOL), trade(B, CA, true, 7n * 10n ** 14n, 6n * 10n ** 14n, A)], {
      instructions: route(CA, 'CA-wsol', 'CA-ata-of-B'),
      postTokenBalances: [balance('CA-ata-of-B', B, CA, 7n * 10n ** 14n)],
    });
    const later = tx('sigLater', 900, T0 + 600, [trade(A, W, true, 10n ** 12n, 10n ** 8n, SOL, 'buy_v3')]);
    const d = record(A, [creation, hop, later]);
    expect(d.launch!.creatorTokensRaw).toBe('0');
    expect(codes(d)).not.toContain('creator_kept_majority');
    expect(d.launch!.curveBuyers).toBe(1); // W alone
  });

  it('the creator sells B → A → SOL 10 s after A\'s creation: it sold none of its A (it was creator_sold_at_birth)', () => {
    const creation = tx('sigCreateA3', 300, T0, [create(A, CA), trade(A, CA, true, 10n ** 13n, 3n * 10n ** 8n, SOL, 'buy_v3')]);
    const outside = tx('sigOutside3', 310, T0 + 4, [trade(A, W, true, 10n ** 12n, 10n ** 8n, SOL, 'buy_v3')]);
    const hop = tx('sigRoute3', 325, T0 + 10, [trade(B, CA, false, 10n ** 12n, 5n * 10n ** 11n, A), trade(A, CA, false, 5n * 10n ** 11n, 10n ** 7n, SOL)], {
      instructions: route(CA, 'CA-ata-of-B', 'CA-wsol'),
      preTokenBalances: [balance('CA-ata-of-B', B, CA, 10n ** 12n)],
    });
    const d = record(A, [creation, outside, hop]);
    expect(d.launch!.creatorSold).toBe(false);
    expect(codes(d)).not.toContain('creator_sold_at_birth');
    expect(codes(d)).not.toContain('creator_sold');
    // on B's record the same sale is the creator's (B is the far end of the sell route)
    expect(tradesOf(B, [hop]).map((t) => [t.wallet, t.isBuy])).toEqual([[CA, false]]);
  });

  it('without the balances, a coin another hop of the route is quoted in is a middle coin (the hops chain)', () => {
    const hop = tx('sigRoute4', 400, T0, [trade(A, U, true, 5n * 10n ** 13n, 2n * 10n ** 9n, SOL), trade(B, U, true, 7n * 10n ** 13n, 5n * 10n ** 13n, A)], { instructions: route(U, 'U-wsol', 'U-ata-of-B') });
    expect(tradesOf(A, [hop]).map((t) => t.wallet)).toEqual([MULTI_HOP_ROUTE]);
    expect(tradesOf(B, [hop]).map((t) => t.wallet)).toEqual([U]);
  });

  it('a route whose next venue is a pool (no TradeEvent quoted in A): the delivering account\'s mint says A is in the middle', () => {
    const hop = tx('sigRoute5', 500, T0, [trade(A, U, true, 5n * 10n ** 13n, 2n * 10n ** 9n, SOL), { program: 'pump_amm', name: 'BuyEvent', fields: { user: U, ix_name: 'multi_hop_swap' }, outerIndex: 0, source: 'cpi' }], {
      instructions: route(U, 'U-wsol', 'U-ata-of-C'),
      postTokenBalances: [balance('U-ata-of-C', 'CCCCcoinCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCpump', U, 1n)],
    });
    expect(tradesOf(A, [hop]).map((t) => t.wallet)).toEqual([MULTI_HOP_ROUTE]);
    // and a one-hop route to A itself is U's buy
    const one = tx('sigRoute6', 501, T0, [trade(A, U, true, 5n * 10n ** 13n, 2n * 10n ** 9n, SOL)], { instructions: route(U, 'U-wsol', 'U-ata-of-A'), postTokenBalances: [balance('U-ata-of-A', A, U, 5n * 10n ** 13n)] });
    expect(tradesOf(A, [one]).map((t) => t.wallet)).toEqual([U]);
  });

  it('a multi-hop buy the creator paid, delivered to another wallet\'s account, is that wallet\'s as through a top-level buy (it kept 60 % and no outside buyer before)', () => {
    const creation = tx('sigCreateB', 600, T0, [create(B, CA, A)]);
    const viaRoute = tx('sigRouteB', 600, T0, [trade(A, CA, true, 10n ** 12n, 10n ** 8n, SOL), trade(B, CA, true, 6n * 10n ** 14n, 10n ** 12n, A)], {
      instructions: route(CA, 'CA-wsol', 'W-ata-of-B'),
      postTokenBalances: [balance('W-ata-of-B', B, W, 6n * 10n ** 14n)],
    });
    const viaBuy = tx('sigTopLevelB', 600, T0, [trade(B, CA, true, 6n * 10n ** 14n, 10n ** 12n, A, 'buy_v3')], {
      instructions: [{ program: 'pump', name: 'buy_v3', inner: false, path: '0', accounts: { base_mint: B, user: CA, associated_base_user: 'W-ata-of-B' }, args: {} }],
      postTokenBalances: [balance('W-ata-of-B', B, W, 6n * 10n ** 14n)],
    });
    for (const delivery of [viaRoute, viaBuy]) {
      const d = record(B, [creation, delivery]);
      expect(d.launch!.creatorTokensRaw).toBe('0');
      expect(d.launch!.bundledBuyers).toBe(1);
      expect(d.launch!.bundle.map((b) => b.wallet)).toEqual([W]);
      expect(codes(d)).toContain('bundled_buyers');
      expect(codes(d)).not.toContain('creator_kept_majority');
    }
  });

  it('a middle hop that completes A\'s curve: the curve was taken by the route (its tokens went on to B), not by the route\'s user', () => {
    const creation = tx('sigCreateA7', 700, T0, [create(A, CA), trade(A, CA, true, 10n ** 12n, 10n ** 8n, SOL, 'buy_v3')]);
    const hop = tx('sigRoute7', 800, T0 + 3000, [
      trade(A, U, true, 7n * 10n ** 14n, 80n * 10n ** 9n, SOL),
      ev('CompleteEvent', { mint: A, user: U }),
      ev('PostCompleteBuyEvent', { mint: A, user: U, base_out: '1000', quote_in: '10', fee: '0', creator_fee: '0', pool_base_reserves_before: '0', pool_quote_reserves_before: '0', pool_base_reserves_after: '0', pool_quote_reserves_after: '0' }),
      trade(B, U, true, 10n ** 14n, 7n * 10n ** 14n, A),
    ], { instructions: route(U, 'U-wsol', 'U-ata-of-B'), postTokenBalances: [balance('U-ata-of-B', B, U, 10n ** 14n)] });
    const d = record(A, [creation, hop]);
    expect(d.curveBuyout!.wallet).toBe(MULTI_HOP_ROUTE);
    expect(d.curveBuyout!.tokens).toBe(String(7n * 10n ** 14n + 1000n));
    expect(d.launch!.curveBuyers).toBe(0);
  });
});

describe('markers-v10 after its review', () => {
  const ata = (w: string) => `${w.slice(0, 8)}-ata-of-B`;
  it('three routes in one bundler instruction: each delivery is its route\'s far end, the event\'s user\'s as for any program\'s call (markers-v9\'s top-level rule); three top-level routes deliver to their accounts\' owners', () => {
    const creation = tx('sigCreateB3', 900, T0, [create(B, CA, A)]);
    const ws = [W, 'Wallet2222222222222222222222222222222222222', 'Wallet3333333333333333333333333333333333333'];
    const fifth = 2n * 10n ** 14n;
    const events = (outer: (i: number) => number) => ws.flatMap((_, i) => [{ ...trade(A, CA, true, 10n ** 12n, 10n ** 8n, SOL), outerIndex: outer(i) }, { ...trade(B, CA, true, fifth, 10n ** 12n, A), outerIndex: outer(i) }]);
    const balances = ws.map((w) => balance(ata(w), B, w, fifth));
    // one bundler instruction (top level 0) calling the three routes
    const inOne = tx('sigBundle', 900, T0, events(() => 0), {
      instructions: ws.flatMap((w, i) => route(CA, 'CA-wsol', ata(w)).map((ix) => ({ ...ix, inner: true, path: `0.${2 * i + (ix.inner ? 1 : 0)}` }))),
      postTokenBalances: balances,
    });
    expect(tradesOf(A, [inOne]).map((t) => t.wallet)).toEqual([MULTI_HOP_ROUTE, MULTI_HOP_ROUTE, MULTI_HOP_ROUTE]);
    expect(tradesOf(B, [inOne]).map((t) => t.wallet)).toEqual([CA, CA, CA]);
    // three top-level routes: three bundled buyers, the creator kept none
    const three = tx('sigThree', 900, T0, events((i) => i), {
      instructions: ws.flatMap((w, i) => route(CA, 'CA-wsol', ata(w)).map((ix) => ({ ...ix, path: ix.inner ? `${i}.0` : String(i) }))),
      postTokenBalances: balances,
    });
    const d = record(B, [creation, three]);
    expect([d.launch!.creatorTokensRaw, d.launch!.bundledBuyers, d.launch!.bundle.map((b) => b.wallet).sort()]).toEqual(['0', 3, [...ws].sort()]);
  });

  it('a coin bought only through routes to the coin quoted in it has outside demand: no no_outside_curve_buyer (50 wallets\' SOL went through its curve)', () => {
    const creation = tx('sigCreateA9', 1000, T0, [create(A, CA)]);
    const buys = Array.from({ length: 5 }, (_, i) => {
      const u = `RouteUser${i}`.padEnd(44, '1');
      return tx(`sigR9-${i}`, 1100 + i, T0 + 60 + i, [trade(A, u, true, 10n ** 12n, 10n ** 8n, SOL), trade(B, u, true, 10n ** 12n, 10n ** 12n, A)], { instructions: route(u, 'wsol', `${u}-B`), postTokenBalances: [balance(`${u}-B`, B, u, 10n ** 12n)] });
    });
    const d = record(A, [creation, ...buys]);
    expect(d.launch!.curveBuyers).toBe(0);
    expect(codes(d)).not.toContain('no_outside_curve_buyer');
    // the creator routing alone is no outside demand
    const alone = tx('sigR9-c', 1100, T0 + 60, [trade(A, CA, true, 10n ** 12n, 10n ** 8n, SOL), trade(B, CA, true, 10n ** 12n, 10n ** 12n, A)], { instructions: route(CA, 'wsol', 'CA-B'), postTokenBalances: [balance('CA-B', B, CA, 10n ** 12n)] });
    expect(codes(record(A, [creation, alone]))).toContain('no_outside_curve_buyer');
  });

  it('a middle hop completing the curve in the creation slot: the flag says the route took it, and the route has no buyout role (no wallet page)', () => {
    const creation = tx('sigCreateA10', 1200, T0, [create(A, CA)]);
    const hop = tx('sigRoute10', 1200, T0, [trade(A, U, true, 8n * 10n ** 14n, 85n * 10n ** 9n, SOL), ev('CompleteEvent', { mint: A, user: U }), trade(B, U, true, 10n ** 14n, 8n * 10n ** 14n, A)], {
      instructions: route(U, 'U-wsol', 'U-ata-of-B'),
      postTokenBalances: [balance('U-ata-of-B', B, U, 10n ** 14n)],
    });
    const a = analyzeLaunch(A, [creation, hop], true, OWN_FUNDERS);
    expect(a.curveBuyout!.wallet).toBe(MULTI_HOP_ROUTE);
    expect(a.roles.filter((r) => r.role === 'buyout')).toEqual([]);
    const flag = classifyLaunch(a, { origin: 'observed', observedAtLaunch: true, asOfMs: (T0 + 3600) * 1000 }).flags.find((f) => f.code === 'curve_taken_in_creation_slot')!;
    expect(flag.summary).toBe(`The curve was taken within the creation slot by a multi-hop route through this coin (its tokens went on to the route's next venue), run by ${U}.`);
  });

  it('a route called by a router: its delivery account may be the router\'s own, so the far-end buy stays its user\'s (markers-v9\'s top-level rule)', () => {
    const creation = tx('sigCreateB11', 1300, T0, [create(B, CA, A)]);
    const routed = tx('sigRouter11', 1300, T0, [trade(A, CA, true, 10n ** 12n, 10n ** 8n, SOL), trade(B, CA, true, 6n * 10n ** 14n, 10n ** 12n, A)], {
      instructions: route(CA, 'CA-wsol', 'Router-ata-of-B').map((ix) => ({ ...ix, inner: true, path: ix.inner ? '0.1' : '0.0' })),
      postTokenBalances: [balance('Router-ata-of-B', B, 'RouterAuthority111111111111111111111111111', 6n * 10n ** 14n)],
    });
    expect(tradesOf(B, [creation, routed]).map((t) => t.wallet)).toEqual([CA]);
  });

  it('a CompleteEvent naming no buyer of its transaction: the buyout is the last buy (it was a buyout of 0 tokens)', () => {
    const creation = tx('sigCreateA12', 1400, T0, [create(A, CA), trade(A, CA, true, 10n ** 12n, 10n ** 8n, SOL, 'buy_v3')]);
    const complete = tx('sigComplete12', 1500, T0 + 600, [trade(A, U, true, 7n * 10n ** 14n, 80n * 10n ** 9n, SOL, 'buy_v3'), ev('CompleteEvent', { mint: A, user: 'SomeHopAccount1111111111111111111111111111' })]);
    const d = record(A, [creation, complete]);
    expect([d.curveBuyout!.wallet, d.curveBuyout!.tokens]).toEqual([U, String(7n * 10n ** 14n)]);
  });
});

describe('markers-v10: a synthetic completion\'s pool part', () => {
  const M = 'Mint1111111111111111111111111111111111111pump';
  const C = 'Creator1111111111111111111111111111111111111';
  const pool = (user: string) => ev('PostCompleteBuyEvent', { mint: M, user, base_out: '46463173329', quote_in: '19090426', fee: '181360', creator_fee: '57272', pool_base_reserves_before: '206900000000000', pool_quote_reserves_before: '84990362211', pool_base_reserves_after: '206853536826671', pool_quote_reserves_after: '85009452637' });
  const start = [
    tx('create', 1, T0, [ev('CreateEvent', { mint: M, user: C, creator: C, token_total_supply: '1000000000000000', quote_mint: SOL })]),
    tx('buyW', 500, T0 + 300, [trade(M, W, true, 1000n, 1n, SOL, 'buy_v3')]),
  ];

  it('belongs to the buy it follows, whatever user its event names (fixture 33\'s amounts; it was dropped and the buyout read 1,132,030,466 tokens)', () => {
    const complete = tx('complete', 900, T0 + 3000, [trade(M, U, true, 1_132_030_466n, 465_127n, SOL, 'buy_v3'), ev('CompleteEvent', { mint: M, user: U }), pool('HopPda111111111111111111111111111111111111111')]);
    const d = record(M, [...start, complete]);
    expect(d.curveBuyout!.tokens).toBe('47595203795');
    expect(d.curveBuyout!.poolPart!.tokens).toBe('46463173329');
    expect(codes(d)).not.toContain('unrecognised_program_data');
  });

  it('one that follows no buy of the mint cannot be placed: UNKNOWN, its transaction the evidence, never clean', () => {
    const stray = tx('stray', 900, T0 + 3000, [ev('CompleteEvent', { mint: M, user: U }), pool(U)]);
    const d = record(M, [...start, stray]);
    expect(d.finding.class).toBe('UNKNOWN');
    expect(d.cleanAtBirth).not.toBe(true);
    const flag = d.flags.find((f) => f.code === 'unrecognised_program_data')!;
    expect(flag.evidence).toEqual(['stray']);
    expect(flag.summary).toMatch(/PostCompleteBuyEvent\) that follows no buy/);
  });
});

describe('markers-v10 on the real multi-hop fixture (28: B → A on B\'s curve, then A\'s pool → SOL)', () => {
  it('B is the far end of the sell route: the sale is its user\'s, as before', () => {
    const t = decodeTransaction(loadFixtureTransaction('pump_multi_hop_swap_curve_rRUVF4GSZNRA_20261008.json'));
    const trades = tradesOf('H1yvPEHxsEt2qVJK5n12KuvNX1PEYXoJUnTjq8HSpump', [t]);
    expect(trades.map((x) => [x.wallet, x.isBuy, x.tokens])).toEqual([['EPujGkjmEtH8mGvQdJyZ4wypuEg19Uh7rSzDscTVDS2i', false, 873_358_676_512n]]);
    // the route is inside a router's instruction (path 1.0): routes are read at any depth
    expect(t.instructions.find((i) => i.name === 'multi_hop_swap')!.path).toBe('1.0');
  });
});

describe('public migration 28: records made before from a history holding a route or a pool part are recorded again', () => {
  it('hands those to the funder sweep (cohort_unknown) and no other; recorded again, the route\'s user is no longer a bundled buyer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lpa-markers-v10-'));
    let store = new PublicStore(join(dir, 'public.db'));
    try {
      const SLOT = 455_000_000; // after the redeploy
      const launchOf = (mint: string, slot: number, withRoute: boolean) => {
        const creation = tx(`create-${mint}`, slot, T0, [create(mint, CA), trade(mint, CA, true, 10n ** 12n, 10n ** 8n, SOL, 'buy_v3')]);
        const buy = withRoute
          ? tx(`route-${mint}`, slot, T0, [trade(mint, U, true, 5n * 10n ** 13n, 2n * 10n ** 9n, SOL), trade(B, U, true, 10n ** 13n, 10n ** 13n, mint)], { instructions: route(U, 'U-wsol', 'U-ata-of-B') })
          : tx(`buy-${mint}`, slot, T0, [trade(mint, W, true, 5n * 10n ** 13n, 2n * 10n ** 9n, SOL, 'buy_v3')]);
        store.db.transaction(() => {
          for (const t of [creation, buy]) store.addTransaction(mint, t);
          recordLaunch(store, mint, { origin: 'observed', observedAtLaunch: true, nowMs: (T0 + 3600) * 1000, state: OWN_FUNDERS });
        })();
        return () => JSON.parse(store.getLaunch(mint)!.document) as LaunchDocument;
      };
      const routed = 'RoutedAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAApump';
      const plain = 'PlainAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAApump';
      const before = 'BeforeAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAApump';
      const docOf = launchOf(routed, SLOT, true);
      launchOf(plain, SLOT + 10, false);
      launchOf(before, 400_000_000, true); // before the redeploy: no route existed, nothing read
      expect(docOf().launch!.bundledBuyers).toBe(0);
      // the routed record as markers-v9 made it: the route's user a bundled buyer
      const old: LaunchDocument = { ...docOf(), methodVersion: 'markers-v9', launch: { ...docOf().launch!, bundledBuyers: 1 } };
      const text = canonicalJson(old);
      store.putLaunch(old, null, text, sha256Hex(text), (T0 + 3600) * 1000);
      store.db.exec('UPDATE launch SET cohort_unknown = 0');
      expect(store.cohortUnknownMints('', 10)).toEqual([]);
      // the archive opened by this version: the migration runs
      store.db.exec('DELETE FROM schema_migrations WHERE version = 28');
      store.close();
      store = new PublicStore(join(dir, 'public.db'));
      expect(store.cohortUnknownMints('', 10)).toEqual([routed]);
      // what the sweep does with it (collector/enrich/funder-sweep.ts): record it again, under markers-v10; it then leaves the sweep
      store.db.transaction(() => recordLaunch(store, routed, { origin: 'observed', observedAtLaunch: false, nowMs: (T0 + 3601) * 1000, state: OWN_FUNDERS }))();
      expect([docOf().methodVersion, docOf().launch!.bundledBuyers]).toEqual([METHOD_VERSION, 0]);
      expect(store.cohortUnknownMints('', 10)).toEqual([]);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('markers-v10: funder lookups', () => {
  it('a middle hop\'s payer is not a cohort candidate (a lookup was spent on it)', async () => {
    const { cohortCandidates } = await import('../../src/ingest/funding.ts');
    const creation = tx('sigCreateA13', 1600, T0, [create(A, CA)]);
    const hop = tx('sigRoute13', 1601, T0 + 1, [trade(A, U, true, 10n ** 12n, 10n ** 8n, SOL), trade(B, U, true, 10n ** 12n, 10n ** 12n, A)], { instructions: route(U, 'U-wsol', 'U-ata-of-B'), postTokenBalances: [balance('U-ata-of-B', B, U, 10n ** 12n)] });
    expect(cohortCandidates(A, [creation, hop], null)).toEqual([CA]);
    expect(cohortCandidates(B, [hop], { slot: 1601, blockTime: T0 + 1 })).toEqual([U]);
  });
});
