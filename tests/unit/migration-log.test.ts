/**
 * An upgrade's migrations reach the operator's log (src/db/open.ts logMigrations, called by the
 * collector and the server right after they open the public database): one info line naming each
 * migration taken and the time it took; nothing when none was taken.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { PublicStore } from '../../src/db/public-store.ts';
import { logMigrations } from '../../src/db/open.ts';

const dir = mkdtempSync(join(tmpdir(), 'lpa-migration-log-'));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('logs the migrations a start applied, once; a start with none logs nothing', () => {
  const path = join(dir, 'public.db');
  const lines: { fields: object; message: string }[] = [];
  const log = { info: (fields: object, message: string) => void lines.push({ fields, message }) };
  let t0 = Date.now();
  let store = new PublicStore(path);
  logMigrations(log, store.db, t0);
  // a new database takes every migration: one short line
  expect(lines).toEqual([{ fields: { schemaVersion: expect.any(Number) }, message: 'public database created' }]);
  // an archive of the release before: its last migration not taken yet
  store.db.exec('DELETE FROM schema_migrations WHERE version = 27');
  store.close();
  lines.length = 0;
  t0 = Date.now();
  store = new PublicStore(path);
  logMigrations(log, store.db, t0);
  expect(lines).toEqual([{ fields: { migrations: [expect.stringMatching(/^27: markers-v9/)], tookMs: expect.any(Number) }, message: 'public database migrated' }]);
  store.close();
  lines.length = 0;
  t0 = Date.now();
  store = new PublicStore(path);
  logMigrations(log, store.db, t0);
  expect(lines).toEqual([]);
  store.close();
});
