// A TLS sandbox started before VS Code, for the extension host's proxy test (test/integration/with-a-proxy.test.ts):
// its CA must be in NODE_EXTRA_CA_CERTS when the extension host starts, which Node reads only then.
// `tradereq sandbox --tls` of this build, named api.live.invalid, which only the test's proxy resolves.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createInterface } = require('node:readline');

const HOST = 'api.live.invalid';
const START_MS = 30_000; // a ceiling for a busy machine; it prints its address within a second

/** Resolves with { origin, caFile, env, stop } once the sandbox prints its address, or undefined when it cannot start. */
async function startTlsSandbox(repo) {
  const cli = path.join(repo, 'dist', 'cli.js');
  if (!fs.existsSync(cli)) return undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-tls-sandbox-'));
  const caFile = path.join(dir, 'ca.pem');
  const args = [cli, 'sandbox', '--tls', '--tls-name', HOST, '--tls-ca', caFile, '--port', '0', '--json'];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const stop = () => {
    child.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const line = await new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), START_MS);
    createInterface({ input: child.stdout }).once('line', (l) => (clearTimeout(timer), resolve(l)));
    child.once('exit', () => (clearTimeout(timer), resolve(undefined)));
  });
  child.stdout.resume();
  if (line === undefined) {
    stop();
    return undefined;
  }
  const { baseUrl } = JSON.parse(line);
  const origin = `https://${HOST}:${new URL(baseUrl).port}`;
  return { origin, caFile, env: { NODE_EXTRA_CA_CERTS: caFile, TRADEREQ_TEST_TLS_ORIGIN: origin }, stop };
}

module.exports = { startTlsSandbox };
