import { Command, InvalidArgumentError } from 'commander';
import { existsSync } from 'node:fs';
import { loadConfig, ConfigError, type Config } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { settingsHelp } from './settings-help.ts';

/**
 * `lpa`: every operator command of the archive. Configuration comes from the environment
 * (README "Configuration"), parsed once here.
 */
// A reader that stops early (`lpa keys list | head -1`) closes the pipe: the output is no longer
// wanted, so the command ends quietly (exit 0) instead of crashing on EPIPE with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}

const program = new Command('lpa')
  .description('Launch-provenance archive: collector, server and tools')
  .showHelpAfterError()
  // served by devchain/cli.ts (bin/lpa.mjs routes them there): the collector's CLI imports no devchain module
  .addHelpText('after', '\nDevelopment chain (devchain/, never a production collector):\n  simulate [options]    write a simulated pump.fun chain with known truth (lpa simulate --help)\n  replay-rpc [options]  serve a chain folder as Solana JSON-RPC (lpa replay-rpc --help)');

function config(): Config {
  try {
    return loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
}

/**
 * The configuration of an operator command on an existing archive (keys, accounts): with the
 * SQLite private state, a DATA_DIR that does not exist is refused (exit 2) instead of a new, empty
 * archive made there — a mistyped DATA_DIR listed no keys, or created a key under a secret the
 * server never reads.
 */
function archiveConfig(): Config {
  const c = config();
  if (!c.PRIVATE_DB_URL && !existsSync(c.dataDir)) {
    console.error(`DATA_DIR ${c.dataDir} does not exist, so there is no archive there. Check DATA_DIR (the server and the collector must use the same one); for a new archive, create the folder first (mkdir -p ${c.dataDir}) or start the archive once.`);
    process.exit(2);
  }
  return c;
}

/** A key id argument, or exit 2 naming it (it was passed on as NaN). */
function keyIdArg(id: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(id)) {
    console.error(`The key id must be a whole number (it is "${id.slice(0, 40)}"): \`lpa keys list\` shows the ids.`);
    process.exit(2);
  }
  return Number(id);
}

