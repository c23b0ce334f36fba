import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig, ConfigError, type Config } from '../../src/config.ts';
import { canonicalJson, sha256Hex } from '../../src/core/canonical.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { PrivateStore } from '../../src/db/private-store.ts';
import { createDeps, type Deps } from '../../src/server/deps.ts';
import { handleCheckout, handlePricing, handleSuccess, handleWebhook } from '../../src/server/billing-http.ts';
import { handleRotate } from '../../src/server/rotate.ts';
import { handleToken } from '../../src/server/token.ts';
import { seal, sessionRef, unseal } from '../../src/server/seal.ts';
import { runAccountsList } from '../../collector/commands/accounts.ts';
import { startStripeStandin, type StripeStandin } from '../helpers/stripe-standin.ts';

/**
 * The paid plan through the handlers, with the real `stripe` package talking to the loopback
 * stand-in (tests/helpers/stripe-standin.ts): checkout, signed webhooks (bad signature, replay),
 * the key shown once, revocation, rotation, and a scan of every log line and of public.db for keys.
 */

const NOW = Date.parse('2026-11-20T12:00:00.000Z');
const MINT = '7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr';
const KEY_RE = /lpa_[1-9A-HJ-NP-Za-km-z]{43,44}/g;

let standin: StripeStandin;
let dir: string;
let config: Config;
let deps: Deps;
let logLines: string[];

beforeAll(async () => {
  standin = await startStripeStandin();
});
afterAll(async () => {
  await standin.close();
});

function captureLogger(): Deps['log'] {
  logLines = [];
  return pino({ level: 'trace' }, { write: (s: string) => void logLines.push(s) }) as unknown as Deps['log'];
}

function makeDeps(env: Record<string, string> = standin.env()): Deps {
  config = loadConfig({ DATA_DIR: dir, PUBLIC_BASE_URL: 'https://archive.example', ...env });
  return createDeps(config, { now: () => NOW, curveStatus: async () => 'never', log: captureLogger() });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lpa-billing-'));
  deps = makeDeps();
  // Only what the store and the token handler read; the full shape is tested in server.test.ts.
  const doc = {
    mint: MINT, apiVersion: 'v1', methodVersion: 'markers-v1', origin: 'observed', observedAtLaunch: true, settled: true,
    cleanAtBirth: true, launch: null, finding: { class: 'NO_MARKERS', label: 'No recorded markers', why: 'Checked; none found.' },
  } as unknown as LaunchDocument;
  const text = canonicalJson(doc);
  deps.publicStore.putLaunch(doc, null, text, sha256Hex(text), NOW);
});
afterEach(() => {
  deps.publicStore.close();
  rmSync(dir, { recursive: true, force: true });
});

const privateDb = () => new PrivateStore(config.privateDbPath);
function counts() {
  const s = privateDb();
  const one = (sql: string) => (s.db.prepare(sql).get() as { n: number }).n;
  const r = {
    accounts: one('SELECT count(*) AS n FROM account'),
    keys: one('SELECT count(*) AS n FROM api_key'),
    checkouts: one('SELECT count(*) AS n FROM checkout'),
    events: one('SELECT count(*) AS n FROM payment_event'),
  };
  s.close();
  return r;
}

/** Bytes of every file of a database (main, WAL) under DATA_DIR, as latin1. */
function dbBytes(name: string): string {
  return readdirSync(dir)
    .filter((f) => f.startsWith(name))
    .map((f) => readFileSync(join(dir, f)).toString('latin1'))
    .join('');
}

const webhookReq = (payload: string, signature?: string) =>
  new Request('http://x/billing/webhook', { method: 'POST', headers: signature ? { 'Stripe-Signature': signature, 'Content-Type': 'application/json' } : {}, body: payload });
const successReq = (id: string) => new Request(`http://x/billing/success?session_id=${encodeURIComponent(id)}`);
const tokenReq = (key: string) => new Request(`http://x/api/v1/token/${MINT}`, { headers: { Authorization: `Bearer ${key}` } });
const rotateReq = (key?: string) => new Request('http://x/api/v1/keys/rotate', { method: 'POST', headers: key ? { Authorization: `Bearer ${key}` } : {} });

/** Start a checkout through the handler; returns the stand-in session. */
async function checkout() {
  const res = await handleCheckout(new Request('http://x/billing/checkout', { method: 'POST' }), deps);
  expect(res.status).toBe(303);
  const location = res.headers.get('Location')!;
  const id = location.split('/').at(-1)!;
  expect(location).toBe(`${standin.url}/pay/${id}`);
  return standin.sessions.get(id)!;
}

