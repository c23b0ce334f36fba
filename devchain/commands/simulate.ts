/**
 * `lpa simulate --launches N --seed S --out DIR`: write a simulated pump.fun chain in mainnet's
 * formats plus truth.json (see devchain/simulate/). Prints progress and a summary.
 */
import { writeChain } from '../simulate/write-chain.ts';

/** Options of the simulate command. */
export interface SimulateCommandOptions {
  launches: number;
  seed: number;
  out: string;
  /** unix seconds of the timeline origin (default 2024-07-25) */
  startTime?: number;
  /** share of launches in the 2026-10 era (generateChain `era2610Share`) */
  era2610Share?: number;
  /** share of the 2026-10 era's transactions rendered as version 1 (generateChain `v1Share`) */
  v1Share?: number;
}

/** Run the simulator and print a summary (launches per kind, transactions). */
export async function runSimulate(opts: SimulateCommandOptions): Promise<void> {
  const t0 = performance.now();
  console.log(`simulate: ${opts.launches} launches, seed ${opts.seed} → ${opts.out}`);
  const chain = writeChain(opts);
  const s = chain.summary;
  console.log(`simulate: wrote ${s.transactions} transactions (${s.failed} failed), ${s.accountVersions} account versions, slots ${chain.chain.firstSlot}–${chain.chain.lastSlot}`);
  console.log('simulate: launches per kind:');
  for (const [kind, n] of Object.entries(s.kinds).sort((a, b) => b[1] - a[1])) console.log(`  ${kind.padEnd(26)} ${n}`);
  console.log(`simulate: done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
