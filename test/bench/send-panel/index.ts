// Tests module for the Send → panel benchmark, run in the real extension host by
// test/bench/send-panel.bench.js. Each session is two windows of one browser profile and one VS
// Code server, as a user's two days are:
//  1. "last week": the sandbox started in this process, tradereq.env.json written, the request file
//     opened; the first Send is refused for want of a key (timed: the refused Send); the sandbox's
//     demo key stored the way a user does (the notification's button); one Send (which measures
//     the clock offset). Then the window reloads: a fresh extension host, SecretStorage as it was.
//  2. "today": the sandbox again on the same origin; the request file opened and checked, then the
//     session's first Send, timed part by part; then the warm Sends: from the command to the
//     panel's state being set and posted, minus the network time the sender recorded. Reports the
//     bundles the Sends needed beyond dist/extension.js, and at the end what loading each costs.
// What happened in window 1 that window 2 needs (the sandbox's port, the state folder) is kept in a
// file of the workspace, which the harness copies fresh for each session.
import * as diagnosticsChannel from 'node:diagnostics_channel';
import * as fs from 'node:fs';
import * as inspector from 'node:inspector';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { startSandbox } from '../../../src/sandbox';
// A build that has the channel tells each read of SecretStorage and each wait for a key; the previous does not.
import { KEY_STORE_CHANNEL } from '../../../src/extension/key-reads';
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
/** How long the file is open and checked before the session's first Send (BENCH_SEND_READING_MS, default 1 s; 0: at once). */
const READING_MS = Number(process.env['BENCH_SEND_READING_MS'] ?? 1000);
const ENV_FILE = 'tradereq.env.json';
/** What window 1 leaves for window 2. */
const WINDOW_1 = '.bench-send-window-1.json';
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

/** What the process tells while a Send runs: the key store's reads and waits, and each HTTP request leaving. */
interface Told {
  readonly reads: { entry: string; ahead: boolean; at: number }[];
  readonly answers: { entry: string; ms: number; at: number }[];
  readonly gets: { profile: string; from: string; ms: number; at: number }[];
  readonly requests: { path: string; at: number }[];
}

/** Listens to the key store's channel and node:http's `http.client.request.start`; stop() ends it. */
function listen(): Told & { stop(): void } {
  const told: Told = { reads: [], answers: [], gets: [], requests: [] };
  const onKeys = (m: unknown): void => {
    const at = performance.now();
    const e = m as { event: string; entry?: string; ahead?: boolean; profile?: string; from?: string; ms?: number };
    if (e.event === 'read') told.reads.push({ entry: e.entry!, ahead: e.ahead!, at });
    if (e.event === 'answered') told.answers.push({ entry: e.entry!, ms: e.ms!, at });
    if (e.event === 'get') told.gets.push({ profile: e.profile!, from: e.from!, ms: e.ms!, at });
  };
  const onRequest = (m: unknown): void => {
    const request = (m as { request: { path: string } }).request;
    told.requests.push({ path: request.path.split('?')[0]!, at: performance.now() });
  };
  diagnosticsChannel.subscribe(KEY_STORE_CHANNEL, onKeys);
  diagnosticsChannel.subscribe('http.client.request.start', onRequest);
  return {
    ...told,
    stop: () => {
      diagnosticsChannel.unsubscribe(KEY_STORE_CHANNEL, onKeys);
      diagnosticsChannel.unsubscribe('http.client.request.start', onRequest);
    },
  };
}

/** One Send, timed: the command's start, when the panel state holds the new entry, the network time. */
async function timedSend(
  panelId: () => string | undefined,
): Promise<{ panelMs: number; networkMs: number; totalMs: number; start: number; posted: number; end: number }> {
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
  return {
    panelMs: posted! - start,
    networkMs: entry.timings.totalMs,
    totalMs: end - start,
    start,
    posted: posted!,
    end,
  };
}

/**
 * The session's first Send, part by part, in ms: resolving (command → the key asked for), the key
 * (asked → answered), what follows before the order leaves (clock, confirmation, signing, the
 * gate), the order leaving → the panel's state posted (the network as the sender recorded it is
 * part of it) and the rest (the history saved). A build that does not tell its key store's waits
 * has the first three as one.
 */
async function firstSend(
  panelId: () => string | undefined,
  told: Told,
  opened: number,
): Promise<Record<string, unknown>> {
  const t = await timedSend(panelId);
  const during = <T extends { at: number }>(events: readonly T[]): T[] => events.filter((e) => e.at >= t.start);
  const order = during(told.requests).find((r) => r.path === '/api/v3/order');
  if (!order) throw new Error('the order was not seen leaving');
  const get = during(told.gets)[0];
  const ahead = told.reads.find((r) => r.ahead && r.at < t.start);
  const aheadAnswered = ahead && told.answers.find((a) => a.entry === ahead.entry && a.at >= ahead.at);
  return {
    totalMs: t.totalMs,
    panelMs: t.panelMs,
    beforeRequestMs: order.at - t.start,
    resolveMs: get ? get.at - get.ms - t.start : undefined,
    keyMs: get?.ms,
    keyFrom: get?.from,
    afterKeyMs: get ? order.at - get.at : undefined,
    leavesToPanelMs: t.posted - order.at,
    networkMs: t.networkMs,
    afterPanelMs: t.end - t.posted,
    storeReadsDuringSend: get ? during(told.reads).length : undefined,
    // The read ahead: from the file's opening to its start, how long SecretStorage took, and how long before the Send it ended.
    aheadStartMs: ahead ? ahead.at - opened : undefined,
    aheadMs: aheadAnswered?.ms,
    aheadDoneBeforeSendMs: aheadAnswered ? t.start - aheadAnswered.at : undefined,
    requests: during(told.requests).map((r) => r.path),
  };
}

