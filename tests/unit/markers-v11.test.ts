/**
 * markers-v11 (docs/methodology.md "Changes between versions"), from a facts audit: a wallet's
 * several multi-hop routes under one instruction, read with their direction; a buy called by a
 * bundler program delivered to other wallets' accounts; the receiver rule where the record reads
 * whole transactions only (so a later trade kept in its logs form gives the same record); the
 * completing buy's kind (a route's middle hop or the wallet's own buy) in the curve buyout.
 * Transactions in the decoder's output form (no fixture holds these shapes).
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PublicStore } from '../../src/db/public-store.ts';
import { recordLaunch } from '../../src/ingest/record-launch.ts';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { getProgramDerivedAddress, address } from '@solana/kit';
import { analyzeLaunch } from '../../src/core/record/build-launch.ts';
import { classifyLaunch, METHOD_VERSION } from '../../src/core/record/classify.ts';
import { tradesOf } from '../../src/core/record/launch-events.ts';
import { takeFromLogs } from '../../src/core/record/from-logs.ts';
import { MULTI_HOP_ROUTE } from '../../src/core/programs.ts';
import type { DecodedEvent, DecodedTransaction, LaunchDocument } from '../../src/core/types.ts';
import { OWN_FUNDERS } from '../helpers/synthetic-launch.ts';
import { canonicalJson, sha256Hex } from '../../src/core/canonical.ts';

const A = 'AAAAcoinAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAApump';
const B = 'BBBBcoinBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBpump';
const CA = 'CreatorOfA1111111111111111111111111111111111';
const U = 'RouteUser111111111111111111111111111111111111';
const W = 'btherWa11et11111111111111111111111111111111111';
const SOL = '11111111111111111111111111111111';
const WSOL = 'So11111111111111111111111111111111111111112';
const T0 = 1_792_000_000;

/** A wallet's address: an ed25519 public key (on the curve). */
const wallet = () => bs58.encode(generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32));
/** A program's address (off the curve). */
const [PDA] = await getProgramDerivedAddress({ programAddress: address('6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P'), seeds: ['bundler-vault'] });

const ev = (name: string, fields: Record<string, unknown>, outerIndex = 0): DecodedEvent => ({ program: 'pump', name, fields: fields as DecodedEvent['fields'], outerIndex, source: 'cpi' });
const tx = (signature: string, slot: number, blockTime: number, events: DecodedEvent[], extra: Partial<DecodedTransaction> = {}): DecodedTransaction => ({
  signature, slot, blockTime, err: null, accountKeys: [], signers: [], instructions: [], events, preTokenBalances: [], postTokenBalances: [],
  logsTruncated: false, fromLogsOnly: false, jitoTipLamports: '0', skipped: [], ...extra,
});
const create = (mint: string, creator: string) =>
  ev('CreateEvent', { name: 'T', symbol: 'T', uri: 'u', mint, bonding_curve: 'c', user: creator, creator, token_total_supply: '1000000000000000', quote_mint: SOL, timestamp: String(T0) });
const trade = (mint: string, user: string, isBuy: boolean, tokens: bigint, quote: bigint, quoteMint: string, ix = 'multi_hop_swap', outerIndex = 0, ts?: number) =>
  ev('TradeEvent', {
    mint, user, is_buy: isBuy, token_amount: String(tokens), sol_amount: quoteMint === SOL ? String(quote) : '0', quote_amount: String(quote), quote_mint: quoteMint,
    fee: '0', creator_fee: '0', ix_name: ix, ...(ts === undefined ? {} : { timestamp: String(ts) }),
  }, outerIndex);
const routeIx = (user: string, inAccount: string, outAccount: string, path: string, inner: boolean): DecodedTransaction['instructions'] => [
  { program: 'pump_amm', name: 'multi_hop_swap', inner, path, accounts: { user, user_in_token_account: inAccount, user_out_token_account: outAccount }, args: {} },
];
const balance = (account: string, mint: string, owner: string, amount: bigint) => ({ accountIndex: 1, account, mint, owner, amount: String(amount), decimals: 6 });
const record = (mint: string, txs: DecodedTransaction[]): LaunchDocument =>
  classifyLaunch(analyzeLaunch(mint, txs, true, OWN_FUNDERS), { origin: 'observed', observedAtLaunch: true, asOfMs: (T0 + 3600) * 1000 });
