import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../../src/config.ts';
import { writeNginxConfig } from '../cluster/nginx-config.ts';

/**
 * `lpa cluster-config --nodes h:p,h:p --out FILE`: write the static tier's nginx configuration
 * (collector/cluster/nginx-config.ts; docs/scaling.md) for the site folder (`--site-dir`, default
 * `DATA_DIR/site`) and the API nodes, atomically; create the run folder (pid, logs, temporary
 * files). Prints how to check and start it. Errors: a bad option throws naming it (exit 1).
 */
export function runClusterConfig(
  config: Config,
  o: { nodes: string; out: string; listen: string; runDir: string; siteDir?: string; workers: string; accessLog?: boolean },
): string {
  const nodes = o.nodes.split(',').map((n) => n.trim()).filter((n) => n !== '');
  const workers = o.workers === 'auto' ? 'auto' : Number(o.workers);
  const out = resolve(o.out);
  const runDir = resolve(o.runDir);
  mkdirSync(runDir, { recursive: true, mode: 0o755 });
  writeNginxConfig(out, { siteDir: o.siteDir ?? config.siteDir, nodes, listen: o.listen, runDir, workers, accessLog: o.accessLog === true });
  process.stdout.write(`${out}\ncheck: nginx -t -p ${runDir} -e ${runDir}/error.log -c ${out}\nstart: nginx -p ${runDir} -e ${runDir}/error.log -c ${out}\n`);
  return out;
}