const int = (name: string) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${name} must be a whole number`);
  return n;
};

program
  .command('start')
  .description('run the archive: the built server and the collector (long-running)')
  .addHelpText('after', settingsHelp('start'))
  .action(async () => {
    const { runStart } = await import('./commands/start.ts');
    await runStart(config());
  });

program
  .command('demo')
  .description('run the archive offline over a replay of a simulated chain (about 200 launches of every kind) and the real mainnet fixtures shipped in the project')
  .option('--port <n>', 'server port (default: PORT, else 4321)', int('port'))
  .option('--rpc-port <n>', 'port of the replayed chain\'s JSON-RPC and WebSocket (default: any free port; it is printed)', int('rpc-port'))
  .addHelpText('after', settingsHelp('demo'))
  .action(async (o: { port?: number; rpcPort?: number }) => {
    config(); // the settings checked as every command's are (PORT=abc: one line naming PORT, exit 2)
    const { runDemo } = await import('./commands/demo.ts');
    await runDemo({ port: o.port, rpcPort: o.rpcPort });
  });

program
  .command('cluster')
  .description('run cluster mode on this machine for a trial: local PostgreSQL, NODES API nodes, the collector over the demo replay publishing generations, nginx in front (docs/scaling.md)')
  .option('--nodes <n>', 'API nodes (default: NODES, else 3)', int('nodes'))
  .option('--port <n>', 'nginx port (default: PORT, else 4321)', int('port'))
  .addHelpText('after', settingsHelp('cluster'))
  .action(async (o: { nodes?: number; port?: number }) => {
    const { runCluster } = await import('./commands/cluster.ts');
    const env = process.env;
    await runCluster({
      nodes: o.nodes ?? (env.NODES === undefined || env.NODES === '' ? 3 : int('NODES')(env.NODES)),
      port: o.port ?? Number(env.PORT ?? '4321'),
      host: env.HOST ?? '127.0.0.1',
      dataDir: env.DATA_DIR || undefined,
      pgUrl: env.PG_URL || undefined,
    });
  });

program
  .command('collect')
  .description('read the chain into the archive (long-running; --once catches up and exits: the cron form)')
  .option('--once', 'catch up to the newest signature and exit')
  .addHelpText('after', settingsHelp('collect'))
  .action(async (o: { once?: boolean }) => {
    const { runCollect } = await import('./commands/collect.ts');
    process.exitCode = await runCollect(config(), { once: o.once === true });
  });

program
  .command('rebuild [mint]')
  .description('rebuild launches now from their complete chain history (held mints are skipped, so --file resumes)')
  .option('--file <file>', 'a file of mints, one per line')
  .option('--force', 'rebuild mints already held')
  .addHelpText('after', settingsHelp('rebuild'))
  .action(async (mint: string | undefined, o: { file?: string; force?: boolean }) => {
    const { runRebuildCommand } = await import('./commands/rebuild.ts');
    process.exitCode = await runRebuildCommand(config(), { mint, file: o.file, force: o.force });
  });

program
  .command('decode <file>')
  .description('print the decode of one transaction file (getTransaction json/jsonParsed/base64, blockSubscribe element, logsNotification) as JSON')
  .action(async (file: string) => {
    const { runDecode } = await import('./commands/decode.ts');
    await runDecode(file);
  });

program
  .command('backup')
  .description('back up public.db and private.db online (safe while the archive runs) and key-secret into a new folder')
  .requiredOption('--out <dir>', 'folder for the backup (must not already hold one)')
  .addHelpText('after', settingsHelp('backup'))
  .action(async (o: { out: string }) => {
    const { runBackup } = await import('./commands/backup.ts');
    await runBackup(config(), { out: o.out });
  });

program
  .command('cluster-config')
  .description('write the static tier\'s nginx configuration: the site from disk, /api/, /search, billing and downloads to the API nodes (docs/scaling.md)')
  .requiredOption('--nodes <list>', 'API nodes, comma-separated host:port (e.g. 10.0.0.2:4321,10.0.0.3:4321)')
  .requiredOption('--out <file>', 'the configuration file to write (a whole nginx.conf: nginx -c FILE)')
  .option('--listen <addr>', 'where nginx listens: port or host:port', '80')
  .option('--run-dir <dir>', 'folder for nginx\'s pid, logs and temporary files (created)', '/var/lib/lpa-nginx')
  .option('--site-dir <dir>', 'the written site to serve (default: DATA_DIR/site, or its copy on this machine)')
  .option('--workers <n>', 'worker processes (a number, or auto: one per core)', 'auto')
  .option('--access-log', 'write an access log to RUN_DIR/access.log')
  .addHelpText('after', settingsHelp('cluster-config'))
  .action(async (o: { nodes: string; out: string; listen: string; runDir: string; siteDir?: string; workers: string; accessLog?: boolean }) => {
    const { runClusterConfig } = await import('./commands/cluster-config.ts');
    runClusterConfig(config(), o);
  });

const keys = program.command('keys').description('API keys (stored only as keyed hashes)');
keys
  .command('create')
  .description('create a key; it is printed once, as the last line of stdout')
  .requiredOption('--label <label>', 'who or what the key is for')
  .addHelpText('after', settingsHelp('keys create'))
  .action(async (o: { label: string }) => {
    const { runKeysCreate } = await import('./commands/keys.ts');
    await runKeysCreate(archiveConfig(), { label: o.label });
  });
keys
  .command('list')
  .description('list keys (id, label, prefix, created, revoked, feed; never the key)')
  .addHelpText('after', settingsHelp('keys list'))
  .action(async () => {
    const { runKeysList } = await import('./commands/keys.ts');
    await runKeysList(archiveConfig());
  });
keys
  .command('revoke <id>')
  .description('revoke a key by id; its requests then get 401 revoked_key (with --feed: take only the creation feed away)')
  .option('--feed', 'withdraw the creation feed entitlement (GET /api/v1/stream) and keep the key')
  .addHelpText('after', settingsHelp('keys revoke'))
  .action(async (id: string, o: { feed?: boolean }) => {
    const { runKeysRevoke, runKeysFeed } = await import('./commands/keys.ts');
    const keyId = keyIdArg(id);
    if (o.feed) await runKeysFeed(archiveConfig(), keyId, false);
    else await runKeysRevoke(archiveConfig(), keyId);
  });
keys
  .command('grant <id>')
  .description('grant a key an entitlement: --feed, the creation feed (GET /api/v1/stream, under a separate agreement)')
  .requiredOption('--feed', 'the creation feed (Server-Sent Events of every new or changed record)')
  .addHelpText('after', settingsHelp('keys grant'))
  .action(async (id: string) => {
    const { runKeysFeed } = await import('./commands/keys.ts');
    await runKeysFeed(archiveConfig(), keyIdArg(id), true);
  });

const accounts = program.command('accounts').description('subscriber accounts of the paid plan (one per Stripe subscription)');
accounts
  .command('list')
  .description('list accounts (id, Stripe customer and subscription, created, ended, keys; never a key)')
  .addHelpText('after', settingsHelp('accounts list'))
  .action(async () => {
    const { runAccountsList } = await import('./commands/accounts.ts');
    await runAccountsList(archiveConfig());
  });

try {
  await program.parseAsync(process.argv);
} catch (e) {
  // once, in the form the reader takes: a line for a person (a terminal, or LOG_FORMAT=pretty), a JSON log line otherwise (cron's log file)
  const message = e instanceof Error ? e.message : String(e);
  const format = process.env.LOG_FORMAT;
  if (format === 'pretty' || (format !== 'json' && process.stderr.isTTY)) console.error(`lpa: ${message}`);
  else createLogger('error', 'lpa', { format: 'json' }).error({ err: message }, 'command failed');
  // a setting or a DATA_DIR this release cannot use (a database a newer release migrated: src/db/open.ts) is 2, as a bad setting is
  process.exitCode = e instanceof ConfigError ? 2 : 1;
}
