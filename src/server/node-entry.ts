/**
 * The server's entry (`dist/server/entry.mjs`): @astrojs/node's own entry, started here so its
 * HTTP server gets the front door and the timeouts (front-door.ts) before it listens. astro.config.mjs
 * points the adapter's `serverEntrypoint` at this file; the exports are the adapter's.
 */
import { autostart } from './node-entry-preamble.ts';
import { handler, options, startServer } from '@astrojs/node/server.js';
import { hardenServer } from './front-door.ts';
import { serveSitePagesFirst } from './static-door.ts';

export { handler, options };

/** Start the standalone server with the front door and timeouts (HOST/PORT from the environment). */
export function start(): ReturnType<typeof startServer> {
  const started = startServer();
  serveSitePagesFirst(started.server.server); // the collector's written pages, before Astro (behind the front door)
  hardenServer(started.server.server);
  return started;
}

export { start as startServer };

if (options.mode === 'standalone' && autostart) start();