const codes = (d: LaunchDocument) => d.flags.map((f) => f.code).sort();

describe('markers-v11: several routes of one wallet under one instruction, read with their direction', () => {
  it('the creator sells its own A through a sell route beside a buy route through A: its sale at birth (it was the route\'s)', () => {
    const creation = tx('c1', 100, T0, [create(A, CA), trade(A, CA, true, 10n ** 14n, 3n * 10n ** 9n, SOL, 'buy_v3')]);
    const outside = tx('o1', 101, T0 + 1, [trade(A, W, true, 10n ** 12n, 10n ** 8n, SOL, 'buy_v3')]);
    // a bundler's instruction 0 runs SOL → A → B (a buy route: B at its far end) and A → SOL (a sell route: A at its far end)
    const bundle = tx('b1', 125, T0 + 10, [trade(A, CA, true, 10n ** 12n, 10n ** 8n, SOL), trade(B, CA, true, 10n ** 12n, 10n ** 12n, A), trade(A, CA, false, 5n * 10n ** 13n, 10n ** 9n, SOL)], {
      instructions: [...routeIx(CA, 'CA-wsol', 'CA-ata-of-B', '0.0', true), ...routeIx(CA, 'CA-ata-of-A', 'CA-wsol', '0.2', true)],
      preTokenBalances: [balance('CA-ata-of-A', A, CA, 10n ** 14n), balance('CA-wsol', WSOL, CA, 0n)],
      postTokenBalances: [balance('CA-ata-of-B', B, CA, 10n ** 12n), balance('CA-ata-of-A', A, CA, 5n * 10n ** 13n), balance('CA-wsol', WSOL, CA, 0n)],
    });
    // the buy of A is the middle of SOL → A → B (B is bought with it); the sale is the creator's
    expect(tradesOf(A, [bundle]).map((t) => [t.wallet, t.isBuy])).toEqual([[MULTI_HOP_ROUTE, true], [CA, false]]);
    const d = record(A, [creation, outside, bundle]);
    expect(d.launch!.creatorSold).toBe(true);
    expect(codes(d)).toContain('creator_sold_at_birth');
    expect(d.methodVersion).toBe(METHOD_VERSION);
  });

  it('a wallet\'s two buy routes in the creation slot, one ending in A and one passing through it: nothing is claimed from them (UNKNOWN, never clean)', () => {
    const creation = tx('c2', 200, T0, [create(A, CA), trade(A, CA, true, 10n ** 12n, 10n ** 8n, SOL, 'buy_v3')]);
    const bundle = tx('b2', 200, T0, [trade(A, U, true, 10n ** 13n, 10n ** 9n, SOL), trade(B, U, true, 10n ** 12n, 10n ** 13n, A), trade(A, U, true, 2n * 10n ** 14n, 2n * 10n ** 10n, SOL)], {
      instructions: [...routeIx(U, 'U-wsol', 'U-ata-of-B', '0.0', true), ...routeIx(U, 'U-wsol', 'U-ata-of-A', '0.2', true)],
      postTokenBalances: [balance('U-ata-of-B', B, U, 10n ** 12n), balance('U-ata-of-A', A, U, 2n * 10n ** 14n), balance('U-wsol', WSOL, U, 0n)],
    });
    const d = record(A, [creation, bundle]);
    expect(d.finding.class).toBe('UNKNOWN');
    expect(d.cleanAtBirth).not.toBe(true);
    const flag = d.flags.find((f) => f.code === 'unrecognised_program_data')!;
    expect(flag.evidence).toEqual(['b2']);
    expect(flag.summary).toMatch(/several multi-hop routes of one wallet in one instruction, some ending in this coin and some passing through it/);
    // one route alone: its far end is the wallet's (the bundled buyer), the chain through A the route's
    const alone = tx('b3', 200, T0, [trade(A, U, true, 2n * 10n ** 14n, 2n * 10n ** 10n, SOL)], {
      instructions: routeIx(U, 'U-wsol', 'U-ata-of-A', '0.0', true),
      postTokenBalances: [balance('U-ata-of-A', A, U, 2n * 10n ** 14n)],
    });
    const e = record(A, [creation, alone]);
    expect([e.finding.class, e.launch!.bundledBuyers]).toEqual(['FINDINGS', 1]);
  });
});

