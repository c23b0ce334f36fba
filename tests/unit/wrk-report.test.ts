import { describe, expect, it } from 'vitest';
import { parseWrk, pathsScript } from '../../bench/wrk.ts';

// wrk 4.1.0's report (Debian bookworm), as printed with --latency
const REPORT = `Running 8s test @ http://127.0.0.1:41233/t/x.html
  2 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.52ms    2.10ms  41.20ms   91.02%
    Req/Sec    18.45k     1.21k   21.03k    70.00%
  Latency Distribution
     50%  812.00us
     75%    1.61ms
     90%    3.42ms
     99%   10.95ms
  293714 requests in 8.00s, 7.67GB read
  Socket errors: connect 0, read 2, write 0, timeout 3
  Non-2xx or 3xx responses: 7
Requests/sec:  36712.18
Transfer/sec:      0.96GB
`;

describe('parseWrk (bench/wrk.ts)', () => {
  it('reads the rate, the count, the 99th percentile in ms and the failures', () => {
    expect(parseWrk(REPORT)).toEqual({ rps: 36712.18, p99Ms: 10.95, p50Ms: 0.812, requests: 293714, non2xx: 7, errors: 5 });
  });
  it('converts a 99th percentile given in us or s', () => {
    expect(parseWrk(REPORT.replace('99%   10.95ms', '99%  950.00us')).p99Ms).toBeCloseTo(0.95, 9);
    expect(parseWrk(REPORT.replace('99%   10.95ms', '99%    1.20s')).p99Ms).toBe(1200);
  });
  it('counts no failure when wrk prints none', () => {
    const clean = REPORT.replace(/ {2}Socket errors.*\n/, '').replace(/ {2}Non-2xx.*\n/, '');
    expect(parseWrk(clean)).toMatchObject({ non2xx: 0, errors: 0 });
  });
  it('refuses a report without its figures', () => {
    expect(() => parseWrk('unable to connect to 127.0.0.1:9 Connection refused')).toThrow(/not understood/);
  });
});

describe('pathsScript (bench/wrk.ts)', () => {
  it('lists every path as a Lua long string, one that holds "]]" with a longer bracket, and sends them in turn', () => {
    const script = pathsScript(['/a?q=x', '/b]]c', '/d]=]e]]']);
    expect(script).toContain('[[/a?q=x]]');
    expect(script).toContain('[=[/b]]c]=]');
    expect(script).toContain('[==[/d]=]e]]]==]');
    expect(script).toMatch(/function request\(\) i = i \+ 1; return wrk\.format\(nil, paths\[\(i % n\) \+ 1\]\) end/);
  });
});
