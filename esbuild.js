// Bundles the extension and the command line. Type checking is separate: `npm run typecheck`.
const esbuild = require('esbuild');
const fs = require('node:fs');
const { wsOwnRequest } = require('./scripts/ws-own-request');

const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
// --outdir=DIR builds elsewhere than dist/ (the watch test compares the two).
const outdir = process.argv.find((a) => a.startsWith('--outdir='))?.slice('--outdir='.length) ?? 'dist';
const out = (file) => path.join(outdir, file);

/** The source of a relative import: the file itself, with .ts, or the folder's index.ts. */
function sourceOf(absolute) {
  for (const p of [absolute, `${absolute}.ts`, path.join(absolute, 'index.ts')]) {
    if (fs.existsSync(p) && fs.statSync(p).isFile()) return p;
  }
  return undefined;
}

const CLI_DIR = path.join(__dirname, 'src', 'cli');
const CLI_MAIN = path.join(CLI_DIR, 'main.ts');
const SANDBOX_CERTIFICATES = path.join(__dirname, 'src', 'sandbox', 'certificates.ts');

/** The files whose lazy require()s become bundles of their own. */
function lazyLoaders() {
  return [
    ...fs
      .readdirSync(CLI_DIR)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => path.join(CLI_DIR, f)),
    // The sandbox's certificates, which only a TLS sandbox loads (`tradereq sandbox --tls`).
    path.join(__dirname, 'src', 'sandbox', 'index.ts'),
  ];
}

/**
 * The parts of the command line loaded only when they run: every `require('./x')` (or '../x') in a
 * file of src/cli/, such as the rows of main.ts's COMMANDS table, and of src/sandbox/index.ts,
 * gets a bundle of its own, dist/cli/<name>.js (src/cli/send.ts →
 * dist/cli/send.js, src/core/env/schema.ts → dist/cli/core-env-schema.js, src/sandbox/certificates.ts
 * → dist/cli/sandbox-certificates.js). Read from the sources, so a new command needs no change here.
 * Static imports are bundled in.
 */
function cliChunks() {
  const chunks = new Map(); // source file → name
  for (const file of lazyLoaders()) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\brequire\(\s*'(\.{1,2}\/[^']+)'\s*\)/g)) {
      const source = sourceOf(path.resolve(path.dirname(file), m[1]));
      const where = path.relative(__dirname, file);
      if (!source) throw new Error(`${where}: require('${m[1]}') names no source file`);
      const name = path
        .relative(CLI_DIR, source)
        .replace(/\.ts$/, '')
        .replace(/^(\.\.\/)+/, '')
        .replaceAll('/', '-');
      chunks.set(source, name);
    }
  }
  return chunks;
}

const CLI_CHUNKS = cliChunks();

const CODE_CACHE = path.join(CLI_DIR, 'code-cache.ts');

/**
 * Turns each lazy require of the command line into a load of the bundle it names, through V8's code
 * cache (src/cli/code-cache.ts), with the path from the requiring bundle: dist/cli.js loads
 * dist/cli/<name>.js, and the bundles in dist/cli/ load their neighbours.
 */
