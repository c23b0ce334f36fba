import { Command, InvalidArgumentError } from 'commander';
import { createLogger } from '../src/log.ts';

/**
 * `lpa simulate` and `lpa replay-rpc`: the development chain's commands (tests, bench, demo; never a
 * production collector). bin/lpa.mjs routes these two command names here, so the archive's own CLI
 * (collector/cli.ts) imports nothing from devchain/.
 */
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}

const program = new Command('lpa').description('Launch-provenance archive: the development chain').showHelpAfterError();

const int = (name: string) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${name} must be a whole number`);
  return n;
};
const share = (name: string) => (v: string) => {
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError(`${name} must be a number from 0 to 1`);
  return n;
};
const num = (name: string) => (v: string) => {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive number`);
  return n;
};

program
  .command('replay-rpc')
  .description('serve a recorded or simulated chain folder as Solana JSON-RPC over HTTP and WebSocket')
  .requiredOption('--chain <dir>', 'chain folder (chain.json, transactions/, transactions.ndjson, accounts/)')
  .option('--port <n>', 'port', int('port'), 8899)
  .option('--host <host>', 'host', '127.0.0.1')
  .option('--live', 'advance slots in real time and push logsSubscribe notifications as they land')
  .option('--speed <x>', 'live clock speed multiplier', num('speed'), 1)
  .action(async (o: { chain: string; port: number; host: string; live?: boolean; speed: number }) => {
    const { runReplayRpc } = await import('./commands/replay-rpc.ts');
    await runReplayRpc({ chain: o.chain, port: o.port, host: o.host, live: o.live === true, speed: o.speed });
  });

program
  .command('simulate')
  .description('write a simulated pump.fun chain with known truth (truth.json)')
  .requiredOption('--launches <n>', 'number of launches', int('launches'))
  .option('--seed <n>', 'seed', int('seed'), 1)
  .requiredOption('--out <dir>', 'output folder')
  .option('--era2610-share <x>', 'share of launches after the 2026-10-08 redeploy (default 0.2)', share('era2610-share'))
  .option('--v1-share <x>', "share of that era's transactions rendered as version 1 (default 0.3)", share('v1-share'))
  .action(async (o: { launches: number; seed: number; out: string; era2610Share?: number; v1Share?: number }) => {
    const { runSimulate } = await import('./commands/simulate.ts');
    await runSimulate({ launches: o.launches, seed: o.seed, out: o.out, era2610Share: o.era2610Share, v1Share: o.v1Share });
  });

try {
  await program.parseAsync(process.argv);
} catch (e) {
  const log = createLogger('error');
  log.error({ err: e instanceof Error ? e.message : String(e) }, 'command failed');
  console.error(`lpa: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
}
