import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  lineOf,
  openFixture,
  rangeOf,
  ruleOf,
  tradereqApi,
  tradereqDiagnostics,
  waitFor,
  withDeadline,
} from './helpers';

const { Error: ERROR, Warning: WARNING, Information: INFORMATION } = vscode.DiagnosticSeverity;
const SEVERITY = ['error', 'warning', 'information', 'hint'];

function show(d: vscode.Diagnostic): string {
  const r = d.range;
  return `${SEVERITY[d.severity]} ${ruleOf(d)} ${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character} "${d.message}"`;
}

/** The diagnostics of the request titled `### title`: from its `###` line to the next one. */
function diagnosticsOfRequest(doc: vscode.TextDocument, title: string): vscode.Diagnostic[] {
  const start = lineOf(doc, `### ${title}`);
  let end = start + 1;
  while (end < doc.lineCount && !doc.lineAt(end).text.startsWith('###')) end++;
  return tradereqDiagnostics(doc.uri).filter((d) => d.range.start.line > start && d.range.start.line < end);
}

interface Expected {
  readonly rule: string;
  readonly severity: vscode.DiagnosticSeverity;
  readonly range: vscode.Range;
  /** Fragments the message must hold, such as the service error it prevents. */
  readonly message: readonly (string | RegExp)[];
}

/** The request titled `title` has exactly one diagnostic, the expected one. */
function assertOnlyDiagnostic(doc: vscode.TextDocument, title: string, expected: Expected): void {
  const found = diagnosticsOfRequest(doc, title);
  assert.equal(found.length, 1, `one diagnostic in "### ${title}", found:\n  ${found.map(show).join('\n  ')}`);
  const d = found[0]!;
  assert.equal(ruleOf(d), expected.rule, show(d));
  assert.equal(d.severity, expected.severity, `severity of ${show(d)}`);
  assert.ok(
    d.range.isEqual(expected.range),
    `range of ${show(d)}: expected ${expected.range.start.line}:${expected.range.start.character}-${expected.range.end.line}:${expected.range.end.character}`,
  );
  for (const m of expected.message) {
    if (typeof m === 'string') assert.ok(d.message.includes(m), `message of ${show(d)} holds "${m}"`);
    else assert.match(d.message, m);
  }
}

/** The whole line whose text is `text`, from its first to its last character. */
function wholeLine(doc: vscode.TextDocument, text: string): vscode.Range {
  return rangeOf(doc, text, text);
}

