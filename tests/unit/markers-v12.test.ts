/**
 * markers-v12 (docs/methodology.md "Changes between versions"), from a facts audit that hunted
 * over-marking: a router trading with its own authority (a program's address) as the TradeEvent's
 * `user`, as OKX's router does (mainnet 3vg7eD…); a top-level buy into an account held by a program's
 * address (a vault); a creation transaction whose answer has no blockTime. Transactions in the
 * decoder's output form; wallets are ed25519 public keys (on the curve), as on chain.
 */
import { describe, expect, it } from 'vitest';
import { address, getProgramDerivedAddress, isOffCurveAddress } from '@solana/kit';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { PublicStore } from '../../src/db/public-store.ts';
import { recordLaunch } from '../../src/ingest/record-launch.ts';
import { analyzeLaunch } from '../../src/core/record/build-launch.ts';
import { classifyLaunch, METHOD_VERSION } from '../../src/core/record/classify.ts';
import { chainTimeOf, isProgramAddress, tradesOf, type UnplacedTx } from '../../src/core/record/launch-events.ts';
import { decodeTransaction } from '../../src/core/decode/index.ts';
import { cohortCandidates } from '../../src/ingest/funding.ts';
import { SHARED_FUNDER_ANCHOR, renderTokenPage } from '../../src/render/token-page.ts';
import { markdownToHtml } from '../../src/render/methodology-page.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DecodedEvent, DecodedTransaction, LaunchDocument } from '../../src/core/types.ts';
import { walletAddressOfSeed } from '../../devchain/simulate/keys.ts';
import { loadFixtureTransaction } from '../helpers/mainnet-fixtures.ts';
import { OWN_FUNDERS } from '../helpers/synthetic-launch.ts';

const wallet = () => walletAddressOfSeed(randomBytes(32));
const A = 'AAAAcoinAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAApump';
const CA = wallet();
const U = wallet();
const W = wallet();
const W2 = wallet();
const SOL = '11111111111111111111111111111111';
const T0 = 1_792_000_000;
/** OKX router's authority (fixture 3vg7eD…: the pump_amm sell's `user`, off the curve) */
const OKX = 'ARu4n5mFdZogZAravu7CcizaojWnS6oqka37gdLT5SZn';
/** a multisig vault: a program's address */
const [VAULT] = await getProgramDerivedAddress({ programAddress: address('SQDS4ep65T869zMMBKyuUq6aD6EgTu8psMjkvj52pCf'), seeds: ['vault-of-creator'] });

const ev = (name: string, fields: Record<string, unknown>, outerIndex = 0): DecodedEvent => ({ program: 'pump', name, fields: fields as DecodedEvent['fields'], outerIndex, source: 'cpi' });
const tx = (signature: string, slot: number, blockTime: number | null, events: DecodedEvent[], extra: Partial<DecodedTransaction> = {}): DecodedTransaction => ({
  signature, slot, blockTime, err: null, accountKeys: [], signers: [], instructions: [], events, preTokenBalances: [], postTokenBalances: [],
  logsTruncated: false, fromLogsOnly: false, jitoTipLamports: '0', skipped: [], ...extra,
});
const create = (creator: string, ts = T0) =>
  ev('CreateEvent', { name: 'T', symbol: 'T', uri: 'u', mint: A, bonding_curve: 'c', user: creator, creator, token_total_supply: '1000000000000000', quote_mint: SOL, timestamp: String(ts) });
const trade = (user: string, isBuy: boolean, tokens: bigint, outerIndex: number, ts?: number) =>
  ev('TradeEvent', { mint: A, user, is_buy: isBuy, token_amount: String(tokens), sol_amount: '100000000', quote_amount: '100000000', quote_mint: SOL, fee: '0', creator_fee: '0', ix_name: isBuy ? 'buy_v3' : 'sell_v3', ...(ts === undefined ? {} : { timestamp: String(ts) }) }, outerIndex);
