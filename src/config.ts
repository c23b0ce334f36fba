import { resolve } from 'node:path';
import { z } from 'zod';

/**
 * The archive's configuration: one table, parsed once at process start from the environment
 * and passed down (no module reads `process.env` at import time). Every setting is listed in
 * README.md "Configuration" and `.env.example`; a test checks that.
 */
const schema = z.object({
  SOLANA_RPC_URL: z.url().default('https://api.mainnet-beta.solana.com'),
  SOLANA_WS_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('data'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_BASE_URL: z.url().optional(),
  KEY_SECRET: z.string().min(32).optional(),
  LICENSE_TEXT: z
    .string()
    .default('Licensed for use in your own product; no bulk redistribution.'),
  LICENSE_URL: z.url().default('https://example.invalid/license'),
  CONTACT_EMAIL: z.string().default('archive@example.invalid'),
  EXPLORER_TX_URL: z.url().default('https://solscan.io/tx/'),
  COLLECT_START: z.enum(['latest', 'earliest']).default('latest'),
  COLLECT_BATCH: z.coerce.number().int().min(1).max(5000).default(500),
  RPC_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  RPC_MAX_RPS: z.coerce.number().min(0).default(0),
  POLL_INTERVAL_MS: z.coerce.number().int().min(100).default(2000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type RawConfig = z.infer<typeof schema>;

/** Parsed configuration with derived values. */
export interface Config extends RawConfig {
  /** WebSocket URL: SOLANA_WS_URL, or SOLANA_RPC_URL with http(s) → ws(s). */
  wsUrl: string;
  /** Absolute DATA_DIR. */
  dataDir: string;
  publicDbPath: string;
  privateDbPath: string;
  siteDir: string;
  /** Base URL used in `source` links: PUBLIC_BASE_URL or http://HOST:PORT. */
  baseUrl: string;
}

/** Every setting name, for docs and the docs test. */
export const CONFIG_KEYS = Object.keys(schema.shape) as (keyof RawConfig)[];

/**
 * Parse the environment once. Errors: throws `ConfigError` naming every bad setting.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const picked: Record<string, string> = {};
  for (const key of CONFIG_KEYS) {
    const v = env[key];
    if (v !== undefined && v !== '') picked[key] = v;
  }
  const parsed = schema.safeParse(picked);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const c = parsed.data;
  const dataDir = resolve(c.DATA_DIR);
  const wsUrl = c.SOLANA_WS_URL ?? c.SOLANA_RPC_URL.replace(/^http/, 'ws');
  return {
    ...c,
    wsUrl,
    dataDir,
    publicDbPath: resolve(dataDir, 'public.db'),
    privateDbPath: resolve(dataDir, 'private.db'),
    siteDir: resolve(dataDir, 'site'),
    baseUrl: (c.PUBLIC_BASE_URL ?? `http://${c.HOST === '0.0.0.0' ? '127.0.0.1' : c.HOST}:${c.PORT}`).replace(/\/$/, ''),
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}
