import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { CONFIG_KEYS } from '../../src/config.ts';
import { ERROR_CODES } from '../../src/server/errors.ts';
import { METHOD_VERSION } from '../../src/core/record/classify.ts';

/** The docs are part of the product: every setting and every error code is documented. */
const ROOT = resolve(import.meta.dirname, '../..');
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');

describe('documentation covers the code', () => {
  const readme = read('README.md');
  const configTable = readme.slice(readme.indexOf('| setting |'), readme.indexOf('## API summary'));
  const envExample = read('.env.example');
  const api = read('docs/api.md');

  it.each(CONFIG_KEYS.map((k) => [k]))('setting %s has a row in README "Configuration" and a line in .env.example', (key) => {
    expect(configTable).toContain(`| \`${key}\` |`);
    expect(envExample).toMatch(new RegExp(`^#? ?${key}=`, 'm'));
  });

  it('docs/api.md and docs/methodology.md name the current method version (api.md said markers-v10 under markers-v11)', () => {
    expect(api).toContain(`- \`methodVersion\`: \`${METHOD_VERSION}\``);
    expect(read('docs/methodology.md').split('\n')[0]).toBe(`# Methodology — \`${METHOD_VERSION}\``);
  });

  it('.env.example reads the same in a shell (the cron line sources it) as its lines say, commented ones too once uncommented', () => {
    // LICENSE_TEXT was unquoted: `. ./.env` ran "for" and "no" as commands and left it empty
    // (a value in <angle brackets> describes one, it is not one)
    const lines = envExample.split('\n').map((l) => l.replace(/^# ?(?=[A-Z][A-Z0-9_]*=)/, '')).filter((l) => /^[A-Z][A-Z0-9_]*=(?!<)/.test(l));
    const file = join(mkdtempSync(join(tmpdir(), 'lpa-env-')), '.env');
    writeFileSync(file, lines.join('\n'));
    const r = spawnSync('sh', ['-c', `set -a && . '${file}' && set +a && env -0`], { env: {}, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const env = new Map(r.stdout.split('\0').filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
    for (const line of lines) {
      const [key, raw] = [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)];
      expect(env.get(key), key).toBe(raw.replace(/^"(.*)"$/, '$1'));
    }
    expect(env.get('LICENSE_TEXT')).toBe('Licensed for use in your own product; no bulk redistribution.');
  });

  it.each(ERROR_CODES.map((c) => [c]))('error code %s is documented in docs/api.md', (code) => {
    expect(api).toContain(`\`${code}\``);
  });
});
