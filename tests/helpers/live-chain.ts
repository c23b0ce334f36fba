import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeChain } from '../../devchain/simulate/write-chain.ts';
import type { SimulatedChain } from '../../devchain/simulate/chain.ts';
import { startReplayRpc, type ReplayRpc, type ReplayRpcOptions } from '../../devchain/replay/server.ts';
import { sleep } from './net.ts';

/**
 * A simulated chain served live by the replay RPC (`live: true`, its clock stopped: the test lands
 * the slots), in a temporary folder of its own, for the collector tests that watch a chain arrive
 * (creation-scan, heard-creation, creation-ahead-held). `creations`: every launch's mint, creation
 * slot and signature, oldest first. `close()` stops the replay and removes the folder.
 */
export interface LiveChain {
  tmp: string;
  chain: SimulatedChain;
  rpc: ReplayRpc;
  creations: { mint: string; slot: number; signature: string }[];
  close(): Promise<void>;
}

/** A simulated chain served by the replay RPC, in a temporary folder of its own; `close()` stops the replay and removes the folder. */
export type ServedChain = Omit<LiveChain, 'creations'>;

/**
 * Write a `launches`-launch chain of `seed` under a new temporary folder named `lpa-<name>-…`
 * (its `chain/`; the test's own files go beside it) and serve it with the replay RPC's `options`.
 */
export async function startServedChain(name: string, launches: number, seed: number, options: Omit<ReplayRpcOptions, 'chainDir'> = {}): Promise<ServedChain> {
  const tmp = mkdtempSync(join(tmpdir(), `lpa-${name}-`));
  const chain = writeChain({ launches, seed, out: join(tmp, 'chain') });
  const rpc = await startReplayRpc({ ...options, chainDir: join(tmp, 'chain') });
  return {
    tmp,
    chain,
    rpc,
    async close() {
      await rpc.close();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** Write a `launches`-launch chain of `seed` under a new temporary folder named `lpa-<name>-…` and serve it live. */
export async function startLiveChain(name: string, launches: number, seed: number): Promise<LiveChain> {
  const served = await startServedChain(name, launches, seed, { live: true, speed: 1e-6 });
  const creations = Object.entries(served.chain.truth.records)
    .map(([mint, t]) => ({ mint, slot: t.creationSlot, signature: t.creationSignature }))
    .sort((a, b) => a.slot - b.slot);
  return { ...served, creations };
}

/** Wait until `ok()` holds, polling every `stepMs`; throws "<what> within <ms> ms" past `ms`. */
export async function until(what: string, ok: () => boolean, ms = 20_000, stepMs = 10): Promise<void> {
  for (const t0 = Date.now(); !ok(); await sleep(stepMs)) if (Date.now() - t0 > ms) throw new Error(`${what} within ${ms} ms`);
}
