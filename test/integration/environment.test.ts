import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { STARTER_REQUESTS } from '../../src/core/env/starter';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import {
  completionsAt,
  fixtureUri,
  hoversAt,
  labelOf,
  openFixture,
  openWithCursor,
  rangeOf,
  tradereqApi,
  tradereqDiagnostics,
  waitFor,
  useBuiltInEnvironment,
  useOnlyEnvironment,
} from './helpers';

/** The variable completions after `{{` in a request of a fresh document. */
async function variableCompletions(): Promise<vscode.CompletionItem[]> {
  const { doc, position } = await openWithCursor(['GET /api/v3/openOrders', 'symbol = {{|'].join('\n'));
  return (await completionsAt(doc.uri, position)).filter((i) => i.kind === vscode.CompletionItemKind.Variable);
}

suite('environments: a tradereq.env.json pointing at the sandbox exchange', () => {
  let sandbox: Sandbox;

  suiteSetup(async () => {
    sandbox = await startSandbox({ port: 0 });
    await useOnlyEnvironment(
      'test-sandbox',
      { baseUrl: sandbox.baseUrl, key: 'sandbox' },
      { desk: 'demo-desk', symbol: 'ETHBTC' },
    );
  });

  suiteTeardown(async () => {
    await useBuiltInEnvironment();
    await sandbox.close();
  });

  test('a symbol from the exchangeInfo of the environment after "symbol = "', async () => {
    const { doc, position } = await openWithCursor(['POST /api/v3/order', 'symbol = |'].join('\n'));
    const symbols = await waitFor('LTCBTC from exchangeInfo among the symbol completions', async () => {
      const items = (await completionsAt(doc.uri, position)).filter(
        (i) => i.kind === vscode.CompletionItemKind.Constant,
      );
      return items.some((i) => labelOf(i) === 'LTCBTC') ? items : undefined;
    });
    for (const s of ['BTCUSDT', 'ETHUSDT', 'LTCBTC', 'ETHBTC'])
      assert.ok(
        symbols.some((i) => labelOf(i) === s),
        `${s} is offered`,
      );
    const ltc = symbols.find((i) => labelOf(i) === 'LTCBTC')!;
    assert.match(String(ltc.detail), /^LTC\/BTC · .*exchangeInfo of test-sandbox$/);
    const btc = symbols.find((i) => labelOf(i) === 'BTCUSDT')!;
    assert.match(
      String(btc.detail),
      /exchangeInfo of test-sandbox$/,
      'a symbol the exchange lists is credited to exchangeInfo even when files use it too',
    );
  });

  test('variables after "{{": the variables of the environment', async () => {
    const items = await variableCompletions();
    const desk = items.find((i) => labelOf(i) === 'desk');
    assert.ok(desk, `desk is offered (offered: ${items.map(labelOf).join(', ')})`);
    assert.equal(desk.detail, 'environment test-sandbox = demo-desk');
    assert.ok(
      items.some((i) => labelOf(i) === '$timestamp'),
      'system variables are offered too',
    );
  });

  test('variables after "{{": a file variable hides the environment variable of the same name', async () => {
    const { doc, position } = await openWithCursor(
      ['@symbol = BTCUSDT', 'GET /api/v3/openOrders', 'symbol = {{|'].join('\n'),
    );
    const symbol = (await completionsAt(doc.uri, position)).filter(
      (i) => i.kind === vscode.CompletionItemKind.Variable && labelOf(i) === 'symbol',
    );
    assert.deepEqual(
      symbol.map((i) => i.detail),
      ['file variable = BTCUSDT'],
    );
  });

  test('hover on a {{variable}} of the environment: its value and the environment it comes from', async () => {
    const { doc, position } = await openWithCursor(['GET /api/v3/openOrders', 'symbol = {{sym|bol}}'].join('\n'));
    const { text } = await hoversAt(doc.uri, position);
    assert.ok(text.includes('**{{symbol}}** = `ETHBTC`'), text);
    assert.ok(text.includes('variable of the environment "test-sandbox"'), text);
  });

  test('a variable the environment defines is not reported as undefined', async () => {
    const { doc } = await openWithCursor(
      ['GET /api/v3/openOrders', 'symbol = {{symbol}}', 'recvWindow = {{nowhere}}|'].join('\n'),
    );
    // The undefined one is reported; the one the environment defines is not.
    const found = await waitFor('the undefined-variable error', () => {
      const d = vscode.languages.getDiagnostics(doc.uri).filter((x) => x.source === 'tradereq');
      return d.some((x) => x.message.includes('{{nowhere}}')) ? d : undefined;
    });
    assert.deepEqual(
      found.filter((d) => d.range.start.line === 1).map((d) => d.message),
      [],
    );
  });
});

