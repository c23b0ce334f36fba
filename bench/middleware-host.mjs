// The smallest host for the app built in @astrojs/node middleware mode (LPA_ASTRO_MODE=middleware):
// every request goes to Astro's app handler; no static-file lookup first (dist/client is empty).
// Used by `npm run bench` only. LPA_BENCH_DIST: the build's outDir.
import http from 'node:http';
const { handler } = await import(`${process.env.LPA_BENCH_DIST}/server/entry.mjs`);
http.createServer((req, res) => handler(req, res)).listen(Number(process.env.PORT), process.env.HOST);
process.on('SIGTERM', () => process.exit(0));
