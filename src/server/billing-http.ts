import {
  renderBillingErrorPage,
  renderKeyAlreadyShownPage,
  renderKeyPage,
  renderPaymentPendingPage,
  renderPricingPage,
  renderSubscriptionEndedPage,
} from '../render/billing-pages.ts';
import { checkoutFacts } from './billing.ts';
import type { Deps } from './deps.ts';
import { errorResponse } from './errors.ts';
import { ZodError } from 'zod';
import Stripe from 'stripe';
import { CACHE_NONE, corsHeaders, jsonResponse, pageHeaders, readBodyLimited } from './http.ts';
import { WEBHOOK_BODY_LIMIT_BYTES } from './routes.ts';
import { callerAddress } from './rebuilds.ts';
import { callerLimiter } from './search.ts';

/**
 * The paid plan over HTTP: `GET /pricing`, `POST /billing/checkout`, `GET /billing/success`,
 * `POST /billing/webhook`. Pages are HTML; the webhook answers JSON in the one error vocabulary.
 * Nothing here logs a key, a session id or a header.
 */

/** Success URL given to Stripe; Stripe replaces `{CHECKOUT_SESSION_ID}`. */
export const SUCCESS_PATH = '/billing/success?session_id={CHECKOUT_SESSION_ID}';
/** Webhook signatures older than this (seconds) are refused (Stripe's default tolerance). */
export const WEBHOOK_TOLERANCE_S = 300;
const StripeSignatureError = Stripe.errors.StripeSignatureVerificationError;
const firstLine = (e: unknown) => (e instanceof Error ? e.message.split('\n')[0].slice(0, 300) : 'unknown');

/** A Checkout Session id as Stripe issues them (`cs_test_…`/`cs_live_…`). */
const SESSION_ID = /^cs_[A-Za-z0-9_]{1,250}$/;

function page(body: string, status = 200, extra: Record<string, string> = {}, cors = true): Response {
  return new Response(body, {
    status,
    headers: { ...pageHeaders(), 'Cache-Control': CACHE_NONE, ...(cors ? corsHeaders() : {}), ...extra },
  });
}

/** Headers of a page showing a key: never cached, never sent as a referrer, never indexed. */
const KEY_PAGE_HEADERS = { 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex' };

/** A page of `/billing/success` (it may show a key): no CORS, so no other origin can read it. */
const keyPage = (body: string, status = 200) => page(body, status, KEY_PAGE_HEADERS, false);

/** `GET /pricing`: the plan; a subscribe button only when subscriptions are configured. */
export function handlePricing(_request: Request, deps: Deps): Response {
  const configured = deps.config.billing !== null && deps.stripe !== null;
  return page(renderPricingPage({ configured, priceText: deps.config.PLAN_PRICE_TEXT, contactEmail: deps.config.CONTACT_EMAIL }));
}

/** Requests one caller address may make a minute that call Stripe (a checkout, a session not yet seen): the waiting page reloads every 3 s, 20 a minute. */
export const STRIPE_CALLS_PER_MINUTE = 30;

/**
 * A 429 page with Retry-After when the caller has made {@link STRIPE_CALLS_PER_MINUTE} requests that
 * call Stripe this minute, else null (counted in the server process's memory, per caller address as
 * search is). Unlimited, they let anyone spend the operator's Stripe API rate limit and create
 * Checkout Sessions at will (a security review: 400 Stripe calls in 2.7 s).
 */
function stripeCallLimited(request: Request, deps: Deps, params: { clientAddress?: string }, keyPage = false): Response | null {
  const wait = callerLimiter(deps.config, 'stripe', STRIPE_CALLS_PER_MINUTE).take(callerAddress(request, params.clientAddress, deps.config.TRUSTED_PROXIES), deps.now());
  if (wait === null) return null;
  const body = renderBillingErrorPage('Too many requests', `Too many requests from your address this minute. Wait ${wait} s and try again; nothing was charged.`);
  return keyPage ? page(body, 429, { ...KEY_PAGE_HEADERS, 'Retry-After': String(wait) }, false) : page(body, 429, { 'Retry-After': String(wait) });
}

/**
 * `POST /billing/checkout` (the subscribe button): create a Stripe Checkout Session in
 * subscription mode for STRIPE_PRICE_ID and redirect (303) to Stripe's hosted page. Errors (HTML):
 * 503 when not configured, 502 when Stripe cannot be reached.
 */
export async function handleCheckout(request: Request, deps: Deps, params: { clientAddress?: string } = {}): Promise<Response> {
  const { billing, baseUrl } = deps.config;
  if (!billing || !deps.stripe) return page(renderBillingErrorPage('Subscriptions not configured', 'Subscriptions are not configured on this archive.'), 503);
  const limited = stripeCallLimited(request, deps, params);
  if (limited) return limited;
  let url: string | null;
  try {
    const session = await deps.stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: billing.priceId, quantity: 1 }],
      success_url: `${baseUrl}${SUCCESS_PATH}`,
      cancel_url: `${baseUrl}/pricing`,
    });
    url = session.url;
  } catch (e) {
    deps.log.error({ err: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }, 'checkout session not created');
    url = null;
  }
  if (!url) return page(renderBillingErrorPage('Checkout not started', 'The payment provider could not be reached. Nothing was charged; try again in a minute.'), 502);
  return new Response(null, { status: 303, headers: { Location: url, 'Cache-Control': CACHE_NONE } });
}

