import { loadConfig, type Config } from '../../src/config.ts';
import { openPrivateState } from '../../src/db/open-private-state.ts';
import { KeyService, loadKeySecret } from '../../src/access/keys.ts';

/**
 * `lpa keys create|list|revoke`: API keys in the private database (private.db, or PostgreSQL when
 * PRIVATE_DB_URL is set: cluster mode). Keys are stored only as
 * HMAC-SHA-256(server secret, key); a created key is printed once and exists nowhere else.
 * Each function takes the Config (or loads it) and a line writer (default: stdout).
 */

type Out = (line: string) => void;
const stdout: Out = (line) => process.stdout.write(line + '\n');

async function withKeys<T>(config: Config | undefined, fn: (keys: KeyService) => Promise<T>): Promise<T> {
  const c = config ?? loadConfig();
  const state = openPrivateState(c);
  try {
    return await fn(new KeyService(state, loadKeySecret(c)));
  } finally {
    await state.close();
  }
}

/**
 * Create a key. Prints one line of information, then the key ALONE as the last line of stdout
 * (so `lpa keys create --label x | tail -n 1` captures it). Returns the key id.
 */
export async function runKeysCreate(config: Config | undefined, opts: { label: string }, out: Out = stdout): Promise<number> {
  const label = opts.label.trim();
  if (!label) throw new Error('a key needs a non-empty --label');
  return withKeys(config, async (keys) => {
    const { id, key, prefix } = await keys.create(label);
    out(`created key ${id} (${prefix}…) for "${label}"; it is shown once, below, and stored only as a hash:`);
    out(key);
    return id;
  });
}

/** List keys: id, label, prefix, created, revoked (tab-separated; never the key or its hash). */
export async function runKeysList(config?: Config, out: Out = stdout): Promise<void> {
  await withKeys(config, async (keys) => {
    out(['id', 'label', 'prefix', 'created', 'revoked'].join('\t'));
    for (const k of await keys.list()) {
      out([k.id, k.label, k.prefix, new Date(k.createdAtMs).toISOString(), k.revokedAtMs === null ? '-' : new Date(k.revokedAtMs).toISOString()].join('\t'));
    }
  });
}

/**
 * Revoke a key by id; its requests then get 401 `revoked_key`. Errors: throws for an id that is not
 * a whole number or names no key. Revoking an already revoked key leaves its revocation time.
 */
export async function runKeysRevoke(config: Config | undefined, id: number, out: Out = stdout): Promise<void> {
  if (!Number.isInteger(id) || id <= 0) throw new Error(`key id must be a positive whole number (got ${id})`);
  const c = config ?? loadConfig();
  const store = openPrivateState(c);
  try {
    const row = await store.keyById(id);
    if (!row) throw new Error(`no key with id ${id}`);
    if (row.revokedAtMs !== null) {
      out(`key ${id} (${row.prefix}…) was already revoked at ${new Date(row.revokedAtMs).toISOString()}`);
      return;
    }
    await store.revokeKey(id, Date.now());
    out(`revoked key ${id} (${row.prefix}…) "${row.label}"`);
  } finally {
    await store.close();
  }
}