function cliChunkPlugin(chunks) {
  return {
    name: 'cli-chunks',
    setup(build) {
      // The lazy packages are chunks too (dist/cli/re2.js, dist/cli/proxy-agent.js), loaded like the commands' own parts.
      build.onResolve({ filter: LAZY_FILTER }, (args) => ({
        path: `${args.importer === CLI_MAIN ? 'cli/' : ''}${LAZY_PACKAGES[args.path]}.js`,
        namespace: 'cli-chunk',
      }));
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.kind !== 'require-call') return undefined;
        const name = chunks.get(sourceOf(path.resolve(args.resolveDir, args.path)));
        if (name === undefined) return undefined;
        const file = args.importer === CLI_MAIN ? `cli/${name}.js` : `${name}.js`;
        return { path: file, namespace: 'cli-chunk' };
      });
      build.onLoad({ filter: /.*/, namespace: 'cli-chunk' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(CODE_CACHE)}).loadBundle(require('node:path').join(__dirname, ${JSON.stringify(args.path)}));`,
        resolveDir: CLI_DIR,
        loader: 'js',
      }));
    },
  };
}

/**
 * Packages that few runs need, each a bundle of its own beside the bundles that may use it, loaded
 * on its first use (a plain `require` in the source), so that activation and every send do not pay
 * for compiling them: re2js (150 KB, the regular expressions of `# @expect … matches`,
 * src/core/format/pattern.ts) and https-proxy-agent (a proxy's CONNECT tunnel, src/core/net/network.ts).
 */
const LAZY_PACKAGES = { re2js: 're2', 'https-proxy-agent': 'proxy-agent' };
const LAZY_FILTER = /^(re2js|https-proxy-agent)$/;
const RE2 = require.resolve('re2js');
const PROXY_AGENT = require.resolve('https-proxy-agent');

/** The bundles in dist/ require them as ./re2.js and ./proxy-agent.js. */
const re2Beside = {
  name: 'lazy-beside',
  setup(build) {
    build.onResolve({ filter: LAZY_FILTER }, (args) => ({ path: `./${LAZY_PACKAGES[args.path]}.js`, external: true }));
  },
};

/**
 * The editor's sandbox serves plain HTTP: its bundle leaves out the TLS sandbox's certificates and
 * the X.509 library they use (only `tradereq sandbox --tls` and the tests make them), and a TLS
 * sandbox started there fails with one line that says so.
 */
const noSandboxTls = {
  name: 'no-sandbox-tls',
  setup(build) {
    build.onResolve({ filter: /\/certificates$/ }, (args) =>
      sourceOf(path.resolve(args.resolveDir, args.path)) === SANDBOX_CERTIFICATES
        ? { path: SANDBOX_CERTIFICATES, namespace: 'no-sandbox-tls' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'no-sandbox-tls' }, () => ({
      contents: `throw new Error("The editor's sandbox serves plain HTTP; tradereq sandbox --tls serves HTTPS and WSS.");`,
      loader: 'js',
    }));
  },
};

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

/** The command line's two builds: its entry, and its bundles (each its own entry point: no code is shared). */
const CLI_COMMON = {
  ...common,
  outdir,
  // import() becomes require(): the bundles run through the code cache's vm.Script (src/cli/code-cache.ts),
  // where Node 20 has no dynamic import without a flag.
  supported: { 'dynamic-import': false },
  plugins: [cliChunkPlugin(CLI_CHUNKS), wsOwnRequest],
};

/** The extension's bundles beside dist/extension.js, each loaded by src/extension/lazy.ts on first use. */
const EXTENSION_LAZY = ['./language.js', './lazy.js', './tools.js', './ws.js'];

/**
 * Activation's bundle: the commands, the providers and the Testing view's controller registered,
 * their code left to language.js. test/unit/repo/activation-bundle.test.ts builds it with these
 * options, minified as the package's (`minify`), and holds it to its budget.
 */
function activationBundle({ minify }) {
  return {
    ...common,
    minify,
    sourcemap: !minify,
    entryPoints: ['src/extension/extension.ts'],
    outfile: out('extension.js'),
    external: ['vscode', ...EXTENSION_LAZY],
    plugins: [re2Beside],
    // When the bundle starts and ends loading, so activate() can report its own cost (the benchmark's figure).
    banner: { js: 'var __tradereqLoadStart = Number(process.hrtime.bigint()) / 1e6;' },
    footer: { js: '__tradereqLoadEnd = Number(process.hrtime.bigint()) / 1e6;' },
  };
}

const targets = [
  activationBundle({ minify: production }),
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
  // The request files' language and the services behind the commands: the first request file, provider call or command loads it.
  {
    ...common,
    entryPoints: ['src/extension/language.ts'],
    outfile: out('language.js'),
    external: ['vscode', ...EXTENSION_LAZY],
    plugins: [re2Beside],
  },
  // What a send needs, loaded on the first send, so that neither activation nor language.js compiles it.
  {
    ...common,
    entryPoints: ['src/extension/lazy/index.ts'],
    outfile: out('lazy.js'),
    external: ['vscode'],
    plugins: [re2Beside],
  },
  {
    ...common,
    entryPoints: ['src/extension/lazy/tools.ts'],
    outfile: out('tools.js'),
    external: ['vscode'],
    plugins: [re2Beside, noSandboxTls],
  },
  // The WebSocket client (ws), loaded on the first Connect: no send needs it.
  {
    ...common,
    entryPoints: ['src/extension/lazy/ws.ts'],
    outfile: out('ws.js'),
    external: ['vscode'],
    plugins: [re2Beside, wsOwnRequest],
  },
  // The check step in a worker thread: the editor checks large files there, off the typing path.
  { ...common, entryPoints: ['src/core/check/worker.ts'], outfile: out('check-worker.js'), plugins: [re2Beside] },
  // re2js for the bundles beside it, on the first `matches`; the proxy agent, on the first send through a proxy.
  { ...common, entryPoints: [RE2], outfile: out('re2.js') },
  { ...common, entryPoints: [PROXY_AGENT], outfile: out('proxy-agent.js') },
  // The command line: dist/cli.js, and a bundle per command and per lazily loaded part (cliChunks).
  { ...CLI_COMMON, entryPoints: { cli: CLI_MAIN }, banner: { js: '#!/usr/bin/env node' } },
  // Each written as the function that wraps it (src/cli/code-cache.ts compiles the file's text as it is:
  // no copy of a bundle's few hundred KB to wrap it, which filled V8's young generation and cost collections).
  {
    ...CLI_COMMON,
    entryPoints: {
      ...Object.fromEntries([...CLI_CHUNKS].map(([source, name]) => [`cli/${name}`, source])),
      'cli/re2': RE2,
      'cli/proxy-agent': PROXY_AGENT,
    },
    banner: { js: '(function (exports, require, module, __filename, __dirname) {' },
    footer: { js: '})' },
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
  // The env file's JSON schema comes from its zod schema, which dist/lazy.js bundles: its rebuild writes it again.
  [out('lazy.js')]: () => (watch ? writeEnvSchema() : undefined),
};

function finisher(target) {
  return {
    name: 'finish',
    setup(build) {
      build.onEnd(async (result) => {
        // The command line's entry has an outdir; its FINISH entry is under cli.js (its bundles' build has none).
        const cliEntry = target.entryPoints.cli === undefined ? undefined : out('cli.js');
        if (result.errors.length === 0) await FINISH[target.outfile ?? cliEntry]?.();
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
      targets.map((t) => esbuild.context({ ...t, plugins: [...(t.plugins ?? []), finisher(t), watchReporter] })),
    );
    await Promise.all(contexts.map((c) => c.watch()));
    watchPanelStyles();
    return;
  }
  await Promise.all(targets.map((t) => esbuild.build({ ...t, plugins: [...(t.plugins ?? []), finisher(t)] })));
}

// Run as a program it builds; required (by a test), it only gives activationBundle.
if (require.main === module)
  main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });

module.exports = { activationBundle };
