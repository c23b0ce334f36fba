// The floor of the home-page benchmark (bench/home-search.ts): bare node:http answering every
// request with the bytes of one file (BENCH_FILE) kept in memory, with the headers the archive's
// server sends for it (type, CSP, nosniff, referrer policy, ETag, Cache-Control, CORS).
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';

const body = readFileSync(process.env.BENCH_FILE);
const headers = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  etag: `"${createHash('sha256').update(body).digest('hex')}"`,
  'cache-control': 'max-age=5',
  'access-control-allow-origin': '*',
  'content-length': String(body.length),
};
// BENCH_SPIN_US (optional): CPU to spend on each request before answering, in µs (a busy loop: the
// archive bench's busy floor, bench/archive-api.ts — what a server doing that much work, and none of
// the archive's, answers at the same load)
const spinMs = Number(process.env.BENCH_SPIN_US ?? 0) / 1000;
createServer((req, res) => {
  if (spinMs > 0) for (const t = performance.now(); performance.now() - t < spinMs; );
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
