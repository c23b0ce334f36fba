import { loadConfig, type Config } from '../../src/config.ts';
import { openPrivateState } from '../../src/db/open-private-state.ts';
import { KeyService, keySecretConflict, loadKeySecret } from '../../src/access/keys.ts';

/**
 * `lpa keys create|list|revoke|grant`: API keys in the private database (private.db, or PostgreSQL when
 * PRIVATE_DB_URL is set: cluster mode). Keys are stored only as
 * HMAC-SHA-256(server secret, key); a created key is printed once and exists nowhere else.
 * Each function takes the Config (or loads it) and a line writer (default: stdout).
 */

type Out = (line: string) => void;
const stdout: Out = (line) => process.stdout.write(line + '\n');

async function withKeys<T>(config: Config | undefined, fn: (keys: KeyService) => Promise<T>): Promise<T> {
  const c = config ?? loadConfig();
  const conflict = keySecretConflict(c);
  if (conflict) process.stderr.write(`warning: ${conflict}\n`);
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

/** List keys: id, label, prefix, created, revoked, feed (when granted the creation feed) (tab-separated; never the key or its hash). */
export async function runKeysList(config?: Config, out: Out = stdout): Promise<void> {
  const when = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());
  await withKeys(config, async (keys) => {
    out(['id', 'label', 'prefix', 'created', 'revoked', 'feed'].join('\t'));
    for (const k of await keys.list()) out([k.id, k.label, k.prefix, when(k.createdAtMs), when(k.revokedAtMs), when(k.feedGrantedAtMs)].join('\t'));
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

/**
 * `lpa keys grant --feed KEY_ID` (`grant` true) and `lpa keys revoke --feed KEY_ID` (false): give a
 * key the creation feed (`GET /api/v1/stream`, under a separate agreement), or take it back. A key
 * without it gets 403 `feed_not_in_plan`; streams already open keep running until they reconnect.
 * Errors: throws for an id that is not a positive whole number or names no key, and when granting
 * to a revoked key. Granting twice keeps the first grant time.
 */
export async function runKeysFeed(config: Config | undefined, id: number, grant: boolean, out: Out = stdout): Promise<void> {
  if (!Number.isInteger(id) || id <= 0) throw new Error(`key id must be a positive whole number (got ${id})`);
  const c = config ?? loadConfig();
  const store = openPrivateState(c);
  try {
    const row = await store.keyById(id);
    if (!row) throw new Error(`no key with id ${id}`);
    if (grant && row.revokedAtMs !== null) throw new Error(`key ${id} (${row.prefix}…) is revoked: grant the feed to a key in use`);
    await store.transaction((tx) => tx.setFeed(id, grant ? Date.now() : null));
    const after = (await store.keyById(id))!;
    out(
      grant
        ? `key ${id} (${row.prefix}…) "${row.label}" may open the creation feed (GET /api/v1/stream) since ${new Date(after.feedGrantedAtMs!).toISOString()}`
        : row.feedGrantedAtMs === null
          ? `key ${id} (${row.prefix}…) did not have the creation feed`
          : `key ${id} (${row.prefix}…) "${row.label}" may no longer open the creation feed (new streams get 403 feed_not_in_plan)`,
    );
  } finally {
    await store.close();
  }
}
