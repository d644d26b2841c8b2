#!/usr/bin/env node
// `npm start`: the whole product in one command, with no account and no VS Code. Builds when
// needed, starts the sandbox exchange, sends the examples to it with `tradereq send`, and prints
// each decoded answer: an accepted order, a decoded rejection, an unknown outcome, the budget left.
const { spawn, spawnSync } = require('node:child_process');
const { existsSync, mkdtempSync, readdirSync, rmSync, statSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const root = join(__dirname, '..');
const cli = join(root, 'dist', 'cli.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function buildIfNeeded() {
  if (existsSync(cli) && statSync(cli).mtimeMs >= newestMtime(join(root, 'src'))) return;
  console.log('Building…');
  const r = spawnSync(process.execPath, [join(root, 'esbuild.js')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('npm start: the build failed (see above); run "npm install" first if dependencies are missing.');
    process.exit(1);
  }
}

/** Starts `tradereq sandbox --port 0 --json` and resolves with its base URL once it listens. */
function startSandbox(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'sandbox', '--port', '0', '--json'], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      const nl = buffer.indexOf('\n');
      if (nl >= 0 && !child.baseUrl) {
        try {
          child.baseUrl = JSON.parse(buffer.slice(0, nl)).baseUrl;
          resolve(child);
        } catch {
          reject(new Error(`the sandbox printed something unexpected: ${buffer.slice(0, nl)}`));
        }
      }
    });
    child.on('exit', (code) => reject(new Error(`the sandbox exited (${code}) before it listened`)));
    child.on('error', reject);
  });
}

async function control(baseUrl, path, body) {
  const res = await fetch(baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}`);
}

function send(env, baseUrl, file, args) {
  const r = spawnSync(process.execPath, [cli, 'send', join(root, 'examples', file), '--base-url', baseUrl, ...args], {
    env,
    stdio: 'inherit',
    cwd: root,
  });
  return r.status;
}

function step(title, detail) {
  console.log(`\n━━ ${title}\n   ${detail}\n`);
}

async function main() {
  buildIfNeeded();
  // A fresh state folder, so the demo's rate-limit budget starts full and leaves yours alone.
  const stateDir = mkdtempSync(join(tmpdir(), 'tradereq-demo-'));
  const env = { ...process.env, TRADEREQ_STATE_DIR: stateDir };
  for (const name of Object.keys(env)) if (/^TRADEREQ_.*(API_KEY|SECRET_KEY|ORIGINS)$/.test(name)) delete env[name];
  const sandbox = await startSandbox(env);
  const stop = () => sandbox.kill('SIGTERM');
  process.on('SIGINT', () => {
    stop();
    process.exit(130);
  });
  const results = [];
  try {
    console.log(`Sandbox exchange at ${sandbox.baseUrl} (demo key "trade"; nothing leaves this machine).`);

    step(
      '1. An accepted order',
      'examples/orders.tradereq, request "buy": signed with the demo key, clock-synced, sent.',
    );
    results.push(['accepted order', send(env, sandbox.baseUrl, 'orders.tradereq', ['--request', 'buy']), 0]);

    step(
      '2. A decoded rejection',
      'examples/rejections.tradereq, request "too-small": the quantity is below the minimum.',
    );
    results.push([
      'decoded rejection',
      send(env, sandbox.baseUrl, 'rejections.tradereq', ['--request', 'too-small']),
      0,
    ]);

    step(
      '3. An unknown outcome',
      'The sandbox is told to answer the next order with 503 after placing it, as spec §7.1 warns.',
    );
    await control(sandbox.baseUrl, '/_sandbox/fault', { status: 503, count: 1, path: '/api/v3/order' });
    results.push(['unknown outcome', send(env, sandbox.baseUrl, 'orders.tradereq', ['--request', 'buy']), 3]);

    step(
      '4. Check before retrying',
      'The open orders show that the order of step 3 exists although the client saw an error.',
    );
    results.push(['open orders', send(env, sandbox.baseUrl, 'market.tradereq', ['--request', '4']), 0]);
  } finally {
    stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
  const wrong = results.filter(([, got, want]) => got !== want);
  console.log(`\n${results.length - wrong.length} of ${results.length} steps answered as expected.`);
  for (const [name, got, want] of wrong) console.error(`  ${name}: exit ${got}, expected ${want}`);
  process.exit(wrong.length === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(`npm start: ${e.message}`);
  process.exit(1);
});
