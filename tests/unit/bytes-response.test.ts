import { describe, expect, it } from 'vitest';
import { BytesResponse, FieldsHeaders, bytesOf, untouchedFieldsOf } from '../../src/server/bytes-response.ts';
import { replyResponse } from '../../src/server/http.ts';

/**
 * A BytesResponse reads as `new Response(bytes, init)` does — status, headers, body by every
 * method, clone — while the host can take its bytes as long as nothing asked for the body.
 */

const body = Buffer.from('{"apiVersion":"v1","é":"ü"}');
const init = { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8', ETag: '"abc"', 'Content-Length': String(body.length) } };

const fields = (r: Response) => [...r.headers];

describe('BytesResponse', () => {
  it('has the status, headers and body of the same Response made with the bytes', async () => {
    const a = new BytesResponse(body, init);
    const b = new Response(body, init);
    expect(a).toBeInstanceOf(Response);
    expect([a.status, a.statusText, a.ok]).toEqual([b.status, b.statusText, b.ok]);
    expect(fields(a)).toEqual(fields(b));
    expect(await a.text()).toBe(await b.text());
    expect(a.bodyUsed).toBe(true);
    await expect(a.text()).rejects.toThrow(TypeError);
  });

  it('reads its body by every method', async () => {
    expect(await new BytesResponse(body, init).json()).toEqual({ apiVersion: 'v1', é: 'ü' });
    expect(Buffer.from(await new BytesResponse(body, init).arrayBuffer()).equals(body)).toBe(true);
    expect(Buffer.from(await new BytesResponse(body, init).bytes()).equals(body)).toBe(true);
    expect(await (await new BytesResponse(body, init).blob()).text()).toBe(body.toString());
    const chunks: Uint8Array[] = [];
    for await (const c of new BytesResponse(body, init).body) chunks.push(c);
    expect(Buffer.concat(chunks).equals(body)).toBe(true);
  });

  it('gives its bytes to the host until something asks for the body', async () => {
    const a = new BytesResponse(body, init);
    expect(bytesOf(a)).toBe(body);
    void a.body;
    expect(bytesOf(a)).toBeNull();
    expect(bytesOf(new Response(body, init))).toBeNull();
  });

  it('clones into an independent response with the same headers; not once its body is read', async () => {
    const a = new BytesResponse(body, init);
    a.headers.append('Set-Cookie', 'a=1');
    a.headers.append('Set-Cookie', 'b=2');
    const c = a.clone();
    expect(fields(c)).toEqual(fields(a));
    expect(c.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await c.text()).toBe(await a.text());
    expect(() => a.clone()).toThrow(TypeError);
  });

  it('refuses a body on a null-body status, as Response does', () => {
    expect(() => new Response(body, { status: 304 })).toThrow(TypeError);
    expect(() => new BytesResponse(body, { status: 304 })).toThrow(TypeError);
  });

  it('is what replyResponse gives for a body, with Content-Length; a 304 has no body', async () => {
    const r = replyResponse({ status: 200, headers: { ETag: '"x"' }, body: 'ü' });
    expect(r).toBeInstanceOf(BytesResponse);
    expect(r.headers.get('Content-Length')).toBe('2');
    expect(await r.text()).toBe('ü');
    expect(bytesOf(replyResponse({ status: 304, headers: {}, body: '' }))).toBeNull();
  });
});

/**
 * FieldsHeaders reads as a Headers made from the same record, by every method, before and after a
 * change; the host takes its list only while nothing changed or listed it.
 */
describe('FieldsHeaders', () => {
  const record = { 'Content-Type': ' application/json ', etag: '"a"', ETAG: '"b"', 'X-Archive-Generation': '7', 'access-control-allow-origin': '*' };

  it('answers get and has as Headers does, names in any case, fields of one name joined, values trimmed', () => {
    const a = new FieldsHeaders(record);
    const b = new Headers(record);
    for (const n of ['content-type', 'CONTENT-TYPE', 'ETag', 'etag', 'x-archive-generation', 'Access-Control-Allow-Origin', 'missing']) {
      expect(a.get(n)).toBe(b.get(n));
      expect(a.has(n)).toBe(b.has(n));
    }
    expect(a.untouchedFields).toEqual(Object.fromEntries([...b]));
    expect(Object.keys(a.untouchedFields!)).toEqual([...b.keys()]);
    for (const n of ['constructor', '__proto__', 'toString']) expect(a.get(n)).toBeNull();
    const odd = JSON.parse('{"__proto__":"x","constructor":"y","a":"1"}') as Record<string, string>;
    // compared with the fields appended one by one (as a BytesResponse made them before): undici's
    // record conversion (`new Headers(odd)`) loses a member named __proto__
    const appended = new Headers();
    for (const n in odd) appended.append(n, odd[n]!);
    expect([...new FieldsHeaders(odd)]).toEqual([...appended]);
    expect(new FieldsHeaders(odd).get('__proto__')).toBe('x');
    expect(() => a.get('bad name')).toThrow(TypeError);
    expect(() => b.get('bad name')).toThrow(TypeError);
  });

  it('lists, changes and copies as Headers does; once listed or changed the host no longer takes its list', () => {
    const a = new FieldsHeaders(record);
    expect([...a]).toEqual([...new Headers(record)]);
    expect(a.untouchedFields).toBeNull();
    const c = new FieldsHeaders(record);
    const d = new Headers(record);
    c.set('ETag', '"c"');
    d.set('ETag', '"c"');
    c.append('Vary', 'Origin');
    d.append('Vary', 'Origin');
    c.delete('x-archive-generation');
    d.delete('x-archive-generation');
    expect([...c.entries()]).toEqual([...d.entries()]);
    expect([...c.keys()]).toEqual([...d.keys()]);
    expect([...c.values()]).toEqual([...d.values()]);
    expect(c.get('etag')).toBe('"c"');
    expect([...new Headers(new FieldsHeaders(record))]).toEqual([...new Headers(record)]);
    expect([...new Response(null, { headers: new FieldsHeaders(record) }).headers]).toEqual([...new Headers(record)]);
  });

  it('refuses what Headers refuses: a bad name, a value with CR, LF or NUL', () => {
    expect(() => new Headers({ 'a b': 'x' })).toThrow(TypeError);
    expect(() => new FieldsHeaders({ 'a b': 'x' })).toThrow(TypeError);
    for (const v of ['a\r\nb: c', 'a\nb', 'a\0b']) {
      expect(() => new Headers({ x: v })).toThrow(TypeError);
      expect(() => new FieldsHeaders({ x: v })).toThrow(TypeError);
    }
  });

  it('keeps Set-Cookie fields apart, as Headers does', () => {
    const a = new FieldsHeaders({ 'Set-Cookie': 'a=1', 'set-cookie': 'b=2' });
    expect(a.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(a.untouchedFields).toBeNull();
  });

  it('is the headers of a BytesResponse made from a record: the host takes its list; a HEAD copy keeps the fields', async () => {
    const r = new BytesResponse(body, init);
    expect(r.headers).toBeInstanceOf(FieldsHeaders);
    expect(r.headers.get('etag')).toBe('"abc"');
    expect(untouchedFieldsOf(r)).toEqual(Object.fromEntries(new Headers(init.headers)));
    expect([...new Response(null, r).headers]).toEqual([...new Headers(init.headers)]);
    expect(untouchedFieldsOf(r)).toBeNull();
    expect(untouchedFieldsOf(new Response(body, init))).toBeNull();
    const made = new BytesResponse(body, { status: 200, headers: new Headers(init.headers) });
    expect(untouchedFieldsOf(made)).toBeNull();
    expect([...made.headers]).toEqual([...new Headers(init.headers)]);
  });
});
