/**
 * The long-running collector's page-writing pace (collector/publish/pacing.ts `liveSiteWriteWaitMs`): at
 * least LIVE_SITE_WRITE_MS between passes, and at least SITE_WRITE_SPACING × the last pass's time,
 * so page writes take at most 1/(1 + SITE_WRITE_SPACING) of the collector's time when they are slow.
 */
import { describe, expect, it } from 'vitest';
import { LIVE_SITE_WRITE_MS, liveSiteWriteWaitMs, SITE_WRITE_SPACING } from '../../collector/collect.ts';

describe('live page-writing pace', () => {
  it('waits LIVE_SITE_WRITE_MS after a quick pass, and SITE_WRITE_SPACING × a slow one', () => {
    expect(LIVE_SITE_WRITE_MS).toBe(1_000);
    expect(SITE_WRITE_SPACING).toBe(4);
    expect(liveSiteWriteWaitMs(0)).toBe(1_000);
    expect(liveSiteWriteWaitMs(120)).toBe(1_000);
    expect(liveSiteWriteWaitMs(250)).toBe(1_000);
    expect(liveSiteWriteWaitMs(400)).toBe(1_600);
    expect(liveSiteWriteWaitMs(2_500)).toBe(10_000);
  });

  it('keeps page writing to at most a fifth of the time, however long a pass takes', () => {
    for (const pass of [1, 50, 200, 250, 251, 900, 5_000, 60_000]) {
      const share = pass / (pass + liveSiteWriteWaitMs(pass));
      expect(share).toBeLessThanOrEqual(1 / (1 + SITE_WRITE_SPACING) + 1e-12);
    }
  });
});
