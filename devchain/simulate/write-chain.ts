/**
 * Writes a simulated chain to a directory: transactions.ndjson, accounts.ndjson, chain.json,
 * truth.json. The only simulator module that touches the file system.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateChain, type SimulatedChain, type SimulateOptions } from './chain.ts';

/** Generate and write the chain into `out` (created if missing). Returns what was written. */
export function writeChain(opts: SimulateOptions & { out: string }): SimulatedChain {
  const chain = generateChain(opts);
  mkdirSync(opts.out, { recursive: true });
  writeFileSync(join(opts.out, 'transactions.ndjson'), chain.transactions.join('\n') + '\n');
  writeFileSync(join(opts.out, 'accounts.ndjson'), chain.accounts.join('\n') + '\n');
  writeFileSync(join(opts.out, 'chain.json'), JSON.stringify(chain.chain, null, 2) + '\n');
  writeFileSync(join(opts.out, 'truth.json'), JSON.stringify(chain.truth, null, 2) + '\n');
  return chain;
}
