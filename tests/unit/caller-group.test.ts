import { describe, expect, it } from 'vitest';
import { callerAddress, callerGroup } from '../../src/server/rebuilds.ts';

describe('callerGroup: the caller an address counts as for the per-caller limits', () => {
  it('keeps a dotted IPv4 address, and reads an IPv4-mapped IPv6 address as its IPv4', () => {
    expect(callerGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(callerGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(callerGroup('::ffff:cb00:7107')).toBe('203.0.113.7'); // the same, in hex
  });

  it('counts an IPv6 address as its /64 network, written the same way whatever the address inside it', () => {
    expect(callerGroup('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(callerGroup('2001:0DB8:0001:0002::1')).toBe('2001:db8:1:2::/64');
    expect(callerGroup('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(callerGroup('fe80::1%eth0')).toBe('fe80::/64');
    expect(callerGroup('::1')).toBe('::1');
  });

  it('returns what is not an address as it is (no guess from loose IPv4 forms)', () => {
    for (const s of ['unknown', '1.2.3', '0x7f.1', '[2001:db8::1]:80', '203.0.113.7:443', '']) expect(callerGroup(s)).toBe(s);
  });

  it('groups the address callerAddress picks: the socket, or the right-most untrusted X-Forwarded-For hop', () => {
    const req = (xff?: string) => new Request('http://x/', { headers: xff ? { 'X-Forwarded-For': xff } : {} });
    expect(callerAddress(req(), '2001:db8:9:9::5', '')).toBe('2001:db8:9:9::/64');
    expect(callerAddress(req('2001:db8:9:9::5'), '2001:db8:9:9::6', '')).toBe('2001:db8:9:9::/64'); // socket not trusted: the header is ignored
    expect(callerAddress(req('198.51.100.4, 2001:db8:5:5::77'), '::ffff:127.0.0.1', '::ffff:127.0.0.1')).toBe('2001:db8:5:5::/64');
    // trusted proxies are matched as written, before grouping: a trusted IPv6 proxy is passed over, not its /64
    expect(callerAddress(req('198.51.100.4, 2001:db8:5:5::77'), '::ffff:127.0.0.1', '::ffff:127.0.0.1,2001:db8:5:5::77')).toBe('198.51.100.4');
  });
});
