// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';

/**
 * The archive's web layer: server-rendered endpoints only (src/pages/**), run by the
 * @astrojs/node standalone server (`node dist/server/entry.mjs`, HOST/PORT from the environment).
 * The archive's own settings are read once per process by src/server/deps.ts (loadConfig).
 */
export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'standalone' }),
  // The API is read-only GET; no HTML forms post here. Astro's origin check only concerns non-GET requests.
  security: { checkOrigin: false },
  devToolbar: { enabled: false },
  vite: {
    // Native module: loaded from node_modules at run time, never bundled.
    ssr: { external: ['better-sqlite3'] },
  },
});
