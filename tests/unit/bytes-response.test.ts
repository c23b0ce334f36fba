import { describe, expect, it } from 'vitest';
import { BytesResponse, bytesOf } from '../../src/server/bytes-response.ts';
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
