// Answers stay in their file and environment (issue 31, point 2), in the real extension host:
// {{NAME.response.PATH}} reads the answer of the request of that name in the same file, sent in
// the same environment to the same origin (docs/format.md, Variables), for Send, Sign only and
// Connect alike; the Testing view's runs keep their answers for the run only, as `tradereq test`
// does, and run the requests a chosen one reads. The sandbox runs in this process, on the origin
// the key profile "sandbox" is bound to when an earlier suite stored it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startSandbox, type LogEntry, type Sandbox } from '../../src/sandbox';
import type { TradeReqApi } from '../../src/extension/extension';
import type { PanelEntry } from '../../src/core/panel/protocol';
import { resultKey } from '../../src/extension/testing';
import {
  fixtureUri,
  listedKeyProfiles,
  tradereqApi,
  tradereqLogContaining,
  waitFor,
  ENV_FILE,
  useOnlyEnvironment,
} from './helpers';

const FILE_A = 'answers-a.tradereq';
const FILE_B = 'answers-b.tradereq';
// Requests of both files, by position.
const BUY = 0;
const CANCEL = 1;
const TRADES = 2;
const ORDERS = `# Chaining in one file (integration test). No secrets in this file.
### Buy
# @name buy
POST /api/v3/order
symbol = BTCUSDT
side = BUY
type = LIMIT
timeInForce = GTC
quantity = 0.001
price = 29000

### Cancel it
# @name cancel
DELETE /api/v3/order
symbol = BTCUSDT
orderId = {{buy.response.orderId}}

### Trades of what was bought
WS /ws
[subscribe]
spot@public.deals.v3.api@{{buy.response.symbol}}
`;
const NO_ANSWER = '{{buy.response.orderId}} needs a response of the request named "buy": send that request first';

