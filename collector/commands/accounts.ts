import { loadConfig, type Config } from '../../src/config.ts';
import { openPrivateState } from '../../src/db/open-private-state.ts';

/**
 * `lpa accounts list`: subscriber accounts of the paid plan (one per Stripe subscription) with
 * their key counts. Shows Stripe ids only — never a key, a hash or a checkout session.
 */

type Out = (line: string) => void;
const stdout: Out = (line) => process.stdout.write(line + '\n');

const iso = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

/** List accounts, tab-separated: id, customer, subscription, created, ended (reason), active keys / keys. */
export async function runAccountsList(config?: Config, out: Out = stdout): Promise<void> {
  const c = config ?? loadConfig();
  const store = openPrivateState(c);
  try {
    out(['id', 'customer', 'subscription', 'created', 'ended', 'keys'].join('\t'));
    for (const a of await store.listAccounts()) {
      const ended = a.endedAtMs === null ? '-' : `${iso(a.endedAtMs)} (${a.endReason ?? 'ended'})`;
      out([a.id, a.stripeCustomer ?? '-', a.stripeSubscription, iso(a.createdAtMs), ended, `${a.activeKeys} active / ${a.keys}`].join('\t'));
    }
  } finally {
    await store.close();
  }
}
