import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrivateStore } from '../../src/db/private-store.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { KeyService, loadKeySecret } from '../../src/access/keys.ts';
import { writeDownloads } from '../../collector/publish/downloads.ts';

/**
 * Issue 21 item 8 (file modes): private.db was created 0644, as were key-secret and the downloads
 * folder. Under the usual umask 022, what holds key material is owner-only (0600) and the data
 * folders 0700; the public site may stay readable.
 */

const root = mkdtempSync(join(tmpdir(), 'lpa-modes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const mode = (p: string) => (statSync(p).mode & 0o777).toString(8).padStart(4, '0');

describe('file modes of a new DATA_DIR', () => {
  it('private.db, its -wal and -shm, key-secret: 0600; DATA_DIR and downloads/: 0700', async () => {
    const previous = process.umask(0o022);
    try {
      const dataDir = join(root, 'data');
      const priv = new PrivateStore(join(dataDir, 'private.db'));
      new KeyService(priv, 'y'.repeat(32)).create('modes'); // a write, so the -wal and -shm exist
      expect(mode(join(dataDir, 'private.db'))).toBe('0600');
      expect(mode(join(dataDir, 'private.db-wal'))).toBe('0600');
      expect(mode(join(dataDir, 'private.db-shm'))).toBe('0600');
      expect(mode(dataDir)).toBe('0700');
      priv.close();

      loadKeySecret({ KEY_SECRET: undefined, dataDir });
      expect(mode(join(dataDir, 'key-secret'))).toBe('0600');

      const pub = new PublicStore(join(dataDir, 'public.db'));
      await writeDownloads(pub, dataDir, Date.UTC(2026, 10, 25));
      pub.close();
      expect(mode(join(dataDir, 'downloads'))).toBe('0700');
    } finally {
      process.umask(previous);
    }
  });
});
