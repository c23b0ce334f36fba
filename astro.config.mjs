// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import { fileURLToPath } from 'node:url';

/**
 * Largest request body Astro's adapter streams into a handler (bytes): a backstop above every
 * route's own limit (src/server/routes.ts: 64 KB for the webhook, 16 KB elsewhere), which the
 * front door and the body reader enforce first.
 */
const BODY_SIZE_LIMIT = 64 * 1024;

/**
 * @astrojs/node with its server entry replaced by src/server/node-entry.ts, which starts the
 * adapter's own server with the archive's front door and timeouts (src/server/front-door.ts).
 * @param {import('astro').AstroIntegration} integration
 * @returns {import('astro').AstroIntegration}
 */
function hardened(integration) {
  const configDone = integration.hooks['astro:config:done'];
  if (!configDone) throw new Error('@astrojs/node has no astro:config:done hook: review hardened() in astro.config.mjs');
  return {
    ...integration,
    hooks: {
      ...integration.hooks,
      'astro:config:done': (params) =>
        configDone({
          ...params,
          setAdapter: (adapter) => params.setAdapter({ ...adapter, serverEntrypoint: fileURLToPath(new URL('./src/server/node-entry.ts', import.meta.url)) }),
        }),
    },
  };
}

/**
 * The archive's web layer: server-rendered endpoints only (src/pages/**), run by the
 * @astrojs/node standalone server (`node dist/server/entry.mjs`, HOST/PORT from the environment).
 * The archive's own settings are read once per process by src/server/deps.ts (loadConfig).
 */
export default defineConfig({
  output: 'server',
  // Middleware mode: `node dist/server/entry.mjs` is the server, src/server/node-entry.ts hosting the app
  // in its own node:http server (no per-request lookup of the build's client folder first).
  // LPA_ASTRO_MODE=standalone (the adapter's own server, with the same doors) is used only by `npm run
  // bench` to measure what that removes.
  adapter: hardened(node({ mode: process.env.LPA_ASTRO_MODE === 'standalone' ? 'standalone' : 'middleware', bodySizeLimit: BODY_SIZE_LIMIT })),
  // The API is read-only GET; no HTML forms post here. Astro's origin check only concerns non-GET requests.
  security: { checkOrigin: false },
  devToolbar: { enabled: false },
  // No sessions: the API is stateless (keys in headers) and pages are static; without this Astro
  // registers a session provider (filesystem driver) on every request.
  // (LPA_ASTRO_PLAIN=1, used only by `npm run bench`: Astro's defaults — sessions on and no
  // src/fetch.ts — to measure what this configuration removes.)
  session: process.env.LPA_ASTRO_PLAIN ? undefined : false,
  fetchFile: process.env.LPA_ASTRO_PLAIN ? null : undefined,
  vite: {
    // Native module: loaded from node_modules at run time, never bundled.
    ssr: { external: ['better-sqlite3'] },
  },
});
