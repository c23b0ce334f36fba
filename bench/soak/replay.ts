/**
 * The soak's replay RPC, in its own process so its CPU is not the collector's:
 * `tsx bench/soak/replay.ts '<json options>'` as a child with an IPC channel.
 *
 * Options (JSON): `{ chainDir, seconds, tps, seed, profile }` — the simulated base chain (with its
 * truth.json), the run length, the rate, the seed and the provider profile (limiter.ts).
 *
 * IPC: sends `{ ready: { url, wsUrl, launches, firstSlot, lastSlot, summary, workingSet } }` once listening (the
 * clock does not tick yet). Receives `{ go: true }`: from then on one slot lands every 400 ms
 * (measured from the go, so a late timer does not drift), and when the last slot has landed it
 * sends `{ done: { landedAtMs } }` (wall time each launch's creation slot landed, by slot) and keeps
 * serving. Receives `{ stats: true }`: answers `{ stats }` (the replay's counts, and its slot).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadChain } from '../../devchain/replay/load-chain.ts';
import { isProfileName, PROFILES } from '../../devchain/replay/limiter.ts';
import { startReplayRpc } from '../../devchain/replay/server.ts';
import { bondingCurveAddress } from '../../src/chain/pda.ts';
import { mainnetRateChain, SLOT_MS } from './mainnet-chain.ts';
import { workingSetSeries } from './working-set.ts';

interface Options {
  chainDir: string;
  seconds: number;
  tps: number;
  seed: number;
  profile: string;
}

if (!process.send || !process.argv[2]) {
  console.error("usage: tsx bench/soak/replay.ts '<json options>' (as a child process with an IPC channel)");
  process.exit(2);
}
const opts = JSON.parse(process.argv[2]) as Options;
if (!isProfileName(opts.profile)) throw new Error(`unknown profile ${opts.profile}`);
const send = (m: unknown) => process.send!(m);

// today's chain: the launches of the 2026-10 era only (the simulator always writes some of the older eras)
const truth = JSON.parse(readFileSync(join(opts.chainDir, 'truth.json'), 'utf8')) as { records: Record<string, { creationSignature: string; completed: boolean; kind: string; createdAtMs: number; creator: string }> };
const today = Object.entries(truth.records).filter(([, r]) => r.kind.split('+').includes('era2026_10'));
const older = new Set(Object.keys(truth.records).filter((m) => !today.some(([t]) => t === m)));
const loaded = loadChain(opts.chainDir);
const base = { ...loaded, transactions: loaded.transactions.filter((t) => !t.accountKeys.some((k) => older.has(k))) };
const firstSlot = base.transactions[0]!.slot;
const dense = mainnetRateChain(
  base,
  await Promise.all(today.map(async ([mint, r]) => ({ mint, creationSignature: r.creationSignature, createdAtMs: r.createdAtMs, creator: r.creator, completes: r.completed, curve: await bondingCurveAddress(mint) }))),
  { seconds: opts.seconds, tps: opts.tps, seed: opts.seed, firstSlot },
);
const rpc = await startReplayRpc({ chain: dense.chain, live: true, speed: 1e-6, startSlot: firstSlot - 1, provider: PROFILES[opts.profile] });
const creationSlots = new Set(dense.launches.map((l) => l.slot));
const landedAtMs: Record<number, number> = {};

process.on('message', (m: { go?: boolean; stats?: boolean }) => {
  if (m.go) {
    const t0 = Date.now();
    const tick = setInterval(() => {
      const now = Date.now();
      const target = Math.min(dense.lastSlot, firstSlot + Math.floor((now - t0) / SLOT_MS));
      for (let s = rpc.slot() + 1; s <= target; s++) {
        rpc.advanceTo(s);
        if (creationSlots.has(s)) landedAtMs[s] = Date.now();
      }
      if (target >= dense.lastSlot) {
        clearInterval(tick);
        send({ done: { landedAtMs } });
      }
    }, 20);
  } else if (m.stats) send({ stats: { ...rpc.stats, slot: rpc.slot() } });
});
process.on('disconnect', () => void rpc.close().then(() => process.exit(0)));
// the chain's working set every 5 s (bench/soak/working-set.ts): the collector's TX_CACHE_IDLE_S as it runs it
const mints = new Set(dense.launches.map((l) => l.mint));
const idleMs = Number(process.env.TX_CACHE_IDLE_S ?? 60) * 1000;
const workingSet = workingSetSeries(
  dense.chain.transactions.map((t) => ({ slot: t.slot, mints: t.accountKeys.filter((k) => mints.has(k)) })),
  firstSlot,
  { slotMs: SLOT_MS, idleMs, stepMs: 5_000, steps: Math.ceil(((dense.lastSlot - firstSlot + 1) * SLOT_MS) / 5_000) },
);
send({ ready: { url: rpc.url, wsUrl: rpc.wsUrl, launches: dense.launches, firstSlot, lastSlot: dense.lastSlot, summary: dense.summary, workingSet } });
