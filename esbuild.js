// Bundles the extension and the command line. Type checking is separate: `npm run typecheck`.
const esbuild = require('esbuild');
const fs = require('node:fs');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
};

const targets = [
  {
    ...common,
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode', './lazy.js'],
    // When the bundle starts and ends loading, so activate() can report its own cost (the benchmark's figure).
    banner: { js: 'var __tradereqLoadStart = performance.now();' },
    footer: { js: '__tradereqLoadEnd = performance.now();' },
  },
  // The response panel's own code, run inside the webview; its stylesheet is copied beside it.
  {
    ...common,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    entryPoints: ['src/webview/main.ts'],
    outfile: 'dist/webview/panel.js',
    tsconfig: 'src/webview/tsconfig.json',
  },
  // Loaded by the extension on first use, so that activation does not compile it.
  { ...common, entryPoints: ['src/extension/lazy/index.ts'], outfile: 'dist/lazy.js', external: ['vscode'] },
  // The check step in a worker thread: the editor checks large files there, off the typing path.
  { ...common, entryPoints: ['src/core/check/worker.ts'], outfile: 'dist/check-worker.js' },
  {
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
  },
];

/** Reports the end of each rebuild in watch mode, in the form VS Code's problem matchers expect. */
const watchReporter = {
  name: 'watch-reporter',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const e of result.errors) {
        console.error(`✘ [ERROR] ${e.text}`);
        if (e.location) console.error(`    ${e.location.file}:${e.location.line}:${e.location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

/** Writes media/tradereq.env.schema.json from the zod schema, so the two cannot drift. */
async function writeEnvSchema() {
  const out = require('node:path').join(require('node:os').tmpdir(), `tradereq-env-schema-${process.pid}.js`);
  await esbuild.build({
    ...common,
    sourcemap: false,
    minify: false,
    entryPoints: ['scripts/env-schema.ts'],
    outfile: out,
  });
  try {
    require(out).writeEnvSchema(require('node:path').join(__dirname, 'media', 'tradereq.env.schema.json'));
  } finally {
    fs.rmSync(out, { force: true });
  }
}

/** dist/webview holds everything the panel loads, and nothing else (its localResourceRoots). */
function copyPanelStyles() {
  fs.mkdirSync('dist/webview', { recursive: true });
  if (fs.existsSync('media/panel.css')) fs.copyFileSync('media/panel.css', 'dist/webview/panel.css');
}

async function main() {
  await writeEnvSchema();
  if (watch) {
    const contexts = await Promise.all(targets.map((t) => esbuild.context({ ...t, plugins: [watchReporter] })));
    await Promise.all(contexts.map((c) => c.watch()));
    return;
  }
  await Promise.all(targets.map((t) => esbuild.build(t)));
  copyPanelStyles();
  fs.chmodSync('dist/cli.js', 0o755);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
