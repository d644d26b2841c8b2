// Sending from the editor in the real extension host: keys in SecretStorage, the origin binding,
// the response panel's state, the confirmation of orders, the gate after a 429, unknown outcomes.
// The sandbox runs in this process on a free port; a second plain HTTP server stands for a host
// the key must never reach. The UI tests (test/ui/sending.test.js) cover what needs a person:
// typing a key into the input boxes, clicking Send in the dialog, the panel as it looks.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startSandbox, SANDBOX_KEYS, type LogEntry, type Sandbox } from '../../src/sandbox';
import type { TradeReqApi } from '../../src/extension/extension';
import type { PanelEntry, PanelState } from '../../src/core/panel/protocol';
import {
  fixtureUri,
  listedKeyProfiles,
  tradereqApi,
  tradereqLogContaining,
  waitFor,
  ENV_FILE,
  useOnlyEnvironment,
} from './helpers';

const DEMO = SANDBOX_KEYS.find((k) => k.name === 'trade')!;
// Requests of sending.tradereq, by position.
const BUY = 0;
const EXCHANGE_INFO = 2;

/** A plain HTTP server that records every request it gets: a host the key must never reach. */
interface Recorder {
  readonly baseUrl: string;
  readonly requests: string[];
  close(): Promise<void>;
}

async function startRecorder(host = '127.0.0.1'): Promise<Recorder> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ serverTime: Date.now() }));
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://${host}:${port}`,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Every file under `dir` (the workspace, the state folder), as text. */
function filesUnder(dir: string): { file: string; text: string }[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name))
    .map((file) => ({ file, text: fs.readFileSync(file, 'latin1') }));
}

/** The signature doctor's report open in an editor (a `tradereq-doctor:` document), if one is. */
function doctorReport(): vscode.TextEditor | undefined {
  return vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'tradereq-doctor');
}

async function closeDoctorReports(): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'tradereq-doctor');
  await vscode.window.tabGroups.close(tabs);
  // The keyboard back in the first group: the response panel beside would take it, and close a later quick pick.
  await vscode.commands.executeCommand('workbench.action.focusFirstEditorGroup');
}

/** A request file of the fixture workspace, written for one test (deleted by it). */
async function writeFixture(name: string, text: string): Promise<void> {
  await vscode.workspace.fs.writeFile(fixtureUri(name), new TextEncoder().encode(text));
}

