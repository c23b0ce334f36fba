/**
 * Records of every kind of token page, collected by the real collector from a simulated chain (not
 * hand-written): FINDINGS, NOTE, NO_MARKERS, graduated with a pool, a v3 synthetic migration
 * (PostCompleteBuyEvent), an UNKNOWN from unreadable program data (one TradeEvent's discriminator
 * changed, the drift guard), an UNKNOWN without its creation (the creation transaction removed
 * from the chain), and a rebuilt record (rebuildLaunch). The pages and creator pages are written by
 * the collector's publish step into `dataDir/site`. `hostile` is one more FINDINGS record, for a test
 * to give a hostile name.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeChain } from '../../devchain/simulate/write-chain.ts';
import type { SimulatedChain } from '../../devchain/simulate/chain.ts';
import { startReplayRpc } from '../../devchain/replay/server.ts';
import { rebuildLaunch } from '../../src/ingest/rebuild-launch.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { createArchiveRpc } from '../../src/chain/rpc.ts';
import { decodeTransaction } from '../../src/core/decode/index.ts';
import { PUMP } from '../../src/core/decode/idl.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { collectOnce } from './collect-once.ts';
import { mutateEventDiscriminator } from './mutate-event.ts';

/** The kinds of token page the browser tests open. */
export type PageKind = 'FINDINGS' | 'hostile' | 'NOTE' | 'NO_MARKERS' | 'UNKNOWN' | 'UNKNOWN_NO_CREATION' | 'rebuilt' | 'graduated' | 'v3_migration';

export interface PageRecords {
  dataDir: string;
  chain: SimulatedChain;
  /** a mint of each kind */
  mints: Record<PageKind, string>;
  /** a wallet that created a launch and one that bought in a creation slot */
  creator: string;
  bundledWallet: string;
  /** the wallet that completed the graduated record's curve (curveBuyout.wallet) */
  buyoutWallet: string;
}

const NOW = Date.parse('2026-11-25T00:00:00Z');

/** Build the chain, break two launches as described, collect, rebuild one record. */
export async function buildPageRecords(tmp: string): Promise<PageRecords> {
  const chainDir = join(tmp, 'chain');
  const chain = writeChain({ launches: 60, seed: 2612, out: chainDir, era2610Share: 0.5 });
  const truth = chain.truth.records;
  const raws = chain.transactions.map((l) => JSON.parse(l));
  const decoded = raws.map((r) => decodeTransaction(r));
  const tradeDisc = [...PUMP.events.values()].find((e) => e.name === 'TradeEvent')!.discriminator;
  const byKind = (ok: (t: (typeof truth)[string], mint: string) => boolean) => Object.keys(truth).filter((m) => ok(truth[m]!, m));
  const used = new Set<string>();
  const pick = (xs: string[]) => {
    const m = xs.find((x) => !used.has(x));
    if (m) used.add(m);
    return m;
  };
  // UNKNOWN: a later trade of a clean-at-birth launch becomes unreadable program data.
  const unknownMint = pick(byKind((t) => t.cleanAtBirth && t.curveBuyers > 1 && !t.graduated))!;
  const ti = decoded.findIndex((d) => d.err === null && d.events.length > 0 && d.events.every((e) => e.name === 'TradeEvent') && d.events[0]!.fields.mint === unknownMint && (d.blockTime ?? 0) * 1000 - truth[unknownMint]!.createdAtMs > 60_000);
  raws[ti] = mutateEventDiscriminator(raws[ti], tradeDisc, 'deadbeefdeadbeef').raw;
  // UNKNOWN without creation: the creation transaction of a launch with later trades is not on chain.
  const noCreation = pick(byKind((t) => t.curveBuyers > 2 && !t.completed))!;
  const ci = decoded.findIndex((d) => d.signature === truth[noCreation]!.creationSignature);
  raws.splice(ci, 1);
  writeFileSync(join(chainDir, 'transactions.ndjson'), raws.map((r) => JSON.stringify(r)).join('\n') + '\n');

  const rpc = await startReplayRpc({ chainDir });
  const dataDir = join(tmp, 'data');
  try {
    await collectOnce(dataDir, rpc.url, () => NOW);
    const config = loadConfig({ DATA_DIR: dataDir, SOLANA_RPC_URL: rpc.url, LOG_LEVEL: 'silent' });
    const store = new PublicStore(config.publicDbPath);
    try {
      const doc = (m: string) => JSON.parse(store.getLaunch(m)!.document) as LaunchDocument;
      const cls = (c: string) => (t: (typeof truth)[string], m: string) => !!store.getLaunch(m) && doc(m).finding.class === c;
      const v3 = pick(byKind((t, m) => t.curveBuyout?.poolPart != null && !!store.getLaunch(m) && doc(m).pool !== null))!;
      const graduated = pick(byKind((t, m) => t.graduated && t.curveBuyout?.poolPart == null && !!store.getLaunch(m) && doc(m).pool !== null))!;
      const findings = pick(byKind((t, m) => cls('FINDINGS')(t, m) && t.bundledBuyers > 1 && t.buyersFirst30s > t.bundledBuyers && t.creatorSold))
        ?? pick(byKind((t, m) => cls('FINDINGS')(t, m) && t.bundledBuyers > 0))!;
      const hostile = pick(byKind((t, m) => cls('FINDINGS')(t, m) && t.bundledBuyers > 0))!;
      const note = pick(byKind(cls('NOTE')))!;
      const noMarkers = pick(byKind(cls('NO_MARKERS')))!;
      const rebuilt = pick(byKind((t, m) => cls('FINDINGS')(t, m) && t.curveBuyers > 3))!;
      await rebuildLaunch({ config, store, rpc: createArchiveRpc({ url: rpc.url }), log: createLogger('silent'), now: () => NOW }, rebuilt, { maxRps: 0 });
      const mints: Record<PageKind, string> = {
        FINDINGS: findings,
        hostile,
        NOTE: note,
        NO_MARKERS: noMarkers,
        UNKNOWN: unknownMint,
        UNKNOWN_NO_CREATION: noCreation,
        rebuilt,
        graduated,
        v3_migration: v3,
      };
      for (const [k, m] of Object.entries(mints)) if (!m || !store.getLaunch(m)) throw new Error(`no record for ${k}`);
      const bundledWallet = doc(findings).launch!.bundle[0]?.wallet ?? doc(findings).launch!.creator;
      const buyoutWallet = doc(graduated).curveBuyout?.wallet;
      if (!buyoutWallet) throw new Error('the graduated record names no buyout wallet');
      return { dataDir, chain, mints, creator: doc(findings).launch!.creator, bundledWallet, buyoutWallet };
    } finally {
      store.close();
    }
  } finally {
    await rpc.close();
  }
}

/** The site files of a data dir (token pages `t/`, creator pages `w/`). */
export function sitePage(dataDir: string, path: string): string {
  return readFileSync(join(dataDir, 'site', path), 'utf8');
}
