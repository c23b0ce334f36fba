/**
 * The HTTP transport of the archive's JSON-RPC reads: node:http / node:https with keep-alive
 * sockets. It does what kit's `createHttpTransport` does — POST the JSON payload, throw kit's
 * `SolanaError(SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR, {statusCode, headers, message})` on a
 * non-2xx answer, parse the body with `fromJson` — without fetch's web streams, which cost the
 * collector more CPU per transaction than parsing the answers did (docs/benchmarks.md).
 *
 * Errors: an HTTP status outside 2xx → that SolanaError; a connection that fails or closes before
 * the answer is complete → an `Error` with a Node `code` (ECONNRESET, ECONNREFUSED, …); an aborted
 * request → the signal's reason (AbortError / TimeoutError); a body `fromJson` cannot parse → its
 * SyntaxError. The retrying transport (src/chain/rpc.ts) decides which of these to retry.
 *
 * One case is not an error of the provider: a keep-alive socket the server closed as it idled (its
 * `Keep-Alive: timeout`) while this request was being sent on it, which fails with ECONNRESET
 * before any answer. Such a request is sent again at once on a new socket, once (Node's documented
 * idiom: `request.reusedSocket`), so it costs no retry delay and no "RPC call retried" warning.
 * Every call of the archive is a read, so sending one twice changes nothing.
 */
import http from 'node:http';
import https from 'node:https';
import { SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR, SolanaError, type RpcTransport } from '@solana/kit';

export interface NodeHttpTransportOptions {
  url: string;
  /** parses the answer's text (the archive's parseRpcJson, or parseTransactionAnswers for getTransaction calls); `payload` is the request's */
  fromJson: (text: string, payload: unknown) => unknown;
  /** keep-alive sockets per origin at most (default 64) */
  maxSockets?: number;
}

/** A kit `RpcTransport` over node:http(s) for `opts.url`. */
export function createNodeHttpTransport(opts: NodeHttpTransportOptions): RpcTransport {
  const url = new URL(opts.url);
  const client = url.protocol === 'https:' ? https : http;
  const agent = new client.Agent({ keepAlive: true, maxSockets: opts.maxSockets ?? 64 });
  return (({ payload, signal }: { payload: unknown; signal?: AbortSignal }) => {
    const body = Buffer.from(JSON.stringify(payload), 'utf8');
    const send = (again: boolean): Promise<unknown> =>
      new Promise((resolve, reject) => {
        let answered = false;
        const req = client.request(
          url,
          {
            method: 'POST',
            agent,
            signal,
            headers: { 'content-type': 'application/json; charset=utf-8', accept: 'application/json', 'content-length': body.length },
          },
          (res) => {
            answered = true;
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('error', reject);
            res.on('close', () => {
              if (!res.complete) reject(Object.assign(new Error('the connection closed before the answer was complete'), { code: 'ECONNRESET' }));
            });
            res.on('end', () => {
              const status = res.statusCode ?? 0;
              if (status < 200 || status > 299) {
                const headers = new Headers();
                for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
                reject(new SolanaError(SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR, { headers, message: res.statusMessage ?? '', statusCode: status }));
                return;
              }
              try {
                resolve(opts.fromJson(Buffer.concat(chunks).toString('utf8'), payload));
              } catch (err) {
                reject(err);
              }
            });
          },
        );
        req.on('error', (err: NodeJS.ErrnoException) => {
          if (signal?.aborted) return reject(signal.reason ?? err);
          // an idle keep-alive socket closed by the server under this request: once more on a new one
          if (!again && !answered && req.reusedSocket && err.code === 'ECONNRESET') return resolve(send(true));
          reject(err);
        });
        req.end(body);
      });
    return send(false);
  }) as RpcTransport;
}