/** Deliver a signed event to the webhook handler (timestamp = the injected clock). */
async function deliver(type: string, object: unknown, opts: { id?: string; secret?: string; timestampS?: number } = {}) {
  const { id, payload, header } = standin.signEvent(type, object, { timestampS: Math.floor(NOW / 1000), ...opts });
  const res = await handleWebhook(webhookReq(payload, header), deps);
  return { id, payload, header, res, body: await res.json() };
}

/** Checkout → pay → webhook → success page; returns the key shown. */
async function subscribe(): Promise<{ key: string; sessionId: string; subscription: string }> {
  const s = await checkout();
  standin.pay(s.id);
  const { res } = await deliver('checkout.session.completed', s);
  expect(res.status).toBe(200);
  const page = await (await handleSuccess(successReq(s.id), deps)).text();
  const key = page.match(KEY_RE)![0];
  return { key, sessionId: s.id, subscription: s.subscription! };
}

describe('pricing and checkout', () => {
  it('the pricing page lists the plan and a subscribe button that creates a subscription-mode Checkout Session for the configured price', async () => {
    const page = await handlePricing(new Request('http://x/pricing'), deps).text();
    for (const s of ['10,000 API requests per day', 'any mint', 'Rebuilds', 'record database file']) expect(page).toContain(s);
    expect(page).toContain('<form method="post" action="/billing/checkout">');
    const before = standin.requests.length;
    const s = await checkout();
    const req = standin.requests.slice(before).find((r) => r.path === '/v1/checkout/sessions')!;
    expect(req.form.mode).toBe('subscription');
    expect(req.form['line_items[0][price]']).toBe('price_test_plan');
    expect(req.form['line_items[0][quantity]']).toBe('1');
    expect(req.form.success_url).toBe('https://archive.example/billing/success?session_id={CHECKOUT_SESSION_ID}');
    expect(req.form.cancel_url).toBe('https://archive.example/pricing');
    expect(s.status).toBe('open');
  });

  it('with no Stripe settings: the page says subscriptions are not configured, and nothing breaks', async () => {
    deps.publicStore.close();
    deps = makeDeps({});
    expect(config.billing).toBeNull();
    expect(deps.stripe).toBeNull();
    const page = await handlePricing(new Request('http://x/pricing'), deps).text();
    expect(page).toContain('Subscriptions are not configured');
    expect(page).not.toContain('action="/billing/checkout"'); // no checkout form (the site header's search form stays)
    expect((await handleCheckout(new Request('http://x/', { method: 'POST' }), deps)).status).toBe(503);
    expect((await handleSuccess(successReq('cs_test_abc'), deps)).status).toBe(503);
    const hook = await handleWebhook(webhookReq('{}', 't=1,v1=00'), deps);
    expect(hook.status).toBe(503);
    expect(await hook.json()).toMatchObject({ error: 'billing_not_configured', finding: { class: 'UNKNOWN' } });
    expect(counts()).toEqual({ accounts: 0, keys: 0, checkouts: 0, events: 0 });
  });

  it('setting only some of the three Stripe secrets is a configuration error naming the missing ones', () => {
    expect(() => loadConfig({ DATA_DIR: dir, STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir, STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(/STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ID/);
  });

  it('at most 30 requests a minute from one address reach Stripe (a checkout, a session not seen yet), then 429 with Retry-After (a security review: 400 Stripe calls in 2.7 s)', async () => {
    const from = { clientAddress: '203.0.113.50' };
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await handleCheckout(new Request('http://x/', { method: 'POST' }), deps, from)).status);
    expect(statuses).toEqual([...Array(30).fill(303), 429]);
    const refused = await handleSuccess(successReq('cs_test_unknown_1234567890'), deps, from);
    expect([refused.status, Number(refused.headers.get('Retry-After')) > 0, refused.headers.get('Referrer-Policy')]).toEqual([429, true, 'no-referrer']);
    expect(await refused.text()).toContain('nothing was charged');
    // another address is not held back
    expect((await handleCheckout(new Request('http://x/', { method: 'POST' }), deps, { clientAddress: '198.51.100.20' })).status).toBe(303);
  });

  it('Stripe unreachable: 502 page, nothing created', async () => {
    deps.publicStore.close();
    deps = makeDeps({ ...standin.env(), STRIPE_API_PORT: '1' });
    const res = await handleCheckout(new Request('http://x/', { method: 'POST' }), deps);
    expect(res.status).toBe(502);
    expect(counts().accounts).toBe(0);
  });
});

describe('webhook', () => {
  it('a bad signature is refused (400 invalid_signature, finding UNKNOWN) and creates nothing', async () => {
    const s = await checkout();
    standin.pay(s.id);
    const wrongSecret = await deliver('checkout.session.completed', s, { secret: 'whsec_not_the_secret' });
    expect(wrongSecret.res.status).toBe(400);
    expect(wrongSecret.body).toMatchObject({ apiVersion: 'v1', error: 'invalid_signature', finding: { class: 'UNKNOWN' } });

    const { payload, header } = standin.signEvent('checkout.session.completed', s, { timestampS: Math.floor(NOW / 1000) });
    const tampered = payload.replace(s.subscription!, 'sub_test_attacker');
    expect((await handleWebhook(webhookReq(tampered, header), deps)).status).toBe(400);
    expect((await handleWebhook(webhookReq(payload), deps)).status).toBe(400);
    expect((await handleWebhook(webhookReq(payload, 'garbage'), deps)).status).toBe(400);
    const stale = await deliver('checkout.session.completed', s, { timestampS: Math.floor(NOW / 1000) - 3600 });
    expect(stale.res.status).toBe(400);
    expect(counts()).toEqual({ accounts: 0, keys: 0, checkouts: 0, events: 0 });

    // The same event, correctly signed, is accepted: the refusals were about the signature only.
    expect((await handleWebhook(webhookReq(payload, header), deps)).status).toBe(200);
    expect(counts()).toMatchObject({ accounts: 1, keys: 1, checkouts: 1, events: 1 });
  });

  it('checkout.session.completed creates the account and one key; a replayed event creates nothing twice', async () => {
    const s = await checkout();
    standin.pay(s.id);
    const first = await deliver('checkout.session.completed', s);
    expect(first.res.status).toBe(200);
    expect(first.body).toEqual({ received: true, duplicate: false });
    expect(counts()).toEqual({ accounts: 1, keys: 1, checkouts: 1, events: 1 });

    const replay = await handleWebhook(webhookReq(first.payload, first.header), deps);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true, duplicate: true });
    // Another event about the same session (Stripe may send several) does not make a second key either.
    const other = await deliver('checkout.session.async_payment_succeeded', s);
    expect(other.body).toEqual({ received: true, duplicate: false });
    expect(counts()).toEqual({ accounts: 1, keys: 1, checkouts: 1, events: 2 });
  });

  it('an unpaid or non-subscription session creates nothing; other event types are recorded and ignored', async () => {
    const s = await checkout();
    await deliver('checkout.session.completed', s); // still open/unpaid
    await deliver('invoice.paid', { id: 'in_test_1' });
    expect(counts()).toEqual({ accounts: 0, keys: 0, checkouts: 0, events: 2 });
  });
});

