/** Small process and network helpers shared by the integration and browser tests and the benchmarks (devchain/cluster/net.ts). */
export { freePort, sleep } from '../../devchain/cluster/net.ts';

import { request } from 'node:http';

/** An answer read whole by {@link rawGet}. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * A GET (or `method`) through node:http as a CDN or nginx sends it: unlike `fetch`, it neither adds
 * `Accept-Encoding` or `Cache-Control` nor decodes a compressed body.
 */
export function rawGet(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  return new Promise((ok, fail) => {
    const req = request(url, { headers, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}
