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
 * A URL as logs and status may show it: `scheme://host[:port]` only, so a provider key in the
 * path or query (`https://rpc.example/?api-key=…`) never reaches a log line. Not a URL: `"(invalid URL)"`.
 * @example redactUrl('https://mainnet.helius-rpc.com/?api-key=secret') // 'https://mainnet.helius-rpc.com'
 */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return '(invalid URL)';
  }
}

/** `text` (an error message) with every URL in it cut to `scheme://host` ({@link redactUrl}). */
export function redactUrlsIn(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>)]+/gi, (m) => redactUrl(m));
}