const balance = (account: string, owner: string, amount: bigint) => ({ accountIndex: 1, account, mint: A, owner, amount: String(amount), decimals: 6 });
const curveAta = (before: bigint, after: bigint) => ({ pre: balance('curve-ata', 'curve-pda-owner', before), post: balance('curve-ata', 'curve-pda-owner', after) });
/** A router's trade (top-level instruction `top`): pump buy_v3/sell_v3 with the router's authority as user; the tokens pass through its account to or from `signer`'s. */
const routerTrade = (signature: string, slot: number, blockTime: number, signer: string, isBuy: boolean, tokens: bigint, opts: { extraEvents?: DecodedEvent[]; extraIx?: DecodedTransaction['instructions']; signerBefore?: bigint; top?: number } = {}) => {
  const top = opts.top ?? 1;
  const before = opts.signerBefore ?? (isBuy ? 0n : tokens);
  const after = isBuy ? before + tokens : before - tokens;
  const c = curveAta(10n ** 15n, isBuy ? 10n ** 15n - tokens : 10n ** 15n + tokens);
  return tx(signature, slot, blockTime, [...(opts.extraEvents ?? []), trade(OKX, isBuy, tokens, top)], {
    signers: [signer],
    instructions: [...(opts.extraIx ?? []), { program: 'pump', name: isBuy ? 'buy_v3' : 'sell_v3', inner: true, path: `${top}.0`, accounts: { base_mint: A, user: OKX, associated_base_user: 'okx-ata-A' }, args: {} }],
    preTokenBalances: [balance('okx-ata-A', OKX, 0n), balance(`${signer}-ata-A`, signer, before), c.pre],
    postTokenBalances: [balance('okx-ata-A', OKX, 0n), balance(`${signer}-ata-A`, signer, after), c.post],
  });
};
const createIx = (creator: string): DecodedTransaction['instructions'][number] => ({ program: 'pump', name: 'create_v2', inner: false, path: '0', accounts: { mint: A, user: creator }, args: {} });
const record = (txs: DecodedTransaction[], state: Parameters<typeof analyzeLaunch>[3] = OWN_FUNDERS): LaunchDocument =>
  classifyLaunch(analyzeLaunch(A, txs, true, state), { origin: 'observed', observedAtLaunch: true, asOfMs: (T0 + 3600) * 1000 });
const later = tx('later', 9000, T0 + 3600, [trade(W, true, 10n ** 12n, 0)], { signers: [W] });
const codes = (d: LaunchDocument) => d.flags.map((f) => f.code);

