/** Logs for people (issue 24 item 3): folded warnings, redacted URLs, settings in every command's --help. */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createLogger, redactUrl, redactUrlsIn, settleFolds } from '../../src/log.ts';
import { COMMAND_SETTINGS, settingsHelp } from '../../collector/settings-help.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function captured(foldMs: number) {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger('info', 'test', { format: 'json', foldMs, destination: { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) } });
  return { log, lines };
}

describe('folded warnings', () => {
  it('many identical warnings in a short time: the first line, then one count line', async () => {
    const { log, lines } = captured(300);
    for (let i = 0; i < 85; i++) log.warn({ attempt: i }, 'RPC call retried');
    log.warn('another warning');
    log.info('info is never folded');
    log.info('info is never folded');
    expect(lines.map((l) => l.msg)).toEqual(['RPC call retried', 'another warning', 'info is never folded', 'info is never folded']);
    await sleep(450);
    const counts = lines.filter((l) => l.folded === true);
    expect(counts).toHaveLength(1);
    expect(counts[0]).toMatchObject({ level: 40, repeated: 84 });
    expect(String(counts[0]!.msg)).toMatch(/^RPC call retried \(repeated 84 times/);
    await sleep(400); // nothing more repeated: no further count line
    expect(lines.filter((l) => l.folded === true)).toHaveLength(1);
  });

  it('a trouble that ended: its count is written before the line saying so, never after it, and a new trouble is written at once', async () => {
    const { log, lines } = captured(300);
    for (let i = 0; i < 5; i++) log.warn('cannot reach http://rpc: set SOLANA_RPC_URL');
    settleFolds(log);
    log.info('RPC reachable again');
    log.warn('cannot reach http://rpc: set SOLANA_RPC_URL'); // a new outage, within the window
    expect(lines.map((l) => l.msg)).toEqual([
      'cannot reach http://rpc: set SOLANA_RPC_URL',
      'cannot reach http://rpc: set SOLANA_RPC_URL (repeated 4 times in the last 0 s)',
      'RPC reachable again',
      'cannot reach http://rpc: set SOLANA_RPC_URL',
    ]);
    await sleep(450); // the new one was not repeated: no count line after the recovery
    expect(lines).toHaveLength(4);
  });

  it('pretty format writes human lines (pino-pretty), not JSON', async () => {
    const { Writable } = await import('node:stream');
    let out = '';
    const destination = new Writable({ write(chunk, _enc, cb) { out += String(chunk); cb(); } });
    createLogger('info', 'collector', { format: 'pretty', foldMs: 0, destination }).info('RPC http://127.0.0.1:8899: reachable, slot 12');
    await sleep(50);
    expect(out).toMatch(/INFO.*\(collector\): RPC http:\/\/127\.0\.0\.1:8899: reachable, slot 12/);
    expect(() => JSON.parse(out)).toThrow();
  });
});

describe('redactUrl', () => {
  it('keeps scheme://host[:port] only', () => {
    expect(redactUrl('https://mainnet.helius-rpc.com/?api-key=secret')).toBe('https://mainnet.helius-rpc.com');
    expect(redactUrl('http://127.0.0.1:8899/path/key')).toBe('http://127.0.0.1:8899');
    expect(redactUrl('not a url')).toBe('(not a URL)');
    expect(redactUrlsIn('request to https://rpc.example/k/abc?x=1 failed')).toBe('request to https://rpc.example failed');
  });
});

describe('--help lists the settings a command reads', () => {
  it.each(Object.keys(COMMAND_SETTINGS).map((c) => [c]))('%s', (command) => {
    const text = settingsHelp(command);
    for (const key of COMMAND_SETTINGS[command]!) expect(text).toContain(`  ${key} (default `);
  });

  it('lpa start, which runs the collector and the server, lists every setting of README\'s table (8 were missing), in plain text (no markdown links)', async () => {
    const { readFileSync } = await import('node:fs');
    const documented = [...readFileSync(join(ROOT, 'README.md'), 'utf8').matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]!);
    expect(documented.length).toBeGreaterThan(50);
    expect(documented.filter((k) => !COMMAND_SETTINGS.start!.includes(k as never))).toEqual([]);
    for (const command of Object.keys(COMMAND_SETTINGS)) expect(settingsHelp(command)).not.toMatch(/\]\(|\*\*|`/);
  });

  it('lpa collect --help names COLLECT_START and SOLANA_RPC_URL', () => {
    const out = execFileSync(process.execPath, [join(ROOT, 'bin/lpa.mjs'), 'collect', '--help'], { encoding: 'utf8' });
    expect(out).toContain('COLLECT_START (default latest)');
    expect(out).toContain('SOLANA_RPC_URL (default https://api.mainnet-beta.solana.com)');
  });
});
