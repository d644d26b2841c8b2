import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import type { PanelEntry } from '../../src/core/panel/protocol';
import type { TradeReqApi } from '../../src/extension/extension';
import { resultKey } from '../../src/extension/testing';
import { tradereqApi, waitFor } from './helpers';

/** The workspace folder named `name` (the suite runs in a multi-root workspace: the fixtures, alpha, beta). */
function folder(name: string): vscode.Uri {
  const f = vscode.workspace.workspaceFolders?.find((w) => w.name === name);
  assert.ok(f, `workspace folder ${name} (open: ${vscode.workspace.workspaceFolders?.map((w) => w.name).join(', ')})`);
  return f.uri;
}

const file = (dir: string, ...rel: string[]): vscode.Uri => vscode.Uri.joinPath(folder(dir), ...rel);

suite('Testing view: request files as tests in a multi-root workspace', () => {
  let api: TradeReqApi;
  let alpha: Sandbox;
  let beta: Sandbox;
  let stateDir: string;
  const previousStateDir = process.env['TRADEREQ_STATE_DIR'];

  const items = (): vscode.TestItem[] => {
    const list: vscode.TestItem[] = [];
    api.testing.controller.items.forEach((i) => list.push(i));
    return list;
  };
  const fileItem = (uri: vscode.Uri): vscode.TestItem | undefined => api.testing.controller.items.get(uri.toString());
  const children = (item: vscode.TestItem): vscode.TestItem[] => {
    const list: vscode.TestItem[] = [];
    item.children.forEach((c) => list.push(c));
    return list;
  };
  const result = (uri: vscode.Uri, id: string) => api.testing.results.get(resultKey({ uri, id } as vscode.TestItem));

  /** Runs `include` with a profile, as the Testing view does; resolves when the run has ended. */
  async function run(
    profile: vscode.TestRunProfile,
    include: readonly vscode.TestItem[],
    token = new vscode.CancellationTokenSource().token,
  ): Promise<void> {
    await profile.runHandler(new vscode.TestRunRequest(include, undefined, profile), token);
  }

  async function reached(sandbox: Sandbox): Promise<string[]> {
    const log = (await (await fetch(`${sandbox.baseUrl}/_sandbox/requests`)).json()) as {
      method: string;
      path: string;
    }[];
    return log.map((e) => `${e.method} ${e.path}`);
  }

  async function writeEnv(
    dir: string,
    name: string,
    sandbox: Sandbox,
    extra: Record<string, unknown> = {},
  ): Promise<void> {
    const env = { [name]: { baseUrl: sandbox.baseUrl, variables: { desk: dir }, ...extra } };
    await vscode.workspace.fs.writeFile(file(dir, 'tradereq.env.json'), new TextEncoder().encode(JSON.stringify(env)));
  }

  suiteSetup(async () => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-testing-state-'));
    process.env['TRADEREQ_STATE_DIR'] = stateDir;
    [alpha, beta] = await Promise.all([startSandbox({ port: 0 }), startSandbox({ port: 0 })]);
    await writeEnv('alpha', 'alpha-local', alpha);
    await writeEnv('beta', 'beta-local', beta);
    api = await tradereqApi();
    await api.testing.discoverAll();
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('tradereq.stopSandbox');
    await Promise.all([alpha?.close(), beta?.close()]);
    if (previousStateDir === undefined) delete process.env['TRADEREQ_STATE_DIR'];
    else process.env['TRADEREQ_STATE_DIR'] = previousStateDir;
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  test('every .tradereq file of every folder is listed, found without opening it; each request an item with its range', () => {
    const labels = items().map((i) => i.label);
    for (const l of [
      'alpha/market.tradereq',
      'alpha/nested/deeper.tradereq',
      'beta/checks.tradereq',
      'workspace/example.tradereq',
    ])
      assert.ok(labels.includes(l), `${l} is listed (listed: ${labels.join(', ')})`);
    const market = fileItem(file('alpha', 'market.tradereq'));
    assert.ok(market);
    assert.ok(
      !vscode.workspace.textDocuments.some((d) => d.uri.toString() === market.uri?.toString()),
      'found without opening the file',
    );
    assert.deepEqual(
      children(market).map((c) => [c.id, c.label, c.range?.start.line, c.range?.end.line]),
      [
        ['#1', 'Connectivity', 2, 4],
        ['name:time', 'Server time', 6, 8],
        ['#3', 'Symbols', 10, 11],
      ],
    );
    assert.equal(children(market)[1]!.uri?.toString(), market.uri?.toString());
  });

  test('the list follows the files: a new file appears, an edit on disk changes its requests, an edit in the editor too, a deleted file goes', async () => {
    const uri = file('beta', 'later.tradereq');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode('### One\nGET /api/v3/ping\n'));
    await waitFor('the new file in the list', () => fileItem(uri) && children(fileItem(uri)!).length === 1);
    await vscode.workspace.fs.writeFile(
      uri,
      new TextEncoder().encode('### One\nGET /api/v3/ping\n\n### Two\nGET /api/v3/time\n'),
    );
    await waitFor(
      'its second request',
      () =>
        children(fileItem(uri)!)
          .map((c) => c.label)
          .join() === 'One,Two',
    );
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, new vscode.Position(0, 0), '### Zero\nGET /api/v3/time\n\n');
    await vscode.workspace.applyEdit(edit);
    await waitFor(
      'the unsaved edit in the list',
      () =>
        children(fileItem(uri)!)
          .map((c) => c.label)
          .join() === 'Zero,One,Two',
    );
    assert.equal(children(fileItem(uri)!)[1]!.range?.start.line, 3, 'ranges follow the edit');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await waitFor('the file as on disk again once the edit is discarded', () => children(fileItem(uri)!).length === 2);
    await vscode.workspace.fs.delete(uri);
    await waitFor('the deleted file gone from the list', () => !fileItem(uri));
  });

  test('run against the sandbox: a passing request passes; a failing one fails with the expectation, the decoded code and the answer, at its # @expect line', async () => {
    const checks = fileItem(file('beta', 'checks.tradereq'))!;
    await run(api.testing.sandboxProfile, [checks]);
    const uri = checks.uri!;
    assert.deepEqual(result(uri, '#1'), { state: 'passed', messages: [] });
    const failed = result(uri, '#2');
    assert.equal(failed?.state, 'failed');
    assert.equal(failed?.messages.length, 1, 'one message: the one unmet expectation');
    const [m] = failed.messages;
    assert.equal(m!.line, 8, 'at the "# @expect code 30002" line');
    assert.match(m!.text, /^Expected @expect code 30002, got code -2011\n400 rejected: -2011 Unknown order sent/);
    assert.match(m!.text, /\n\nResponse:\n400 [^\n]*\n(.*\n)*\{\n {2}"code": -2011/);
    // The assertion language (matches loads dist/re2.js): the one unmet line of four, at its line, expected and actual side by side.
    const forms = result(uri, '#3');
    assert.equal(forms?.state, 'failed');
    assert.equal(forms.messages.length, 1, 'status < 300, serverTime > 0 and matches passed');
    const [f] = forms.messages;
    assert.equal(f!.line, 17, 'at the "# @expect json serverTime == 1" line');
    assert.match(f!.text, /^Expected @expect json serverTime == 1, got serverTime = \d{13}\n200 /);
    assert.equal(f!.expectedOutput, '1');
    assert.match(f!.actualOutput ?? '', /^\d{13}$/);
    assert.ok(api.testing.sandboxUrl(), 'the run started the embedded sandbox');
    assert.deepEqual(await reached(beta), [], 'nothing went to the environment of the file');
  });

  test('# @expect snapshot: a mismatch is a message at its line that opens VS Code\'s diff (snapshot vs answer); "Update Snapshots" writes it, then the run passes', async () => {
    const uri = file('beta', 'snap.tradereq');
    const snapshot = file('beta', '__snapshots__', 'snap.tradereq.snap.json');
    const stale = { version: 1, snapshots: { '#1': { status: 200, body: { serverTime: 1, retired: true } } } };
    await vscode.workspace.fs.writeFile(snapshot, new TextEncoder().encode(JSON.stringify(stale)));
    await vscode.workspace.fs.writeFile(
      uri,
      new TextEncoder().encode('# @expect snapshot\n\n### Time\nGET /api/v3/time\n'),
    );
    try {
      const item = await waitFor('the new file in the list', () => fileItem(uri));
      await waitFor('its request', () => children(item).length === 1);
      await run(api.testing.sandboxProfile, [item]);
      const failed = result(uri, '#1');
      assert.equal(failed?.state, 'failed');
      const [m] = failed.messages;
      assert.equal(m?.line, 0, 'at the "# @expect snapshot" line');
      assert.match(
        m?.text ?? '',
        /^Expected @expect snapshot, got an answer unlike its snapshot \(#1 in beta\/__snapshots__\/snap\.tradereq\.snap\.json\); run "TradeReq: Update Snapshots"/,
      );
      assert.equal(
        m?.expectedOutput,
        '{\n  "status": 200,\n  "body": {\n    "serverTime": "<serverTime>",\n    "retired": true\n  }\n}\n',
      );
      assert.equal(m?.actualOutput, '{\n  "status": 200,\n  "body": {\n    "serverTime": "<serverTime>"\n  }\n}\n');
      await vscode.commands.executeCommand('tradereq.updateSnapshots', children(item)[0]);
      assert.equal(result(uri, '#1')?.state, 'passed', 'updated');
      const written = new TextDecoder().decode(await vscode.workspace.fs.readFile(snapshot));
      assert.match(
        written,
        /"request": "Time",\n {6}"status": 200,\n {6}"body": \{\n {8}"serverTime": "<serverTime>"\n/,
      );
      await run(api.testing.sandboxProfile, [item]);
      assert.deepEqual(result(uri, '#1'), { state: 'passed', messages: [] });
    } finally {
      await vscode.workspace.fs.delete(file('beta', '__snapshots__'), { recursive: true });
      await vscode.workspace.fs.delete(uri);
    }
  });

  test('run against the selected environment: each file uses the tradereq.env.json of its own folder, or the nearest above it', async () => {
    const market = fileItem(file('alpha', 'market.tradereq'))!;
    const deeper = fileItem(file('alpha', 'nested', 'deeper.tradereq'))!;
    const checks = fileItem(file('beta', 'checks.tradereq'))!;
    await run(api.testing.environmentProfile, [market, deeper, children(checks)[0]!]);
    assert.deepEqual(result(market.uri!, 'name:time')?.state, 'passed');
    assert.deepEqual(result(deeper.uri!, '#1')?.state, 'passed');
    assert.deepEqual(result(checks.uri!, '#1')?.state, 'passed');
    assert.deepEqual(await reached(alpha), [
      'GET /api/v3/ping',
      'GET /api/v3/time',
      'GET /api/v3/exchangeInfo',
      'GET /api/v3/ping',
    ]);
    assert.deepEqual(await reached(beta), ['GET /api/v3/ping']);
  });

  test('the environment picker shows which folder each environment comes from', async () => {
    const choices = await api.environmentChoices();
    const alphaLocal = choices.find((c) => c.label === 'alpha-local');
    const betaLocal = choices.find((c) => c.label === 'beta-local');
    assert.equal(alphaLocal?.description, `alpha · ${alpha.baseUrl}`);
    assert.equal(betaLocal?.description, `beta · ${beta.baseUrl}`);
  });

  test('a request that needs confirmation is not sent without it, and the rest of its file is not run', async () => {
    const guarded = fileItem(file('alpha', 'guarded.tradereq'))!;
    const before = (await reached(alpha)).length;
    await run(api.testing.environmentProfile, [guarded]);
    const refused = result(guarded.uri!, '#1');
    assert.equal(refused?.state, 'errored');
    assert.match(refused?.messages[0]?.text ?? '', /needs confirmation/);
    assert.equal(result(guarded.uri!, '#2')?.state, 'skipped');
    assert.match(result(guarded.uri!, '#2')?.messages[0]?.text ?? '', /^not run: an earlier request was refused/);
    assert.equal((await reached(alpha)).length, before, 'nothing was sent');
  });

  test('a request with errors that check finds is not sent (issue 34): failed with the findings, the rest of its file runs', async () => {
    const uri = file('alpha', 'check-first.tradereq');
    const text =
      '### Sell\nPOST /api/v3/order\nsymbol = BTCUSDT\nside = sell\ntype = LIMIT\nquantity = 1\n\n### Ping\nGET /api/v3/ping\n';
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    try {
      const item = await waitFor('the new file in the list', () => {
        const f = fileItem(uri);
        return f && children(f).length === 2 ? f : undefined;
      });
      const before = await reached(alpha);
      await run(api.testing.environmentProfile, [item]);
      const blocked = result(uri, '#1');
      assert.equal(blocked?.state, 'failed', 'failed as bad input, as tradereq test does');
      assert.match(blocked?.messages[0]?.text ?? '', /^Not sent: check found errors the service would refuse/);
      assert.match(blocked?.messages[0]?.text ?? '', /Line 4: .*side.*\n/s);
      assert.equal(result(uri, '#2')?.state, 'passed');
      assert.deepEqual((await reached(alpha)).slice(before.length), ['GET /api/v3/ping'], 'only the ping was sent');
    } finally {
      await vscode.workspace.fs.delete(uri);
    }
  });

  test('a # @data request shows its rows as child items; running it runs each row against the sandbox, and a row runs alone', async () => {
    const uri = file('beta', 'data', 'rows.tradereq');
    const csv = file('beta', 'data', 'cases.csv');
    const write = (u: vscode.Uri, text: string) => vscode.workspace.fs.writeFile(u, new TextEncoder().encode(text));
    await write(csv, 'symbol,side\r\nBTCUSDT,BUY\r\nNOSUCHPAIR,SELL\r\n');
    await write(
      uri,
      '###\n# @name buy\n# @data cases.csv\nPOST /api/v3/order\nsymbol = {{symbol}}\nside = {{side}}\ntype = LIMIT\nquantity = 0.001\nprice = 20000\n',
    );
    try {
      await waitFor('the rows as child items', () => fileItem(uri)?.children.get('name:buy')?.children.size === 2);
      const buy = fileItem(uri)!.children.get('name:buy')!;
      assert.deepEqual(
        children(buy).map((c) => [c.id, c.label, c.range?.start.line]),
        [
          ['name:buy#row1', 'row 1: symbol=BTCUSDT, side=BUY', 0],
          ['name:buy#row2', 'row 2: symbol=NOSUCHPAIR, side=SELL', 0],
        ],
      );
      assert.equal(buy.description, '2 rows of cases.csv');
      await run(api.testing.sandboxProfile, [buy]);
      assert.equal(result(uri, 'name:buy#row1')?.state, 'passed');
      assert.equal(result(uri, 'name:buy#row2')?.state, 'failed');
      assert.match(result(uri, 'name:buy#row2')?.messages[0]?.text ?? '', /\n400 rejected: 10007 /);
      await run(api.testing.sandboxProfile, [children(buy)[0]!]);
      assert.equal(result(uri, 'name:buy#row1')?.state, 'passed');
      assert.equal(result(uri, 'name:buy#row2'), undefined, 'only the row chosen ran');
    } finally {
      await vscode.workspace.fs.delete(file('beta', 'data'), { recursive: true });
    }
  });

  // Issue 34, point 2: before, `{{...}}` in an expectation was compared as its literal text and failed on every row.
  test("{{variables}} in # @expect lines: the editor's Send judges them resolved in the panel's lines, and the Testing view on every row", async () => {
    const dir = file('beta', 'expect-vars');
    const uri = file('beta', 'expect-vars', 'vars.tradereq');
    const write = (u: vscode.Uri, text: string) => vscode.workspace.fs.writeFile(u, new TextEncoder().encode(text));
    await write(file('beta', 'expect-vars', 'one.csv'), 'symbol\nETHUSDT\n');
    await write(file('beta', 'expect-vars', 'two.csv'), 'symbol\nBTCUSDT\nETHUSDT\n');
    const price = (csv: string) =>
      `# @data ${csv}\n# @expect json symbols[0].symbol == {{symbol}}\nGET /api/v3/exchangeInfo\nsymbol = {{symbol}}\n`;
    await write(
      uri,
      [
        '@quote = USDT',
        '### Time\n# @name time\nGET /api/v3/time',
        '### Later\n# @expect json serverTime >= {{time.response.serverTime}}\n# @expect json serverTime != {{quote}}\nGET /api/v3/time',
        `### One row\n${price('one.csv')}`,
        `### Rows\n${price('two.csv')}`,
      ].join('\n\n'),
    );
    try {
      const send = (index: number) =>
        vscode.commands.executeCommand<PanelEntry | undefined>('tradereq.sendRequest', uri, index);
      assert.equal((await send(0))?.outcome, 'ok');
      const later = await send(1);
      assert.deepEqual(
        later?.expectations.map((e) => [e.text.replace(/\d{13}/, 'T'), e.passed]),
        [
          ['@expect json serverTime >= T', true],
          ['@expect json serverTime != USDT', true],
        ],
        JSON.stringify(later?.expectations),
      );
      const row = await send(2);
      assert.deepEqual(
        row?.expectations.map((e) => [e.text, e.passed]),
        [['@expect json symbols[0].symbol == ETHUSDT', true]],
        JSON.stringify(row?.expectations),
      );
      await waitFor('the rows as child items', () => fileItem(uri)?.children.get('#4')?.children.size === 2);
      await run(api.testing.sandboxProfile, [fileItem(uri)!]);
      for (const id of ['name:time', '#2', '#3#row1', '#4#row1', '#4#row2'])
        assert.equal(result(uri, id)?.state, 'passed', `${id}: ${JSON.stringify(result(uri, id)?.messages)}`);
    } finally {
      await vscode.workspace.fs.delete(dir, { recursive: true });
    }
  });

  test('tradereq.testing.pace: a run waits until the request fits under that fraction of its budget; cancelling ends the wait, nothing sent', async () => {
    const checks = fileItem(file('beta', 'checks.tradereq'))!;
    const config = vscode.workspace.getConfiguration('tradereq');
    await config.update('testing.pace', 0.8, vscode.ConfigurationTarget.Global);
    const pings = async (): Promise<number> => (await reached(beta)).filter((r) => r === 'GET /api/v3/ping').length;
    const before = await pings();
    try {
      // 400 weight counted against beta's IP just now: a ping fits the gate's 500, but under 80 % of
      // it only in 10 s, when that weight leaves the window. Unpaced, it would be sent at once.
      // The state file the editor's budget counts in: its folder is the one it saw when it first loaded.
      const statePath = api.testing.stateFile();
      const text = fs.existsSync(statePath) ? fs.readFileSync(statePath, 'utf8') : '{"version":1,"origins":{}}';
      const state = JSON.parse(text) as { origins: Record<string, { ip?: unknown[] }> };
      const origin = new URL(beta.baseUrl).origin;
      state.origins[origin] = { ...state.origins[origin], ip: [[Date.now(), 400]] };
      fs.mkdirSync(path.dirname(statePath), { recursive: true });
      fs.writeFileSync(statePath, JSON.stringify(state));
      const cancel = new vscode.CancellationTokenSource();
      const running = run(api.testing.environmentProfile, [children(checks)[0]!], cancel.token);
      await waitFor('the request to start', () => result(checks.uri!, '#1')?.state === 'started');
      cancel.cancel();
      await running;
    } finally {
      await config.update('testing.pace', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.deepEqual(result(checks.uri!, '#1'), {
      state: 'skipped',
      messages: [{ text: 'not run: the run was cancelled' }],
    });
    assert.equal(await pings(), before, 'the paced request was not sent');
  });

  test('cancelling a run stops it between requests: the request under way ends, the others are skipped', async () => {
    const market = fileItem(file('alpha', 'market.tradereq'))!;
    const sandbox = api.testing.sandboxUrl();
    assert.ok(sandbox, 'the sandbox of the earlier run still runs');
    const latency = async (ms: number): Promise<void> => {
      const res = await fetch(`${sandbox}/_sandbox/latency`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ms }),
      });
      assert.equal(res.status, 200);
    };
    await latency(600);
    try {
      const cancel = new vscode.CancellationTokenSource();
      const running = run(api.testing.sandboxProfile, [market], cancel.token);
      await waitFor('the first request to start', () => result(market.uri!, '#1')?.state === 'started');
      cancel.cancel();
      await running;
      assert.equal(result(market.uri!, '#1')?.state, 'passed', 'the request under way ended');
      assert.equal(result(market.uri!, 'name:time')?.state, 'skipped');
      assert.equal(result(market.uri!, '#3')?.state, 'skipped');
    } finally {
      await latency(0);
    }
  });
});
