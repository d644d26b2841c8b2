// Knip, in `npm run lint`: files, exports (types too) and dependencies that nothing uses. An export used
// only in its own file is unused: it should not be exported. Besides the entries below, knip finds the
// scripts, tests and benchmarks that package.json's scripts run, and esbuild.js's entry points.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const CLI_DIR = path.join(__dirname, 'src', 'cli');
const PROPERTY_OF_REQUIRE = /\(\s*require\(\s*'(\.{1,2}\/[^']+)'\s*\)\s+as\s+typeof\s+import\('\1'\)\s*\)\s*\./g;

/**
 * The parts of the command line that load as `(require('./x') as typeof import('./x')).name` (main.ts's
 * COMMANDS table): knip follows a destructured require() but not a property of one, so these files are
 * entries, as esbuild.js makes them (a bundle each, dist/cli/<name>.js).
 */
function cliChunks() {
  const chunks = new Set();
  for (const file of fs.readdirSync(CLI_DIR).filter((f) => f.endsWith('.ts'))) {
    const text = fs.readFileSync(path.join(CLI_DIR, file), 'utf8');
    for (const m of text.matchAll(PROPERTY_OF_REQUIRE)) {
      const absolute = path.resolve(CLI_DIR, m[1]);
      const source = [`${absolute}.ts`, path.join(absolute, 'index.ts')].find((p) => fs.existsSync(p));
      if (source) chunks.add(path.relative(__dirname, source).replaceAll(path.sep, '/'));
    }
  }
  return [...chunks];
}

/** @type {import('knip').KnipConfig} */
module.exports = {
  entry: [
    // esbuild.js's bundles: the extension, its lazy parts, the panel and the check worker (found by
    // knip's esbuild plugin), the command line and each of its lazily loaded parts,
    'src/cli/main.ts',
    ...cliChunks(),
    // and the code cache, which esbuild.js's cli-chunks plugin makes each lazy require() load;
    'src/cli/code-cache.ts',
    // the TLS sandbox's certificates, which src/sandbox/index.ts requires only for a TLS sandbox.
    'src/sandbox/certificates.ts',
    'test/integration/{index,*.test}.ts', // bundled by test/harness/build-integration.js, run in VS Code
    'test/harness/toolchains.js', // run by test/run-all.js
    'test/ui/*.test.js', // run by test/ui/run-ui.js
    'test/bench/*/index.ts', // bundled by test/bench/activation.bench.js and send-panel.bench.js
  ],
  project: ['src/**/*.ts', 'scripts/**/*.{js,ts}', 'test/**/*.{js,ts}', '*.{js,mjs}'],
  ignoreExportsUsedInFile: false,
  // Off by default: exports of a module that is imported whole (`import * as`) and never read.
  rules: { nsExports: 'error', nsTypes: 'error' },
  // src/extension/lazy.ts requires the extension's lazy bundles by their names beside dist/extension.js.
  ignoreIssues: { 'src/extension/lazy.ts': ['unresolved'] },
  // scripts/package.js runs vsce's bin by its path in node_modules.
  ignoreDependencies: ['@vscode/vsce'],
  // `script` is util-linux's (test/support/cli.ts), and `unshare` (the tests' proxy, test/support/proxy.ts);
  // `mkfifo` is POSIX's (FIFOs for the tests of files a repository names); `tradereq`, the package the
  // tarball test installs.
  ignoreBinaries: ['script', 'unshare', 'mkfifo', 'tradereq'],
};
