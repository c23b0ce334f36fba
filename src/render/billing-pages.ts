import { html } from 'hono/html';
import { renderMessagePage } from './token-page.ts';

/**
 * Pages of the paid plan: pricing, the one display of a new key, and the states around it.
 * Pure: no I/O. Every value is escaped by `hono/html`. The key appears only in
 * {@link renderKeyPage}, which the server sends with `no-store` and `no-referrer`.
 */

/** What the plan gives (spec §5 rules 5-6). */
const PLAN = html`<ul id="plan">
<li>10,000 API requests per day per key (UTC day; resets at 00:00 UTC)</li>
<li>The JSON record for any mint the archive holds (<code>/api/v1/token/{mint}</code>)</li>
<li>Rebuilds of launches the collector did not watch</li>
<li>The record database file (<code>/data/record.db</code>)</li>
</ul>
<p>Keyed responses are licensed for use in your own product and may not be redistributed in bulk.
Volume beyond 10,000 requests a day, the creation feed and bulk historical reconstruction need a separate data agreement.</p>
<p>What each endpoint answers, its fields, errors and limits: <a href="/api.html">the API reference</a> (for programs: <a href="/api/v1/openapi.json">the OpenAPI document</a>).</p>`;

/** Options of {@link renderPricingPage}. */
export interface PricingOptions {
  /** Subscriptions are configured (STRIPE_* settings): show the subscribe button. */
  configured: boolean;
  /** Price in words (PLAN_PRICE_TEXT), or undefined: "shown at checkout". */
  priceText?: string;
  contactEmail: string;
}

/** `GET /pricing`: the plan, and a subscribe button that starts a Stripe Checkout (POST /billing/checkout). */
export function renderPricingPage(o: PricingOptions): string {
  const action = o.configured
    ? html`<p>Price: <strong id="price">${o.priceText ?? 'shown at checkout'}</strong>, billed by Stripe until you cancel.</p>
<form method="post" action="/billing/checkout"><button id="subscribe" type="submit">Subscribe</button></form>
<p>After paying you are sent back here and shown your API key once. Keep it on your server: a key in browser code is readable by anyone.</p>`
    : html`<p id="not-configured"><strong>Subscriptions are not configured on this archive.</strong> To get a key, write to <a href="mailto:${o.contactEmail}">${o.contactEmail}</a>.</p>`;
  return renderMessagePage('The plan', html`${PLAN}${action}`);
}

/** The one display of a new key (success page, first visit). */
export function renderKeyPage(key: string, prefix: string): string {
  return renderMessagePage(
    'Your API key',
    html`<p>Your subscription is active. This is your API key. <strong>It is shown only this once</strong>: the archive keeps only a keyed hash of it and cannot show it again.</p>
<p><code id="api-key">${key}</code></p>
<p>Send it from your server as <code>Authorization: Bearer ${prefix}…</code>. Never put it in browser code or in a URL.</p>
<p>To replace it (e.g. after a leak), <code>POST /api/v1/keys/rotate</code> with the current key as Bearer: the answer holds a new key, shown once, and the old one stops working.</p>`,
  );
}

/** Second and later visits of the success page: the key was shown already. */
export function renderKeyAlreadyShownPage(prefix: string, shownAtIso: string): string {
  return renderMessagePage(
    'Key already shown',
    html`<p id="already-shown">The API key of this checkout (<code>${prefix}…</code>) was shown on ${shownAtIso} and cannot be shown again: the archive keeps only a keyed hash of it.</p>
<p>If you did not keep it, rotate a key you still hold (<code>POST /api/v1/keys/rotate</code>), or write to the operator.</p>`,
  );
}

/** The success page before the payment is confirmed: reloads itself every 3 s (a meta refresh: the pages' CSP runs no script). */
export function renderPaymentPendingPage(): string {
  return renderMessagePage(
    'Waiting for the payment',
    html`<p id="pending">The payment is not confirmed yet. This page reloads by itself; your key appears here once Stripe confirms the payment.</p>
<meta http-equiv="refresh" content="3">`,
  );
}

/** A checkout whose subscription has already ended: no key. */
export function renderSubscriptionEndedPage(): string {
  return renderMessagePage('Subscription ended', html`<p id="ended">The subscription of this checkout has ended, so no key was issued. Subscribe again from <a href="/pricing">the pricing page</a>.</p>`);
}

/** A short error page of the plan (bad session id, Stripe unreachable, not configured). */
export function renderBillingErrorPage(heading: string, message: string): string {
  return renderMessagePage(heading, html`<p id="billing-error">${message}</p><p><a href="/pricing">The plan</a></p>`);
}
