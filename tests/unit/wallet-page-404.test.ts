/**
 * `/w/{address}.html` for a wallet no held launch names in a role (src/server/site.ts
 * handleWalletPage): 404 either way, "Wallet not seen" only when the archive holds no trade of it —
 * a consistency review found a wallet the API called `inArchive: true` (it traded later on a held
 * curve) titled "Wallet not seen" on its page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { createDeps, type Deps } from '../../src/server/deps.ts';
import { handleWalletPage } from '../../src/server/site.ts';
import { randomAddress } from '../helpers/launch-doc.ts';

let dir: string;
let deps: Deps;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lpa-wallet-404-'));
  deps = createDeps(loadConfig({ DATA_DIR: dir }), { curveStatus: async () => 'never', log: createLogger('silent') });
});
afterEach(() => {
  deps.publicStore.close();
  rmSync(dir, { recursive: true, force: true });
});

const page = async (address: string) => {
  const res = await handleWalletPage(new Request(`http://archive.test/w/${address}.html`), deps, { file: `${address}.html` });
  return { status: res.status, body: await res.text() };
};

it('never seen: "Wallet not seen"; seen trading a held curve in no role: "No launch role", never "not seen"', async () => {
  const never = await page(randomAddress());
  expect(never.status).toBe(404);
  expect(never.body).toContain('<h1 id="wallet-title">Wallet not seen</h1>');
  const trader = randomAddress();
  deps.publicStore.db.prepare('INSERT INTO wallet_seen (wallet) VALUES (?)').run(trader);
  const seen = await page(trader);
  expect(seen.status).toBe(404);
  expect(seen.body).toContain('<h1 id="wallet-title">No launch role</h1>');
  expect(seen.body).toContain('The archive holds trades of');
  expect(seen.body).not.toContain('not seen');
});
