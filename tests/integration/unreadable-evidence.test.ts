/**
 * A transaction the provider answers incompletely (no meta; or meta without logs and inner
 * instructions) or with an answer of the wrong shape, when it is the evidence of a finding: the
 * launch must never become clean meanwhile (a robustness review: a bundled buy answered without meta
 * vanished without a trace and its launch turned NOTE, cleanAtBirth true; one answered with garbage
 * was passed as unreadable with no launch named, and its launch turned NO_MARKERS, settled, cached).
 * Now the read counts as failed, the transaction is kept unreadable under the launches around it, and
 * those are UNKNOWN until it is read; read again, the record is the clean run's. Simulated chain
 * through the replay RPC (its `inject` rewrites one getTransaction answer), `lpa collect --once`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { writeChain } from '../../devchain/simulate/write-chain.ts';
import type { LaunchDocument } from '../../src/core/types.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const LPA = join(ROOT, 'bin/lpa.mjs');
const run = promisify(execFile);
let tmp: string;
let rpc: ReplayRpc;
/** The fault now: the signature whose getTransaction answer is rewritten, and how. */
let fault: { signature: string; rewrite: (r: unknown) => unknown } | null = null;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-unreadable-evidence-'));
  writeChain({ launches: 40, seed: 7, out: join(tmp, 'chain') });
  rpc = await startReplayRpc({
    chainDir: join(tmp, 'chain'),
    inject: (method, params) => {
      if (!fault || method !== 'getTransaction' || params[0] !== fault.signature) return null;
      return { rewrite: fault.rewrite };
    },
  });
}, 120_000);
afterAll(async () => {
  await rpc?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const collect = async (dataDir: string, env: Record<string, string> = {}) => {
  try {
    await run(process.execPath, [LPA, 'collect', '--once'], { cwd: ROOT, env: { ...process.env, SOLANA_RPC_URL: rpc.url, DATA_DIR: dataDir, COLLECT_START: 'earliest', LOG_LEVEL: 'warn', ...env } });
  } catch (e) {
    throw new Error(`lpa collect --once failed: ${String((e as { stderr?: string }).stderr ?? e).slice(-2000)}`);
  }
};
const docs = (dataDir: string) => {
  const db = new Database(join(dataDir, 'public.db'), { readonly: true });
  const out = new Map((db.prepare('SELECT mint, document FROM launch').all() as { mint: string; document: string }[]).map((r) => [r.mint, JSON.parse(r.document) as LaunchDocument]));
  db.close();
  return out;
};
/** A document without the fields that say when it was written or read. */
const facts = (d: LaunchDocument) => JSON.parse(JSON.stringify(d, (k, v) => (k === 'asOf' || k === 'checkedAt' || k === 'rebuiltAt' ? undefined : v)));

describe('the evidence of a finding answered incompletely', () => {
  let clean: Map<string, LaunchDocument>;
  let target: { mint: string; signature: string };

  beforeAll(async () => {
    await collect(join(tmp, 'clean'));
    clean = docs(join(tmp, 'clean'));
    // (a cron run writes the pages its jobs marked before it exits: the afterwards sweep's wallet pages
    // were left pending, saying "not known yet" where the API said what the wallet did — a robustness review)
    const db = new Database(join(tmp, 'clean', 'public.db'), { readonly: true });
    expect({ tokens: db.prepare('SELECT count(*) FROM pending_page').pluck().get(), wallets: db.prepare('SELECT count(*) FROM pending_wallet_page').pluck().get() }).toEqual({ tokens: 0, wallets: 0 });
    db.close();
    // a bundled buy in its own transaction (not the creation's): the only evidence of its launch's bundled_buyers finding
    const found = [...clean.values()]
      .flatMap((d) => d.flags.filter((f) => f.code === 'bundled_buyers').map((f) => ({ d, sigs: f.evidence.filter((s) => s !== d.launch?.transaction.signature) })))
      .find((x) => x.sigs.length === 1);
    expect(found, 'the simulated chain has a launch whose bundle is one transaction apart from its creation').toBeDefined();
    target = { mint: found!.d.mint, signature: found!.sigs[0]! };
  }, 180_000);

  const noMeta = (r: unknown) => ({ ...(r as object), meta: null });
  const noLogsNorInner = (r: unknown) => {
    const { logMessages: _l, innerInstructions: _i, ...meta } = (r as { meta: Record<string, unknown> }).meta;
    return { ...(r as object), meta };
  };
  const wrongShape = () => ({ transaction: 'garbage', meta: 42 });

  it.each([
    ['no meta', noMeta],
    ['meta without logs and inner instructions', noLogsNorInner],
    ['an answer of the wrong shape', wrongShape],
  ] as const)('%s: the launch is UNKNOWN, never clean or settled, while the transaction is unreadable; read again, its record is the clean run\'s', async (name, rewrite) => {
    const dataDir = join(tmp, name.replaceAll(' ', '-'));
    fault = { signature: target.signature, rewrite };
    // the first failed read is the last allowed: the transaction is recorded unreadable and passed
    await collect(dataDir, { UNREADABLE_AFTER_FAILURES: '1' });
    const faulty = docs(dataDir).get(target.mint)!;
    expect(clean.get(target.mint)!.finding.class).toBe('FINDINGS');
    expect(faulty.finding.class).toBe('UNKNOWN');
    expect(faulty.cleanAtBirth).not.toBe(true);
    expect(faulty.settled).toBe(false);
    const db = new Database(join(dataDir, 'public.db'), { readonly: true });
    expect(db.prepare('SELECT mint FROM unreadable_tx_mint WHERE signature = ?').pluck().all(target.signature)).toContain(target.mint);
    db.close();
    // the provider answers it whole again: the retry reads it, and every record is the clean run's
    fault = null;
    await collect(dataDir, { UNREADABLE_RETRY_MS: '0' });
    const healed = docs(dataDir);
    expect(facts(healed.get(target.mint)!)).toEqual(facts(clean.get(target.mint)!));
    for (const [mint, d] of clean) expect(facts(healed.get(mint)!), mint).toEqual(facts(d));
  }, 180_000);

  it('a creation answered without its block time is dated by the listing: its record is the clean run\'s (createdAt stayed null for good)', async () => {
    const creation = clean.get(target.mint)!.launch!.transaction.signature;
    fault = { signature: creation, rewrite: (r) => ({ ...(r as object), blockTime: null }) };
    const dataDir = join(tmp, 'no-block-time');
    await collect(dataDir);
    fault = null;
    const got = docs(dataDir).get(target.mint)!;
    expect(got.launch!.createdAt).toEqual(clean.get(target.mint)!.launch!.createdAt);
    expect(facts(got)).toEqual(facts(clean.get(target.mint)!));
  }, 180_000);

  it('a trade of a launch that graduates later, answered with garbage and passed before the graduation was read, counts against that launch once it has graduated', async () => {
    // a graduated launch, and one of its curve trades more than 100 slots after its creation (outside launchesAround's window)
    const grad = [...clean.values()].find((d) => d.launch?.graduated && d.settled && d.finding.class !== 'UNKNOWN')!;
    expect(grad, 'the simulated chain has a settled graduated launch').toBeDefined();
    const created = grad.launch!.transaction.slot;
    const db0 = new Database(join(tmp, 'clean', 'public.db'), { readonly: true });
    const rows = db0.prepare('SELECT signature, slot, decoded FROM launch_tx WHERE mint = ? AND failed = 0 ORDER BY slot').all(grad.mint) as { signature: string; slot: number; decoded: string }[];
    db0.close();
    const trade = rows.find((r) => r.slot > created + 150 && !/Migration|CompleteEvent|CreateEvent/.test(r.decoded) && /TradeEvent/.test(r.decoded));
    expect(trade, 'a plain trade in its life, away from its creation').toBeDefined();
    // an answer of the wrong shape: no account keys name the launch either
    fault = { signature: trade!.signature, rewrite: wrongShape };
    const dataDir = join(tmp, 'graduates-later');
    // small batches: the trade is passed in a batch before the one holding the migration
    await collect(dataDir, { UNREADABLE_AFTER_FAILURES: '1', COLLECT_BATCH: '10' });
    const faulty = docs(dataDir).get(grad.mint)!;
    expect(faulty.launch?.graduated).toBe(true);
    expect([faulty.finding.class, faulty.settled, faulty.cleanAtBirth === true]).toEqual(['UNKNOWN', false, false]);
    fault = null;
    await collect(dataDir, { UNREADABLE_RETRY_MS: '0' });
    expect(facts(docs(dataDir).get(grad.mint)!)).toEqual(facts(grad));
  }, 240_000);
});