/**
 * `GET /billing/success?session_id=cs_…`: the new key, shown ONCE. The first visit opens the key
 * sealed by the webhook; if the webhook has not arrived yet, the session is retrieved from Stripe
 * and, when paid, fulfilled here (the same idempotent step). Later visits say the key was shown.
 * An unpaid session gets a self-reloading "waiting" page (202).
 */
export async function handleSuccess(request: Request, deps: Deps, params: { clientAddress?: string } = {}): Promise<Response> {
  if (!deps.config.billing || !deps.stripe) return keyPage(renderBillingErrorPage('Subscriptions not configured', 'Subscriptions are not configured on this archive.'), 503);
  const sessionId = new URL(request.url).searchParams.get('session_id') ?? '';
  if (!SESSION_ID.test(sessionId)) return keyPage(renderBillingErrorPage('No such checkout', 'This address does not name a checkout.'), 400);

  let shown = await deps.billing.reveal(sessionId);
  if (shown.status === 'unknown') {
    const limited = stripeCallLimited(request, deps, params, true);
    if (limited) return limited;
    let facts;
    try {
      facts = checkoutFacts(await deps.stripe.checkout.sessions.retrieve(sessionId));
    } catch (e) {
      const status = (e as { statusCode?: number }).statusCode;
      if (status === 404) return keyPage(renderBillingErrorPage('No such checkout', 'The payment provider knows no such checkout.'), 404);
      deps.log.error({ err: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }, 'checkout session not retrieved');
      return keyPage(renderBillingErrorPage('Payment provider unreachable', 'The checkout could not be checked just now. Reload this page in a minute; your key is kept until it is shown.'), 502);
    }
    if (!facts.paid) return keyPage(renderPaymentPendingPage(), 202);
    const done = await deps.billing.fulfil(facts);
    if (done.status === 'ended') return keyPage(renderSubscriptionEndedPage(), 200);
    if (done.status === 'created') deps.log.info({ account: done.accountId, keyId: done.keyId }, 'checkout fulfilled at the success page');
    shown = await deps.billing.reveal(sessionId);
  }
  if (shown.status === 'shown') return keyPage(renderKeyPage(shown.key, shown.prefix), 200);
  if (shown.status === 'already_shown') return keyPage(renderKeyAlreadyShownPage(shown.prefix, new Date(shown.shownAtMs).toISOString()), 200);
  return keyPage(renderPaymentPendingPage(), 202);
}

/**
 * `POST /billing/webhook` (Stripe → archive): verify the `Stripe-Signature` header on the RAW body
 * with `stripe.webhooks.constructEvent` (tolerance 300 s against `deps.now`), then apply the event
 * at most once per event id. The body is read up to WEBHOOK_BODY_LIMIT_BYTES (64 KB), and only when a
 * signature header is present. Answers 200 `{received, duplicate}`; 400 `invalid_signature`; 400
 * `invalid_event` (signed, but not JSON or missing the fields its type needs); 413
 * `payload_too_large`; 503 `billing_not_configured`. Nothing is recorded on a refusal; each
 * refusal is logged with its reason (never the body or the header).
 */
export async function handleWebhook(request: Request, deps: Deps): Promise<Response> {
  const nowMs = deps.now();
  const billing = deps.config.billing;
  if (!billing || !deps.stripe) return errorResponse('billing_not_configured', { nowMs });
  const signature = request.headers.get('Stripe-Signature');
  if (!signature) {
    deps.log.warn({ reason: 'no Stripe-Signature header' }, 'payment webhook refused: signature not verified');
    return errorResponse('invalid_signature', { nowMs });
  }
  const raw = await readBodyLimited(request, WEBHOOK_BODY_LIMIT_BYTES);
  if (raw === 'too_large') {
    deps.log.warn({ limit: WEBHOOK_BODY_LIMIT_BYTES }, 'payment webhook refused: body too large');
    return errorResponse('payload_too_large', { nowMs });
  }
  let event;
  try {
    event = deps.stripe.webhooks.constructEvent(raw, signature, billing.webhookSecret, WEBHOOK_TOLERANCE_S, undefined, nowMs);
  } catch (e) {
    // constructEvent checks the signature first, then parses the JSON: a parse failure is a signed body that is not an event.
    const signed = !(e instanceof StripeSignatureError);
    deps.log.warn({ reason: firstLine(e) }, signed ? 'payment webhook refused: signed body is not JSON' : 'payment webhook refused: signature not verified');
    return errorResponse(signed ? 'invalid_event' : 'invalid_signature', { nowMs });
  }
  let outcome;
  try {
    outcome = await deps.billing.applyEvent(event);
  } catch (e) {
    if (!(e instanceof ZodError)) throw e;
    deps.log.warn({ reason: e.issues.map((i) => `${i.path.join('.') || '(event)'}: ${i.message}`).join('; ').slice(0, 500) }, 'payment webhook refused: signed event malformed');
    return errorResponse('invalid_event', { nowMs });
  }
  deps.log.info({ event: outcome.eventId, type: outcome.type, duplicate: outcome.duplicate, action: outcome.action }, 'payment event');
  return jsonResponse({ received: true, duplicate: outcome.duplicate }, 200, { 'Cache-Control': CACHE_NONE });
}
