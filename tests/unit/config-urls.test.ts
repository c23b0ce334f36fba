/**
 * The chain endpoints are checked at start (an operator audit): `SOLANA_RPC_URL=localhost:8899`
 * (no scheme) and `ftp://…` parsed as URLs, then failed some seconds into the run with "Protocol
 * 'localhost:' not supported" after public.db was created; `SOLANA_WS_URL=http://…` reconnected
 * forever. Now each is a configuration error naming the setting and the form it takes.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

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
