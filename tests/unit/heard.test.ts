/** The collector's held notifications (collector/source/heard.ts): what is kept, for how long, and the creations they carry. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HeardNotifications } from '../../collector/source/heard.ts';
import { decodeLogsNotification, decodeTransaction } from '../../src/core/decode/index.ts';
import type { CreationAt } from '../../src/core/types.ts';
import type { DecodedTransaction } from '../../src/core/types.ts';

const heardAt = (signature: string, slot: number): DecodedTransaction => decodeLogsNotification({ context: { slot }, value: { signature, err: null, logs: [] } });

describe('HeardNotifications', () => {
  it('drops a committed batch and everything heard for a slot before the cursor, keeps the rest', () => {
    const h = new HeardNotifications(new Map());
    for (const [sig, slot] of [['a', 10], ['b', 11], ['c', 12], ['d', 13], ['late', 9]] as const) h.add(heardAt(sig, slot));
    h.committed(['b'], 12);
    // 'a' (slot 10 < 12) goes; 'late' arrived behind 'c' (slot 12, kept), so it waits until the ones ahead of it go
    expect(['a', 'b', 'c', 'd', 'late'].filter((s) => h.get(s) !== undefined)).toEqual(['c', 'd', 'late']);
    h.committed(['c'], 14);
    expect(h.size).toBe(0);
  });

  it('holds at most `max`, dropping the oldest', () => {
    const h = new HeardNotifications(new Map(), 3);
    for (let i = 0; i < 5; i++) h.add(heardAt(`s${i}`, i));
    expect(h.size).toBe(3);
    expect(h.get('s0')).toBeUndefined();
    expect(h.get('s4')).toBeDefined();
  });

  it('remembers the creation a notification carries, but never replaces one already known', () => {
    const r = JSON.parse(readFileSync(new URL('../fixtures/mainnet/pump_2026-07_create_v2+extend+buy_exact_sol_in_getTransaction_jsonParsed.json', import.meta.url), 'utf8')).result;
    const full = decodeTransaction(r);
    const heard = decodeLogsNotification({ context: { slot: r.slot }, value: { signature: full.signature, err: null, logs: r.meta.logMessages } });
    const mint = String(full.events.find((e) => e.name === 'CreateEvent')!.fields.mint);
    const creations = new Map<string, CreationAt>();
    new HeardNotifications(creations).add(heard);
    expect(creations.get(mint)).toEqual({ slot: r.slot, blockTime: r.blockTime });
    const known = new Map<string, CreationAt>([[mint, { slot: 1, blockTime: 2 }]]);
    new HeardNotifications(known).add(heard);
    expect(known.get(mint)).toEqual({ slot: 1, blockTime: 2 });
  });
});
