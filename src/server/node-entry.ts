/**
 * The server's entry (`dist/server/entry.mjs`). The app is built in @astrojs/node's middleware
 * mode and hosted here in a plain node:http server: the front door and the timeouts (front-door.ts),
 * the site's written pages and the stylesheet (static-door.ts), compression when the client asks
 * (compress.ts), then Astro's app handler for every
 * other request. The adapter's standalone server would first look every request up as a file of
 * the build's client folder (an `lstat`, then `send`'s `stat` on the thread pool) before Astro:
 * that folder holds only the stylesheet, which the static door answers, so the lookup only cost
 * time on every API request (docs/benchmarks.md "Keyed token endpoint"). Astro's app is called
 * through astro-host.ts, the adapter's middleware handler without its per-request costs (the
 * adapter's handler answers what that one passes on). HOST and PORT as the
 * adapter reads them. A build in standalone mode (LPA_ASTRO_MODE=standalone: benchmarks only)
 * starts the adapter's own server with the same doors. astro.config.mjs points the adapter's
 * `serverEntrypoint` at this file; the exports are the adapter's.
 */
import { autostart } from './node-entry-preamble.ts';
import { handler, options, startServer as startAdapterServer } from '@astrojs/node/server.js';
import { createApp } from 'astro/app/entrypoint';
import { astroHost, type NodeHandler } from './astro-host.ts';
import { hardenServer } from './front-door.ts';
import { serveSitePagesFirst } from './static-door.ts';
import { compressWhenAsked } from './compress.ts';
import { currentDeps, getDeps, processConfig } from './deps.ts';
import { closeFeedOf } from './stream.ts';
import { ConfigError } from '../config.ts';
import { loadEveryModule } from '../fetch.ts';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';

export { handler, options };

/** The build's static files (`dist/client/`): this file is built to dist/server/entry.mjs. */
const CLIENT_DIR = fileURLToPath(new URL('../client/', import.meta.url));