suite('diagnostics', () => {
  let doc: vscode.TextDocument;

  suiteSetup(async () => {
    doc = await openFixture('diagnostics.tradereq');
    // The file is checked once it is open; the last request's warning says the check has run.
    await waitFor(
      'the diagnostics of diagnostics.tradereq',
      () => diagnosticsOfRequest(doc, 'API key header written by hand').length > 0,
    );
  });

  test('an unknown endpoint is a warning on its path', () => {
    assertOnlyDiagnostic(doc, 'Unknown endpoint', {
      rule: 'unknown-endpoint',
      severity: WARNING,
      range: rangeOf(doc, 'POST /api/v3/orders', '/api/v3/orders'),
      message: ["/api/v3/orders is not in TradeReq's endpoint catalog", '# @weight'],
    });
  });

  test('an unknown parameter is a warning on its name, naming 33333', () => {
    assertOnlyDiagnostic(doc, 'Unknown parameter', {
      rule: 'unknown-param',
      severity: WARNING,
      range: rangeOf(doc, 'stopPrice = 29000', 'stopPrice'),
      message: ['"stopPrice" is not a known parameter of POST /api/v3/order', '33333'],
    });
  });

  test('a parameter the order type requires is missing (LIMIT without price): an error on the type, naming 44444', () => {
    const typeLine = lineOf(doc, '### LIMIT order without a price') + 4;
    assert.equal(doc.lineAt(typeLine).text, 'type = LIMIT');
    assertOnlyDiagnostic(doc, 'LIMIT order without a price', {
      rule: 'missing-param',
      severity: ERROR,
      range: new vscode.Range(typeLine, 7, typeLine, 12),
      message: ['A LIMIT order needs "price"', '44444'],
    });
  });

  test('an enum value that is not allowed is an error on the value, naming 33333', () => {
    assertOnlyDiagnostic(doc, 'Side not an allowed value', {
      rule: 'enum-value',
      severity: ERROR,
      range: rangeOf(doc, 'side = HOLD', 'HOLD'),
      message: ['side "HOLD" is not an allowed value: BUY, SELL', '33333'],
    });
  });

  test('a symbol not in upper case is an error on the value, naming 10007', () => {
    assertOnlyDiagnostic(doc, 'Symbol not in upper case', {
      rule: 'symbol-case',
      severity: ERROR,
      range: rangeOf(doc, 'symbol = btcusdt', 'btcusdt'),
      message: ['Symbol "btcusdt" must be upper-case', 'BTCUSDT', '10007'],
    });
  });

  test('a quantity that is not a decimal is an error, naming 33333', () => {
    assertOnlyDiagnostic(doc, 'Quantity not a decimal', {
      rule: 'decimal',
      severity: ERROR,
      range: rangeOf(doc, 'quantity = 1e-3', '1e-3'),
      message: ['quantity must be a decimal number', '"1e-3"', '33333'],
    });
  });

  test('a price that is not a decimal is an error, naming 33333', () => {
    assertOnlyDiagnostic(doc, 'Price not a decimal', {
      rule: 'decimal',
      severity: ERROR,
      range: rangeOf(doc, 'price = 30,000', '30,000'),
      message: ['price must be a decimal number', '"30,000"', '33333'],
    });
  });

  test('recvWindow 70000 is an error, naming 700005', () => {
    assertOnlyDiagnostic(doc, 'recvWindow above the maximum', {
      rule: 'recv-window',
      severity: ERROR,
      range: rangeOf(doc, 'recvWindow = 70000', '70000'),
      message: ['recvWindow 70000 is above the maximum 60000', '700005'],
    });
  });

  test('recvWindow exactly 60000 is a warning, naming 700005', () => {
    assertOnlyDiagnostic(doc, 'recvWindow exactly the maximum', {
      rule: 'recv-window',
      severity: WARNING,
      range: rangeOf(doc, 'recvWindow = 60000', '60000'),
      message: ['exactly the maximum', '700005', '59999'],
    });
  });

  test('recvWindow 10000 is information: 5000 or less is recommended', () => {
    assertOnlyDiagnostic(doc, 'recvWindow longer than recommended', {
      rule: 'recv-window',
      severity: INFORMATION,
      range: rangeOf(doc, 'recvWindow = 10000', '10000'),
      message: ['recvWindow 10000', '5000 or less is recommended'],
    });
  });

  test('a timestamp in seconds is an error, naming 700003', () => {
    assertOnlyDiagnostic(doc, 'Timestamp in seconds', {
      rule: 'timestamp-seconds',
      severity: ERROR,
      range: rangeOf(doc, 'timestamp = 1700000000', '1700000000'),
      message: ['looks like seconds', 'milliseconds', '700003'],
    });
  });

  test('a signature written by hand is an error on the whole line, naming 700002', () => {
    const line = doc.lineAt(lineOf(doc, '### Signature written by hand') + 2).text;
    assert.match(line, /^signature = /);
    assertOnlyDiagnostic(doc, 'Signature written by hand', {
      rule: 'manual-signature',
      severity: ERROR,
      range: wholeLine(doc, line),
      message: ['Do not write the signature by hand', '700002'],
    });
  });

  test('an empty value is a warning on the whole line, naming 44444', () => {
    assertOnlyDiagnostic(doc, 'Empty value', {
      rule: 'empty-value',
      severity: WARNING,
      range: wholeLine(doc, 'newClientOrderId ='),
      message: ['"newClientOrderId" has an empty value', '44444'],
    });
  });

  test('the same name in query and body is information on the body one: the service uses the query value', () => {
    assertOnlyDiagnostic(doc, 'Same name in query and body', {
      rule: 'query-and-body',
      severity: INFORMATION,
      range: rangeOf(doc, 'quantity = 0.002', 'quantity'),
      message: ['"quantity" is also in the query string', 'the service uses the query value', '§4.1 rule 5'],
    });
  });

  test('an undefined variable is an error on its name', () => {
    assertOnlyDiagnostic(doc, 'Undefined variable', {
      rule: 'undefined-variable',
      severity: ERROR,
      range: rangeOf(doc, 'quantity = {{quantty}}', 'quantty'),
      message: ['Undefined variable {{quantty}}', '@quantty = value', 'Nothing is sent until it resolves'],
    });
  });

  test('an API key header written by hand is a warning on the header line', () => {
    assertOnlyDiagnostic(doc, 'API key header written by hand', {
      rule: 'api-key-header',
      severity: WARNING,
      range: wholeLine(doc, 'X-SERVICE-APIKEY: my-api-key'),
      message: ['Do not write the API key header by hand', '# @key PROFILE'],
    });
  });

  test('the comments and file variables above the first request get no diagnostic', () => {
    const outside = tradereqDiagnostics(doc.uri).filter(
      (d) => d.range.start.line < lineOf(doc, '### Unknown endpoint'),
    );
    assert.deepEqual(outside.map(show), []);
  });
});