/**
 * With BENCH_SEND_PROFILE=DIR, the extension host's CPU profile while `run` runs, written to
 * DIR/first-send-<time>.cpuprofile (open it in Chrome's DevTools or VS Code): where the first
 * Send's milliseconds of this thread go. Samples every 100 µs.
 */
async function profiled<T>(run: () => Promise<T>): Promise<T> {
  const dir = process.env['BENCH_SEND_PROFILE'];
  if (!dir) return run();
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object): Promise<unknown> =>
    new Promise((resolve, reject) =>
      session.post(method, params, (e: Error | null, r?: unknown) => (e ? reject(e) : resolve(r))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `first-send-${Date.now()}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

/** The workspace's env file: one environment at the sandbox, signing with the profile "sandbox". */
async function writeEnvFile(baseUrl: string): Promise<void> {
  const env = { bench: { baseUrl, key: 'sandbox' } };
  await vscode.workspace.fs.writeFile(fixtureUri(ENV_FILE), new TextEncoder().encode(JSON.stringify(env)));
}

/** The request file open and checked, as when a user presses Send in it. */
async function openChecked(api: Awaited<ReturnType<typeof tradereqApi>>): Promise<void> {
  await openFixture(REQUEST.file);
  await waitFor('the request file to be checked', () => api.diagnosticsRunner(fixtureUri(REQUEST.file).toString()));
}

/** Window 1: the refused first Send, the demo key stored, one Send; then the window reloads. */
async function lastWeek(): Promise<void> {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-bench-state-'));
  process.env['TRADEREQ_STATE_DIR'] = stateDir;
  const sandbox = await startSandbox({ port: 0, limits: false });
  const api = await tradereqApi();
  const activated = loadedBundles();
  await writeEnvFile(sandbox.baseUrl);
  await waitFor('the environment "bench"', async () =>
    (await api.environmentChoices()).some((c) => c.label === 'bench'),
  );
  await openChecked(api);
  const beforeSend = loadedBundles();
  // No key yet: the session's first Send is refused; its notification offers the sandbox demo key.
  const told = listen();
  const refusedStart = performance.now();
  const refused = await send();
  const refusedMs = performance.now() - refusedStart;
  told.stop();
  const refusedKeyMs = told.gets[0]?.ms;
  if (refused !== undefined) throw new Error('a key was stored before the benchmark began');
  await waitFor('the demo key to be offered and stored', async () => {
    if ((await send()) !== undefined) return true;
    await vscode.commands.executeCommand('notification.acceptPrimaryAction');
    return (await listedKeyProfiles()).length > 0;
  });
  await vscode.commands.executeCommand('notifications.clearAll');
  const panelId = (): string | undefined => api.panelState()?.current?.id;
  await timedSend(panelId);
  const port = Number(new URL(sandbox.baseUrl).port);
  const kept = { port, stateDir, refused: { ms: refusedMs, keyMs: refusedKeyMs }, bundles: { activated, beforeSend } };
  await vscode.workspace.fs.writeFile(fixtureUri(WINDOW_1), new TextEncoder().encode(JSON.stringify(kept)));
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await sandbox.close();
  await vscode.commands.executeCommand('workbench.action.reloadWindow');
}

/** Window 2: the first Send with the key stored before the session, then the warm Sends. */
async function today(kept: {
  port: number;
  stateDir: string;
  refused: { ms: number; keyMs?: number };
  bundles: Record<string, unknown>;
}): Promise<void> {
  process.env['TRADEREQ_STATE_DIR'] = kept.stateDir;
  const sandbox = await startSandbox({ port: kept.port, limits: false });
  try {
    const api = await tradereqApi();
    const told = listen();
    const openedAt = performance.now();
    await openChecked(api);
    // The user reads the file before pressing Send (a modelled pause, the same for both builds, not a
    // synchronisation): the read ahead of the key, where the build has one, runs meanwhile.
    await new Promise((resolve) => setTimeout(resolve, READING_MS));
    const opened = loadedBundles();
    const panelId = (): string | undefined => api.panelState()?.current?.id;
    const first = await profiled(() => firstSend(panelId, told, openedAt)).finally(() => told.stop());
    console.log(`send-panel refused: ${JSON.stringify(kept.refused)}`);
    console.log(`send-panel first: ${JSON.stringify(first)}`);
    const firstSendBundles = loadedBundles();
    console.log(`send-panel bundles: ${JSON.stringify({ ...kept.bundles, opened, firstSend: firstSendBundles })}`);
    for (let i = 0; i < 3; i++) await timedSend(panelId);
    const samples = [];
    for (let i = 0; i < SAMPLES; i++) {
      const { panelMs, networkMs, totalMs } = await timedSend(panelId);
      samples.push({ panelMs, networkMs, totalMs });
    }
    console.log(`send-panel samples: ${JSON.stringify(samples)}`);
    console.log(`send-panel loads: ${JSON.stringify(loadTimes(Object.keys(firstSendBundles)))}`);
  } finally {
    await vscode.workspace.fs.delete(fixtureUri(ENV_FILE));
    await sandbox.close();
    fs.rmSync(kept.stateDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  const file = fixtureUri(WINDOW_1);
  const kept = await Promise.resolve(vscode.workspace.fs.readFile(file)).then(
    (bytes) => JSON.parse(new TextDecoder().decode(bytes)) as Parameters<typeof today>[0],
    () => undefined,
  );
  if (kept) return today(kept);
  await lastWeek();
  // The reload ends this extension host; the next one runs window 2. This run never settles.
  return new Promise<void>(() => undefined);
}
