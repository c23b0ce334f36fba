/**
 * A small collected archive for the built server's integration tests: a simulated chain of
 * `launches` (seed `seed`) served by the replay RPC, collected once into `dataDir`, with one held
 * mint and one creator that has a wallet page. `close()` stops the RPC and removes the folder.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { writeChain } from '../../devchain/simulate/write-chain.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { collectOnce } from './collect-once.ts';

export interface SmallArchive {
  tmp: string;
  rpc: ReplayRpc;
  dataDir: string;
  /** the first held mint in mint order */
  mint: string;
  /** a wallet with a written page (`site/w/{creator}.html`) */
  creator: string;
  close: () => Promise<void>;
}

/** Collect `launches` simulated launches (seed `seed`) at `nowMs`, in a new temporary folder named `prefix…`. */
export async function smallArchive(prefix: string, launches: number, seed: number, nowMs: number): Promise<SmallArchive> {
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  writeChain({ launches, seed, out: join(tmp, 'chain') });
  const rpc = await startReplayRpc({ chainDir: join(tmp, 'chain') });
  const dataDir = join(tmp, 'data');
  await collectOnce(dataDir, rpc.url, () => nowMs);
  const store = new PublicStore(join(dataDir, 'public.db'), { readonly: true });
  const mint = (store.db.prepare('SELECT mint FROM launch ORDER BY mint LIMIT 1').get() as { mint: string }).mint;
  store.close();
  const creator = readdirSync(join(dataDir, 'site', 'w'))[0]!.replace(/\.html$/, '');
  return {
    tmp,
    rpc,
    dataDir,
    mint,
    creator,
    close: async () => {
      await rpc.close();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
