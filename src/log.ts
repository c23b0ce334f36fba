import pino from 'pino';

/**
 * The archive's logger (pino, JSON lines on stderr). Never pass API keys, hashes or
 * Authorization headers to it: a test scans log output for key material.
 */
export function createLogger(level: string = 'info', name = 'lpa') {
  return pino({ name, level, base: { name } }, pino.destination(2));
}

export type Logger = ReturnType<typeof createLogger>;