describe('markers-v12: a router trading with its own authority', () => {
  it('the fixture: OKX passes its own PDA as the trade user, off the ed25519 curve; the signer is a wallet', () => {
    const d = decodeTransaction(loadFixtureTransaction('pumpswap_2026-04_sell_via-okxlabs2_getTransaction_base64_3vg7eD.json'));
    expect(d.signers).toEqual(['7kKfrMDnunB5eR4n6KW6F8eGcmrVCgS8kLfMxppcCFdn']);
    expect(d.events.find((e) => e.name === 'SellEvent')!.fields.user).toBe(OKX);
    expect(isProgramAddress(OKX)).toBe(true);
    expect(isProgramAddress(d.signers[0]!)).toBe(false);
    expect(isProgramAddress('not-an-address')).toBe(false); // malformed: not read as a program's
  });

  it('the creator buys its own coin through the router in its creation transaction: the creator kept it, no bundled buyer', () => {
    const creation = routerTrade('c1', 100, T0, CA, true, 3n * 10n ** 13n, { extraEvents: [create(CA)], extraIx: [createIx(CA)] });
    const d = record([creation, later]);
    expect(d.methodVersion).toBe(METHOD_VERSION);
    expect(d.launch!.bundledBuyers).toBe(0);
    expect(d.launch!.creatorTokensRaw).toBe(String(3n * 10n ** 13n));
    expect(codes(d)).not.toContain('bundled_buyers');
  });

  it('an outside wallet buys through the router 5 s after creation: that wallet is the early buyer, and the router is in no cohort (its lookup could never end)', () => {
    const creation = tx('c2', 200, T0, [create(CA), trade(CA, true, 10n ** 13n, 1)], {
      signers: [CA],
      instructions: [{ program: 'pump', name: 'buy_v3', inner: false, path: '1', accounts: { base_mint: A, user: CA, associated_base_user: 'CA-ata-A' }, args: {} }],
      postTokenBalances: [balance('CA-ata-A', CA, 10n ** 13n)],
    });
    const viaRouter = routerTrade('r2', 212, T0 + 5, U, true, 10n ** 12n, { top: 0 });
    const direct = tx('d2', 215, T0 + 6, [trade(W2, true, 10n ** 12n, 0)], { signers: [W2] });
    // every wallet's first funder is known and its own; the router's never would be
    const funderOf = (w: string) => (w === OKX ? undefined : OWN_FUNDERS.funderOf(w));
    const d = record([creation, viaRouter, direct, later], { funderOf });
    expect([d.finding.class, d.launch!.buyersFirst30s]).toEqual(['NO_MARKERS', 2]);
    const trades = tradesOf(A, [viaRouter]);
    // the wallet holds and signed: no other payer (the router's authority is the `via`, in no cohort)
    expect(trades.map((t) => [t.wallet, t.payer, t.via])).toEqual([[U, undefined, OKX]]);
    expect(cohortCandidates(A, [creation, viaRouter, direct], null).sort()).toEqual([CA, U, W2].sort());
  });

  it('the creator sells through the router 10 s after creation: a sale at birth (the router\'s authority sold nothing of its own)', () => {
    const creation = tx('c3', 300, T0, [create(CA), trade(CA, true, 10n ** 14n, 1)], {
      signers: [CA],
      instructions: [{ program: 'pump', name: 'buy_v3', inner: false, path: '1', accounts: { base_mint: A, user: CA, associated_base_user: 'CA-ata-A' }, args: {} }],
      postTokenBalances: [balance('CA-ata-A', CA, 10n ** 14n)],
    });
    const sale = routerTrade('s3', 325, T0 + 10, CA, false, 4n * 10n ** 13n, { top: 0, signerBefore: 10n ** 14n });
    const d = record([creation, sale, later]);
    expect(codes(d)).toContain('creator_sold_at_birth');
    expect(d.flags.find((f) => f.code === 'creator_sold_at_birth')!.evidence).toEqual(['s3']);
  });

  it('whose trade it was cannot be read (two wallets gained as much): nothing is claimed from that transaction — UNKNOWN, not a guess', () => {
    const creation = tx('c4', 400, T0, [create(CA)], { signers: [CA], instructions: [createIx(CA)] });
    const both = tx('b4', 410, T0 + 4, [trade(OKX, true, 10n ** 12n, 0)], {
      signers: [U],
      instructions: [{ program: 'pump', name: 'buy_v3', inner: true, path: '0.0', accounts: { base_mint: A, user: OKX, associated_base_user: 'okx-ata-A' }, args: {} }],
      preTokenBalances: [balance('okx-ata-A', OKX, 0n)],
      postTokenBalances: [balance('okx-ata-A', OKX, 0n), balance('u-ata', U, 10n ** 12n), balance('w-ata', W2, 10n ** 12n)],
    });
    const unplaced: UnplacedTx[] = [];
    tradesOf(A, [both], unplaced);
    expect(unplaced).toEqual([{ signature: 'b4', why: 'receivers' }]);
    expect(record([creation, both, later]).finding.class).toBe('UNKNOWN');
  });

  it('a program address that kept what it bought (a vault buying for itself) is the buyer; after the first 30 s the event\'s user stands, as before', () => {
    const creation = tx('c5', 500, T0, [create(CA)], { signers: [CA], instructions: [createIx(CA)] });
    const vaultBuy = tx('v5', 505, T0 + 2, [trade(VAULT, true, 10n ** 12n, 0)], {
      signers: [U],
      instructions: [{ program: 'pump', name: 'buy_v3', inner: true, path: '0.0', accounts: { base_mint: A, user: VAULT, associated_base_user: 'vault-ata' }, args: {} }],
      postTokenBalances: [balance('vault-ata', VAULT, 10n ** 12n)],
    });
    expect(tradesOf(A, [vaultBuy]).map((t) => t.wallet)).toEqual([VAULT]);
    const d = record([creation, vaultBuy, later]);
    expect(d.launch!.buyersFirst30s).toBe(1);
    // it kept what it bought: a buyer like any, whose funding is read (a review found a vault created with the creator's lamports left out)
    expect(cohortCandidates(A, [creation, vaultBuy], null).sort()).toEqual([CA, VAULT].sort());
    // read only where the record reads whole transactions: a later routed buy stays the event's user's
    expect(tradesOf(A, [routerTrade('r5', 9000, T0 + 3600, U, true, 10n ** 12n)], undefined, () => false).map((t) => t.wallet)).toEqual([OKX]);
  });
});

