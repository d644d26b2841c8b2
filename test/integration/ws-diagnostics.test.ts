import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  completionsAt,
  labelOf,
  lineOf,
  openFixture,
  openWithCursor,
  rangeOf,
  ruleOf,
  tradereqDiagnostics,
  waitFor,
} from './helpers';

const { Error: ERROR, Warning: WARNING } = vscode.DiagnosticSeverity;
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

/** The request titled `title` has exactly one diagnostic, with this rule, severity and range, its message holding `message`. */
function assertOnly(
  doc: vscode.TextDocument,
  title: string,
  rule: string,
  severity: vscode.DiagnosticSeverity,
  range: vscode.Range,
  message: RegExp,
): vscode.Diagnostic {
  const found = diagnosticsOfRequest(doc, title);
  assert.equal(found.length, 1, `one diagnostic in "### ${title}", found:\n  ${found.map(show).join('\n  ')}`);
  const d = found[0]!;
  assert.equal(ruleOf(d), rule, show(d));
  assert.equal(d.severity, severity, `severity of ${show(d)}`);
  assert.ok(
    d.range.isEqual(range),
    `range of ${show(d)}: expected ${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character}`,
  );
  assert.match(d.message, message);
  return d;
}

suite('WebSocket requests: diagnostics (§8) with their ranges', () => {
  let doc: vscode.TextDocument;

  suiteSetup(async () => {
    doc = await openFixture('ws-diagnostics.tradereq');
    await waitFor(
      'the diagnostics of ws-diagnostics.tradereq',
      () => diagnosticsOfRequest(doc, 'Private stream without a listen key').length > 0,
    );
  });

  test('a well-formed request has none, and WS /ws is not an unknown endpoint', () => {
    assert.deepEqual(diagnosticsOfRequest(doc, 'A well-formed stream request').map(show), []);
  });

  test('more than 30 streams in one request is an error from the 31st name to the last (§8)', () => {
    const last = 'spot@public.limit.depth.v3.api@BNBUSDT@5';
    const first = lineOf(doc, last);
    assertOnly(
      doc,
      'Thirty-one streams',
      'ws-streams',
      ERROR,
      new vscode.Range(first, 0, first, last.length),
      /subscribes 31 streams: §8 allows at most 30 per connection/,
    );
  });

  test('an unknown stream kind and bad depth levels are warnings on the part at fault', () => {
    assertOnly(
      doc,
      'Unknown stream kind',
      'unknown-stream',
      WARNING,
      rangeOf(doc, 'spot@public.trades.v3.api@BTCUSDT', 'spot@public.trades.v3.api'),
      /Unknown stream "spot@public\.trades\.v3\.api"; known:/,
    );
    assertOnly(
      doc,
      'Depth levels not 5, 10 or 20',
      'unknown-stream',
      WARNING,
      rangeOf(doc, 'spot@public.limit.depth.v3.api@BTCUSDT@15', '15'),
      /depth levels are 5, 10 or 20, not "15"/,
    );
  });

  test('a private stream without # @listenKey is an error on its name', () => {
    assertOnly(
      doc,
      'Private stream without a listen key',
      'private-stream',
      ERROR,
      rangeOf(doc, 'spot@private.orders.v3.api', 'spot@private.orders.v3.api'),
      /is private: it needs a listen key.*# @listenKey/,
    );
  });

  test('a stream symbol in lower case is an error on the symbol, with the quick fix "Change to ETHUSDT"', async () => {
    const d = assertOnly(
      doc,
      'Stream symbol in lower case',
      'stream-symbol-case',
      ERROR,
      rangeOf(doc, 'spot@public.bookTicker.v3.api@ethusdt', 'ethusdt'),
      /The symbol must be upper-case \(§2\.1\): ETHUSDT, not ethusdt/,
    );
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      d.range,
    );
    const fix = actions.find((a) => a.title === 'Change to ETHUSDT');
    assert.ok(
      fix?.edit,
      `"Change to ETHUSDT" is offered with its edit (offered: ${actions.map((a) => a.title).join(', ')})`,
    );
  });

  test('a [message] list past 100 messages a second is an error from the first message past the limit (§8)', async () => {
    const messages = Array.from({ length: 101 }, () => '[message]\n{"method": "PING"}').join('\n');
    const text = `WS /ws\n[subscribe]\nspot@public.deals.v3.api@BTCUSDT\n${messages}\n`;
    const untitled = await vscode.workspace.openTextDocument({ language: 'tradereq', content: text });
    const d = await waitFor('the message-rate error', () =>
      tradereqDiagnostics(untitled.uri).find((x) => ruleOf(x) === 'ws-message-rate'),
    );
    assert.equal(d.severity, ERROR);
    // Line 3 is the first [message], its object on line 4: the 100th message is the first past 100 with the SUBSCRIPTION.
    assert.ok(d.range.isEqual(new vscode.Range(4 + 99 * 2, 0, 4 + 100 * 2, 18)), show(d));
    assert.match(d.message, /sends 102 messages as it connects.*§8 allows 100 a second/);
  });
});

suite('WebSocket requests: stream-name completion', () => {
  test('under [subscribe]: the stream kinds, then the levels of a depth stream', async () => {
    const kinds = await openWithCursor('WS /ws\n[subscribe]\nspot@|\n');
    const offered = (await completionsAt(kinds.doc.uri, kinds.position)).map(labelOf);
    for (const label of ['spot@public.deals.v3.api@', 'spot@public.limit.depth.v3.api@', 'spot@private.orders.v3.api'])
      assert.ok(offered.includes(label), `${label} is offered (offered: ${offered.join(', ')})`);
    const levels = await openWithCursor('WS /ws\n[subscribe]\nspot@public.limit.depth.v3.api@BTCUSDT@|\n');
    const values = (await completionsAt(levels.doc.uri, levels.position))
      .filter((i) => i.kind === vscode.CompletionItemKind.EnumMember)
      .map(labelOf);
    assert.deepEqual(values, ['5', '10', '20']);
  });
});
