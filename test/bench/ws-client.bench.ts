/**
 * The WebSocket client's library, chosen by figures (issue 32, point 7): undici's WebSocket against
 * the `ws` package, side by side in one run, paired (every round measures each side, in alternating
 * order, so a busy moment of the machine falls on both). Three figures a side:
 *   - the minified bundle, as esbuild.js makes the editor's dist/ws.js (and of a minimal
 *     connect+subscribe program with each library alone);
 *   - its load time: `require` of the bundle in a fresh Node process, median of N rounds;
 *   - connect + SUBSCRIPTION + the first push received, against the sandbox started in this process
 *     (limits off), median of N rounds, each a new connection.
 * The editor's bundle is built from the working tree, and with `--against REF` also from that git
 * commit (its src/ taken with git archive, built with this tree's node_modules): the real client each
 * way. Prints figures, asserts nothing.
 * Run: node --require tsx/cjs test/bench/ws-client.bench.ts [--runs 20] [--against REF]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { build, type Plugin } from 'esbuild';
import { Budget } from '../../src/core/budget/budget';
import { MemoryStateStore } from '../../src/core/budget/state';
import { startSandbox } from '../../src/sandbox';
import { option } from './sandbox-process';

const REPO = resolve(__dirname, '..', '..');
const load = createRequire(__filename);
const BOOK = 'spot@public.bookTicker.v3.api@BTCUSDT';

/** A minimal program with each library: connect, subscribe to one stream, resolve on its first push. */
const MINIMAL: Readonly<Record<string, string>> = {
  'undici (minimal)': `'use strict';
const { Agent, WebSocket } = require('undici');
exports.run = (url, stream) => new Promise((resolve, reject) => {
  const agent = new Agent();
  const ws = new WebSocket(url, { dispatcher: agent });
  ws.addEventListener('open', () => ws.send(JSON.stringify({ method: 'SUBSCRIPTION', params: [stream], id: 1 })));
  ws.addEventListener('message', (ev) => {
    if (JSON.parse(ev.data).c !== stream) return;
    ws.addEventListener('close', () => agent.destroy().then(resolve, reject));
    ws.close();
  });
  ws.addEventListener('error', () => reject(new Error('undici: the connection failed')));
});
`,
  'ws (minimal)': `'use strict';
const http = require('node:http');
const { WebSocket } = require('ws');
exports.run = (url, stream) => new Promise((resolve, reject) => {
  const agent = new http.Agent({ keepAlive: false });
  const ws = new WebSocket(url, { agent, perMessageDeflate: false });
  ws.on('open', () => ws.send(JSON.stringify({ method: 'SUBSCRIPTION', params: [stream], id: 1 })));
  ws.on('message', (data) => {
    if (JSON.parse(String(data)).c !== stream) return;
    ws.once('close', () => resolve());
    ws.close();
  });
  ws.on('error', reject);
});
`,
};

/** esbuild.js's plugin for the WebSocket client's bundles (ws's upgrade through node:http's ClientRequest). */
const { wsOwnRequest } = load(join(REPO, 'scripts', 'ws-own-request.js')) as { wsOwnRequest: Plugin };

/** re2js is a bundle of its own beside dist/ws.js (esbuild.js's re2Beside). */
const re2Beside: Plugin = {
  name: 're2-beside',
  setup(b) {
    b.onResolve({ filter: /^re2js$/ }, () => ({ path: './re2.js', external: true }));
  },
};

/** A minified bundle of `entry` at `outfile`, resolving packages from this tree's node_modules; its size. */
async function bundle(entry: string, outfile: string, cwd: string): Promise<number> {
  await build({
    entryPoints: [entry],
    outfile,
    absWorkingDir: cwd,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    external: ['vscode'],
    nodePaths: [join(REPO, 'node_modules')],
    plugins: [re2Beside, wsOwnRequest],
    logLevel: 'error',
  });
  return statSync(outfile).size;
}

interface Side {
  readonly name: string;
  readonly file: string;
  readonly bytes: number;
  /** Connect, subscribe, first push, closed: one round. */
  readonly round: (url: string) => Promise<void>;
  readonly loadMs: number[];
  readonly connectMs: number[];
}