describe('markers-v12: a top-level buy into an account a program\'s address holds', () => {
  const each = 3n * 10n ** 13n;
  const buyInto = (inner: boolean) =>
    tx(inner ? 'c-inner' : 'c-top', 100, T0, [create(CA), trade(CA, true, each, 1)], {
      signers: [CA],
      instructions: [createIx(CA), { program: 'pump', name: 'buy_v3', inner, path: inner ? '1.0' : '1', accounts: { base_mint: A, user: CA, associated_base_user: 'vault-ata-A' }, args: {} }],
      postTokenBalances: [balance('vault-ata-A', VAULT, each)],
    });

  it('made through a program or at top level, the buy is the creator\'s (the vault is no outside wallet)', () => {
    for (const inner of [true, false]) {
      // the vault was created with the creator's lamports: were it a buyer, it would share the creator's funding
      const funderOf = (w: string) => ({ state: 'found' as const, funder: w === VAULT ? CA : `funder-of-${w}`, signature: `funding-of-${w}`, slot: 1 });
      const d = record([buyInto(inner), later], { funderOf });
      expect([d.launch!.creatorTokensRaw, d.launch!.bundledBuyers, codes(d)], inner ? 'inner' : 'top').toEqual([String(each), 0, []]);
    }
  });

  it('into a wallet\'s account, the top-level buy is still that wallet\'s (markers-v9)', () => {
    const d = record([tx('c-w', 100, T0, [create(CA), trade(CA, true, each, 1)], {
      signers: [CA],
      instructions: [createIx(CA), { program: 'pump', name: 'buy_v3', inner: false, path: '1', accounts: { base_mint: A, user: CA, associated_base_user: 'w-ata-A' }, args: {} }],
      postTokenBalances: [balance('w-ata-A', W, each)],
    }), later]);
    expect(d.launch!.bundle.map((b) => b.wallet)).toEqual([W]);
  });
});

describe('markers-v12: a creation transaction without a blockTime', () => {
  // the creation's answer lacks blockTime; its CreateEvent carries the Clock's time T0
  const creation = tx('c1', 1000, null, [create(CA), trade(CA, true, 10n ** 13n, 0, T0)]);
  const outside = tx('o1', 1010, T0 + 4, [trade(W, true, 10n ** 12n, 0, T0 + 4)]);
  // 70 slots later, 40 s later (slow slots): after the first 30 s by the chain's own clock, inside the 75-slot estimate
  const sale = tx('s1', 1070, T0 + 40, [trade(CA, false, 10n ** 12n, 0, T0 + 40)]);
  const doc = record([creation, outside, sale]);

  it('the time is the events\' clock: createdAt is the CreateEvent timestamp, and the window is read by it', () => {
    expect(chainTimeOf(creation)).toBe(T0);
    expect(chainTimeOf({ blockTime: null, events: [] })).toBeNull();
    expect(doc.launch!.createdAt?.ms).toBe(T0 * 1000);
    expect(doc.launch!.buyersFirst30s).toBe(1);
  });

  it('a sale 40 s after creation is no sale at birth: NOTE creator_sold, clean at birth', () => {
    expect(codes(doc)).not.toContain('creator_sold_at_birth');
    expect([doc.finding.class, doc.cleanAtBirth]).toEqual(['NOTE', true]);
  });
});

describe('markers-v12: the shared-funder flag on the token page', () => {
  it('says a shared first funder may be an exchange\'s or a service\'s wallet, and links the methodology', () => {
    const creation = tx('c1', 100, T0, [create(CA), trade(CA, true, 10n ** 13n, 0)]);
    const early = tx('e1', 120, T0 + 8, [trade(W, true, 10n ** 12n, 0)]);
    const funderOf = (w: string) => ({ state: 'found' as const, funder: 'HotWa11etHotWa11etHotWa11etHotWa11etHotWa11', signature: `withdrawal-to-${w}`, slot: 1 });
    const doc = record([creation, early], { funderOf });
    expect([doc.finding.class, doc.cleanAtBirth]).toEqual(['FINDINGS', false]);
    const page = renderTokenPage(doc, { transactions: [creation, early], explorerTxUrl: 'https://solscan.io/tx/', baseUrl: 'https://archive.example', sha256: 'ab'.repeat(32) });
    const flags = page.slice(page.indexOf('id="flags"'), page.indexOf('id="charts"'));
    expect(flags).toMatch(/first funded by one shared wallet/);
    expect(flags).toMatch(/exchange’s or a service’s/);
    expect(flags).toContain(`href="/methodology.html#${SHARED_FUNDER_ANCHOR}"`);
    expect(markdownToHtml(readFileSync(join(import.meta.dirname, '../../docs/methodology.md'), 'utf8'))).toContain(`id="${SHARED_FUNDER_ANCHOR}"`);
  });
});

