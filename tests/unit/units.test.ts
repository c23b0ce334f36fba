import { describe, expect, it } from 'vitest';
import { after, count, duration, exactUnits, pct, pctOf, pricePerMillion, quoteAmount, quoteUnit, shortAddress, sig, rawNumber, tokenAmount, unitsValue, USDC_MINT, utc, isoTime } from '../../src/render/units.ts';
import { WSOL_MINT, DEFAULT_KEY } from '../../src/core/programs.ts';

/** Human units of the public pages (src/render/units.ts): rounding, units, never exponent notation. */

describe('sig', () => {
  it('keeps 4 significant digits, groups thousands, never prints an exponent', () => {
    expect(sig(84.98765)).toBe('84.99');
    expect(sig(0.00000012345)).toBe('0.0000001235');
    expect(sig(1e-7)).toBe('0.0000001');
    expect(sig(12345.6)).toBe('12,346');
    expect(sig(1000)).toBe('1,000');
    expect(sig(0.5)).toBe('0.5');
    expect(sig(0)).toBe('0');
    expect(sig(-2.5)).toBe('-2.5');
    expect(sig(Number.NaN)).toBe('unknown');
    for (const x of [1e-9, 3.3e-12, 7e-15]) expect(sig(x)).not.toMatch(/e/i);
  });

  it('writes what toFixed writes (its fast path checked against it, ties and near-ties included)', () => {
    // sig as it was, through toFixed: the reference of the fast path (issue 23, page speed)
    const viaToFixed = (x: number, digits: number): string => {
      const a = Math.abs(x);
      if (!Number.isFinite(x) || x === 0 || a >= 10 ** (digits - 1)) return sig(x, digits);
      let t = a.toFixed(Math.min(20, Math.max(0, digits - 1 - Math.floor(Math.log10(a)))));
      if (t.includes('.')) t = t.replace(/0+$/, '').replace(/\.$/, '');
      return (x < 0 ? '-' : '') + t;
    };
    const values = [1.0005, 1.00049999999, 2.675, 0.12345, 0.00012345, 999.95, 999.96, 99.995, 9.9995, 0.5, 1.5, 6.25, 1e-17, 3e-21, -0.0625];
    for (let i = 1; i < 20_000; i++) values.push(i / 1000, i / 8, (i + 0.5) / 1e4, i * 0.05, 1 / i, Math.sqrt(i) / 100);
    for (const digits of [3, 4]) for (const x of values) expect(sig(x, digits)).toBe(viaToFixed(x, digits));
  });
});

describe('amounts', () => {
  it('names the quote unit: SOL (default key or WSOL), USDC, another mint by its short mint with the decimals the record carries (raw units without them)', () => {
    expect(quoteUnit(DEFAULT_KEY)).toEqual({ symbol: 'SOL', decimals: 9, sol: true, raw: false });
    expect(quoteUnit(WSOL_MINT).symbol).toBe('SOL');
    expect(quoteUnit(USDC_MINT)).toEqual({ symbol: 'USDC', decimals: 6, sol: false, raw: false });
    expect(quoteUnit('CWiTGbCiDd8BKtNYNE2boT9fJGFG2MU53Uf6HQk4pump', 6)).toEqual({ symbol: 'CWiT…pump', decimals: 6, sol: false, raw: false });
    expect(quoteUnit('CWiTGbCiDd8BKtNYNE2boT9fJGFG2MU53Uf6HQk4pump', null)).toEqual({ symbol: 'raw units of CWiT…pump', decimals: 0, sol: false, raw: true });
  });

  it('shows quote and token amounts rounded, with the exact value for a title', () => {
    expect(quoteAmount('84987654321', WSOL_MINT)).toEqual({ text: '84.99 SOL', exact: '84.987654321 SOL (84987654321 raw)' });
    expect(quoteAmount('1', WSOL_MINT).text).toBe('0.000000001 SOL');
    expect(quoteAmount('2500000', USDC_MINT).text).toBe('2.5 USDC');
    expect(tokenAmount('35210000000000').text).toBe('35.21 M tokens');
    expect(tokenAmount('1000000000000000').text).toBe('1 B tokens');
    expect(tokenAmount('1234567').text).toBe('1.235 tokens');
    expect(tokenAmount('35210000000000').exact).toBe('35,210,000 tokens (35210000000000 raw)');
    expect(exactUnits('1500000000', 9)).toBe('1.5');
    expect(exactUnits('-1', 6)).toBe('-0.000001');
  });

  it('gives shares of supply to 3 significant digits, and a tiny share as < 0.001%', () => {
    expect(pctOf('62500000000000', '1000000000000000')).toBe('6.25%');
    expect(pctOf('820100000000000', '1000000000000000')).toBe('82%');
    expect(pctOf('1', '1000000000000000')).toBe('< 0.001%');
    expect(pctOf('0', '1000000000000000')).toBe('0%');
    expect(pctOf('1', '0')).toBe('unknown');
    expect(pct(71)).toBe('71%');
    expect(pct(2.9123)).toBe('2.91%');
  });

  it('prices in quote per million tokens', () => {
    // the starting curve: 30 SOL virtual against 1,073,000,000 virtual tokens
    expect(pricePerMillion('30000000000', '1073000000000000', WSOL_MINT)!.text).toBe('0.02796 SOL per million tokens');
    expect(pricePerMillion('1', '0', WSOL_MINT)).toBeNull();
  });
});

