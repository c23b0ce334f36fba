import Stripe from 'stripe';
import type { BillingConfig } from '../config.ts';

/**
 * The Stripe API client of the paid plan (the official `stripe` package). `host`/`port`/`protocol`
 * come from STRIPE_API_HOST/PORT/PROTOCOL when set, so tests reach a loopback stand-in and never
 * Stripe's real API. Used for creating and retrieving Checkout Sessions; webhook signatures are
 * checked with `Stripe.webhooks` (no request to Stripe).
 */
export function createStripe(billing: BillingConfig): Stripe {
  const { host, port, protocol } = billing.api;
  return new Stripe(billing.secretKey, {
    ...(host ? { host } : {}),
    ...(port ? { port } : {}),
    ...(protocol ? { protocol } : {}),
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'launch-provenance-archive' },
  });
}

export type { Stripe };
