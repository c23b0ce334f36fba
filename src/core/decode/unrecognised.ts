/**
 * The drift guard's input (issue 20 item 3): the program data of pump, PumpSwap and Pump Fees in a
 * decoded transaction that the bundled IDLs do not describe. Pure.
 */
import type { DecodedTransaction, SkippedItem } from '../types.ts';

/**
 * The skipped items of `tx` that are program data the decoder does not know — an unknown
 * instruction or event discriminator, data shorter than a discriminator, an event or instruction of
 * a known name that fails to decode — i.e. the items with `program` set (and with it `kind` and
 * `discriminator`), in `skipped` order. Structural items (`no meta`, unresolvable keys, bad token
 * balances, text that is not base58/base64) are left out. Rows stored before these fields existed
 * have none.
 * @example unrecognisedOf(decodeTransaction(raw)) // [{where:'instruction 3', reason:'unknown pump instruction discriminator …', program:'pump', kind:'instruction', discriminator:'ffffffffffffffff'}]
 */
export function unrecognisedOf(tx: DecodedTransaction): SkippedItem[] {
  return tx.skipped.filter((s) => s.program !== undefined);
}