it('wallet addresses of the test helpers are on the curve (a random 32 bytes would be a program\'s address half the time)', () => {
  for (let i = 0; i < 20; i++) expect(isOffCurveAddress(address(wallet()))).toBe(false);
});

describe('public migration 30: records markers-v12 may read otherwise are recorded again', () => {
  it('hands to the funder sweep the records with a pump trade called by another program in their first slots, and those without a creation time; no other', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lpa-markers-v12-'));
    let store = new PublicStore(join(dir, 'public.db'));
    try {
      const put = (mint: string, txs: DecodedTransaction[]) =>
        store.db.transaction(() => {
          for (const t of txs) store.addTransaction(mint, t);
          recordLaunch(store, mint, { origin: 'observed', observedAtLaunch: true, nowMs: (T0 + 3600) * 1000, state: OWN_FUNDERS });
        })();
      const mk = (tag: string) => `${tag}${'A'.repeat(40 - tag.length)}pump`;
      const routed = mk('Routed');
      const plain = mk('Plain');
      const timeless = mk('Timeless');
      const createOf = (mint: string, slot: number, blockTime: number | null, withTs = true) => {
        const fields: Record<string, DecodedEvent['fields'][string]> = { ...create(CA).fields, mint };
        if (!withTs) delete fields.timestamp; // an answer without blockTime whose events carry no clock either
        return tx(`create-${mint}`, slot, blockTime, [{ ...create(CA), fields }, { ...trade(CA, true, 10n ** 13n, 1), fields: { ...trade(CA, true, 10n ** 13n, 1).fields, mint } }], {
          signers: [CA],
          instructions: [{ program: 'pump', name: 'buy_v3', inner: false, path: '1', accounts: { base_mint: mint, user: CA, associated_base_user: 'CA-ata' }, args: {} }],
        });
      };
      const sale = routerTrade('sale-routed', 1010, T0 + 4, CA, false, 10n ** 12n, { top: 0, signerBefore: 10n ** 13n });
      put(routed, [createOf(routed, 1000, T0), { ...sale, events: sale.events.map((e) => ({ ...e, fields: { ...e.fields, mint: routed } })), instructions: sale.instructions.map((i) => ({ ...i, accounts: { ...i.accounts, base_mint: routed } })) }]);
      put(plain, [createOf(plain, 2000, T0), tx('buy-plain', 2010, T0 + 4, [{ ...trade(W, true, 10n ** 12n, 0), fields: { ...trade(W, true, 10n ** 12n, 0).fields, mint: plain } }], { signers: [W] })]);
      put(timeless, [createOf(timeless, 3000, null, false)]);
      expect(JSON.parse(store.getLaunch(timeless)!.document).launch.createdAt).toBeNull();
      store.db.exec('UPDATE launch SET cohort_unknown = 0');
      store.db.exec('DELETE FROM schema_migrations WHERE version = 30');
      store.close();
      store = new PublicStore(join(dir, 'public.db'));
      expect(store.cohortUnknownMints('', 10).sort()).toEqual([routed, timeless].sort());
      // what the sweep's log line counts: the queue, and those made by an older method (an upgrade's to record again)
      expect(store.sweepQueue(METHOD_VERSION)).toEqual({ records: 2, olderMethod: 0 });
      store.db.prepare("UPDATE launch SET method_version = 'markers-v11' WHERE mint = ?").run(routed);
      expect(store.sweepQueue(METHOD_VERSION)).toEqual({ records: 2, olderMethod: 1 });
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a record made under an earlier method, on its token page', () => {
  it('says so under the verdict, with the current method and a link to what changed; a current record does not', () => {
    const creation = tx('c1', 100, T0, [create(CA), trade(CA, true, 10n ** 13n, 0)]);
    const doc = record([creation, later]);
    const opts = { transactions: [creation, later], explorerTxUrl: 'https://solscan.io/tx/', baseUrl: 'https://archive.example', sha256: 'ab'.repeat(32) };
    expect(renderTokenPage(doc, opts)).not.toContain('id="older-method"');
    const older = renderTokenPage({ ...doc, methodVersion: 'markers-v11' }, opts);
    expect(older).toContain(`Recorded under <code>markers-v11</code>, an earlier method than the archive’s current <code>${METHOD_VERSION}</code>`);
    expect(older).toContain('href="/methodology.html#changes-between-versions"');
  });
});
