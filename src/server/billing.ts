import { z } from 'zod';
import type { PrivateState } from '../db/private-state.ts';
import type { KeyService } from '../access/keys.ts';
import { seal, sessionRef, unseal } from './seal.ts';

/**
 * The paid plan's bookkeeping over the private state (SQLite or PostgreSQL; every method async): one account per subscription, one key per
 * completed checkout (sealed until shown once), revocation when a subscription ends, and
 * idempotent application of payment events. No network: the Stripe objects arrive already verified
 * (webhook signature, or a retrieve by the server) and are parsed here once.
 */

/** What a completed Checkout Session says, parsed from Stripe's object. */
export interface CheckoutFacts {
  sessionId: string;
  customer: string | null;
  subscription: string | null;
  /** The session is complete and its payment settled (`paid` or `no_payment_required`). */
  paid: boolean;
  /** `subscription` mode (the only mode this archive creates). */
  subscriptionMode: boolean;
}

/** Subscription statuses after which the plan's keys stop working (revoked, 401 `revoked_key`). */
export const ENDED_STATUSES = new Set(['unpaid', 'canceled', 'incomplete_expired']);

const idOf = z.union([z.string(), z.object({ id: z.string() }).transform((o) => o.id)]).nullish();

const sessionSchema = z.object({
  id: z.string().min(1),
  mode: z.string().nullish(),
  status: z.string().nullish(),
  payment_status: z.string().nullish(),
  customer: idOf,
  subscription: idOf,
});

const subscriptionSchema = z.object({ id: z.string().min(1), status: z.string(), customer: idOf });

const eventSchema = z.object({ id: z.string().min(1), type: z.string().min(1), data: z.object({ object: z.unknown() }) });

/** Parse a Checkout Session object (from an event or a retrieve). Errors: throws ZodError. */
export function checkoutFacts(session: unknown): CheckoutFacts {
  const s = sessionSchema.parse(session);
  return {
    sessionId: s.id,
    customer: s.customer ?? null,
    subscription: s.subscription ?? null,
    paid: s.status !== 'open' && s.status !== 'expired' && (s.payment_status === 'paid' || s.payment_status === 'no_payment_required'),
    subscriptionMode: s.mode === 'subscription',
  };
}

/** Outcome of fulfilling a checkout. */
export type FulfilOutcome =
  | { status: 'created'; accountId: number; keyId: number }
  | { status: 'exists' }
  | { status: 'not_paid' }
  | { status: 'ended'; accountId: number };

/** Outcome of showing a checkout's key. */
export type RevealOutcome =
  | { status: 'shown'; key: string; prefix: string }
  | { status: 'already_shown'; prefix: string; shownAtMs: number }
  | { status: 'unknown' };

/** Outcome of one payment event. */
export interface EventOutcome {
  eventId: string;
  type: string;
  /** The event id was applied before: nothing was done this time. */
  duplicate: boolean;
  /** What was done, for the log line (no key material). */
  action: string;
}

export class BillingService {
  constructor(
    private readonly store: PrivateState,
    private readonly keys: KeyService,
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Create the subscriber's account (one per subscription) and ONE key for a paid checkout,
   * the key sealed until {@link reveal}. Idempotent on the session: a second call does nothing.
   * A checkout of a subscription that already ended creates no key.
   */
  fulfil(facts: CheckoutFacts, state: PrivateState = this.store): Promise<FulfilOutcome> {
    if (!facts.paid || !facts.subscriptionMode || !facts.subscription) return Promise.resolve({ status: 'not_paid' });
    const subscription = facts.subscription;
    const ref = sessionRef(this.secret, facts.sessionId);
    return state.transaction(async (tx): Promise<FulfilOutcome> => {
      if (await tx.checkout(ref)) return { status: 'exists' };
      const nowMs = this.now();
      const { account } = await tx.ensureAccount(subscription, facts.customer, nowMs);
      if (account.endedAtMs !== null) return { status: 'ended', accountId: account.id };
      const { id: keyId, key } = await this.keys.create(`account ${account.id}`, account.id, tx);
      await tx.insertCheckout(ref, account.id, keyId, seal(this.secret, facts.sessionId, key), nowMs);
      return { status: 'created', accountId: account.id, keyId };
    });
  }

  /**
   * End the account of a subscription and revoke all its keys (their requests then get 401
   * `revoked_key`). An unknown subscription gets an ended account, so a late checkout event for it
   * creates no key. Returns the number of keys revoked.
   */
  endSubscription(subscription: string, customer: string | null, reason: string, state: PrivateState = this.store): Promise<number> {
    return state.transaction(async (tx) => {
      const nowMs = this.now();
      const { account } = await tx.ensureAccount(subscription, customer, nowMs);
      return tx.endAccount(account.id, reason, nowMs);
    });
  }

  /**
   * Apply one verified payment event, at most once per event id (the id is recorded in the same
   * transaction as its effects). Handled: `checkout.session.completed` and
   * `checkout.session.async_payment_succeeded` (fulfil), `customer.subscription.deleted` (end),
   * `customer.subscription.updated` with status unpaid/canceled/incomplete_expired (end).
   * Other types are recorded and ignored. Errors: throws ZodError on a malformed object of a
   * handled type (nothing is recorded then).
   */
  async applyEvent(event: unknown): Promise<EventOutcome> {
    const e = eventSchema.parse(event);
    return this.store.transaction(async (tx): Promise<EventOutcome> => {
      const base = { eventId: e.id, type: e.type };
      if (!(await tx.recordEvent(e.id, e.type, this.now()))) return { ...base, duplicate: true, action: 'none (replay)' };
      switch (e.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded': {
          const r = await this.fulfil(checkoutFacts(e.data.object), tx);
          return { ...base, duplicate: false, action: r.status === 'created' ? `account ${r.accountId}: key ${r.keyId} created` : `checkout ${r.status}` };
        }
        case 'customer.subscription.deleted':
        case 'customer.subscription.updated': {
          const s = subscriptionSchema.parse(e.data.object);
          if (e.type === 'customer.subscription.updated' && !ENDED_STATUSES.has(s.status)) return { ...base, duplicate: false, action: `status ${s.status}: none` };
          const revoked = await this.endSubscription(s.id, s.customer ?? null, e.type === 'customer.subscription.deleted' ? 'deleted' : s.status, tx);
          return { ...base, duplicate: false, action: `subscription ended (${s.status}): ${revoked} keys revoked` };
        }
        default:
          return { ...base, duplicate: false, action: 'ignored' };
      }
    });
  }

  /**
   * Show a checkout's key ONCE: open the seal, drop it and mark the checkout shown, in one
   * transaction. Later calls answer `already_shown`; a session with no completed checkout `unknown`.
   */
  reveal(sessionId: string): Promise<RevealOutcome> {
    const ref = sessionRef(this.secret, sessionId);
    return this.store.transaction(async (tx): Promise<RevealOutcome> => {
      const row = await tx.checkout(ref);
      if (!row) return { status: 'unknown' };
      const prefix = (await tx.keyById(row.keyId))?.prefix ?? '';
      if (row.shownAtMs !== null || row.sealed === null) return { status: 'already_shown', prefix, shownAtMs: row.shownAtMs ?? 0 };
      const key = unseal(this.secret, sessionId, row.sealed);
      await tx.markCheckoutShown(ref, this.now());
      return { status: 'shown', key, prefix };
    });
  }
}
