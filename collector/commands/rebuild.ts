import { readFileSync } from 'node:fs';
import { isAddress } from '@solana/kit';
import type { Config } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { createArchiveRpc } from '../../src/chain/rpc.ts';
import { needsRebuild } from '../../src/core/record/classify.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { rebuildLaunch, type RebuildProgress } from '../../src/ingest/rebuild-launch.ts';

/** Options of `lpa rebuild`. */
export interface RebuildCommandOptions {
  mint?: string;
  /** a file of mints, one per line (blank lines and `#` comments ignored) */
  file?: string;
  /** rebuild even when a complete record is held (default: skip held mints whose record is complete — a placeholder or incomplete one is rebuilt — which makes --file resumable) */
  force?: boolean;
}

function progressLine(mint: string, p: RebuildProgress, startedMs: number): string {
  const secs = ((Date.now() - startedMs) / 1000).toFixed(1);
  if (!p.signaturesComplete) return `${mint}: listing signatures… ${p.signatures}  (${secs} s)`;
  const width = 30;
  const done = p.signatures ? Math.round((p.transactions / p.signatures) * width) : width;
  return `${mint}: [${'#'.repeat(done)}${'.'.repeat(width - done)}] ${p.transactions}/${p.signatures} transactions  (${secs} s)`;
}

/**
 * `lpa rebuild MINT` / `lpa rebuild --file mints.txt`: rebuild launches now from their complete chain
 * history (the same function the server's worker runs), with a progress bar on a terminal (plain
 * progress lines otherwise). Held mints are skipped unless --force, so an interrupted --file run
 * resumes where it stopped. Prints `mint class origin` per mint on stdout.
 * Errors: exit code 1 when any mint failed or was not an address (the others are still done);
 * exit code 2 for bad usage.
 */
export async function runRebuildCommand(config: Config, opts: RebuildCommandOptions): Promise<number> {
  const mints: string[] = [];
  if (opts.mint) mints.push(opts.mint);
  if (opts.file) {
    for (const line of readFileSync(opts.file, 'utf8').split('\n')) {
      const m = line.replace(/#.*/, '').trim();
      if (m) mints.push(m);
    }
  }
  if (mints.length === 0) {
    process.stderr.write('lpa rebuild: give a MINT or --file FILE\n');
    return 2;
  }
  const log = createLogger(config.LOG_LEVEL, 'rebuild', { format: config.LOG_FORMAT });
  const store = new PublicStore(config.publicDbPath);
  const rpc = createArchiveRpc({ url: config.SOLANA_RPC_URL, onRetry: (i) => log.warn(i, 'RPC call retried') });
  const tty = process.stderr.isTTY;
  let failed = 0;
  try {
    for (const [i, mint] of mints.entries()) {
      const prefix = mints.length > 1 ? `[${i + 1}/${mints.length}] ` : '';
      if (!isAddress(mint)) {
        process.stderr.write(`${prefix}${mint}: not an address (base58, 32-44 characters)\n`);
        failed++;
        continue;
      }
      const held = opts.force ? undefined : store.getLaunch(mint);
      if (held && !needsRebuild(JSON.parse(held.document) as LaunchDocument)) {
        process.stderr.write(`${prefix}${mint}: held already, skipped (--force rebuilds it)\n`);
        continue;
      }
      const started = Date.now();
      let lastLine = 0;
      try {
        const { doc, progress } = await rebuildLaunch({ config, store, rpc, log }, mint, {
          onProgress: (p) => {
            if (tty) process.stderr.write(`\r${prefix}${progressLine(mint, p, started)}`);
            else if (Date.now() - lastLine > 2000) {
              lastLine = Date.now();
              process.stderr.write(`${prefix}${progressLine(mint, p, started)}\n`);
            }
          },
        });
        process.stderr.write(`${tty ? '\r' : ''}${prefix}${progressLine(mint, progress, started)} done\n`);
        process.stdout.write(`${mint} ${doc.finding.class} ${doc.origin}\n`);
      } catch (e) {
        failed++;
        process.stderr.write(`${tty ? '\n' : ''}${prefix}${mint}: failed: ${e instanceof Error ? e.message : String(e)}\n`);
      }
    }
  } finally {
    store.close();
  }
  return failed ? 1 : 0;
}