/** The editor's bundle of the WebSocket client, from the working tree or from `ref`. */
async function editorSide(dir: string, ref: string | undefined): Promise<Side> {
  let root = REPO;
  if (ref !== undefined) {
    root = join(dir, 'ref');
    mkdirSync(root);
    const tar = join(dir, 'ref.tar');
    execFileSync('git', ['-C', REPO, 'archive', `--output=${tar}`, ref, 'src', 'package.json', 'tsconfig.json']);
    execFileSync('tar', ['-x', '-f', tar, '-C', root]);
  }
  const name = ref === undefined ? 'dist/ws.js, this tree' : `dist/ws.js, ${ref}`;
  const file = join(dir, ref === undefined ? 'ws-tree.js' : 'ws-ref.js');
  const bytes = await bundle(join(root, 'src', 'extension', 'lazy', 'ws.ts'), file, root);
  const round = async (url: string): Promise<void> => {
    const { WsConnection } = load(file) as typeof import('../../src/extension/lazy/ws');
    const c = new WsConnection({ budget: new Budget(new MemoryStateStore()), pingAfterMs: 0 });
    const r = await c.connect(url);
    if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
    const pushed = c.waitFor('push', (e) => e.stream === BOOK);
    await c.subscribe([BOOK]);
    await pushed;
    await c.close();
  };
  return { name, file, bytes, round, loadMs: [], connectMs: [] };
}

async function minimalSide(dir: string, name: string, source: string): Promise<Side> {
  const base = name.split(' ')[0]!;
  const entry = join(dir, `${base}-entry.js`);
  writeFileSync(entry, source);
  const file = join(dir, `${base}-minimal.js`);
  const bytes = await bundle(entry, file, dir);
  const round = (url: string): Promise<void> =>
    (load(file) as { run: (u: string, s: string) => Promise<void> }).run(url, BOOK);
  return { name, file, bytes, round, loadMs: [], connectMs: [] };
}

/** Milliseconds `require(file)` takes in a fresh Node process (measured inside it, so Node's own start is not counted). */
function loadOnce(file: string): number {
  const script =
    'const t = process.hrtime.bigint(); require(process.argv[1]); ' +
    'process.stdout.write(String(Number(process.hrtime.bigint() - t) / 1e6));';
  const r = spawnSync(process.execPath, ['-e', script, file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`loading ${file} failed: ${r.stderr}`);
  return Number(r.stdout);
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
const ms = (values: readonly number[]): string =>
  `median ${median(values).toFixed(1)} ms (${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)})`;

/** Every side once per round, the order turned each round (paired). */
async function measure(sides: readonly Side[], runs: number, url: string): Promise<void> {
  for (let round = 0; round < runs; round++) {
    const order = sides.map((_, i) => sides[(i + round) % sides.length]!);
    for (const side of order) side.loadMs.push(loadOnce(side.file));
    for (const side of order) {
      const start = performance.now();
      await side.round(url);
      side.connectMs.push(performance.now() - start);
    }
  }
}

async function main(): Promise<void> {
  const runs = option('--runs', 20);
  const i = process.argv.indexOf('--against');
  const against = i >= 0 ? process.argv[i + 1] : undefined;
  const dir = mkdtempSync(join(tmpdir(), 'tradereq-bench-ws-client-'));
  const sandbox = await startSandbox({ port: 0, limits: false });
  try {
    const sides = [
      ...(against === undefined ? [] : [await editorSide(dir, against)]),
      await editorSide(dir, undefined),
      ...(await Promise.all(Object.entries(MINIMAL).map(([name, source]) => minimalSide(dir, name, source)))),
    ];
    // One round not counted: the first connection of each side pays for compiling its code in this process.
    await measure(sides, 1, sandbox.wsUrl);
    for (const s of sides) s.loadMs.length = s.connectMs.length = 0;
    await measure(sides, runs, sandbox.wsUrl);
    console.log(`ws-client: ${runs} paired rounds, load average ${loadavg()[0]!.toFixed(2)} at the end`);
    for (const s of sides)
      console.log(
        `ws-client: ${s.name}: ${kib(s.bytes)} minified; load ${ms(s.loadMs)}; connect + subscribe + first push ${ms(s.connectMs)}`,
      );
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