suite('the JSON schema of tradereq.env.json', () => {
  // VS Code 1.100's JSON language service leaves `source` unset; it is the only one that checks these files.
  const jsonDiagnostics = (uri: vscode.Uri): vscode.Diagnostic[] =>
    vscode.languages.getDiagnostics(uri).filter((d) => d.source === undefined || d.source === 'json');

  test('a baseUrl that is not a string gets a diagnostic from the JSON language service', async () => {
    const doc = await openFixture('env-schema/wrong-type/tradereq.env.json');
    const found = await waitFor('a JSON diagnostic on "baseUrl": 42', () =>
      jsonDiagnostics(doc.uri).find((d) =>
        d.range.isEqual(rangeOf(doc, '"local": { "baseUrl": 42, "key": "sandbox" }', '42')),
      ),
    );
    assert.match(found.message, /Incorrect type\. Expected "string"/);
    assert.equal(found.severity, vscode.DiagnosticSeverity.Warning);
  });

  test('an unknown property gets a diagnostic from the JSON language service', async () => {
    const doc = await openFixture('env-schema/unknown-property/tradereq.env.json');
    const line = '"local": { "baseUrl": "http://127.0.0.1:8780", "colour": "blue" }';
    const found = await waitFor('a JSON diagnostic on "colour"', () =>
      jsonDiagnostics(doc.uri).find((d) => d.range.isEqual(rangeOf(doc, line, '"colour"'))),
    );
    assert.match(found.message, /Property colour is not allowed/);
  });

  test('a valid file gets none (and the same file made invalid gets one)', async () => {
    const doc = await openFixture('env-schema/valid/tradereq.env.json');
    const confirm = rangeOf(doc, '"confirm": true,', 'true');
    try {
      // Made invalid first, so that the check is known to run on this file.
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, confirm, '"yes"');
      assert.ok(await vscode.workspace.applyEdit(edit));
      const found = await waitFor('a JSON diagnostic on "confirm": "yes"', () =>
        jsonDiagnostics(doc.uri).find((d) => d.range.start.line === confirm.start.line),
      );
      assert.match(found.message, /Incorrect type\. Expected "boolean"/);

      const undo = new vscode.WorkspaceEdit();
      undo.replace(doc.uri, new vscode.Range(confirm.start, confirm.start.translate(0, 5)), 'true');
      assert.ok(await vscode.workspace.applyEdit(undo));
      await waitFor(
        'no JSON diagnostic on the valid file',
        () => vscode.languages.getDiagnostics(doc.uri).length === 0,
      );
    } finally {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });
});

suite('TradeReq: New Request File (issue 19, point 7)', () => {
  const folder = (): vscode.Uri => fixtureUri('new-request-file');
  const newFile = (starter: string, name: string): Thenable<string | undefined> =>
    vscode.commands.executeCommand<string | undefined>('tradereq.newRequestFile', folder(), starter, name);

  suiteSetup(() => vscode.workspace.fs.createDirectory(folder()));
  suiteTeardown(async () => {
    // Only this suite's tabs: closing all would ask about the untitled documents of other suites.
    const mine = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.path.startsWith(folder().path + '/'));
    await vscode.window.tabGroups.close(mine);
    await vscode.workspace.fs.delete(folder(), { recursive: true });
  });

  test('writes a starter request file into the folder and opens it: checked, no error (the expected rejection is information)', async () => {
    // One file: tradereq check (test/e2e/init.test.ts) covers every starter file with the same check step.
    const starter = STARTER_REQUESTS.find((f) => f.name === 'rejections.tradereq')!;
    const uri = vscode.Uri.joinPath(folder(), 'my-rejections.tradereq');
    assert.equal(await newFile(starter.name, 'my-rejections'), uri.toString());
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), uri.toString(), 'the new file is open');
    assert.equal(vscode.window.activeTextEditor?.document.languageId, 'tradereq');
    const api = await tradereqApi();
    await waitFor('the check of the new file', () => api.diagnosticsRunner(uri.toString()) !== undefined);
    const found = tradereqDiagnostics(uri);
    assert.deepEqual(
      found.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).map((d) => d.message),
      [],
    );
    assert.ok(
      found.some((d) => d.severity === vscode.DiagnosticSeverity.Information && d.message.includes('700004')),
      found.map((d) => d.message).join('\n'),
    );
  });

  test('never writes over a file: a name taken (in any case) or that not every system can hold is refused, nothing written', async () => {
    const mine = vscode.Uri.joinPath(folder(), 'mine.tradereq');
    await vscode.workspace.fs.writeFile(mine, new TextEncoder().encode('GET /api/v3/ping\n'));
    const before = (await vscode.workspace.fs.readDirectory(folder())).map(([n]) => n).sort();
    for (const name of ['mine', 'MINE.tradereq', 'a/b', 'con', ''])
      assert.equal(await newFile('orders.tradereq', name), undefined, `"${name}" is refused`);
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(mine)), 'GET /api/v3/ping\n');
    assert.deepEqual((await vscode.workspace.fs.readDirectory(folder())).map(([n]) => n).sort(), before);
  });
});
