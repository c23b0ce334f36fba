// The smallest host for the app built in @astrojs/node middleware mode (the shipped build):
// every request goes to Astro's app handler; no front door, no static door, no static-file lookup.
// Used by `npm run bench` only. LPA_BENCH_DIST: the build's outDir.
import http from 'node:http';
// the entry starts its own host on import unless told not to
process.env.ASTRO_NODE_AUTOSTART = 'disabled';
const { handler } = await import(`${process.env.LPA_BENCH_DIST}/server/entry.mjs`);
http.createServer((req, res) => handler(req, res)).listen(Number(process.env.PORT), process.env.HOST);
process.on('SIGTERM', () => process.exit(0));
