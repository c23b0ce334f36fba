import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ERROR_CODES } from '../../src/server/errors.ts';
import { OPERATIONS, openApiDocument, publishedSchema } from '../../src/server/openapi.ts';
import { ROUTES, ROUTE_LIST, allowOf } from '../../src/server/routes.ts';
import { violationsOf } from '../helpers/conform.ts';

const doc = openApiDocument('https://archive.example') as Record<string, any>;

/** An example path of an OpenAPI path template (each parameter a plausible value). */
const example = (path: string) => path.replace('{mint}', 'CWiTGbCiDd8BKtNYNE2boT9fJGFG2MU53Uf6HQk4pump').replace('{address}', '5htGpHK2oV9g2BcDqLdRBqjCLdy8mc3fsESfR5DU73eM').replace('{name}', 'launch.json').replace('{file}', 'x.html');

describe('the OpenAPI document (generated from the zod schemas, the route table and the error vocabulary)', () => {
  it('validates as OpenAPI 3.1 (@seriousme/openapi-schema-validator)', async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('uses only formats JSON Schema 2020-12 or OpenAPI define (zod wrote "starts_with" for the rotated key, which validators warn about), keeping the pattern', () => {
    const known = new Set(['date-time', 'date', 'time', 'duration', 'email', 'idn-email', 'hostname', 'idn-hostname', 'ipv4', 'ipv6', 'uri', 'uri-reference', 'iri', 'iri-reference', 'uuid', 'uri-template', 'json-pointer', 'relative-json-pointer', 'regex', 'int32', 'int64', 'float', 'double', 'password']);
    const formats: string[] = [];
    const patterns: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        if (typeof o.format === 'string') formats.push(o.format);
        if (typeof o.pattern === 'string') patterns.push(o.pattern);
        Object.values(o).forEach(walk);
      }
    };
    walk(doc);
    for (const name of ['launch.json', 'wallet.json']) walk(publishedSchema('https://archive.example', name));
    expect(formats.filter((f) => !known.has(f))).toEqual([]);
    expect(patterns).toContain('^lpa_.*'); // the rotated key's prefix is still said
  });

  it('names every route of the route table with exactly its methods, and nothing else', () => {
    const routes = ROUTE_LIST.filter((r) => r.methods.length > 0);
    for (const r of routes) {
      const ops = OPERATIONS.filter((o) => o.route === r);
      expect(ops.length, r.name).toBeGreaterThan(0);
      for (const o of ops) expect(r.pattern.test(example(o.path)), `${o.path} ~ ${r.pattern}`).toBe(true);
      const declared = Object.keys(doc.paths[ops[0]!.path]).map((m) => m.toUpperCase()).sort();
      expect(declared, r.name).toEqual([...r.methods].sort());
    }
    expect(new Set(OPERATIONS.map((o) => o.route)).size).toBe(routes.length);
  });

  it('names every error code, and the rate-limit, Retry-After and ETag headers', () => {
    const text = JSON.stringify(doc);
    for (const code of ERROR_CODES) expect(text, code).toContain(code);
    for (const h of ['RateLimit', 'RateLimit-Policy', 'Retry-After', 'ETag']) expect(Object.keys(doc.components.headers)).toContain(h);
    const token = doc.paths['/api/v1/token/{mint}'].get;
    expect(Object.keys(token.responses).sort()).toEqual(['200', '202', '304', '400', '401', '404', '408', '429', '431', '500', '503']);
    expect(token.responses['429'].content['application/json'].schema.allOf[1].properties.error.enum).toEqual(['quota_exceeded', 'rate_limited']);
    expect(Object.keys(token.responses['200'].headers)).toEqual(expect.arrayContaining(['ETag', 'RateLimit', 'RateLimit-Policy']));
    // after the key check and the count every answer carries the rate-limit fields (the server sends them); before it none does
    for (const status of ['304', '404', '429', '503']) expect(Object.keys(token.responses[status].headers), status).toEqual(expect.arrayContaining(['RateLimit', 'RateLimit-Policy']));
    for (const status of ['400', '401', '408', '431']) expect(Object.keys(token.responses[status].headers ?? {}), status).not.toContain('RateLimit');
    expect(token.security).toEqual([{ bearer: [] }]);
    // an operation's own words for a code: the stream's busy is a server stopping, not a mint without a record
    expect(doc.paths['/api/v1/stream'].get.responses['503'].description).toContain('shutting down');
    expect(doc.paths['/api/v1/stream'].get.responses['503'].description).not.toContain('for this mint');
    expect(token.responses['503'].description).toContain('for this mint');
  });

  it('publishes standalone JSON Schemas of the launch document and the wallet record', () => {
    const launch = publishedSchema('https://archive.example', 'launch.json')!;
    expect(launch.$id).toBe('https://archive.example/api/v1/schemas/launch.json');
    expect(launch.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(JSON.stringify(launch)).not.toContain('#/components/');
    expect(publishedSchema('https://archive.example', 'wallet.json')!.title).toBe('WalletData');
    expect(publishedSchema('https://archive.example', 'nope.json')).toBeNull();
    expect(publishedSchema('https://archive.example', 'constructor')).toBeNull();
  });

  it('served open (a member added by a later release validates), checked closed (the suite refuses a member not described): the same document otherwise', () => {
    const closed = openApiDocument('https://archive.example', { closed: true });
    const text = JSON.stringify(doc);
    expect(text).not.toContain('"additionalProperties":false');
    expect((JSON.stringify(closed).match(/"additionalProperties":false/g) ?? []).length).toBeGreaterThan(50);
    // the maps keep their value schemas
    expect((text.match(/"additionalProperties":\{/g) ?? []).length).toBe((JSON.stringify(closed).match(/"additionalProperties":\{/g) ?? []).length);
    // without the closing keywords the two are equal
    const strip = (v: unknown): unknown => (Array.isArray(v) ? v.map(strip) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([k, x]) => !(k === 'additionalProperties' && x === false)).map(([k, x]) => [k, strip(x)])) : v);
    expect(doc).toEqual(strip(closed));
    // what each accepts of a served document: tests/integration/api-builders.test.ts
  });
});

