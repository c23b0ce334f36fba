/**
 * The archive's derived addresses (src/chain/pda.ts, reference.md §1.8), remembered once derived:
 * the docs' example pool, the default key read as WSOL, the same answer from memory, and a
 * malformed mint rejected every time (a failure is not remembered).
 */
import { describe, expect, it } from 'vitest';
import { bondingCurveAddress, canonicalPoolAddress, poolAuthorityAddress } from '../../src/chain/pda.ts';
import { DEFAULT_KEY, WSOL_MINT } from '../../src/core/programs.ts';

const DOCS_MINT = '7LSsEoJGhLeZzGvDofTdNg7M3JttxQqGWNLo6vWMpump';
const DOCS_POOL = 'GseMAnNDvntR5uFePZ51yZBXzNSn7GdFPkfHwfr6d77J';

describe('PDAs', () => {
  it("derive the docs' example pool (reference.md §1.8), with the curve's default key read as WSOL, and answer the same from memory", async () => {
    expect(await canonicalPoolAddress(DOCS_MINT, WSOL_MINT)).toBe(DOCS_POOL);
    expect(await canonicalPoolAddress(DOCS_MINT, DEFAULT_KEY)).toBe(DOCS_POOL);
    expect(await canonicalPoolAddress(DOCS_MINT)).toBe(DOCS_POOL);
    expect((await poolAuthorityAddress(DOCS_MINT)).startsWith('9XDYTfQ')).toBe(true);
    const curve = await bondingCurveAddress(DOCS_MINT);
    expect(await bondingCurveAddress(DOCS_MINT)).toBe(curve);
    expect(curve).not.toBe(DOCS_POOL);
  });

  it('rejects a malformed mint each time it is asked', async () => {
    await expect(bondingCurveAddress('not-a-mint')).rejects.toThrow();
    await expect(bondingCurveAddress('not-a-mint')).rejects.toThrow();
    await expect(canonicalPoolAddress('not-a-mint')).rejects.toThrow();
  });
});
