import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

/**
 * `npm pack` of client/ yields an installable package (issue 25): pack it (prepack builds dist/ with
 * tsc), install the tarball into an empty folder offline (a local tarball needs no registry), and
 * import it with node. No network is used.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const tmp = mkdtempSync(join(tmpdir(), 'lpa-client-pack-'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const quiet = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the client as a package', () => {
  it('npm pack, then npm install of the tarball in an empty folder, then import works; it ships built JS and types, no TS source', async () => {
    await run(npm, ['pack', '--offline', '--pack-destination', tmp], { cwd: join(ROOT, 'client'), env: quiet });
    const tgz = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    expect(tgz).toMatch(/^lpa-client-.*\.tgz$/);
    const app = join(tmp, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    await run(npm, ['install', '--offline', '--no-audit', '--no-fund', join(tmp, tgz!)], { cwd: app, env: quiet });
    const installed = join(app, 'node_modules/@lpa/client');
    expect(existsSync(join(installed, 'dist/index.js'))).toBe(true);
    expect(existsSync(join(installed, 'dist/index.d.ts'))).toBe(true);
    expect(existsSync(join(installed, 'src'))).toBe(false);
    const script = "import('@lpa/client').then((m) => { const c = new m.ArchiveClient({ baseUrl: 'http://127.0.0.1:1', key: 'lpa_x' }); console.log(JSON.stringify({ exports: Object.keys(m).sort(), stream: typeof c.stream, feedError: new m.FeedNotInPlanError(403, { error: 'feed_not_in_plan', message: 'm' }, null) instanceof m.ArchiveError })); })";
    const { stdout } = await run(process.execPath, ['-e', script], { cwd: app });
    expect(JSON.parse(stdout.trim())).toEqual({ exports: ['ArchiveClient', 'ArchiveError', 'DocumentMismatchError', 'FeedNotInPlanError', 'RebuildPendingError', 'UnexpectedAnswerError'], stream: 'function', feedError: true });
    // its types under the strictest settings a new project gets from `tsc --init` (TypeScript 5.9: exactOptionalPropertyTypes,
    // noUncheckedIndexedAccess): options passed as possibly undefined, as the README's examples do (an API reviewer's TS2379)
    writeFileSync(
      join(app, 'check.ts'),
      [
        "import { ArchiveClient } from '@lpa/client';",
        "const archive = new ArchiveClient({ baseUrl: 'https://archive.example', key: 'lpa_x', maxWaitMs: undefined });",
        'let cursor: string | undefined;',
        'let lastId: number | undefined;',
        'const signal: AbortSignal | undefined = undefined;',
        'export async function mirror(): Promise<void> {',
        '  for await (const page of archive.sync({ cursor })) cursor = page.next ?? undefined;',
        '  for await (const e of archive.stream({ after: lastId, signal })) lastId = e.id;',
        "  await archive.download('record.db', { ifNoneMatch: undefined, start: undefined });",
        '}',
      ].join('\n'),
    );
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, module: 'nodenext', target: 'es2022', lib: ['es2023', 'dom'], types: [], noEmit: true, skipLibCheck: false }, files: ['check.ts'] }));
    await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(app, 'tsconfig.json')], { cwd: app });
  }, 120_000);
});