describe('the conformance check bites', () => {
  const h = (o: Record<string, string> = {}) => new Headers({ 'Content-Type': 'application/json', ...o });
  const error = (code: string) => JSON.stringify({ apiVersion: 'v1', error: code, message: 'm', finding: { class: 'UNKNOWN', label: 'l', why: 'w' }, generatedAt: { ms: 0, iso: '1970-01-01T00:00:00.000Z' } });

  it('accepts a conforming error, refuses an undeclared status, a code not of that status, an extra field, a missing header', () => {
    expect(violationsOf('GET', '/api/v1/token/x', 401, h({ 'WWW-Authenticate': 'Bearer realm="api"' }), error('missing_key'))).toEqual([]);
    expect(violationsOf('GET', '/api/v1/token/x', 401, h(), error('missing_key'))[0]).toContain('WWW-Authenticate missing');
    expect(violationsOf('GET', '/api/v1/status', 401, h(), error('missing_key'))[0]).toContain('status not declared');
    const challenge = h({ 'WWW-Authenticate': 'Bearer realm="api"' });
    expect(violationsOf('GET', '/api/v1/token/x', 401, challenge, error('quota_exceeded'))[0]).toContain('does not match');
    const extra = JSON.stringify({ ...JSON.parse(error('missing_key')), surprise: 1 });
    expect(violationsOf('GET', '/api/v1/token/x', 401, challenge, extra)[0]).toContain('does not match');
    expect(violationsOf('GET', '/api/v1/token/x', 429, h({ RateLimit: '"daily";r=0;t=5' }), error('quota_exceeded'))[0]).toContain('Retry-After');
  });

  it('wants 405 with Allow for an undeclared method and 404 not_found for an unnamed API path', () => {
    expect(violationsOf('PUT', '/api/v1/status', 405, h({ Allow: allowOf(ROUTES.status) }), error('method_not_allowed'))).toEqual([]);
    expect(violationsOf('PUT', '/api/v1/status', 405, h(), error('method_not_allowed'))[0]).toContain('without Allow');
    expect(violationsOf('PUT', '/api/v1/status', 200, h(), '{}')[0]).toContain('405');
    expect(violationsOf('GET', '/api/v1/nope', 404, h(), error('not_found'))).toEqual([]);
    expect(violationsOf('GET', '/api/v1/nope', 200, h(), '{}')[0]).toContain('404');
  });
});
