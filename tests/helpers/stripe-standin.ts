import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

/**
 * A loopback stand-in for the few parts of Stripe the archive uses, so no test reaches Stripe's
 * real API. The archive's `stripe` client is pointed here with STRIPE_API_HOST/PORT/PROTOCOL.
 *
 * - `POST /v1/checkout/sessions` (form-encoded, as the `stripe` package sends it) → a session
 *   `{id, url, …}` whose `url` is the stand-in's own "hosted checkout" page.
 * - `GET /v1/checkout/sessions/:id` → the session (`status`, `payment_status`, `customer`, `subscription`).
 * - `GET /pay/:id` → a page with a Pay button; `POST /pay/:id` marks the session paid, sends the
 *   signed `checkout.session.completed` webhook to the archive (signed with
 *   `Stripe.webhooks.generateTestHeaderString`), then redirects (303) to the session's success URL.
 *
 * Every API request is recorded in `requests` for assertions.
 */

export interface StandinSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  customer: string | null;
  subscription: string | null;
  url: string;
  success_url: string;
  cancel_url: string;
  line_items_price: string | null;
  livemode: false;
  created: number;
}

export interface StandinOptions {
  /** The secret key the archive must send (`Authorization: Bearer …`). */
  secretKey?: string;
  /** The webhook signing secret shared with the archive. */
  webhookSecret?: string;
  /** Where the Pay button delivers `checkout.session.completed`; set later with `webhookUrl =`. */
  webhookUrl?: string;
  /** Send the webhook when Pay is clicked (default true); false tests the success page beating it. */
  deliverWebhook?: boolean;
}

export interface StripeStandin {
  readonly url: string;
  readonly port: number;
  readonly secretKey: string;
  readonly webhookSecret: string;
  webhookUrl: string | undefined;
  deliverWebhook: boolean;
  readonly sessions: Map<string, StandinSession>;
  readonly requests: { method: string; path: string; form: Record<string, string> }[];
  /** Responses of the webhooks the stand-in delivered. */
  readonly deliveries: { eventId: string; type: string; status: number }[];
  /** The archive's STRIPE_* settings pointing at this stand-in. */
  env(priceId?: string): Record<string, string>;
  /** Mark a session paid (customer and subscription created); returns it. */
  pay(sessionId: string): StandinSession;
  /** A signed event: the exact body and its Stripe-Signature header. */
  signEvent(type: string, object: unknown, opts?: { id?: string; timestampS?: number; secret?: string }): { id: string; payload: string; header: string };
  /** Sign and POST an event to `webhookUrl`; returns the archive's status and JSON body. */
  sendEvent(type: string, object: unknown, opts?: { id?: string; timestampS?: number; secret?: string }): Promise<{ id: string; status: number; body: unknown }>;
  close(): Promise<void>;
}

const rid = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let s = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (s += d));
    req.on('end', () => resolve(s));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': rid('req') });
  res.end(JSON.stringify(body));
}

const stripeError = (message: string, code?: string) => ({ error: { type: 'invalid_request_error', message, ...(code ? { code } : {}) } });

/** Start the stand-in on a free loopback port. */
export async function startStripeStandin(opts: StandinOptions = {}): Promise<StripeStandin> {
  const secretKey = opts.secretKey ?? `sk_test_${randomBytes(16).toString('hex')}`;
  const webhookSecret = opts.webhookSecret ?? `whsec_${randomBytes(24).toString('base64url')}`;
  const sessions = new Map<string, StandinSession>();
  const requests: StripeStandin['requests'] = [];
  const deliveries: StripeStandin['deliveries'] = [];
  let base = '';

  const signEvent: StripeStandin['signEvent'] = (type, object, o = {}) => {
    const id = o.id ?? rid('evt');
    const created = o.timestampS ?? Math.floor(Date.now() / 1000);
    const payload = JSON.stringify({ id, object: 'event', api_version: Stripe.API_VERSION, created, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type, data: { object } });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: o.secret ?? webhookSecret, timestamp: created });
    return { id, payload, header };
  };

  const standin: StripeStandin = {
    url: '',
    port: 0,
    secretKey,
    webhookSecret,
    webhookUrl: opts.webhookUrl,
    deliverWebhook: opts.deliverWebhook ?? true,
    sessions,
    requests,
    deliveries,
    env: (priceId = 'price_test_plan') => ({
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_PRICE_ID: priceId,
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(standin.port),
      STRIPE_API_PROTOCOL: 'http',
    }),
    pay(sessionId) {
      const s = sessions.get(sessionId);
      if (!s) throw new Error(`no session ${sessionId}`);
      if (s.status !== 'complete') Object.assign(s, { status: 'complete', payment_status: 'paid', customer: rid('cus'), subscription: rid('sub') });
      return s;
    },
    signEvent,
    async sendEvent(type, object, o = {}) {
      if (!standin.webhookUrl) throw new Error('stand-in has no webhookUrl');
      const { id, payload, header } = signEvent(type, object, o);
      const res = await fetch(standin.webhookUrl, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header }, body: payload });
      const text = await res.text();
      deliveries.push({ eventId: id, type, status: res.status });
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* keep text */
      }
      return { id, status: res.status, body };
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };

  const server: Server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', base);
      const raw = await readBody(req);
      const form = Object.fromEntries(new URLSearchParams(raw));
      const path = url.pathname;

      const pay = path.match(/^\/pay\/(cs_test_[0-9a-f]+)$/);
      if (pay) {
        const s = sessions.get(pay[1]);
        if (!s) return json(res, 404, stripeError('No such checkout page'));
        if (req.method === 'GET') {
          res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
          return res.end(`<!doctype html><title>Stand-in checkout</title><h1>Stand-in hosted checkout</h1><p>Price <code>${s.line_items_price}</code></p><form method="post"><button id="pay" type="submit">Pay</button></form>`);
        }
        standin.pay(s.id);
        if (standin.deliverWebhook) await standin.sendEvent('checkout.session.completed', s);
        res.writeHead(303, { Location: s.success_url.replace('{CHECKOUT_SESSION_ID}', s.id) });
        return res.end();
      }

      requests.push({ method: req.method ?? '', path, form });
      if (req.headers.authorization !== `Bearer ${secretKey}`) return json(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        if (!form.success_url || !form.mode) return json(res, 400, stripeError('Missing required param: success_url or mode'));
        const id = rid('cs');
        const s: StandinSession = {
          id,
          object: 'checkout.session',
          mode: form.mode,
          status: 'open',
          payment_status: 'unpaid',
          customer: null,
          subscription: null,
          url: `${base}/pay/${id}`,
          success_url: form.success_url,
          cancel_url: form.cancel_url ?? '',
          line_items_price: form['line_items[0][price]'] ?? null,
          livemode: false,
          created: Math.floor(Date.now() / 1000),
        };
        sessions.set(id, s);
        return json(res, 200, s);
      }
      const get = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/);
      if (req.method === 'GET' && get) {
        const s = sessions.get(decodeURIComponent(get[1]));
        return s ? json(res, 200, s) : json(res, 404, stripeError(`No such checkout.session: '${get[1]}'`, 'resource_missing'));
      }
      return json(res, 404, stripeError(`Unrecognized request URL (${req.method}: ${path})`));
    } catch (e) {
      json(res, 500, { error: { type: 'api_error', message: String(e) } });
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  base = `http://127.0.0.1:${port}`;
  Object.assign(standin, { url: base, port });
  return standin;
}
