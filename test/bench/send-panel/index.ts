// Tests module for the Send → panel benchmark, run in the real extension host by
// test/bench/send-panel.bench.js. Starts the sandbox in this process, stores its demo key the way a
// user does (the notification's button), sends once to measure the clock offset and load what a
// send needs, then times each Send: from the command to the panel's state being set and posted,
// minus the network time the sender recorded (entry.timings.totalMs). Reports the bundles the first
// Send needed beyond dist/extension.js, and at the end what loading each of them costs in this host.
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { startSandbox } from '../../../src/sandbox';
import type { PanelEntry } from '../../../src/core/panel/protocol';
import {
  EXTENSION_ID,
  fixtureUri,
  listedKeyProfiles,
  openFixture,
  tradereqApi,
  waitFor,
} from '../../integration/helpers';

const SAMPLES = Number(process.env['BENCH_SEND_SAMPLES'] || 40);
const ENV_FILE = 'tradereq.env.json';
const REQUEST = { file: 'sending.tradereq', index: 0 }; // a signed LIMIT order

const send = (): Thenable<PanelEntry | undefined> =>
  vscode.commands.executeCommand<PanelEntry | undefined>(
    'tradereq.sendRequest',
    fixtureUri(REQUEST.file),
    REQUEST.index,
  );

const LOADS = 5;

const extensionRoot = (): string => vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;

/** The extension's bundles other than dist/extension.js in Node's module cache, by path under dist/, with their size in bytes. */
function loadedBundles(): Record<string, number> {
  const root = extensionRoot();
  const dist = path.join(root, 'dist') + path.sep;
  const files = Object.keys(require.cache).filter((f) => f.startsWith(dist) && !f.endsWith(`${path.sep}extension.js`));
  return Object.fromEntries(files.map((f) => [path.relative(root, f).replaceAll(path.sep, '/'), fs.statSync(f).size]));
}

/**
 * What loading each bundle costs in this host: LOADS fresh requires (compiling it and running its
 * top level), in ms. The extension keeps the copy it loaded; these copies are left unused.
 */
function loadTimes(bundles: readonly string[]): Record<string, number[]> {
  return Object.fromEntries(
    bundles.map((file) => {
      const absolute = path.join(extensionRoot(), file);
      const load = createRequire(absolute);
      const times = Array.from({ length: LOADS }, () => {
        delete load.cache[absolute];
        const start = performance.now();
        load(absolute);
        return performance.now() - start;
      });
      return [file, times];
    }),
  );
}

/** One Send, timed: the command's start, when the panel state holds the new entry, the network time. */
async function timedSend(
  panelId: () => string | undefined,
): Promise<{ panelMs: number; networkMs: number; totalMs: number }> {
  const before = panelId();
  let posted: number | undefined;
  const start = performance.now();
  const done = send();
  // Polled each turn of the event loop (no sleeps): the state is set and posted in one synchronous step.
  const watch = (): void => {
    if (panelId() !== before) posted = performance.now();
    else setImmediate(watch);
  };
  setImmediate(watch);
  const entry = await done;
  const end = performance.now();
  if (!entry || entry.outcome !== 'ok' || !entry.timings) throw new Error(`the send failed: ${entry?.summary}`);
  await waitFor('the panel state to hold the entry', () => posted !== undefined);
  return { panelMs: posted! - start, networkMs: entry.timings.totalMs, totalMs: end - start };
}

export async function run(): Promise<void> {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-bench-state-'));
  process.env['TRADEREQ_STATE_DIR'] = stateDir;
  const sandbox = await startSandbox({ port: 0, limits: false });
  try {
    const api = await tradereqApi();
    const activated = loadedBundles();
    const env = { bench: { baseUrl: sandbox.baseUrl, key: 'sandbox' } };
    await vscode.workspace.fs.writeFile(fixtureUri(ENV_FILE), new TextEncoder().encode(JSON.stringify(env)));
    await waitFor('the environment "bench"', async () =>
      (await api.environmentChoices()).some((c) => c.label === 'bench'),
    );
    // The request file open and checked, as when a user presses Send in it.
    await openFixture(REQUEST.file);
    await waitFor('the request file to be checked', () => api.diagnosticsRunner(fixtureUri(REQUEST.file).toString()));
    const beforeSend = loadedBundles();
    // No key yet: the Send offers the sandbox demo key; its button stores it. This first Send of
    // the session loads the code a send needs (dist/lazy.js) unless reading the env files did.
    const coldStart = performance.now();
    const cold = await send();
    console.log(
      `send-panel cold: ${(performance.now() - coldStart).toFixed(1)} ms (the session's first Send, refused for want of a key: resolving, the key store, the refusal)`,
    );
    if (cold !== undefined) throw new Error('a key was stored before the benchmark began');
    await waitFor('the demo key to be offered and stored', async () => {
      if ((await send()) !== undefined) return true;
      await vscode.commands.executeCommand('notification.acceptPrimaryAction');
      return (await listedKeyProfiles()).length > 0;
    });
    await vscode.commands.executeCommand('notifications.clearAll');
    const panelId = (): string | undefined => api.panelState()?.current?.id;
    const first = await timedSend(panelId);
    console.log(
      `send-panel first: ${JSON.stringify(first)} (the first timed Send; the sends that stored the key loaded the send code and measured the clock offset)`,
    );
    const firstSend = loadedBundles();
    console.log(`send-panel bundles: ${JSON.stringify({ activated, beforeSend, firstSend })}`);
    for (let i = 0; i < 3; i++) await timedSend(panelId);
    const samples = [];
    for (let i = 0; i < SAMPLES; i++) samples.push(await timedSend(panelId));
    console.log(`send-panel samples: ${JSON.stringify(samples)}`);
    console.log(`send-panel loads: ${JSON.stringify(loadTimes(Object.keys(firstSend)))}`);
  } finally {
    await vscode.workspace.fs.delete(fixtureUri(ENV_FILE));
    await sandbox.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}
