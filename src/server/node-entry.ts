/**
 * The server's entry (`dist/server/entry.mjs`): @astrojs/node's own entry, started here so its
 * HTTP server gets the front door and the timeouts (front-door.ts) before it listens. astro.config.mjs
 * points the adapter's `serverEntrypoint` at this file; the exports are the adapter's.
 */
import { autostart } from './node-entry-preamble.ts';
import { handler, options, startServer } from '@astrojs/node/server.js';
import { hardenServer } from './front-door.ts';
import { serveSitePagesFirst } from './static-door.ts';
import { closeFeeds } from './deps.ts';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';

export { handler, options };

/** Start the standalone server with the front door and timeouts (HOST/PORT from the environment). */
export function start(): ReturnType<typeof startServer> {
  const started = startServer();
  // the collector's written pages and the stylesheet, before Astro (behind the front door); this
  // file is built to dist/server/entry.mjs, beside the adapter's static files in dist/client/
  serveSitePagesFirst(started.server.server, fileURLToPath(new URL('../client/', import.meta.url)));
  hardenServer(started.server.server);
  endStreamsOnSignal(started.server.server);
  return started;
}

/** Time (ms) given to the last bytes of ended streams before the process stops on a signal. */
const STREAM_END_GRACE_MS = 200;

/**
 * On SIGTERM/SIGINT: end every creation feed stream cleanly (its last events, then the end of the
 * response, so a client sees a closed stream and resumes with Last-Event-ID elsewhere), stop taking
 * connections, then stop as the signal would have (the signal is raised again without this handler).
 */
function endStreamsOnSignal(server: Server): void {
  const stop = (signal: NodeJS.Signals) => {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
    try {
      closeFeeds();
      server.close();
      server.closeIdleConnections();
    } finally {
      setTimeout(() => process.kill(process.pid, signal), STREAM_END_GRACE_MS);
    }
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

export { start as startServer };

if (options.mode === 'standalone' && autostart) start();
