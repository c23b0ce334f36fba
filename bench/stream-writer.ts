/**
 * The writer of the stream benchmark (bench/stream.ts), a process of its own as the collector is:
 * rewrites `RATE` records per second of the archive in DATA_DIR through the project's PublicStore
 * (a new document each: a new sha256 and change_seq), in one transaction every 50 ms, for `SECONDS`
 * or until SIGTERM (the bench ends it when its measured part is over).
 * After each commit it notes the change sequences the transaction took and the time (`[fromSeq,
 * toSeq, commitMs]`: this process is the only writer, so they are contiguous), so the bench can
 * measure the delay from commit to delivery of every event. Prints `ready` when it starts writing and
 * `{"written":n,"seconds":s,"commits":[[from,to,ms],…]}` at the end.
 * Env: DATA_DIR, RATE (records/s, default 1000), SECONDS (default 40).
 */
import { canonicalJson, instant, sha256Hex } from '../src/core/canonical.ts';
import { loadConfig } from '../src/config.ts';
import { PublicStore } from '../src/db/public-store.ts';
import { launchDoc } from '../tests/helpers/launch-doc.ts';

const RATE = Number(process.env.RATE ?? 1000);
const SECONDS = Number(process.env.SECONDS ?? 40);
const TICK_MS = 50;
let stopped = false;
process.once('SIGTERM', () => (stopped = true));

const config = loadConfig();
const store = new PublicStore(config.publicDbPath);
const mints = store.db.prepare('SELECT mint FROM launch').pluck().all() as string[];
const put = store.db.transaction((docs: { doc: ReturnType<typeof launchDoc>; text: string }[]) => {
  for (const { doc, text } of docs) store.putLaunch(doc, null, text, sha256Hex(text), Date.now());
});

process.stdout.write('ready\n');
const maxSeq = store.db.prepare('SELECT COALESCE(MAX(change_seq), 0) FROM launch').pluck();
const commits: [number, number, number][] = [];
let lastSeq = maxSeq.get() as number;
const t0 = Date.now();
let written = 0;
let i = 0;
const tick = () => {
  const elapsed = Date.now() - t0;
  if (stopped || elapsed >= SECONDS * 1000) {
    store.close();
    process.stdout.write(JSON.stringify({ written, seconds: elapsed / 1000, commits }) + '\n');
    return;
  }
  // as many as the rate asks by now (a late tick catches up)
  const due = Math.floor((elapsed / 1000) * RATE) - written;
  if (due > 0) {
    const docs = [];
    const stamp = Date.now();
    for (let k = 0; k < due; k++) {
      const mint = mints[(i++ * 7919) % mints.length]!;
      const doc = launchDoc(mint, 1_795_000_000_000, { asOf: instant(stamp + k) });
      docs.push({ doc, text: canonicalJson(doc) });
    }
    put(docs);
    const at = Date.now();
    const seq = maxSeq.get() as number;
    commits.push([lastSeq + 1, seq, at]);
    lastSeq = seq;
    written += due;
  }
  setTimeout(tick, TICK_MS);
};
tick();
