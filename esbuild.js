// Bundles the extension and the command line. Type checking is separate: `npm run typecheck`.
const esbuild = require('esbuild');
const fs = require('node:fs');

const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
// --outdir=DIR builds elsewhere than dist/ (the watch test compares the two).
const outdir = process.argv.find((a) => a.startsWith('--outdir='))?.slice('--outdir='.length) ?? 'dist';
const out = (file) => path.join(outdir, file);

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
    outfile: out('extension.js'),
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
    outfile: out('webview/panel.js'),
    tsconfig: 'src/webview/tsconfig.json',
  },
  // Loaded by the extension on first use, so that activation does not compile it.
  { ...common, entryPoints: ['src/extension/lazy/index.ts'], outfile: out('lazy.js'), external: ['vscode'] },
  // The check step in a worker thread: the editor checks large files there, off the typing path.
  { ...common, entryPoints: ['src/core/check/worker.ts'], outfile: out('check-worker.js') },
  {
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: out('cli.js'),
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
  const bundle = path.join(require('node:os').tmpdir(), `tradereq-env-schema-${process.pid}.js`);
  await esbuild.build({
    ...common,
    sourcemap: false,
    minify: false,
    entryPoints: ['scripts/env-schema.ts'],
    outfile: bundle,
  });
  try {
    require(bundle).writeEnvSchema(path.join(__dirname, 'media', 'tradereq.env.schema.json'));
  } finally {
    // Watch mode writes it again after each change: the next require must read the new bundle.
    delete require.cache[require.resolve(bundle)];
    fs.rmSync(bundle, { force: true });
  }
}

/** dist/webview holds everything the panel loads, and nothing else (its localResourceRoots). */
function copyPanelStyles() {
  fs.mkdirSync(out('webview'), { recursive: true });
  if (fs.existsSync('media/panel.css')) fs.copyFileSync('media/panel.css', out('webview/panel.css'));
}

/** What each build leaves beside its bundle, in build and watch mode alike (the same complete dist/). */
const FINISH = {
  [out('webview/panel.js')]: copyPanelStyles,
  [out('cli.js')]: () => fs.chmodSync(out('cli.js'), 0o755),
  // The env file's JSON schema comes from the zod schema the extension bundles.
  [out('extension.js')]: () => (watch ? writeEnvSchema() : undefined),
};

function finisher(target) {
  return {
    name: 'finish',
    setup(build) {
      build.onEnd(async (result) => {
        if (result.errors.length === 0) await FINISH[target.outfile]?.();
      });
    },
  };
}

/** In watch mode the stylesheet is watched too: editing it updates the copy the panel loads. */
function watchPanelStyles() {
  fs.watchFile('media/panel.css', { interval: 300 }, () => {
    copyPanelStyles();
    console.log('[watch] copied media/panel.css');
  });
}

async function main() {
  await writeEnvSchema();
  if (watch) {
    const contexts = await Promise.all(
      targets.map((t) => esbuild.context({ ...t, plugins: [finisher(t), watchReporter] })),
    );
    await Promise.all(contexts.map((c) => c.watch()));
    watchPanelStyles();
    return;
  }
  await Promise.all(targets.map((t) => esbuild.build({ ...t, plugins: [finisher(t)] })));
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
