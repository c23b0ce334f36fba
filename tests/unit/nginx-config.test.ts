/**
 * The static tier's nginx configuration (collector/cluster/nginx-config.ts) as text: bad options are
 * refused by name, and the rules the tier promises are in it (tests/integration/static-tier.test.ts
 * runs it in nginx).
 */
import { describe, expect, it } from 'vitest';
import { nginxConfig } from '../../collector/cluster/nginx-config.ts';
import { CACHE_LISTS, CACHE_SETTLED } from '../../src/cache-rules.ts';

const ok = { siteDir: '/srv/site', nodes: ['10.0.0.2:4321', '[::1]:4322'], listen: '80', runDir: '/var/lib/lpa-nginx' };

describe('nginx configuration', () => {
  it('refuses options that cannot go into a configuration, naming them', () => {
    expect(() => nginxConfig({ ...ok, nodes: [] })).toThrow(/nodes: at least one/);
    expect(() => nginxConfig({ ...ok, nodes: ['10.0.0.2'] })).toThrow(/not host:port/);
    expect(() => nginxConfig({ ...ok, nodes: ['10.0.0.2:99999'] })).toThrow(/port must be/);
    expect(() => nginxConfig({ ...ok, nodes: ['a;b:80'] })).toThrow(/not host:port/);
    expect(() => nginxConfig({ ...ok, siteDir: '/srv/site; include /etc/passwd' })).toThrow(/siteDir/);
    expect(() => nginxConfig({ ...ok, runDir: '/var/$x' })).toThrow(/runDir/);
    expect(() => nginxConfig({ ...ok, listen: 'eighty' })).toThrow(/listen/);
    expect(() => nginxConfig({ ...ok, workers: 0 })).toThrow(/workers/);
  });

  it('names every node, retries only idempotent failures on the next, passes error bodies, and uses the shared cache rules', () => {
    const text = nginxConfig(ok);
    expect(text).toContain('server 10.0.0.2:4321 max_fails=1 fail_timeout=5s;');
    expect(text).toContain('server [::1]:4322 max_fails=1 fail_timeout=5s;');
    expect(text).toContain('proxy_next_upstream error timeout;'); // a node's 503 is its answer, not a failure to retry (a cluster review: 502 for every route)
    expect(text).not.toMatch(/^[^#\n]*non_idempotent/m); // a directive, not the comment saying it is absent
    expect(text).toContain('proxy_next_upstream_tries 2;');
    expect(text).toContain('proxy_intercept_errors off;');
    expect(text).toContain(`add_header Cache-Control "${CACHE_SETTLED}";`);
    expect(text).toContain(`add_header Cache-Control "${CACHE_LISTS}";`);
    expect(text).toContain('root /srv/site;');
    expect(text).toMatch(/pid \/var\/lib\/lpa-nginx\/nginx\.pid;/);
  });
});