suite('sending from the editor, in the real extension host', () => {
  let sandbox: Sandbox;
  let elsewhere: Recorder;
  let api: TradeReqApi;
  let stateDir: string;
  const previousStateDir = process.env['TRADEREQ_STATE_DIR'];

  const sandboxLog = async (): Promise<LogEntry[]> =>
    (await fetch(`${sandbox.baseUrl}/_sandbox/requests`)).json() as Promise<LogEntry[]>;
  const control = async (what: string, body: unknown): Promise<void> => {
    const res = await fetch(`${sandbox.baseUrl}/_sandbox/${what}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal(res.status, 200, `POST /_sandbox/${what}: ${await res.text()}`);
  };
  const send = (file: string, index: number): Thenable<PanelEntry | undefined> =>
    vscode.commands.executeCommand<PanelEntry | undefined>('tradereq.sendRequest', fixtureUri(file), index);
  const panel = (): PanelState => {
    const state = api.panelState();
    assert.ok(state, 'the response panel has a state');
    return state;
  };

  /** One environment `name` at the sandbox (so it is the current one), with `fields` of its own. */
  const useEnvironment = (name: string, fields: Record<string, unknown>): Promise<void> =>
    useOnlyEnvironment(name, { baseUrl: sandbox.baseUrl, key: 'sandbox', ...fields }, { elsewhere: elsewhere.baseUrl });

  suiteSetup(async () => {
    // The budget and the gate persist per origin in this folder: a fresh one, not the user's.
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-state-'));
    process.env['TRADEREQ_STATE_DIR'] = stateDir;
    [sandbox, elsewhere] = await Promise.all([startSandbox({ port: 0 }), startRecorder()]);
    api = await tradereqApi();
    await useEnvironment('test-sandbox', {});
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.workspace.fs.delete(fixtureUri(ENV_FILE));
    await Promise.all([sandbox?.close(), elsewhere?.close()]);
    if (previousStateDir === undefined) delete process.env['TRADEREQ_STATE_DIR'];
    else process.env['TRADEREQ_STATE_DIR'] = previousStateDir;
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  test('with no key stored, a signed request sends nothing and offers the sandbox demo key; accepting stores it in SecretStorage, bound to the origin', async () => {
    assert.deepEqual(await listedKeyProfiles(), [], 'no key profile is stored at the start');
    assert.equal(await send('sending.tradereq', BUY), undefined, 'nothing is sent without a key');
    assert.deepEqual(await sandboxLog(), [], 'nothing reached the sandbox, not even the clock measurement');

    // The warning's button, "Store the Sandbox Demo Key", as Ctrl+Shift+A presses it (the newest
    // notification's first button; the ones that follow have none).
    const origin = new URL(sandbox.baseUrl).origin;
    const listed = await waitFor('the key profile "sandbox" in List API Keys', async () => {
      await vscode.commands.executeCommand('notification.acceptPrimaryAction');
      const l = await listedKeyProfiles();
      return l.length > 0 ? l : undefined;
    });
    // Profile, origins and the API key masked as everywhere (its last four characters): no value of a key.
    assert.deepEqual(listed, [
      // The demo key never asks: nothing real is at stake with it.
      { profile: 'sandbox', origins: [origin], maskedApiKey: `****${DEMO.apiKey.slice(-4)}`, asksBeforeTrades: false },
    ]);
    const log = await tradereqLogContaining(`stored key profile "sandbox" bound to ${origin}`);
    assert.ok(!log.includes(DEMO.secretKey) && !log.includes(DEMO.apiKey), `the log holds no key value:\n${log}`);
  });

  test('a signed request to an origin the profile is not bound to is refused, and nothing reaches that server, not even the clock measurement', async () => {
    const origin = new URL(elsewhere.baseUrl).origin;
    assert.equal(await send('elsewhere.tradereq', 0), undefined, 'nothing is sent');
    await tradereqLogContaining(`not sent: key profile "sandbox" may not be sent to ${origin}`);
    assert.deepEqual(elsewhere.requests, [], 'the other server got nothing');
    assert.deepEqual(await sandboxLog(), [], 'the sandbox got nothing either');
    // Binding needs an explicit confirmation: the profile is still bound to the sandbox only.
    assert.deepEqual(await listedKeyProfiles(), [
      {
        profile: 'sandbox',
        origins: [new URL(sandbox.baseUrl).origin],
        maskedApiKey: `****${DEMO.apiKey.slice(-4)}`,
        asksBeforeTrades: false,
      },
    ]);
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  test('Send through the command: the panel state holds the accepted order, status 200, the budget left and the API key masked', async () => {
    const entry = await send('sending.tradereq', BUY);
    assert.ok(entry, 'the request was sent');
    const state = panel();
    const current = state.current;
    assert.ok(current, 'the panel shows an entry');
    assert.equal(current.id, entry.id, 'the entry shown is the one just sent');
    assert.equal(current.outcome, 'ok', current.summary);
    assert.equal(current.status, 200);
    assert.equal(current.environment, 'test-sandbox');
    assert.ok(current.response, 'the response is shown');
    const body = JSON.parse(current.response.body) as {
      orderId?: unknown;
      symbol?: unknown;
      clientOrderId?: unknown;
      status?: unknown;
    };
    assert.match(String(body.orderId), /^\d+$/, `the order has an orderId: ${current.response.body}`);
    assert.equal(body.status, 'NEW');
    assert.equal(body.symbol, 'BTCUSDT');
    assert.equal(
      body.clientOrderId,
      new URLSearchParams(current.request.body).get('newClientOrderId'),
      'the order carries the newClientOrderId that was sent',
    );

    // The budget of the sandbox's origin: the order weighs on the account counter.
    assert.ok(state.budget, 'the panel shows the budget');
    assert.equal(state.budget.origin, new URL(sandbox.baseUrl).origin);
    assert.equal(state.budget.ip.limit, 500);
    assert.ok(state.budget.uid, 'the account budget of a signed request is shown');
    assert.ok(state.budget.uid.used > 0 && state.budget.uid.remaining < 500, JSON.stringify(state.budget.uid));

    // The API key header as sent, masked; no key value anywhere in the state.
    const apiKeyHeader = current.request.headers.find(([n]) => n.toLowerCase() === 'x-service-apikey');
    assert.ok(apiKeyHeader, `the API key header is listed: ${JSON.stringify(current.request.headers)}`);
    assert.equal(apiKeyHeader[1], `****${DEMO.apiKey.slice(-4)}`);
    const json = JSON.stringify(state);
    assert.ok(!json.includes(DEMO.apiKey), 'the API key is nowhere in the panel state');
    assert.ok(!json.includes(DEMO.secretKey), 'the secret key is nowhere in the panel state');

    // What reached the sandbox: the clock measurement, then the order.
    assert.deepEqual(
      (await sandboxLog()).map((e) => `${e.method} ${e.path} ${e.status}`),
      ['GET /api/v3/time 200', 'POST /api/v3/order 200'],
    );
    await tradereqLogContaining(`POST ${sandbox.baseUrl}/api/v3/order (test-sandbox) → 200 ok`);
  });

  test('Explain a Rejected Request (issue 22): a pasted cURL line signed over query + "&" + body with the demo key, selected in an untitled document, is diagnosed ampersand-join in a tradereq-doctor: document beside, with no key in it', async () => {
    const query = `symbol=BTCUSDT&recvWindow=5000&timestamp=${Date.now()}`;
    const body = 'side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=30000';
    // The mistake: an "&" between the query string and the body (§5 rule 4 joins them as they are).
    const signature = crypto.createHmac('sha256', DEMO.secretKey).update(`${query}&${body}`).digest('hex');
    const curl = `curl -X POST '${sandbox.baseUrl}/api/v3/order?${query}&signature=${signature}' -H 'X-SERVICE-APIKEY: ${DEMO.apiKey}' -d '${body}'`;
    const doc = await vscode.workspace.openTextDocument({ content: `# what my bot sent\n${curl}\n` });
    const editor = await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
    editor.selection = new vscode.Selection(1, 0, 1, curl.length);
    try {
      const returned = await vscode.commands.executeCommand<string | undefined>('tradereq.explainRejected');
      const report = await waitFor('the report beside', () => doctorReport()?.document);
      const text = report.getText();
      assert.equal(text, returned, 'the command resolves to the report it shows');
      assert.match(text, /^Cause: ampersand-join/, text);
      assert.ok(!text.includes(DEMO.secretKey) && !text.includes(DEMO.apiKey), `no key value in the report:\n${text}`);
      const log = await tradereqLogContaining('signature doctor: cause ampersand-join');
      assert.ok(!log.includes(signature) && !log.includes(DEMO.apiKey), 'the log holds no input');
    } finally {
      await closeDoctorReports();
      await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  test('after an injected 503 the outcome is unknown: "may have succeeded: check before retrying", with the order to query by its newClientOrderId', async () => {
    await control('fault', { status: 503, count: 1, path: '/api/v3/order' });
    const entry = await send('sending.tradereq', BUY);
    assert.ok(entry, 'the request was sent');
    const current = panel().current;
    assert.ok(current && current.id === entry.id, 'the panel shows the entry just sent');
    assert.equal(current.outcome, 'unknown', current.summary);
    assert.equal(current.status, 503);
    assert.match(current.summary, /may have succeeded: check before retrying/);
    const sentId = new URLSearchParams(current.request.body).get('newClientOrderId');
    assert.match(sentId ?? '', /^[A-Za-z0-9]{32}$/, 'a fresh {{$clientOrderId}} was sent');
    assert.equal(current.orderRef?.symbol, 'BTCUSDT');
    assert.equal(
      current.orderRef.origClientOrderId,
      sentId,
      'the one-click query looks the order up by the newClientOrderId sent',
    );
    // The sandbox carried the order out, then answered 503: a retry would have placed it twice.
    assert.deepEqual((await sandboxLog()).at(-1)?.status, 503);
    assert.equal(current.sendAgain, undefined, 'never Send again on an unknown outcome');
  });

  test('Compare Two Answers (issue 21): the panel’s compare message opens two sends side by side in the diff editor, as tradereq-answer: documents with no key in them; the diff’s title button masks their volatile fields', async () => {
    const first = await send('sending.tradereq', BUY);
    const second = await send('sending.tradereq', BUY);
    assert.ok(first?.outcome === 'ok' && second?.outcome === 'ok', 'two orders accepted');
    const answerDiffs = (): vscode.Tab[] =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.original.scheme === 'tradereq-answer');
    const sides = (tab: vscode.Tab): [vscode.Uri, vscode.Uri] => {
      const input = tab.input as vscode.TabInputTextDiff;
      return [input.original, input.modified];
    };
    const named = (uri: vscode.Uri): string => `${uri.scheme} ${new URLSearchParams(uri.query).toString()}`;
    const texts = async (tab: vscode.Tab): Promise<string[]> =>
      Promise.all(sides(tab).map(async (u) => (await vscode.workspace.openTextDocument(u)).getText()));
    try {
      // One send twice is no comparison: the extension refuses it, and opens nothing.
      api.panelMessage({ type: 'compare', left: first.id, right: first.id, mask: false });
      await tradereqLogContaining('Compare Two Answers: two different sends of the history are needed');
      assert.deepEqual(answerDiffs(), []);

      api.panelMessage({ type: 'compare', left: first.id, right: second.id, mask: false });
      const diff = await waitFor('the diff editor of the two answers', () => answerDiffs()[0]);
      assert.deepEqual(sides(diff).map(named), [
        `tradereq-answer id=${first.id}&mask=0`,
        `tradereq-answer id=${second.id}&mask=0`,
      ]);
      assert.match(diff.label, /^POST \/api\/v3\/order · test-sandbox · .* ↔ POST \/api\/v3\/order · test-sandbox · /);
      const [left, right] = await texts(diff);
      assert.match(left!, /^POST \/api\/v3\/order\nenvironment: test-sandbox\noutcome: ok\nstatus: 200 /);
      assert.notEqual(left, right, 'two orders differ as received: ids and times');
      for (const text of [left!, right!]) {
        assert.ok(!text.includes(DEMO.apiKey) && !text.includes(DEMO.secretKey), 'no key value in an answer document');
      }

      // The diff's title button: the same two sends, their volatile fields masked, in place of the first diff.
      await vscode.commands.executeCommand('tradereq.toggleAnswerMask');
      const masked = await waitFor('the masked diff', () =>
        answerDiffs().find((t) => named(sides(t)[0]).endsWith('mask=1')),
      );
      assert.equal(answerDiffs().length, 1, 'the masked diff replaced the other');
      assert.match(masked.label, /\(volatile fields masked\)$/);
      const [maskedLeft, maskedRight] = await texts(masked);
      assert.match(maskedLeft!, /"orderId": "<orderId>"/);
      assert.equal(maskedLeft, maskedRight, 'two orders alike but for ids and times read the same, masked');

      // Without the panel: the command, given two entries (else it asks for them in a quick pick).
      assert.equal(await vscode.commands.executeCommand('tradereq.compareAnswers', second.id, first.id), true);
      await waitFor('the diff of the command', () =>
        answerDiffs().some((t) => named(sides(t)[0]) === `tradereq-answer id=${second.id}&mask=0`),
      );
      // Without arguments it asks for the left answer, then the right one: the first item of each pick, the newest sends.
      await vscode.window.tabGroups.close(answerDiffs());
      let picked: unknown;
      void vscode.commands.executeCommand('tradereq.compareAnswers').then((r) => (picked = r));
      await waitFor('both picks taken', async () => {
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        return picked !== undefined;
      });
      assert.equal(picked, true);
      assert.deepEqual(
        answerDiffs().map((t) => sides(t).map(named)),
        [[`tradereq-answer id=${second.id}&mask=0`, `tradereq-answer id=${first.id}&mask=0`]],
      );
    } finally {
      await vscode.window.tabGroups.close(answerDiffs());
      await vscode.commands.executeCommand('notifications.clearAll');
    }
  });

  test("after the server clock jumps, a 700003 names the offset measured again and offers Send again; the panel's sendAgain message sends the request once more, once, and it goes through (issue 19, point 1)", async () => {
    await control('clock', { offsetMs: 30_000 });
    try {
      const refused = await send('sending.tradereq', BUY);
      assert.ok(refused, 'the request was sent');
      const current = panel().current;
      assert.ok(current && current.id === refused.id, 'the panel shows the entry just sent');
      assert.equal(current.error?.code, 700003, current.summary);
      assert.match(current.note ?? '', /measured again: your clock is \d+ ms behind the server/);
      assert.equal(current.sendAgain, true, 'Send again is offered');
      const before = (await sandboxLog()).length;

      api.panelMessage({ type: 'sendAgain', id: refused.id });
      const again = await waitFor('the request sent again', () => {
        const state = panel();
        return state.current && state.current.id !== refused.id && !state.busy ? state.current : undefined;
      });
      assert.equal(again.outcome, 'ok', again.summary);
      assert.equal(again.title, refused.title, 'the same request');
      const sent = (await sandboxLog()).slice(before).map((e) => `${e.method} ${e.path} ${e.status}`);
      assert.deepEqual(sent, ['POST /api/v3/order 200'], 'with the offset measured after the 700003');

      // Pressed once, sent once: the same message again sends nothing, and the entry no longer offers it.
      api.panelMessage({ type: 'sendAgain', id: refused.id });
      await tradereqLogContaining('Send again: that send can no longer be repeated from the panel');
      assert.equal((await sandboxLog()).length, before + 1);
      api.panelMessage({ type: 'show', id: refused.id });
      const shown = await waitFor('the 700003 entry shown again', () => {
        const c = panel().current;
        return c?.id === refused.id ? c : undefined;
      });
      assert.equal(shown.sendAgain, undefined, 'no Send again on a send already sent again');
    } finally {
      await control('clock', { offsetMs: 0 });
    }
  });

  test("Why? on a 700003 (issue 22): the panel's why message runs the signature doctor on what TradeReq signed and sent; the report names clock-window and says TradeReq signed it right", async () => {
    // A timestamp written in the request goes as written (clock sync leaves it): 2001 is far outside recvWindow.
    const file = await vscode.workspace.openTextDocument({
      language: 'tradereq',
      content: 'GET /api/v3/account\ntimestamp = 1000000000000\n',
    });
    try {
      const refused = await vscode.commands.executeCommand<PanelEntry | undefined>('tradereq.sendRequest', file.uri, 0);
      assert.equal(refused?.error?.code, 700003, refused?.summary);
      assert.equal(refused.request.keyProfile, 'sandbox', 'the entry keeps the profile that signed it');
      api.panelMessage({ type: 'why', id: refused.id });
      const text = (await waitFor('the report of Why?', () => doctorReport()?.document)).getText();
      assert.match(text, /^Cause: clock-window/, text);
      // Judged at the time the send was answered (issue 34, point 6), whenever Why? is asked.
      assert.match(text, /behind the server's time when it was answered \(by the answer's Date header/, text);
      assert.match(text, /700003/);
      assert.ok(!text.includes(DEMO.secretKey) && !text.includes(DEMO.apiKey), `no key value in the report:\n${text}`);
    } finally {
      await closeDoctorReports();
    }
  });

  test('an order to an environment with "confirm": true asks in a modal dialog naming method, path, symbol, side, quantity and price; refused, nothing is sent', async () => {
    await useEnvironment('guarded', { confirm: true });
    try {
      const before = (await sandboxLog()).length;
      const entry = await send('sending.tradereq', BUY);
      assert.equal(entry, undefined, 'nothing is sent without the confirmation');
      // In test mode the workbench refuses every modal dialog; the refusal, with the dialog's text, goes to the log.
      const log = await tradereqLogContaining(/confirmation dialog could not be shown/);
      assert.match(log, /refused to show dialog/, 'a modal dialog was asked for');
      assert.ok(
        log.includes('Send POST /api/v3/order: symbol BTCUSDT, side BUY, type LIMIT, quantity 0.001, price 30000?'),
        log,
      );
      assert.equal((await sandboxLog()).length, before, 'nothing reached the sandbox');
    } finally {
      await useEnvironment('test-sandbox', {});
    }
  });

  test('Send on a request with errors that check finds asks first (Send anyway / Cancel), naming them; refused as Cancel, nothing is sent', async () => {
    const file = 'check-errors.tradereq';
    await writeFixture(
      file,
      '### Sell in lower case\nPOST /api/v3/order\nsymbol = BTCUSDT\nside = sell\ntype = LIMIT\nquantity = 0.001\n',
    );
    try {
      const before = await sandboxLog();
      const history = panel().history.length;
      assert.equal(await send(file, 0), undefined, 'nothing is sent without Send anyway');
      // In test mode the workbench refuses every modal dialog (as Cancel); the refusal, with the question, goes to the log.
      const log = await tradereqLogContaining(/not sent: check found 2 error\(s\) in "Sell in lower case"/);
      assert.match(log, /question before sending despite errors could not be shown \(.*refused to show dialog/);
      assert.ok(
        log.includes(
          '"Sell in lower case" has 2 errors that check found: the service would refuse it. Send it anyway?',
        ),
        log,
      );
      assert.match(log, /\(enum-value, missing-param\)/, 'the findings are named by their rules');
      assert.deepEqual(await sandboxLog(), before, 'nothing reached the sandbox, not even the clock measurement');
      assert.equal(panel().history.length, history, 'nothing went into the history');
    } finally {
      await vscode.workspace.fs.delete(fixtureUri(file));
    }
  });

  test('a finding its own # @expect anticipates asks nothing: the request is sent, and the panel shows the rejection it asked for as passed', async () => {
    const file = 'expected-rejection.tradereq';
    await writeFixture(
      file,
      '### Sell in lower case, rejected on purpose\n# @expect code 33333\nPOST /api/v3/order\nsymbol = BTCUSDT\nside = sell\ntype = LIMIT\nquantity = 0.001\nprice = 30000\n',
    );
    try {
      const entry = await send(file, 0);
      assert.ok(entry, 'sent without a question: check downgrades the finding the request expects');
      const current = panel().current;
      assert.equal(current?.id, entry.id);
      assert.equal(current?.outcome, 'rejected', current?.summary);
      assert.equal(current?.error?.code, 33333);
      assert.equal(current?.expected, true, 'the panel shows it as the rejection the request asked for');
      assert.deepEqual(current?.expectations, [{ text: '@expect code 33333', passed: true, actual: 'code 33333' }]);
      assert.equal(panel().history[0]?.expected, true, 'the history list says so too');
    } finally {
      await vscode.workspace.fs.delete(fixtureUri(file));
    }
  });

  test('after a 429 the gate refuses the next send to that origin, and it never reaches the sandbox', async () => {
    await control('reset', {});
    // Fill the IP counter with direct requests: exchangeInfo weighs 10 of the 500 per 10 s.
    for (let i = 0; ; i++) {
      assert.ok(i < 50, 'the IP counter is full after 50 requests of weight 10');
      const res = await fetch(`${sandbox.baseUrl}/api/v3/exchangeInfo`);
      await res.arrayBuffer();
      assert.equal(res.status, 200);
      if (res.headers.get('x-service-used-weight-10s') === '500') break;
    }
    const first = await send('sending.tradereq', EXCHANGE_INFO);
    assert.ok(first, 'the first one is sent');
    let state = panel();
    assert.ok(state.current && state.current.id === first.id, 'the panel shows the first one');
    assert.equal(state.current.outcome, 'rejected', state.current.summary);
    assert.equal(state.current.status, 429);
    assert.ok(state.current.retryAtMs !== undefined && state.current.retryAtMs > Date.now(), 'the wait is known');
    assert.equal(state.budget?.blocked?.status, 429, 'the origin is blocked');
    const reached = (await sandboxLog()).length;

    const second = await send('sending.tradereq', EXCHANGE_INFO);
    assert.ok(second, 'the refusal is shown as an entry');
    state = panel();
    assert.ok(state.current && state.current.id === second.id, 'the panel shows the refusal');
    assert.equal(state.current.outcome, 'refused', state.current.summary);
    assert.equal(state.current.status, undefined, 'no HTTP status: nothing was sent');
    assert.match(state.current.summary, /^refused: The service asked to back off \(429\)/);
    // The panel's badge says "Refused": the reason it shows does not say it again.
    assert.match(state.current.reason ?? '', /^The service asked to back off \(429\)/);
    assert.equal(state.current.retryAtMs, first.retryAtMs, 'the same wait');
    const log = await sandboxLog();
    assert.equal(log.length, reached, 'the second request never reached the sandbox');
    assert.deepEqual(log.at(-1) && [log.at(-1)!.path, log.at(-1)!.status], ['/api/v3/exchangeInfo', 429]);
  });

  test('with http.proxy set, loopback is never proxied: a Send to 127.0.0.2 goes straight to its origin', async function () {
    // The rule of core/net/proxy.ts (docs/security.md, "Proxies"); the proxy's own path is test/integration/with-a-proxy.test.ts.
    const origin = await startRecorder('127.0.0.2').catch(() => undefined);
    if (!origin) return this.skip(); // no 127.0.0.2 on this machine's loopback (macOS)
    const proxy = await startRecorder();
    const http = vscode.workspace.getConfiguration('http');
    try {
      await http.update('proxy', proxy.baseUrl, vscode.ConfigurationTarget.Global);
      await waitFor(
        'the proxy setting in the extension host',
        () => vscode.workspace.getConfiguration('http').get('proxy') === proxy.baseUrl,
      );
      await useEnvironment('behind-a-proxy', { baseUrl: origin.baseUrl });
      const entry = await send('sending.tradereq', EXCHANGE_INFO);
      assert.equal(entry?.outcome, 'ok', entry?.summary);
      assert.deepEqual(origin.requests, ['GET /api/v3/exchangeInfo']);
      assert.deepEqual(proxy.requests, [], 'nothing went through the proxy');
    } finally {
      await http.update('proxy', undefined, vscode.ConfigurationTarget.Global);
      await useEnvironment('test-sandbox', {});
      await Promise.all([origin.close(), proxy.close()]);
    }
  });

  test('no key value is in any file of the workspace or of the state folder', () => {
    const files = [...filesUnder(vscode.workspace.workspaceFolders![0]!.uri.fsPath), ...filesUnder(stateDir)];
    assert.ok(
      files.some((f) => f.file.startsWith(stateDir)),
      'the state folder was written (budget, clock)',
    );
    for (const { file, text } of files) {
      assert.ok(!text.includes(DEMO.secretKey), `the secret key is not in ${file}`);
      assert.ok(!text.includes(DEMO.apiKey), `the API key is not in ${file}`);
    }
  });
});