suite('quick fixes', () => {
  let doc: vscode.TextDocument;

  suiteSetup(async () => {
    doc = await openFixture('quick-fix.tradereq');
  });

  suiteTeardown(async () => {
    // Leaves the fixture as it was on disk.
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  test('a symbol not in upper case: "Change to BTCUSDT" fixes the text and the error goes away', async () => {
    const symbolCase = (): vscode.Diagnostic | undefined =>
      tradereqDiagnostics(doc.uri).find((d) => ruleOf(d) === 'symbol-case');
    const diagnostic = await waitFor('the symbol-case error', symbolCase);
    assert.ok(diagnostic.range.isEqual(rangeOf(doc, 'symbol = btcusdt', 'btcusdt')));

    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      diagnostic.range,
    );
    const fix = actions.find((a) => a.title === 'Change to BTCUSDT');
    assert.ok(fix, `"Change to BTCUSDT" is offered (offered: ${actions.map((a) => a.title).join(', ')})`);
    assert.equal(fix.kind?.value, vscode.CodeActionKind.QuickFix.value);
    assert.equal(fix.isPreferred, true);
    assert.ok(fix.edit, 'the fix carries its edit');

    assert.ok(await vscode.workspace.applyEdit(fix.edit), 'the edit applies');
    assert.equal(doc.lineAt(diagnostic.range.start.line).text, 'symbol = BTCUSDT');
    await waitFor('the symbol-case error to go away', () => symbolCase() === undefined);
    assert.deepEqual(tradereqDiagnostics(doc.uri).map(show), [], 'the fixed request has no diagnostic left');
  });
});

suite('diagnostics while editing', () => {
  let doc: vscode.TextDocument;
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('tradereq', doc.uri);

  suiteSetup(async () => {
    doc = await openFixture('edit.tradereq');
  });

  suiteTeardown(async () => {
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  test('inserting "recvWindow = 70000" brings its error; deleting the line takes it away again', async () => {
    const after = lineOf(doc, 'quantity = 0.001');
    const insert = new vscode.WorkspaceEdit();
    insert.insert(doc.uri, new vscode.Position(after + 1, 0), 'recvWindow = 70000\n');
    assert.ok(await vscode.workspace.applyEdit(insert));

    const line = after + 1;
    const error = await waitFor('the recvWindow error on the inserted line', () =>
      tradereqDiagnostics(doc.uri).find((d) => ruleOf(d) === 'recv-window' && d.range.start.line === line),
    );
    assert.equal(error.severity, ERROR);
    assert.ok(error.range.isEqual(new vscode.Range(line, 13, line, 18)));
    assert.match(error.message, /700005/);

    const remove = new vscode.WorkspaceEdit();
    remove.delete(doc.uri, new vscode.Range(line, 0, line + 1, 0));
    assert.ok(await vscode.workspace.applyEdit(remove));
    await waitFor('the recvWindow error to go away', () => tradereqDiagnostics(doc.uri).length === 0);
  });

  test('the check runs tradereq.diagnostics.delay milliseconds after the last edit, not at once', async () => {
    const delay = config().get<number>('diagnostics.delay');
    assert.equal(delay, 300, 'the default delay');
    const line = lineOf(doc, 'quantity = 0.001');
    // Every decimal error the document shows, as it changes.
    const seen: string[] = [];
    let sub: vscode.Disposable | undefined;
    const checkedLast = new Promise<number>((resolve) => {
      sub = vscode.languages.onDidChangeDiagnostics((e) => {
        if (!e.uris.some((u) => u.toString() === doc.uri.toString())) return;
        const d = tradereqDiagnostics(doc.uri).find((x) => ruleOf(x) === 'decimal');
        if (d) seen.push(d.message);
        if (d?.message.includes('"abc"')) resolve(Date.now());
      });
    });
    try {
      const started = Date.now();
      // Two edits in a row: the check waits for the last one.
      const first = new vscode.WorkspaceEdit();
      first.replace(doc.uri, new vscode.Range(line, 11, line, 16), '0.00x');
      assert.ok(await vscode.workspace.applyEdit(first));
      const second = new vscode.WorkspaceEdit();
      second.replace(doc.uri, new vscode.Range(line, 11, line, 16), 'abc');
      assert.ok(await vscode.workspace.applyEdit(second));
      const secondAt = Date.now();

      const at = await withDeadline(checkedLast, 10000, 'the decimal error for "abc"');
      assert.ok(
        at - started >= delay - 20,
        `checked ${at - started} ms after the first edit, not before the ${delay} ms delay`,
      );
      // A second edit within the delay restarts it: the first text is never checked.
      if (secondAt - started < delay)
        assert.ok(!seen.some((m) => m.includes('0.00x')), `only the last edit is checked (seen: ${seen.join(' | ')})`);
    } finally {
      sub?.dispose();
    }

    const undo = new vscode.WorkspaceEdit();
    undo.replace(doc.uri, new vscode.Range(line, 11, line, 14), '0.001');
    assert.ok(await vscode.workspace.applyEdit(undo));
    await waitFor('the decimal error to go away', () => tradereqDiagnostics(doc.uri).length === 0);
  });
});

suite('diagnostics of a large file', () => {
  test('a file past 256 KiB is checked in a worker thread, and its problems still appear with their ranges', async () => {
    // Past 256 KiB through 8 KB comment lines, not 4,000 requests: the editor's lenses and tokens cost
    // time per request and line (4,000 requests kept the extension host busy for seconds).
    const note = `# ${'note '.repeat(1600)}`;
    const requests: string[] = [];
    for (let i = 0; i < 40; i++)
      requests.push(
        `### ${i}\n${note}\nPOST /api/v3/order\nsymbol = BTCUSDT\nside = BUY\ntype = LIMIT\nquantity = 0.001\nprice = 20000\n`,
      );
    requests.push(
      '### the last\nPOST /api/v3/order\nsymbol = BTCUSDT\nside = BUY\ntype = LIMIT\nquantity = 0.001\nprice = 20000\nrecvWindow = 70000\n',
    );
    const text = requests.join('\n');
    assert.ok(text.length > 256 * 1024, `${text.length} characters`);
    const doc = await vscode.workspace.openTextDocument({ language: 'tradereq', content: text });
    await vscode.window.showTextDocument(doc);
    await waitFor('the recvWindow error of the last request', () => tradereqDiagnostics(doc.uri).length > 0, 30_000);
    const found = tradereqDiagnostics(doc.uri);
    assert.equal(found.length, 1, found.map(show).join('\n'));
    assert.equal(ruleOf(found[0]!), 'recv-window');
    assert.equal(found[0]!.range.start.line, doc.lineCount - 2);
    assert.equal((await tradereqApi()).diagnosticsRunner(doc.uri.toString()), 'worker');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
