/**
 * A live replay RPC in its own process for the bench's live-ingest figure, driven over IPC so that
 * its CPU is not counted in the collector's: `tsx bench/live-replay.ts CHAIN_DIR`. The clock does
 * not tick on its own (speed 1e-6); the parent lands slots.
 *
 * IPC: sends `{ url, wsUrl }` once listening. Receives `{ advanceTo: slot }` (lands every slot up
 * to it, pushing logsNotifications; answers `{ landed: slot }`) and `{ stats: true }` (answers
 * `{ calls }`: calls received per method).
 */
import { startReplayRpc } from '../devchain/replay/server.ts';

const chainDir = process.argv[2];
if (!chainDir || !process.send) {
  console.error('usage: tsx bench/live-replay.ts CHAIN_DIR (as a child process with an IPC channel)');
  process.exit(2);
}
const rpc = await startReplayRpc({ chainDir, live: true, speed: 1e-6 });
process.on('message', (m: { advanceTo?: number; stats?: boolean }) => {
  if (typeof m.advanceTo === 'number') {
    rpc.advanceTo(m.advanceTo);
    process.send!({ landed: m.advanceTo });
  } else if (m.stats) process.send!({ calls: rpc.stats.calls });
});
process.on('disconnect', () => void rpc.close().then(() => process.exit(0)));
process.send({ url: rpc.url, wsUrl: rpc.wsUrl });