/** Start the server with the front door and timeouts (HOST/PORT from the environment). */
export function start(): { server: { server: Server } } {
  if (options.mode === 'standalone') {
    const started = startAdapterServer();
    serveSitePagesFirst(started.server.server, CLIENT_DIR);
    compressWhenAsked(started.server.server);
    hardenServer(started.server.server);
    endStreamsOnSignal(started.server.server);
    return started;
  }
  // the app as the adapter creates it (astro/app/entrypoint), answered through astro-host.ts
  const app = createApp({ streaming: !(options as { experimentalDisableStreaming?: boolean }).experimentalDisableStreaming });
  const appHandler = astroHost(app, handler as NodeHandler, options.port);
  const server = createServer((req, res) => {
    // as the adapter's standalone server: a target that is not valid percent-encoding is refused before the app
    try {
      decodeURI(req.url ?? '/');
    } catch {
      res.writeHead(400);
      res.end('Bad request.');
      return;
    }
    void appHandler(req, res);
  });
  serveSitePagesFirst(server, CLIENT_DIR);
  compressWhenAsked(server);
  hardenServer(server);
  endStreamsOnSignal(server);
  // HOST and PORT as the archive's configuration reads them (src/config.ts: an empty value is unset,
  // so `HOST=` from an env file is 127.0.0.1, never every interface; `PORT=abc` is a configuration error)
  let listenOn: { host: string; port: number; dataDir: string };
  try {
    const c = processConfig(); // parsed once: getDeps reads the same
    listenOn = { host: c.HOST, port: c.PORT, dataDir: c.dataDir };
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(`The server cannot start: ${e.message}`);
    process.exitCode = 2; // a bad setting, as `lpa` exits on one (2); 1 is a failure at run time
    return { server: { server } };
  }
  const { host, port, dataDir } = listenOn;
  // a port taken or not permitted: one line and exit 1 (it was an unhandled 'error' event's stack)
  const onListenError = (e: NodeJS.ErrnoException) => {
    const why: Record<string, string> = {
      EADDRINUSE: 'another process listens there: stop it, or set PORT',
      EACCES: 'not permitted: a port under 1024 needs privileges; set PORT',
      EADDRNOTAVAIL: 'this machine has no such address: set HOST',
      ENOTFOUND: 'no such host name: set HOST to an address or name of this machine',
      EAI_AGAIN: 'the host name could not be looked up now: set HOST to an address of this machine',
    };
    if (!(e.code && why[e.code])) throw e;
    console.error(`The server cannot start: it cannot listen on ${host}:${port} (${e.code}: ${why[e.code]}).`);
    process.exit(1);
  };
  const listen = () => {
    server.once('error', onListenError);
    server.listen(port, host, () => {
      server.off('error', onListenError);
      // A parent that started this server over an IPC channel (`lpa start`) waits for this before it
      // starts the collector: sent once the databases are opened (migrated), so the two never set up
      // a new database at once. The channel then stays open but no longer keeps this process alive
      // (unref): it closes when the parent goes, however it went (kill -9, a third Ctrl-C), and the
      // server stops as on SIGTERM — an operator's review found it listening, orphaned, after its
      // `lpa start` was killed, and the next start failed on the port.
      const ready = () => {
        if (!process.send) return;
        process.send({ lpa: 'listening' });
        process.once('disconnect', () => stopOnSignal('SIGTERM', 'its parent process (lpa start) is gone'));
        process.channel?.unref();
      };
      const a = server.address();
      const where = a && typeof a === 'object' ? `${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}` : `${host}:${port}`;
      // through the project's logger (JSON lines like every other line of the server); the deps are
      // opened here rather than by the first request, so a broken configuration or database is
      // reported at start. A configuration error cannot mend itself: the server stops (exit code 2).
      // Any other (a database not openable yet): it keeps listening, and each request tries again.
      let log;
      try {
        log = getDeps().log;
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        if (e instanceof ConfigError) {
          console.error(`The server cannot start: ${why}`);
          process.exitCode = 2;
          server.close();
          server.closeAllConnections();
          return;
        }
        console.error(`The server listens on http://${where} but cannot open its databases in DATA_DIR=${dataDir} yet (each request tries again): ${why}`);
        ready();
        return;
      }
      log.info({ url: `http://${where}` }, 'server listening');
      ready();
    });
  };
  // every route's module loaded before the first request (fetch.ts loadEveryModule): a build run
  // beside this process later replaces dist/server/chunks/, and a route first asked for then would fail
  void loadEveryModule(app.manifest).then((failed) => {
    for (const f of failed) console.error(`The server could not load a route's module at start (it tries again at that route's first request): ${f}`);
    listen();
  });
  return { server: { server } };
}

/** Time (ms) given to the last bytes of ended streams before the process stops on a signal. */
const STREAM_END_GRACE_MS = 200;

/**
 * On SIGTERM/SIGINT: end every creation feed stream cleanly (its last events, then the end of the
 * response, so a client sees a closed stream and resumes with Last-Event-ID elsewhere), stop taking
 * connections, then stop as the signal would have (the signal is raised again without this handler).
 */
function endStreamsOnSignal(server: Server): void {
  let stopped = false;
  const onSignal = (signal: NodeJS.Signals) => stop(signal);
  const stop = (signal: NodeJS.Signals, why?: string) => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    if (stopped) return; // a signal and the parent's going, both: one stop
    stopped = true;
    try {
      const deps = currentDeps();
      // the operator's line that the stop was asked for and taken (README "Operations": a stop is logged at info)
      deps?.log.info({ signal, ...(why ? { why } : {}) }, 'server stopping');
      if (deps) closeFeedOf(deps); // the feed's streams, when any was opened
      void deps?.rebuilds.stopWorker(); // running rebuilds give up their leases: a restart takes them at once
      server.close();
      server.closeIdleConnections();
    } finally {
      setTimeout(() => process.kill(process.pid, signal), STREAM_END_GRACE_MS);
    }
  };
  stopOnSignal = stop;
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/** The stop of the server this process runs ({@link endStreamsOnSignal}), for a cause that is not a signal: the parent gone. */
let stopOnSignal: (signal: NodeJS.Signals, why?: string) => void = (signal) => process.kill(process.pid, signal);

export { start as startServer };

if (autostart) start();
