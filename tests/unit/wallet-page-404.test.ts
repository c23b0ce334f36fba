/**
 * `/w/{address}.html` for a wallet no held launch names in a role (src/server/site.ts
 * handleWalletPage): 404 either way, "Wallet not seen" only when the archive holds no trade of it —
 * a consistency review found a wallet the API called `inArchive: true` (it traded later on a held
 * curve) titled "Wallet not seen" on its page. Likewise `/t/{mint}.early.html` of a launch without
 * one: it said the token page "lists every first-30-s buyer" for a record whose first 30 s are unknown.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { createDeps, type Deps } from '../../src/server/deps.ts';
import { handleTokenPage, handleWalletPage } from '../../src/server/site.ts';
import { launchDoc, putDoc, randomAddress } from '../helpers/launch-doc.ts';

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

it('a launch without a first-30-seconds page: the token page lists them all when its history is held whole; else they are unknown, said so', async () => {
  const early = async (mint: string) => {
    const res = await handleTokenPage(new Request(`http://archive.test/t/${mint}.early.html`), deps, { file: `${mint}.early.html` });
    return { status: res.status, body: await res.text() };
  };
  const whole = randomAddress();
  putDoc(deps.publicStore, launchDoc(whole, Date.parse('2026-11-20T00:00:00Z')));
  const a = await early(whole);
  expect(a.status).toBe(404);
  expect(a.body).toContain('lists every first-30-s buyer and every trade of its first 30 s');
  const partial = randomAddress();
  const doc = launchDoc(partial, Date.parse('2026-11-20T00:00:00Z'));
  putDoc(deps.publicStore, { ...doc, history: { ...doc.history, complete: false } });
  const b = await early(partial);
  expect(b.status).toBe(404);
  expect(b.body).toContain('the archive does not hold its first 30 seconds in full, so its first-30-s buyers are unknown');
  expect(b.body).not.toContain('lists every first-30-s buyer');
});
