import { randomBytes } from 'node:crypto';
import { getBase58Decoder } from '@solana/kit';
import { canonicalJson, instant, sha256Hex } from '../../src/core/canonical.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import type { PublicStore } from '../../src/db/public-store.ts';
import { walletAddressOfSeed } from '../../devchain/simulate/keys.ts';

/**
 * A launch document stated by the test (not built from chain), for tests of what reads the launch
 * table: lists and search. Every field a list row reads can be set.
 */

const b58 = getBase58Decoder();

/** A fresh random wallet address: an Ed25519 public key (on the curve, as a wallet's is; 32 random bytes are off it half the time). */
export function randomAddress(): string {
  return walletAddressOfSeed(randomBytes(32));
}

/** A fresh random transaction signature (64 random bytes in base58: 87–88 characters, as on chain). */
export function randomSignature(): string {
  return b58.decode(randomBytes(64));
}

/** A NO_MARKERS document of `mint` created at `createdMs` by `creator`, with `over` on top. */
export function launchDoc(mint: string, createdMs: number, over: Partial<LaunchDocument> = {}, creator = randomAddress()): LaunchDocument {
  return {
    apiVersion: 'v1',
    methodVersion: 'markers-v2',
    mint,
    symbol: 'TST',
    name: 'Test token',
    uri: null,
    venue: 'pump.fun',
    origin: 'observed',
    observedAtLaunch: true,
    settled: false,
    asOf: instant(createdMs + 60_000),
    finding: { class: 'NO_MARKERS', label: 'No recorded markers', why: 'None of the recorded launch markers was found.' },
    cleanAtBirth: true,
    launch: {
      createdAt: instant(createdMs),
      creator,
      creatorSupplyPct: 2,
      creatorTokensRaw: '20000000000000',
      totalSupplyRaw: '1000000000000000',
      creatorSold: false,
      curveBuyers: 12,
      buyersFirst30s: 3,
      bundledBuyers: 0,
      bundle: [],
      quoteMint: 'So11111111111111111111111111111111111111112',
      tokenProgram: null,
      mayhemMode: null,
      completed: false,
      completedAt: null,
      graduated: false,
      graduationObserved: false,
      graduationCheck: null,
      graduationConfirmedBy: null,
      graduatedAt: null,
      secondsToGraduate: null,
      graduation: null,
      transaction: { signature: `sig${mint}`, slot: Math.floor(createdMs / 400) },
    },
    curveBuyout: null,
    pool: null,
    funder: { sharedCohort: [] },
    flags: [],
    history: { complete: true, transactions: 20, failedTransactions: 0, firstSlot: Math.floor(createdMs / 400), lastSlot: Math.floor(createdMs / 400) + 100 },
    ...over,
  };
}

/** Store a document as the collector does (canonical text, its sha256). */
export function putDoc(store: PublicStore, doc: LaunchDocument, nowMs = Date.now()): void {
  const text = canonicalJson(doc);
  store.putLaunch(doc, null, text, sha256Hex(text), nowMs);
}
