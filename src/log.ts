import pino from 'pino';

/**
 * The archive's logger (pino, JSON lines on stderr). Never pass API keys, hashes or
 * Authorization headers to it: a test scans log output for key material.
 */
export function createLogger(level: string = 'info', name = 'lpa') {
  return pino({ name, level, base: { name } }, pino.destination(2));
}

export type Logger = ReturnType<typeof createLogger>;

/**
 * A URL as it may be logged: `scheme://host[:port]` only. RPC providers put API keys in the path
 * (`/v2/<key>`) or the query (`?api-key=`), and credentials can sit in the userinfo; none of that
 * reaches a log. A value that is not a URL logs as `(not a URL)`.
 * @example redactUrl('https://rpc.example.com/v2/SECRET?api-key=SECRET') // 'https://rpc.example.com'
 */
export function redactUrl(url: string | URL): string {
  try {
    const u = new URL(String(url));
    return `${u.protocol}//${u.host}`;
  } catch {
    return '(not a URL)';
  }
}

/**
 * A message (an error's text) with every occurrence of `url`'s secret parts — its path, query and
 * userinfo — replaced, for errors that quote the URL they failed on.
 * @example redactIn('connect failed: wss://h/k/SECRET', 'wss://h/k/SECRET') // 'connect failed: wss://h'
 */
export function redactIn(message: string, url: string): string {
  return url ? message.split(url).join(redactUrl(url)) : message;
}
