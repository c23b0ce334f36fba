import pino, { type DestinationStream, type Level } from 'pino';
import pinoPretty from 'pino-pretty';

/** How log lines are written (config LOG_FORMAT): human lines, JSON lines, or pretty on a terminal. */
export type LogFormat = 'auto' | 'pretty' | 'json';

/** Identical warnings (same level and message) within this window are folded into one count line. */
export const FOLD_WINDOW_MS = 60_000;

/** Options of {@link createLogger} beyond level and name. */
export interface LoggerOptions {
  /** LOG_FORMAT (default `auto`: pretty when stdout is a terminal, else JSON) */
  format?: LogFormat;
  /** where lines go (default stderr); tests pass a stream */
  destination?: DestinationStream;
  /** folding window for identical warnings and errors (default {@link FOLD_WINDOW_MS}; 0: no folding) */
  foldMs?: number;
}

/** Whether `format` means human lines here (`auto`: stdout is a terminal). */
export function prettyLogs(format: LogFormat = 'auto'): boolean {
  return format === 'pretty' || (format === 'auto' && process.stdout.isTTY === true);
}

/**
 * The archive's logger (pino, on stderr): JSON lines, or human lines (pino-pretty) on a terminal
 * or with LOG_FORMAT=pretty. Identical warnings and errors (same level and message) are folded:
 * the first is written, the rest counted, and one line `… (repeated N times)` is written at most
 * once per fold window while they go on. Never pass API keys, hashes or Authorization headers to
 * it: a test scans log output for key material.
 */
export function createLogger(level: string = 'info', name = 'lpa', opts: LoggerOptions = {}) {
  const pretty = prettyLogs(opts.format);
  const destination = pretty
    ? pinoPretty({ destination: (opts.destination as NodeJS.WritableStream | undefined) ?? 2, sync: true, colorize: opts.destination === undefined && process.stderr.isTTY === true, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss' })
    : (opts.destination ?? pino.destination(2));
  const foldMs = opts.foldMs ?? FOLD_WINDOW_MS;
  const folds = new Map<string, { count: number; timer: NodeJS.Timeout | null }>();
  let logger: pino.Logger;
  const flush = (key: string, lvl: Level, msg: string) => {
    const f = folds.get(key);
    if (!f) return;
    f.timer = null;
    if (f.count === 0) {
      folds.delete(key);
      return;
    }
    const n = f.count;
    f.count = 0;
    f.timer = setTimeout(() => flush(key, lvl, msg), foldMs);
    f.timer.unref?.();
    logger[lvl]({ repeated: n, folded: true }, `${msg} (repeated ${n} times in the last ${Math.round(foldMs / 1000)} s)`);
  };
  logger = pino(
    {
      name,
      level,
      base: { name },
      hooks: {
        logMethod(args, method, lvl) {
          if (foldMs <= 0 || lvl < 40) return method.apply(this, args);
          const first = args[0] as unknown;
          if (first && typeof first === 'object' && (first as { folded?: unknown }).folded === true) return method.apply(this, args);
          const msg = String(typeof first === 'string' ? first : (args[1] ?? ''));
          const lvlName = (lvl >= 60 ? 'fatal' : lvl >= 50 ? 'error' : 'warn') as Level;
          const key = `${lvl}\u0000${msg}`;
          const f = folds.get(key);
          if (!f) {
            const timer = setTimeout(() => flush(key, lvlName, msg), foldMs);
            timer.unref?.();
            folds.set(key, { count: 0, timer });
            return method.apply(this, args);
          }
          f.count++;
          if (f.timer === null) {
            f.timer = setTimeout(() => flush(key, lvlName, msg), foldMs);
            f.timer.unref?.();
          }
        },
      },
    },
    destination,
  );
  settlers.set(logger, () => {
    for (const [key, f] of folds) {
      if (f.timer) clearTimeout(f.timer);
      if (f.count > 0) {
        const [lvl, msg] = key.split('\u0000') as [string, string];
        const lvlName = (Number(lvl) >= 60 ? 'fatal' : Number(lvl) >= 50 ? 'error' : 'warn') as Level;
        logger[lvlName]({ repeated: f.count, folded: true }, `${msg} (repeated ${f.count} times in the last ${Math.round(foldMs / 1000)} s)`);
      }
    }
    folds.clear();
  });
  return logger;
}

export type Logger = ReturnType<typeof createLogger>;

const settlers = new WeakMap<pino.Logger, () => void>();

/**
 * Before a line saying a trouble ended ("RPC reachable again"): write now the counts of the
 * warnings and errors being folded, and forget them, so no "(repeated N times)" line comes after
 * the recovery as if the trouble went on, and a new one after it is written at once, not counted.
 * A logger not made by {@link createLogger} (a child) is left as it is.
 */
export function settleFolds(logger: pino.Logger): void {
  settlers.get(logger)?.();
}

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

/** `text` (an error message) with every URL in it cut to `scheme://host` ({@link redactUrl}). */
export function redactUrlsIn(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>)]+/gi, (m) => redactUrl(m));
}
