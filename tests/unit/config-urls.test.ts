/**
 * The chain endpoints are checked at start (an operator audit): `SOLANA_RPC_URL=localhost:8899`
 * (no scheme) and `ftp://…` parsed as URLs, then failed some seconds into the run with "Protocol
 * 'localhost:' not supported" after public.db was created; `SOLANA_WS_URL=http://…` reconnected
 * forever. Now each is a configuration error naming the setting and the form it takes.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const refusal = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return null;
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
};

describe('SOLANA_RPC_URL and SOLANA_WS_URL', () => {
  it.each([['localhost:18899'], ['ftp://rpc.example'], ['ws://rpc.example']])('SOLANA_RPC_URL=%s is refused', (url) => {
    expect(refusal({ SOLANA_RPC_URL: url })).toMatch(/SOLANA_RPC_URL: must be an http:\/\/ or https:\/\/ URL/);
  });

  it.each([['http://rpc.example'], ['https://rpc.example/ws']])('SOLANA_WS_URL=%s is refused', (url) => {
    expect(refusal({ SOLANA_WS_URL: url })).toMatch(/SOLANA_WS_URL: must be a ws:\/\/ or wss:\/\/ URL/);
  });

  it('http(s) and ws(s) URLs are taken, with a provider key in the path or query', () => {
    expect(refusal({ SOLANA_RPC_URL: 'https://rpc.example/v2/KEY?api-key=K', SOLANA_WS_URL: 'wss://rpc.example/ws?api-key=K' })).toBeNull();
    expect(loadConfig({ SOLANA_RPC_URL: 'http://127.0.0.1:8899' }).wsUrl).toBe('ws://127.0.0.1:8899');
  });
});

describe('configuration errors an operator can act on', () => {
  it('names the value given beside the problem, never a secret\'s', () => {
    expect(() => loadConfig({ COLLECT_BATCH: 'abc' })).toThrow(/COLLECT_BATCH: .* \(it is "abc"\)/);
    let message = '';
    try {
      loadConfig({ SOLANA_RPC_URL: 'not a url with apikey-123' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/SOLANA_RPC_URL/);
    expect(message).not.toContain('apikey-123');
  });
  it('a DATA_DIR that is a file: one line saying so (each store failed with EEXIST on every request)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'lpa-cfg-')), 'afile');
    writeFileSync(file, 'x');
    expect(() => loadConfig({ DATA_DIR: file })).toThrow(`DATA_DIR: ${file} exists and is not a folder (a file?)`);
    expect(loadConfig({ DATA_DIR: join(file, '..', 'new') }).dataDir).toBe(join(file, '..', 'new'));
  });
});