describe('the key is shown once', () => {
  it('first visit shows the key (no-store, no-referrer); the second says it was shown; the key is never stored in plain text', async () => {
    const s = await checkout();
    standin.pay(s.id);
    await deliver('checkout.session.completed', s);
    // Sealed until shown: private.db holds neither the key nor the session id.
    const store = privateDb();
    const row = store.db.prepare('SELECT session_ref, sealed FROM checkout').get() as { session_ref: string; sealed: Buffer };
    store.close();
    const key = unseal(deps.config.KEY_SECRET ?? readFileSync(join(dir, 'key-secret'), 'utf8').trim(), s.id, row.sealed);
    expect(key).toMatch(/^lpa_/);
    expect(dbBytes('private.db')).not.toContain(key);
    expect(dbBytes('private.db')).not.toContain(s.id);

    const first = await handleSuccess(successReq(s.id), deps);
    expect(first.status).toBe(200);
    expect(first.headers.get('Cache-Control')).toBe('no-store');
    expect(first.headers.get('Referrer-Policy')).toBe('no-referrer');
    const html = await first.text();
    expect(html.match(KEY_RE)).toEqual([key]);
    expect(html).toContain('shown only this once');
    expect(await deps.keys.verify(key)).toMatchObject({ status: 'ok' });

    const second = await handleSuccess(successReq(s.id), deps);
    expect(second.status).toBe(200);
    const again = await second.text();
    expect(again).toContain('already shown');
    expect(again).not.toMatch(KEY_RE);
    expect(again).toContain(key.slice(0, 10));

    const after = privateDb();
    expect(after.db.prepare('SELECT sealed, shown_at_ms AS shown FROM checkout').get()).toEqual({ sealed: null, shown: NOW });
    after.close();
    expect(dbBytes('private.db')).not.toContain(key);
  });

  it('the success page before the webhook: retrieves the paid session from Stripe, creates the key, shows it; the late webhook adds nothing', async () => {
    const s = await checkout();
    const pending = await handleSuccess(successReq(s.id), deps);
    expect(pending.status).toBe(202);
    expect(await pending.text()).not.toMatch(KEY_RE);
    standin.pay(s.id);
    const page = await (await handleSuccess(successReq(s.id), deps)).text();
    const key = page.match(KEY_RE)![0];
    expect(await deps.keys.verify(key)).toMatchObject({ status: 'ok' });
    await deliver('checkout.session.completed', s);
    expect(counts()).toMatchObject({ accounts: 1, keys: 1, checkouts: 1 });
    expect(await (await handleSuccess(successReq(s.id), deps)).text()).toContain('already shown');
  });

  it('an unknown session is 404, a malformed one 400; neither shows anything', async () => {
    expect((await handleSuccess(successReq('cs_test_doesnotexist'), deps)).status).toBe(404);
    expect((await handleSuccess(successReq('not a session'), deps)).status).toBe(400);
    expect((await handleSuccess(new Request('http://x/billing/success'), deps)).status).toBe(400);
  });

  it('seals open only with the same secret and session id', () => {
    const sealed = seal('s'.repeat(32), 'cs_test_1', 'lpa_secretkey');
    expect(unseal('s'.repeat(32), 'cs_test_1', sealed)).toBe('lpa_secretkey');
    expect(() => unseal('s'.repeat(32), 'cs_test_2', sealed)).toThrow();
    expect(() => unseal('t'.repeat(32), 'cs_test_1', sealed)).toThrow();
    expect(sessionRef('s'.repeat(32), 'cs_test_1')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('revocation and rotation', () => {
  it('customer.subscription.deleted revokes the account’s keys → 401 revoked_key (finding UNKNOWN)', async () => {
    const { key, subscription } = await subscribe();
    expect((await handleToken(tokenReq(key), deps, { mint: MINT })).status).toBe(200);
    const del = await deliver('customer.subscription.deleted', { id: subscription, object: 'subscription', status: 'canceled', customer: 'cus_x' });
    expect(del.res.status).toBe(200);
    const res = await handleToken(tokenReq(key), deps, { mint: MINT });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'revoked_key', finding: { class: 'UNKNOWN' } });
    // Rotation with a revoked key is refused too.
    const rot = await handleRotate(rotateReq(key), deps);
    expect(rot.status).toBe(401);
    expect(await rot.json()).toMatchObject({ error: 'revoked_key', finding: { class: 'UNKNOWN' } });
  });

  it('customer.subscription.updated revokes only when the status is unpaid (or canceled/incomplete_expired)', async () => {
    const { key, subscription } = await subscribe();
    await deliver('customer.subscription.updated', { id: subscription, object: 'subscription', status: 'past_due', customer: null });
    expect(await deps.keys.verify(key)).toMatchObject({ status: 'ok' });
    await deliver('customer.subscription.updated', { id: subscription, object: 'subscription', status: 'unpaid', customer: null });
    expect(await deps.keys.verify(key)).toEqual({ status: 'revoked_key' });
  });

  it('a deletion that arrives before the checkout event: the late checkout creates no key', async () => {
    const s = await checkout();
    standin.pay(s.id);
    await deliver('customer.subscription.deleted', { id: s.subscription, object: 'subscription', status: 'canceled', customer: s.customer });
    await deliver('checkout.session.completed', s);
    expect(counts()).toMatchObject({ accounts: 1, keys: 0, checkouts: 0 });
    const page = await (await handleSuccess(successReq(s.id), deps)).text();
    expect(page).toContain('Subscription ended');
    expect(page).not.toMatch(KEY_RE);
  });

  it('POST /api/v1/keys/rotate: a new key shown once, the old one revoked, today’s count carried over', async () => {
    const { key } = await subscribe();
    for (let i = 0; i < 3; i++) expect((await handleToken(tokenReq(key), deps, { mint: MINT })).status).toBe(200);
    const res = await handleRotate(rotateReq(key), deps);
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(res.headers.get('RateLimit')).toMatch(/^"daily";r=9997;t=\d+$/);
    const body = await res.json();
    expect(body.key).toMatch(/^lpa_/);
    expect(body.key).not.toBe(key);
    expect(body.replaces.prefix).toBe(key.slice(0, 10));
    expect(await deps.keys.verify(key)).toEqual({ status: 'revoked_key' });
    const next = await handleToken(tokenReq(body.key), deps, { mint: MINT });
    expect(next.status).toBe(200);
    expect(next.headers.get('RateLimit')).toMatch(/^"daily";r=9996;/);
    // Same account: ending the subscription revokes the rotated key too.
    const acct = privateDb();
    expect(acct.listAccounts()[0]).toMatchObject({ keys: 2, activeKeys: 1 });
    acct.close();
    expect((await (await handleRotate(rotateReq(), deps)).json()).error).toBe('missing_key');
    expect((await (await handleRotate(rotateReq('lpa_nope'), deps)).json()).error).toBe('invalid_key');
  });

  it('POST /api/v1/keys/rotate: at most 10 rotations a minute from one address, then 429 rate_limited with Retry-After; the key sent still works (a security review rotated 3,000 times in 3 s)', async () => {
    let { key } = await subscribe();
    const from = (address: string) => ({ clientAddress: address });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await handleRotate(rotateReq(key), deps, from('203.0.113.77'));
      statuses.push(res.status);
      if (res.status === 200) key = (await res.json()).key;
      else {
        const body = await res.json();
        expect([body.error, Number(res.headers.get('Retry-After'))]).toEqual(['rate_limited', expect.any(Number)]);
        expect(body.message).toMatch(/at most 10 a minute/);
      }
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    expect((await deps.keys.verify(key)).status).toBe('ok');
    // another address is not held back
    expect((await handleRotate(rotateReq(key), deps, from('198.51.100.9'))).status).toBe(200);
  });

  it('lpa accounts list shows Stripe ids and key counts, never a key', async () => {
    const { key, subscription } = await subscribe();
    const out: string[] = [];
    await runAccountsList(config, (l) => out.push(l));
    expect(out[0]).toBe('id\tcustomer\tsubscription\tcreated\tended\tkeys');
    expect(out[1]).toMatch(new RegExp(`^1\\tcus_test_\\w+\\t${subscription}\\t2026-11-20T12:00:00.000Z\\t-\\t1 active / 1$`));
    expect(out.join('\n')).not.toContain(key);
  });
});

describe('key material stays out of logs and the public database', () => {
  it('after subscribe, reads, replay, rotation and revocation: no log line and no public.db byte holds a key', async () => {
    const keys: string[] = [];
    const { key, sessionId, subscription } = await subscribe();
    keys.push(key);
    await handleToken(tokenReq(key), deps, { mint: MINT });
    await handleToken(tokenReq(key + 'x'), deps, { mint: MINT });
    await handleSuccess(successReq(sessionId), deps);
    const rotated = await (await handleRotate(rotateReq(key), deps)).json();
    keys.push(rotated.key);
    await handleToken(tokenReq(rotated.key), deps, { mint: MINT });
    await deliver('checkout.session.completed', standin.sessions.get(sessionId)!, { secret: 'whsec_wrong' });
    await deliver('customer.subscription.deleted', { id: subscription, object: 'subscription', status: 'canceled', customer: null });
    await handleToken(tokenReq(rotated.key), deps, { mint: MINT });

    expect(logLines.length).toBeGreaterThan(3);
    const log = logLines.join('');
    expect(log).toContain('payment event');
    expect(log).toContain('key rotated');
    const publicBytes = dbBytes('public.db');
    expect(publicBytes.length).toBeGreaterThan(0);
    for (const k of keys) {
      for (const needle of [k, k.slice(4), k.slice(0, 10)]) {
        expect(log).not.toContain(needle);
        expect(publicBytes).not.toContain(needle);
      }
      expect(dbBytes('private.db')).not.toContain(k);
    }
    expect(log).not.toMatch(KEY_RE);
    expect(log).not.toContain(sessionId);
    expect(log).not.toContain(standin.secretKey);
    expect(log).not.toContain(standin.webhookSecret);
  });
});

describe('a setting an earlier version read', () => {
  it('stops the process with its replacement named (TX_CACHE_TRANSACTIONS → TX_CACHE_MB), not a silent default', () => {
    expect(() => loadConfig({ DATA_DIR: dir, TX_CACHE_TRANSACTIONS: '400000' })).toThrow(/TX_CACHE_TRANSACTIONS: no longer read; set TX_CACHE_MB/);
    expect(loadConfig({ DATA_DIR: dir, TX_CACHE_MB: '2048' }).TX_CACHE_MB).toBe(2048);
  });

  it('is named with every bad value in one message (the renamed setting alone was, and the others came one run later)', () => {
    let message = '';
    try {
      loadConfig({ DATA_DIR: dir, TX_CACHE_TRANSACTIONS: '5', PORT: 'abc', LOG_LEVEL: 'loud' });
    } catch (e) {
      message = (e as Error).message;
    }
    for (const name of ['TX_CACHE_TRANSACTIONS: no longer read', 'PORT:', 'LOG_LEVEL:']) expect(message).toContain(name);
  });
});