describe('time', () => {
  it('words durations with two units at most', () => {
    expect(duration(0)).toBe('0 s');
    expect(duration(45)).toBe('45 s');
    expect(duration(185)).toBe('3 min 5 s');
    expect(duration(6000)).toBe('1 h 40 min');
    expect(duration(3600)).toBe('1 h');
    expect(duration(2 * 86400 + 3 * 3600 + 59)).toBe('2 d 3 h');
    expect(duration(Number.POSITIVE_INFINITY)).toBe('unknown');
  });

  it('gives UTC times to the second and ages relative to a given instant, never to now', () => {
    expect(utc(Date.UTC(2026, 9, 1, 10, 0, 5))).toBe('2026-10-01 10:00:05 UTC');
    const t0 = Date.UTC(2026, 9, 1);
    // the same text as toISOString's, cut (utc's own date arithmetic from 1970 to 9999, Date's outside it)
    const viaDate = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC');
    const edges = [0, 1, 999, 1000, 86_399_999, 86_400_000, Date.UTC(2000, 1, 29, 23, 59, 59, 999), Date.UTC(2100, 1, 28), Date.UTC(2100, 2, 1), Date.UTC(2400, 1, 29), Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(1969, 11, 31, 23, 59, 59), 1.5e12 + 0.5, -0.5];
    for (const ms of edges) expect(utc(ms), String(ms)).toBe(viaDate(ms));
    let seed = 7;
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      const ms = Math.floor((seed / 2_147_483_648) * (i % 2 ? 253_402_300_799_999 : 4_102_444_800_000));
      expect(utc(ms)).toBe(viaDate(ms));
    }
    expect(after(t0 + 6_000_000, t0)).toBe('1 h 40 min after launch');
    expect(after(t0, t0)).toBe('at launch');
    expect(after(t0 - 60_000, t0, 'creation')).toBe('1 min before creation');
  });

  it('writes an ISO time exactly as toISOString does, milliseconds included, and throws where it throws', () => {
    expect(isoTime(Date.UTC(2026, 9, 1, 10, 0, 5))).toBe('2026-10-01T10:00:05.000Z');
    const edges = [0, 1, 9, 10, 99, 100, 999, 1000, 86_399_999, 86_400_000, Date.UTC(2000, 1, 29, 23, 59, 59, 999), Date.UTC(2100, 1, 28), Date.UTC(2100, 2, 1), Date.UTC(2400, 1, 29), Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(10000, 0, 1), Date.UTC(1969, 11, 31, 23, 59, 59, 999), Date.UTC(-1, 0, 1), 1.5e12 + 0.5, -0.5, 8.64e15];
    for (const ms of edges) expect(isoTime(ms), String(ms)).toBe(new Date(ms).toISOString());
    let seed = 11;
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      const ms = Math.floor((seed / 2_147_483_648) * (i % 2 ? 253_402_300_799_999 : 4_102_444_800_000));
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }
    for (const bad of [Number.NaN, 8.64e15 + 1, Number.POSITIVE_INFINITY]) expect(() => isoTime(bad)).toThrow(RangeError);
  });

  it('counts and shortens', () => {
    expect(count(1, 'wallet')).toBe('1 wallet');
    expect(count(1200, 'launch', 'launches')).toBe('1,200 launches');
    expect(shortAddress('CWiTGbCiDd8BKtNYNE2boT9fJGFG2MU53Uf6HQk4pump')).toBe('CWiT…pump');
  });
});

describe('raw amounts given as text', () => {
  it('read a decimal string as its bigint would be read, canonical or not', () => {
    for (const raw of ['0', '-0', '7', '-7', '000123', '-000123', ' 42 ', '+5', '1000000000', '-123456789012345678901234567890', '18446744073709551615']) {
      for (const d of [0, 6, 9]) {
        expect(exactUnits(raw, d), `${raw} ${d}`).toBe(exactUnits(BigInt(raw), d));
        expect(unitsValue(raw, d), `${raw} ${d}`).toBe(Number(exactUnits(raw, d).replace(/,/g, '')));
      }
      expect(tokenAmount(raw)).toEqual({ ...tokenAmount(BigInt(raw)), exact: tokenAmount(BigInt(raw)).exact.replace(/\(.*raw\)$/, `(${raw} raw)`) });
    }
    expect(utc(Date.UTC(10000, 0, 1))).toBe('+010000-01-01 00:00:00 UTC');
    expect(utc(Date.UTC(-1, 0, 1))).toBe('-000001-01-01 00:00:00 UTC');
  });
});

describe('unitsValue', () => {
  it('is Number of the exact text without commas, for any raw amount', () => {
    let seed = 3;
    for (let i = 0; i < 5000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      const digits = String(seed).repeat(1 + (i % 4)).slice(0, 1 + (i % 25));
      const raw = (i % 7 === 0 ? '-' : '') + digits.replace(/^0+(?=\d)/, '');
      for (const d of [0, 1, 6, 9, 15, 18, 22, 23]) expect(unitsValue(raw, d)).toBe(Number(exactUnits(raw, d).replace(/,/g, '')));
    }
  });
});

describe('rawNumber', () => {
  it('is Number of the text, digits or not', () => {
    const odd = ['', '0', '-0', '007', '-5', '+5', ' 5', '5 ', '1e3', '0x10', '1.5', 'abc', '999999999999999', '9999999999999999', '9007199254740993', '123456789012345678901234567890', 'Infinity', '١٢'];
    for (const raw of odd) expect(Object.is(rawNumber(raw), Number(raw)), raw).toBe(true);
    let seed = 7;
    for (let i = 0; i < 5000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      const raw = String(seed).repeat(3).slice(0, 1 + (i % 20));
      expect(rawNumber(raw)).toBe(Number(raw));
    }
  });
});
