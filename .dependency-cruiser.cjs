/**
 * The import rules of the codebase (docs/architecture.md "Import rules"), checked in `npm test` by
 * tests/unit/architecture.test.ts through dependency-cruiser's API; `npx depcruise src collector
 * devchain bench bin` prints the same check. Type-only imports count (tsPreCompilationDeps).
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circles: a module never reaches itself through its imports (type-only imports included).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-is-pure',
      severity: 'error',
      comment:
        'src/core is the pure domain (decode, record, classify, coverage): no file system, network, process, SQLite, ' +
        'Astro, logger, configuration, RPC client, nor any other layer of the archive.',
      from: { path: '^src/core/' },
      to: {
        path: [
          '^(node:)?(fs|fs/promises|net|http|https|http2|child_process|dgram|dns|tls|worker_threads|cluster|readline|os)$',
          '^node_modules/(better-sqlite3|astro|@astrojs|ws|pino|pino-pretty|p-queue|p-retry|stripe|hono|commander|@solana/kit)/',
          '^src/(db|chain|server|pages|render|ingest|facts|access)/',
          '^src/(config|log|downloads)\\.ts$',
          '^(collector|devchain|bench|tests|bin)/',
        ],
      },
    },
    {
      name: 'src-not-processes',
      severity: 'error',
      comment: 'src/ (the server, and the ingest logic both processes share) never imports the collector process nor the development chain.',
      from: { path: '^src/' },
      to: { path: '^(collector|devchain|bench|tests|bin)/' },
    },
    {
      name: 'shared-not-server',
      severity: 'error',
      comment: 'What both processes import (src/ingest, src/facts, src/render) never imports the web process (src/server, src/pages).',
      from: { path: '^src/(ingest|facts|render)/' },
      to: { path: '^src/(server|pages)/' },
    },
    {
      name: 'collector-not-server',
      severity: 'error',
      comment:
        'The collector never imports the web process (src/server, src/pages). API keys, which the operator CLI (`lpa keys`, the demo) ' +
        'creates and the server checks, live in src/access/, which both may import.',
      from: { path: '^collector/' },
      to: { path: '^src/(server|pages)/' },
    },
    {
      name: 'access-not-server',
      severity: 'error',
      comment: 'src/access (API keys and the quota day) is shared by both processes: it never imports the web process.',
      from: { path: '^src/access/' },
      to: { path: '^src/(server|pages)/' },
    },
    {
      name: 'devchain-only-for-wiring',
      severity: 'error',
      comment:
        'devchain/ (the chain simulator, the replay JSON-RPC server, the local cluster\'s PostgreSQL and nginx) is development tooling: only itself, the demo, cluster and soak ' +
        'commands (wiring), bin/lpa.mjs (routes `lpa simulate` and `lpa replay-rpc` to devchain/cli.ts), tests and bench import it.',
      from: { pathNot: '^(devchain/|tests/|bench/|bin/|collector/commands/(demo|cluster|soak)\\.ts$)' },
      to: { path: '^devchain/' },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      comment: 'Every relative import resolves to a file.',
      from: {},
      to: { couldNotResolve: true, path: '^\\.' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|data|tests/fixtures)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.mjs', '.js', '.cjs', '.json', '.d.ts'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
