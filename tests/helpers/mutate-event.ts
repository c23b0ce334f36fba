/**
 * Mutate an Anchor event's discriminator inside a getTransaction `json` result, as a program
 * upgrade the archive does not know would look: the self-CPI inner instruction's data (base58,
 * after the 8-byte EVENT_IX_TAG) and the `Program data:` log line that repeats it (base64) get the
 * new discriminator. Constructed in tests; the input is not modified.
 */
import { base58 } from '@scure/base';

const TAG = 'e445a52e51cb9a1d';
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/**
 * @param raw a getTransaction `json` result (or its envelope)
 * @param fromHex the event's 8-byte discriminator (hex)
 * @param toHex the discriminator to put in its place (hex)
 * @returns the mutated copy and how many places were changed (CPI data + log lines)
 */
export function mutateEventDiscriminator(raw: unknown, fromHex: string, toHex: string): { raw: unknown; changed: number } {
  const copy = JSON.parse(JSON.stringify(raw));
  const r = copy.result ?? copy;
  const to = Buffer.from(toHex, 'hex');
  let changed = 0;
  for (const group of r.meta?.innerInstructions ?? []) {
    for (const ix of group.instructions) {
      if (typeof ix.data !== 'string') continue;
      const b = base58.decode(ix.data);
      if (b.length < 16 || hex(b.subarray(0, 8)) !== TAG || hex(b.subarray(8, 16)) !== fromHex) continue;
      b.set(to, 8);
      ix.data = base58.encode(b);
      changed++;
    }
  }
  r.meta.logMessages = (r.meta?.logMessages ?? []).map((line: string) => {
    if (!line.startsWith('Program data: ')) return line;
    const b = Buffer.from(line.slice('Program data: '.length), 'base64');
    if (b.length < 8 || hex(b.subarray(0, 8)) !== fromHex) return line;
    to.copy(b, 0);
    changed++;
    return `Program data: ${b.toString('base64')}`;
  });
  return { raw: copy, changed };
}
