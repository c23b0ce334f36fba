/**
 * Decode micro-benchmark: µs of `decodeTransaction` per transaction over the ingest bench's chain
 * (bench/ingest.ts: writeChain 500 launches, seed 4242), with the transactions read as the
 * collector reads them (the replay RPC, the batched reader: json encoding, parsed answers), so the
 * inputs are the collector's. Not part of `npm run bench`.
 *
 * Run: `npx tsx bench/decode-micro.ts` (env: MICRO_LAUNCHES, default 500; MICRO_SECONDS per pass,
 * default 3; MICRO_PASSES, default 5). Prints the median and the best pass; for a CPU profile:
 * `node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/decode-micro.ts`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeChain } from '../devchain/simulate/write-chain.ts';
import { startReplayRpc } from '../devchain/replay/server.ts';
import { createTransactionReader } from '../src/chain/transaction-reader.ts';
import { PUMP_PROGRAM_ID } from '../src/core/programs.ts';
import { decodeTransaction } from '../src/core/decode/index.ts';
import { median } from './load.ts';

const LAUNCHES = Number(process.env.MICRO_LAUNCHES ?? 500);
const SECONDS = Number(process.env.MICRO_SECONDS ?? 3);
const PASSES = Number(process.env.MICRO_PASSES ?? 5);

const tmp = mkdtempSync(join(tmpdir(), 'lpa-decode-micro-'));
try {
  const chainDir = join(tmp, 'chain');
  writeChain({ launches: LAUNCHES, seed: 4242, out: chainDir });
  const sigs = readFileSync(join(chainDir, 'transactions.ndjson'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { transaction: { signatures: string[]; message: { accountKeys: string[] } } })
    .filter((t) => t.transaction.message.accountKeys.includes(PUMP_PROGRAM_ID))
    .map((t) => t.transaction.signatures[0]!);
  const rpc = await startReplayRpc({ chainDir });
  const reader = createTransactionReader({ url: rpc.url, batchSize: 100 });
  const answers: unknown[] = [];
  for (let i = 0; i < sigs.length; i += 100) {
    for (const a of await reader.getTransactions(sigs.slice(i, i + 100))) if (a && !(a instanceof Error)) answers.push(a);
  }
  await rpc.close();
  process.stderr.write(`decode-micro: ${answers.length} transactions\n`);
  // warm-up: let V8 optimise before measuring
  for (let k = 0; k < 3; k++) for (const a of answers) decodeTransaction(a);
  const perPass: number[] = [];
  for (let p = 0; p < PASSES; p++) {
    let n = 0;
    const c0 = process.threadCpuUsage();
    const t0 = performance.now();
    while (performance.now() - t0 < SECONDS * 1000) {
      for (const a of answers) decodeTransaction(a);
      n += answers.length;
    }
    const c1 = process.threadCpuUsage();
    perPass.push((c1.user - c0.user + c1.system - c0.system) / n);
  }
  const fmt = (x: number) => x.toFixed(2);
  process.stdout.write(`decodeTransaction: median ${fmt(median(perPass))} µs/tx, best ${fmt(Math.min(...perPass))} µs/tx (main-thread CPU; passes ${perPass.map(fmt).join(' / ')})\n`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
