/**
 * A 401 for a key sent where the API does not read one says where it was and how to send it
 * (a walkthrough found `Authorization: lpa_…` and `X-API-Key: lpa_…` answered "the request carried
 * none"). The key is never repeated in the answer.
 */
import { describe, expect, it } from 'vitest';
import { keyRefusal } from '../../src/server/quota.ts';

const KEY = 'lpa_0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
const ask = (headers: Record<string, string>, query = '') => new Request(`http://archive.example/api/v1/token/x${query}`, { headers });

async function message(r: Request, status: 'missing_key' | 'invalid_key' = 'missing_key'): Promise<{ status: number; error: string; message: string; cls: string }> {
  const res = keyRefusal(status, r, 0);
  const body = await res.json();
  return { status: res.status, error: body.error, message: body.message, cls: body.finding.class };
}

describe('keyRefusal: where a misplaced key was sent', () => {
  it.each([
    [{ Authorization: KEY }, '', 'the Authorization field without the "Bearer " scheme'],
    [{ Authorization: 'Bearer' }, '', 'says "Bearer" but no key follows it'],
    [{ Authorization: 'Bearer   ' }, '', 'says "Bearer" but no key follows it'],
    [{ Authorization: `Bearer: ${KEY}` }, '', 'after "Bearer", but not as one key'],
    [{ Authorization: `Bearer ${KEY} ${KEY}` }, '', 'after "Bearer", but not as one key'],
    [{ 'X-API-Key': KEY }, '', 'an X-API-Key field'],
    [{}, `?api_key=${KEY}`, 'the query parameter "api_key"'],
  ])('%j %s → names it, says how to send it, never repeats the key', async (headers, query, where) => {
    const m = await message(ask(headers as Record<string, string>, query));
    expect(m).toMatchObject({ status: 401, error: 'missing_key', cls: 'UNKNOWN' });
    expect(m.message).toContain(where);
    expect(m.message).toContain('Authorization: Bearer <API_KEY>');
    expect(m.message).not.toContain(KEY);
  });

  it('no key anywhere: the usual message; an invalid key: its own', async () => {
    expect((await message(ask({}))).message).toMatch(/carried none/);
    expect((await message(ask({ Authorization: `Bearer ${KEY}` }), 'invalid_key')).error).toBe('invalid_key');
  });
});
