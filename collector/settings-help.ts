import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import type { RawConfig } from '../src/config.ts';

type Key = keyof RawConfig;

const CHAIN: Key[] = ['SOLANA_RPC_URL', 'SOLANA_WS_URL', 'RPC_CONCURRENCY', 'RPC_BATCH_SIZE', 'RPC_MAX_RPS'];
const LOGS: Key[] = ['LOG_LEVEL', 'LOG_FORMAT'];
const PAGES: Key[] = ['PUBLIC_BASE_URL', 'EXPLORER_TX_URL'];
const COLLECTOR: Key[] = [
  ...CHAIN, 'DATA_DIR', 'COLLECT_START', 'COLLECT_BATCH', 'TX_CACHE_MB', 'TX_CACHE_IDLE_S', 'POLL_INTERVAL_MS', 'FUNDER_PAGE_CAP', 'FUNDER_TX_CAP',
  'FUNDER_DAILY_RPC_BUDGET', 'FUNDER_SWEEP_MS', 'AFTERWARDS_SWEEP_MS', 'POOL_REFRESH_MS', 'DOWNLOADS_INTERVAL_MS', 'GENERATION_INTERVAL_MS', 'UNREADABLE_AFTER_FAILURES',
  'UNREADABLE_RETRY_MS', 'COVERAGE_GAP_MS', 'LISTS_INTERVAL_MS', 'HEAP_GROWTH_PERCENT', ...PAGES, 'CONTACT_EMAIL', 'DEMO', ...LOGS,
];
const SERVER: Key[] = [
  'HOST', 'PORT', 'KEY_SECRET', 'LICENSE_TEXT', 'LICENSE_URL', 'CONTACT_EMAIL', 'REBUILD_DAILY_CEILING', 'REBUILD_MAX_QUEUE', 'REBUILD_CONCURRENCY',
  'REBUILD_RPC_MAX_RPS', 'REBUILD_LEASE_MS', 'REBUILD_MAX_TRANSACTIONS', 'TRUSTED_PROXIES', 'STREAM_HEARTBEAT_MS', 'STREAM_POLL_MS', 'STREAM_BUFFER_KB', 'DAILY_QUOTA', 'QUOTA_COUNTING', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET',
  'STRIPE_PRICE_ID', 'PLAN_PRICE_TEXT', 'STRIPE_API_HOST', 'STRIPE_API_PORT', 'STRIPE_API_PROTOCOL', 'DEMO', 'API_GENERATIONS_DIR',
  'PRIVATE_DB_URL', 'UNAVAILABLE_RETRY_S', 'SEARCH_PER_MINUTE', 'SEARCH_CACHE_MS', 'LIST_CACHE_MB', 'STREAM_KEY_CHECK_MS', 'YOUNG_GENERATION_MB',
];

/** Defaults a command sets itself, over README's (the demo is quiet: its own lines say what to do). */
const COMMAND_DEFAULTS: Record<string, Partial<Record<Key, string>>> = { demo: { LOG_LEVEL: 'warn' } };

/** The settings (README "Configuration") each `lpa` command reads; commands not listed read none. */
export const COMMAND_SETTINGS: Record<string, Key[]> = {
  start: [...new Set([...COLLECTOR, ...SERVER])], // CONTACT_EMAIL and DEMO are read by both: listed once
  collect: COLLECTOR,
  demo: ['HOST', 'PORT', 'LOG_LEVEL', 'LOG_FORMAT'],
  cluster: ['HOST', 'PORT', 'DATA_DIR', 'KEY_SECRET', 'LOG_LEVEL', 'LOG_FORMAT'],
  rebuild: [...CHAIN, 'DATA_DIR', 'REBUILD_RPC_MAX_RPS', 'FUNDER_PAGE_CAP', 'FUNDER_TX_CAP', 'FUNDER_DAILY_RPC_BUDGET', ...PAGES, ...LOGS],
  'keys create': ['DATA_DIR', 'KEY_SECRET', 'PRIVATE_DB_URL'],
  'keys list': ['DATA_DIR', 'PRIVATE_DB_URL'],
  'keys revoke': ['DATA_DIR', 'PRIVATE_DB_URL'],
  'keys grant': ['DATA_DIR', 'PRIVATE_DB_URL'],
  'accounts list': ['DATA_DIR', 'PRIVATE_DB_URL'],
  backup: ['DATA_DIR', ...LOGS],
  'cluster-config': ['DATA_DIR', ...LOGS],
};

const README = resolve(fileURLToPath(import.meta.url), '../../README.md');

/** README's configuration table: setting → [default, meaning] (empty when README is not there). */
function table(): Map<string, [string, string]> {
  const rows = new Map<string, [string, string]>();
  let text = '';
  try {
    text = readFileSync(README, 'utf8');
  } catch {
    return rows;
  }
  for (const line of text.split('\n')) {
    const m = /^\| `([A-Z0-9_]+)` \| (.*?) \| (.*) \|$/.exec(line);
    if (m) rows.set(m[1]!, [plain(m[2]!), plain(m[3]!)]);
  }
  return rows;
}

/** A table cell as terminal text: no code marks, a link as its text (`[docs/scaling.md](docs/scaling.md)` → `docs/scaling.md`). */
function plain(cell: string): string {
  return cell.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\*\*([^*]*)\*\*/g, '$1');
}

/**
 * The text after a command's `--help`: every setting it reads with its default and meaning, from
 * README's configuration table (the one place they are documented). Empty for a command that reads none.
 */
export function settingsHelp(command: string): string {
  const keys = COMMAND_SETTINGS[command];
  if (!keys?.length) return '';
  const rows = table();
  const lines = keys.map((k) => {
    const r = rows.get(k);
    const own = COMMAND_DEFAULTS[command]?.[k];
    return r ? `  ${k} (default ${own ?? r[0]}${own ? ' for this command' : ''}): ${r[1]}` : `  ${k}`;
  });
  return `\nSettings (environment variables; README "Configuration"):\n${lines.join('\n')}\n`;
}