describe('markers-v11: a buy called by a bundler program, delivered to another wallet\'s account', () => {
  const M = A;
  const C = CA;
  const each = 8n * 10n ** 13n; // 8 % each
  const creationWith = (owners: string[], amounts: bigint[]) =>
    tx('create', 100, T0, [create(M, C), ...owners.map(() => trade(M, C, true, each, 10n ** 9n, SOL, 'buy_v3', 1))], {
      instructions: [
        { program: 'pump', name: 'create_v2', inner: false, path: '0', accounts: { mint: M, user: C }, args: {} },
        // top-level 1 is the bundler (a program the decoder does not know): it calls buy_v3 once for each account
        ...owners.map((_, i) => ({ program: 'pump' as const, name: 'buy_v3', inner: true, path: `1.${i}`, accounts: { base_mint: M, user: C, associated_base_user: `acct-${i}` }, args: {} })),
      ],
      postTokenBalances: owners.map((o, i) => balance(`acct-${i}`, M, o, amounts[i]!)),
    });
  const later = tx('later', 5000, T0 + 3000, [trade(M, W, true, 10n ** 12n, 10n ** 8n, SOL, 'buy_v3')]);

  it('five wallets that hold what the creator paid for are five bundled buyers; the creator kept none of it (it kept 40 % before)', () => {
    const holders = Array.from({ length: 5 }, wallet);
    const d = record(M, [creationWith(holders, holders.map(() => each)), later]);
    expect([d.launch!.bundledBuyers, d.launch!.creatorTokensRaw, d.finding.class]).toEqual([5, '0', 'FINDINGS']);
    expect(codes(d)).toContain('bundled_buyers');
  });

  it('an account a program holds, or one emptied in the transaction, leaves the buy the payer\'s (a router\'s account on the way)', () => {
    const holder = wallet();
    const d = record(M, [creationWith([PDA, holder, holder], [each, 0n, each]), later]);
    // the PDA's and the emptied account's buys are the creator's; the third is the holder's
    expect(d.launch!.creatorTokensRaw).toBe(String(2n * each));
    expect(d.launch!.bundledBuyers).toBe(1);
  });

  it('buys of a bundler whose count differs from its buy events are not read for receivers', () => {
    const holders = [wallet(), wallet()];
    const t = creationWith(holders, [each, each]);
    const d = record(M, [{ ...t, events: t.events.slice(0, 2) }, later]); // CreateEvent and one TradeEvent for two buy instructions
    expect([d.launch!.bundledBuyers, d.launch!.creatorTokensRaw]).toEqual([0, String(each)]);
  });
});

describe('markers-v11: the receiver rule where the record reads whole transactions', () => {
  const H = wallet();
  const creation = tx('create', 100, T0, [create(A, CA), trade(A, CA, true, 10n ** 13n, 10n ** 8n, SOL, 'buy_v3', 0, T0)], {
    instructions: [{ program: 'pump', name: 'buy_v3', inner: false, path: '0', accounts: { base_mint: A, user: CA, associated_base_user: 'C-ata' }, args: {} }],
    postTokenBalances: [balance('C-ata', A, CA, 10n ** 13n)],
  });
  // 10 minutes later a wallet pays a buy delivered to the creator's account: a plain curve trade, kept in its logs form
  const whole = tx('helperBuy', 2000, T0 + 600, [trade(A, H, true, 10n ** 13n, 10n ** 8n, SOL, 'buy_v3', 0, T0 + 600)], {
    instructions: [{ program: 'pump', name: 'buy_v3', inner: false, path: '0', accounts: { base_mint: A, user: H, associated_base_user: 'C-ata' }, args: {} }],
    postTokenBalances: [balance('C-ata', A, CA, 2n * 10n ** 13n)],
  });
  const heard = { ...whole, blockTime: null, fromLogsOnly: true, jitoTipLamports: null, postTokenBalances: [], instructions: [{ ...whole.instructions[0]!, accounts: {} }], events: whole.events.map((e) => ({ ...e, source: 'log' as const })) };

  it('a later trade gives the same record read whole or from its logs (it gave FINDINGS whole, NO_MARKERS from the logs)', () => {
    const kept = takeFromLogs(heard, { signature: 'helperBuy', slot: 2000, err: null }, () => ({ slot: 100, blockTime: T0 }));
    expect(kept).not.toBeNull();
    const a = record(A, [creation, whole]);
    const b = record(A, [creation, kept!]);
    expect({ ...a, asOf: null }).toEqual({ ...b, asOf: null });
    expect(a.launch!.curveBuyers).toBe(1); // the payer's, after the first 30 s
  });

  it('in the first 30 s the same buy is the receiver\'s', () => {
    const early = { ...whole, slot: 150, blockTime: T0 + 20, events: [trade(A, H, true, 10n ** 13n, 10n ** 8n, SOL, 'buy_v3', 0, T0 + 20)] };
    const d = record(A, [creation, early]);
    expect([d.launch!.curveBuyers, d.launch!.buyersFirst30s]).toEqual([0, 0]);
  });
});

