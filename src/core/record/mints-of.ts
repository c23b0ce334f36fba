import type { DecodedTransaction } from '../types.ts';
import { str } from './launch-events.ts';

/**
 * The launch mints a decoded transaction touches: mints named by pump events (CreateEvent,
 * TradeEvent, CompleteEvent, CompletePumpAmmMigrationEvent), by a migration's CreatePoolEvent
 * (`base_mint`), and by pump instruction accounts (`mint` / `base_mint`) — the latter also for
 * failed transactions, which carry no events. Pure.
 */
export function mintsOf(tx: DecodedTransaction): string[] {
  const out = new Set<string>();
  const pumpInvolved = tx.instructions.some((i) => i.program === 'pump') || tx.events.some((e) => e.program === 'pump');
  for (const e of tx.events) {
    if (e.program === 'pump') {
      const m = str(e.fields.mint);
      if (m) out.add(m);
    } else if (e.name === 'CreatePoolEvent' && pumpInvolved) {
      // A pool created inside a pump migration; PumpSwap pools of other tokens are not launches.
      const m = str(e.fields.base_mint);
      if (m && tx.events.some((x) => x.name === 'CompletePumpAmmMigrationEvent')) out.add(m);
    }
  }
  for (const i of tx.instructions) {
    if (i.program !== 'pump') continue;
    const m = i.accounts.mint ?? i.accounts.base_mint;
    if (m) out.add(m);
  }
  return [...out];
}