suite('answers stay in their file and environment (issue 31, point 2)', () => {
  let sandbox: Sandbox;
  let api: TradeReqApi;
  let stateDir: string;
  const previousStateDir = process.env['TRADEREQ_STATE_DIR'];

  const send = (file: string, index: number): Thenable<PanelEntry | undefined> =>
    vscode.commands.executeCommand<PanelEntry | undefined>('tradereq.sendRequest', fixtureUri(file), index);
  const signOnly = (file: string, index: number): Thenable<string | undefined> =>
    vscode.commands.executeCommand<string | undefined>('tradereq.signOnly', fixtureUri(file), index);
  const sandboxLog = async (): Promise<string[]> =>
    ((await (await fetch(`${sandbox.baseUrl}/_sandbox/requests`)).json()) as LogEntry[]).map(
      (e) => `${e.method} ${e.path}`,
    );
  const orderIdOf = (entry: PanelEntry | undefined): string => {
    assert.equal(entry?.outcome, 'ok', entry?.summary);
    const id = (JSON.parse(entry.response?.body ?? '{}') as { orderId?: unknown }).orderId;
    assert.match(String(id), /^\d+$/, `an orderId: ${entry.response?.body}`);
    return String(id);
  };
  /** The query or body the cancel was sent with, as the panel shows it (the API key masked). */
  const sentWith = (entry: PanelEntry | undefined): URLSearchParams =>
    new URLSearchParams(`${entry?.request.url.split('?')[1] ?? ''}&${entry?.request.body ?? ''}`);
  /** How often the TradeReq output channel has said `text` so far. */
  const saidTimes = async (text: string): Promise<number> =>
    (await tradereqLogContaining(/(?:)/)).split(text).length - 1;

  /** The demo key as profile "sandbox": a sandbox on the origin a stored profile is bound to, else the key stored now. */
  async function sandboxWithDemoKey(): Promise<Sandbox> {
    const stored = (await listedKeyProfiles()).find((p) => p.profile === 'sandbox');
    const loopback = stored?.origins.find((o) => /^http:\/\/127\.0\.0\.1:\d+$/.test(o));
    assert.ok(stored === undefined || loopback, `profile "sandbox" is bound to loopback: ${stored?.origins.join()}`);
    return startSandbox({ port: loopback ? Number(new URL(loopback).port) : 0 });
  }

  async function storeDemoKeyIfMissing(): Promise<void> {
    if ((await listedKeyProfiles()).some((p) => p.profile === 'sandbox')) return;
    assert.equal(await send(FILE_A, BUY), undefined, 'nothing is sent without a key');
    await waitFor('the key profile "sandbox" stored', async () => {
      await vscode.commands.executeCommand('notification.acceptPrimaryAction');
      return (await listedKeyProfiles()).some((p) => p.profile === 'sandbox');
    });
  }

  /** One environment `name` at this suite's sandbox, the current one. */
  const useEnvironment = (name: string): Promise<void> =>
    useOnlyEnvironment(name, { baseUrl: sandbox.baseUrl, wsUrl: sandbox.wsUrl, key: 'sandbox' });

  suiteSetup(async () => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-answers-state-'));
    process.env['TRADEREQ_STATE_DIR'] = stateDir;
    api = await tradereqApi();
    for (const file of [FILE_A, FILE_B])
      await vscode.workspace.fs.writeFile(fixtureUri(file), new TextEncoder().encode(ORDERS));
    sandbox = await sandboxWithDemoKey();
    await useEnvironment('sandbox');
    await storeDemoKeyIfMissing();
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('tradereq.stopSandbox');
    for (const file of [ENV_FILE, FILE_A, FILE_B]) await vscode.workspace.fs.delete(fixtureUri(file));
    await sandbox?.close();
    if (previousStateDir === undefined) delete process.env['TRADEREQ_STATE_DIR'];
    else process.env['TRADEREQ_STATE_DIR'] = previousStateDir;
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  test('two files both name a request "buy": the cancel of file B never reads the order of file A (Send, Sign only, Connect)', async () => {
    const orderA = orderIdOf(await send(FILE_A, BUY));
    const before = (await sandboxLog()).length;
    const said = await saidTimes(NO_ANSWER);

    assert.equal(await send(FILE_B, CANCEL), undefined, "file B's cancel is not sent: its buy has no answer");
    await waitFor('the reason in the log', async () => (await saidTimes(NO_ANSWER)) > said);
    assert.equal(await signOnly(FILE_B, CANCEL), undefined, 'nor signed');
    const connected = await vscode.commands.executeCommand<string | undefined>(
      'tradereq.connect',
      fixtureUri(FILE_B),
      TRADES,
    );
    assert.equal(connected, undefined, "nor does file B's stream read A's answer");
    assert.deepEqual((await sandboxLog()).slice(before), [], 'nothing reached the sandbox');

    // Once B's own buy is answered, B's cancel reads it, and A's order stays A's.
    const orderB = orderIdOf(await send(FILE_B, BUY));
    assert.notEqual(orderB, orderA);
    assert.match((await signOnly(FILE_B, CANCEL)) ?? '', new RegExp(`orderId=${orderB}\\b`));
    const cancelB = await send(FILE_B, CANCEL);
    assert.equal(cancelB?.outcome, 'ok', cancelB?.summary);
    assert.equal(sentWith(cancelB).get('orderId'), orderB);
    const cancelA = await send(FILE_A, CANCEL);
    assert.equal(cancelA?.outcome, 'ok', cancelA?.summary);
    assert.equal(sentWith(cancelA).get('orderId'), orderA);
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  test('an answer of the environment "sandbox" is not read after switching to another environment, and is read again after switching back', async () => {
    const order = orderIdOf(await send(FILE_A, BUY));
    await useEnvironment('paper');
    try {
      const before = (await sandboxLog()).length;
      const said = await saidTimes(NO_ANSWER);
      assert.equal(await send(FILE_A, CANCEL), undefined, 'the order of "sandbox" is not cancelled from "paper"');
      await waitFor('the reason in the log', async () => (await saidTimes(NO_ANSWER)) > said);
      assert.deepEqual((await sandboxLog()).slice(before), [], 'nothing reached the sandbox');
    } finally {
      await useEnvironment('sandbox');
    }
    const cancel = await send(FILE_A, CANCEL);
    assert.equal(cancel?.outcome, 'ok', cancel?.summary);
    assert.equal(sentWith(cancel).get('orderId'), order);
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  test("the Testing view keeps a run's answers for that run only, as tradereq test does: a request run alone runs the one it reads first", async () => {
    await api.testing.discoverAll();
    const item = await waitFor('file A in the Testing view', () =>
      api.testing.controller.items.get(fixtureUri(FILE_A).toString()),
    );
    const uri = item.uri!;
    const result = (id: string) => api.testing.results.get(resultKey({ uri, id } as vscode.TestItem));
    const run = (include: vscode.TestItem[]) =>
      api.testing.sandboxProfile.runHandler(
        new vscode.TestRunRequest(include, undefined, api.testing.sandboxProfile),
        new vscode.CancellationTokenSource().token,
      );
    await run([item]);
    assert.equal(result('name:buy')?.state, 'passed', JSON.stringify(result('name:buy')));
    assert.equal(result('name:cancel')?.state, 'passed', JSON.stringify(result('name:cancel')));

    // Alone, the cancel does not read the last run's order (cancelled already): its buy runs first.
    await run([item.children.get('name:cancel')!]);
    assert.equal(result('name:buy')?.state, 'passed', 'the buy ran for its answer');
    assert.equal(result('name:cancel')?.state, 'passed', JSON.stringify(result('name:cancel')));
  });
});
