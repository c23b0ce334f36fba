// The floor of the token-endpoint benchmark (issue 26 "Speed", second bar): bare node:http answering
// every request with the precomputed bytes of one keyed token answer (BENCH_BODY_FILE) and the
// headers the shipped server sent with it (BENCH_HEADERS_FILE, a JSON object captured by bench/run.ts).
// No key check, no quota count, no lookup: what the machine does for this endpoint at the least.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const body = readFileSync(process.env.BENCH_BODY_FILE);
const headers = { ...JSON.parse(readFileSync(process.env.BENCH_HEADERS_FILE, 'utf8')), 'content-length': String(body.length) };
createServer((req, res) => {
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
