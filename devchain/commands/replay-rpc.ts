import { startReplayRpc } from '../replay/server.ts';

/**
 * `lpa replay-rpc --chain DIR --port N [--host H] [--live] [--speed X]`: serve a chain folder as
 * Solana JSON-RPC over HTTP and WebSocket (same port). Prints one line
 * `replay RPC on http://HOST:PORT (ws://HOST:PORT), N transactions, M accounts, slot S` and runs
 * until SIGINT/SIGTERM, then closes cleanly. Errors: rejects on an unreadable chain folder or a
 * port in use.
 */
export async function runReplayRpc(opts: { chain: string; port: number; host?: string; live?: boolean; speed?: number }): Promise<void> {
  const rpc = await startReplayRpc({ chainDir: opts.chain, port: opts.port, host: opts.host, live: opts.live, speed: opts.speed });
  const { transactions, accounts } = rpc.counts();
  process.stdout.write(`replay RPC on ${rpc.url} (${rpc.wsUrl}), ${transactions} transactions, ${accounts} accounts, slot ${rpc.slot()}${opts.live ? ` (live, speed ${opts.speed ?? 1})` : ''}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await rpc.close();
}