describe('markers-v11: the completing buy decides the curve buyout\'s kind', () => {
  const creation = tx('c3', 300, T0, [create(A, CA), trade(A, CA, true, 10n ** 12n, 10n ** 8n, SOL, 'buy_v3')]);
  const buyV3 = (path: string) => ({ program: 'pump' as const, name: 'buy_v3', inner: false, path, accounts: { base_mint: A, user: U, associated_base_user: 'U-ata-of-A' }, args: {} });

  it('a route\'s middle hop completes it after the wallet\'s own buy: taken by the route, with the hop\'s tokens only', () => {
    const t = tx('t3', 400, T0 + 3000, [
      trade(A, U, true, 10n ** 13n, 10n ** 9n, SOL, 'buy_v3', 0),
      trade(A, U, true, 7n * 10n ** 14n, 80n * 10n ** 9n, SOL, 'multi_hop_swap', 1),
      ev('CompleteEvent', { mint: A, user: U }, 1),
      trade(B, U, true, 10n ** 14n, 7n * 10n ** 14n, A, 'multi_hop_swap', 1),
    ], {
      instructions: [buyV3('0'), ...routeIx(U, 'U-wsol', 'U-ata-of-B', '1', false)],
      postTokenBalances: [balance('U-ata-of-A', A, U, 10n ** 13n), balance('U-ata-of-B', B, U, 10n ** 14n)],
    });
    const d = record(A, [creation, t]);
    expect([d.curveBuyout!.wallet, d.curveBuyout!.tokens, d.curveBuyout!.quoteSpent]).toEqual([MULTI_HOP_ROUTE, String(7n * 10n ** 14n), String(80n * 10n ** 9n)]);
  });

  it('the wallet\'s own buy completes it after its route\'s middle hop: the wallet\'s, with its own buy only', () => {
    const t = tx('t4', 400, T0 + 3000, [
      trade(A, U, true, 10n ** 14n, 10n ** 10n, SOL, 'multi_hop_swap', 0),
      trade(B, U, true, 10n ** 13n, 10n ** 14n, A, 'multi_hop_swap', 0),
      trade(A, U, true, 6n * 10n ** 14n, 70n * 10n ** 9n, SOL, 'buy_v3', 1),
      ev('CompleteEvent', { mint: A, user: U }, 1),
    ], {
      instructions: [...routeIx(U, 'U-wsol', 'U-ata-of-B', '0', false), buyV3('1')],
      postTokenBalances: [balance('U-ata-of-A', A, U, 6n * 10n ** 14n), balance('U-ata-of-B', B, U, 10n ** 13n)],
    });
    const d = record(A, [creation, t]);
    expect([d.curveBuyout!.wallet, d.curveBuyout!.tokens, d.curveBuyout!.quoteSpent]).toEqual([U, String(6n * 10n ** 14n), String(70n * 10n ** 9n)]);
  });
});

