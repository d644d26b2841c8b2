// Answers the size the public deployment sends, in the real extension host (issue 33, point 7): the
// sandbox, in this process, lists 2,500 more symbols in exchangeInfo in the deployment's documented
// shape (test/support/exchange-info.ts, ~1.4 MiB, over the former 1 MiB bound). Symbol completion
// offers them, and Send shows the answer in the response panel as JSON, pretty-printed and cut to
// what an entry keeps.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import type { TradeReqApi } from '../../src/extension/extension';
import type { PanelEntry } from '../../src/core/panel/protocol';
import { listedSymbol, listedSymbolName } from '../support/exchange-info';
import {
  completionsAt,
  fixtureUri,
  labelOf,
  openWithCursor,
  tradereqApi,
  waitFor,
  useBuiltInEnvironment,
  useOnlyEnvironment,
} from './helpers';

const LISTED = 2_500;
// The request of sending.tradereq that asks for exchangeInfo.
const EXCHANGE_INFO = 2;

suite('answers the size the deployment sends', () => {
  let sandbox: Sandbox;
  let api: TradeReqApi;
  let stateDir: string;
  const previousStateDir = process.env['TRADEREQ_STATE_DIR'];

  suiteSetup(async () => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-state-'));
    process.env['TRADEREQ_STATE_DIR'] = stateDir;
    const symbols: object[] = [];
    for (let i = 0; i < LISTED; i++) symbols.push(listedSymbol(i));
    sandbox = await startSandbox({ port: 0, listedSymbols: symbols });
    api = await tradereqApi();
    await useOnlyEnvironment('large-answers', { baseUrl: sandbox.baseUrl, key: 'sandbox' });
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await useBuiltInEnvironment();
    await sandbox?.close();
    if (previousStateDir === undefined) delete process.env['TRADEREQ_STATE_DIR'];
    else process.env['TRADEREQ_STATE_DIR'] = previousStateDir;
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  test("symbol completion offers every symbol of the environment's 2,500-symbol exchangeInfo", async () => {
    const { doc, position } = await openWithCursor('POST /api/v3/order\nsymbol = |');
    const last = listedSymbolName(LISTED - 1);
    const items = await waitFor(`${last} among the symbols offered`, async () => {
      const all = await completionsAt(doc.uri, position);
      return all.some((i) => labelOf(i) === last) ? all : undefined;
    });
    const labels = new Set(items.map(labelOf));
    for (const symbol of ['BTCUSDT', listedSymbolName(0), listedSymbolName(1234), last])
      assert.ok(labels.has(symbol), `${symbol} is offered`);
  });

  test('Send shows the answer in the panel as JSON, pretty-printed and cut to what an entry keeps', async () => {
    const entry = await vscode.commands.executeCommand<PanelEntry | undefined>(
      'tradereq.sendRequest',
      fixtureUri('sending.tradereq'),
      EXCHANGE_INFO,
    );
    assert.ok(entry, 'the request was sent');
    const current = api.panelState()?.current;
    assert.ok(current?.response, 'the panel shows the answer');
    assert.equal(current.id, entry.id);
    assert.equal(current.outcome, 'ok', current.summary);
    const r = current.response;
    assert.ok(r.bytes > 1024 * 1024, `the answer is over 1 MiB (${r.bytes} bytes)`);
    assert.equal(r.isJson, true, 'shown as JSON');
    assert.equal(r.truncated, true, 'cut to what an entry keeps');
    assert.ok(r.body.startsWith('{\n  "timezone": "UTC",\n  "serverTime": '), r.body.slice(0, 100));
    assert.ok(r.body.length < 80 * 1024, `${r.body.length} characters kept`);
  });
});