describe('public migration 29: records whose creation slot holds a buy called by another program are recorded again', () => {
  it('hands those to the funder sweep (cohort_unknown) and no other; recorded again, the holders are bundled buyers (their funders looked up next)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lpa-markers-v11-'));
    let store = new PublicStore(join(dir, 'public.db'));
    try {
      const holders = Array.from({ length: 3 }, wallet);
      const launchOf = (mint: string, slot: number, bundler: boolean) => {
        const events = [create(mint, CA), ...holders.map(() => trade(mint, CA, true, 8n * 10n ** 13n, 10n ** 9n, SOL, 'buy_v3', bundler ? 1 : 0))];
        const creation = tx(`create-${mint}`, slot, T0, bundler ? events : events.slice(0, 2), {
          instructions: bundler
            ? holders.map((_, i) => ({ program: 'pump' as const, name: 'buy_v3', inner: true, path: `1.${i}`, accounts: { base_mint: mint, user: CA, associated_base_user: `acct-${i}` }, args: {} }))
            : [{ program: 'pump', name: 'buy_v3', inner: false, path: '0', accounts: { base_mint: mint, user: CA, associated_base_user: 'acct-0' }, args: {} }],
          postTokenBalances: holders.map((h, i) => balance(`acct-${i}`, mint, bundler ? h : CA, 8n * 10n ** 13n)),
        });
        store.db.transaction(() => {
          store.addTransaction(mint, creation);
          recordLaunch(store, mint, { origin: 'observed', observedAtLaunch: true, nowMs: (T0 + 3600) * 1000, state: OWN_FUNDERS });
        })();
        return () => JSON.parse(store.getLaunch(mint)!.document) as LaunchDocument;
      };
      const bundled = 'BundledAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAApump';
      const plain = 'PlainAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAApump';
      const docOf = launchOf(bundled, 1000, true);
      launchOf(plain, 2000, false);
      // a record made under markers-v10 after migration 28 ran, its history holding a route (the creator's sale beside a buy route)
      const routed = 'RoutedAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAApump';
      const routeTx = tx('route-sale', 455_000_025, T0 + 10, [trade(routed, CA, true, 10n ** 12n, 10n ** 8n, SOL), trade(B, CA, true, 10n ** 12n, 10n ** 12n, routed), trade(routed, CA, false, 5n * 10n ** 13n, 10n ** 9n, SOL)], {
        instructions: [...routeIx(CA, 'CA-wsol', 'CA-ata-of-B', '0.0', true), ...routeIx(CA, 'CA-ata-of-R', 'CA-wsol', '0.2', true)],
        preTokenBalances: [balance('CA-ata-of-R', routed, CA, 10n ** 14n)],
        postTokenBalances: [balance('CA-ata-of-B', B, CA, 10n ** 12n), balance('CA-ata-of-R', routed, CA, 5n * 10n ** 13n)],
      });
      store.db.transaction(() => {
        store.addTransaction(routed, tx('create-routed', 455_000_000, T0, [create(routed, CA), trade(routed, CA, true, 10n ** 14n, 3n * 10n ** 9n, SOL, 'buy_v3')]));
        store.addTransaction(routed, routeTx);
        recordLaunch(store, routed, { origin: 'observed', observedAtLaunch: true, nowMs: (T0 + 3600) * 1000, state: OWN_FUNDERS });
      })();
      expect(docOf().launch!.bundledBuyers).toBe(3);
      // the record as markers-v10 made it: the creator's buys, no bundled buyer
      const old: LaunchDocument = { ...docOf(), methodVersion: 'markers-v10', launch: { ...docOf().launch!, bundledBuyers: 0 } };
      const text = canonicalJson(old);
      store.putLaunch(old, null, text, sha256Hex(text), (T0 + 3600) * 1000);
      store.db.exec('UPDATE launch SET cohort_unknown = 0');
      // the archive opened by this version: the migration runs
      store.db.exec('DELETE FROM schema_migrations WHERE version = 29');
      store.close();
      store = new PublicStore(join(dir, 'public.db'));
      expect(store.cohortUnknownMints('', 10).sort()).toEqual([bundled, routed].sort());
      store.db.transaction(() => recordLaunch(store, bundled, { origin: 'observed', observedAtLaunch: false, nowMs: (T0 + 3601) * 1000, state: OWN_FUNDERS }))();
      expect([docOf().methodVersion, docOf().launch!.bundledBuyers]).toEqual([METHOD_VERSION, 3]);
      // its cohort now holds the three wallets, whose first funders the sweep looks up next: it stays in the sweep until then
      expect([docOf().funder.sharedCohort, store.cohortUnknownMints('', 10).includes(bundled)]).toEqual([null, true]);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('markers-v11, after its review: what a program-called buy\'s account kept, and who paid', () => {
  const C = wallet();
  const X = wallet();
  const R = wallet();
  const buy = (user: string, tokens: bigint, outerIndex = 0) => trade(A, user, true, tokens, 10n ** 8n, SOL, 'buy_v3', outerIndex);
  const bal = (account: string, owner: string, amount: bigint) => balance(account, A, owner, amount);
  const buyIx = (user: string, account: string, path: string, inner: boolean) => ({ program: 'pump' as const, name: 'buy_v3', inner, path, accounts: { base_mint: A, user, associated_base_user: account }, args: {} });
  const creation = tx('create', 100, T0, [create(A, C), buy(C, 10n ** 13n)], { instructions: [buyIx(C, 'C-ata', '0', false)], postTokenBalances: [bal('C-ata', C, 10n ** 13n)] });
  const later = tx('later', 9000, T0 + 3000, [buy(W, 10n ** 12n)]);
  // C and X share their first funder; every other wallet has its own
  const funderOf = (w: string) => ({ state: 'found' as const, funder: w === C || w === X ? 'F-shared' : `funder-of-${w}`, signature: `funding-of-${w}`, slot: 1 });
  const recordOf = (txs: DecodedTransaction[]) => classifyLaunch(analyzeLaunch(A, txs, true, { funderOf }), { origin: 'observed', observedAtLaunch: true, asOfMs: (T0 + 3600) * 1000 });

  it('a router\'s wallet-owned account that passed the tokens on (its balance did not grow by them) leaves the buy the payer\'s: a shared funder is not lost', () => {
    const bought = 2n * 10n ** 13n;
    const early = tx('early', 120, T0 + 10, [buy(X, bought)], {
      instructions: [buyIx(X, 'R-ata', '0.0', true)],
      preTokenBalances: [bal('R-ata', R, 5_000_000n)],
      postTokenBalances: [bal('R-ata', R, 5_000_000n), bal('X-ata', X, bought)],
    });
    const d = recordOf([creation, early, later]);
    expect(tradesOf(A, [early]).map((t) => t.wallet)).toEqual([X]);
    expect([d.finding.class, d.funder.sharedCohort?.[0]?.funder]).toEqual(['FINDINGS', 'F-shared']);
  });

  it('a wallet that paid, through a program, for a creation-slot buy delivered to the creator is in the funding cohort', () => {
    const bundle = tx('bundle', 100, T0, [buy(X, 10n ** 13n, 1)], { instructions: [buyIx(X, 'C-ata', '1.0', true)], postTokenBalances: [bal('C-ata', C, 2n * 10n ** 13n)] });
    const d = recordOf([creation, bundle, later]);
    expect(d.launch!.creatorTokensRaw).toBe(String(2n * 10n ** 13n)); // the creator's tokens: it received them
    expect(d.funder.sharedCohort?.map((g) => [g.funder, [...g.wallets].sort()])).toEqual([['F-shared', [C, X].sort()]]);
    expect(d.finding.class).toBe('FINDINGS');
    expect(d.flags.find((f) => f.code === 'shared_funder')!.summary).toMatch(/and who paid for their buys/);
  });

  it('a program\'s buys whose events do not pair with them make the record claim nothing from the transaction (UNKNOWN, not the payer\'s 40 %)', () => {
    const holders = [wallet(), wallet()];
    const t = tx('unpaired', 100, T0, [create(A, C), buy(C, 8n * 10n ** 13n, 1)], {
      instructions: holders.map((_, i) => buyIx(C, `acct-${i}`, `1.${i}`, true)),
      postTokenBalances: holders.map((h, i) => bal(`acct-${i}`, h, 8n * 10n ** 13n)),
    });
    const d = recordOf([t, later]);
    expect(d.finding.class).toBe('UNKNOWN');
    const flag = d.flags.find((f) => f.code === 'unrecognised_program_data')!;
    expect([flag.evidence, flag.summary]).toEqual([['unpaired'], expect.stringMatching(/buys a program made whose events do not pair with them/)]);
  });
});
