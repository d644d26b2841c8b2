import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { completionsAt, fixtureUri, labelOf, openWithCursor, waitFor } from './helpers';

/** TradeReq's items of one kind at the cursor `|` of `text` (other providers, such as snippets, are left out). */
async function itemsAt(text: string, kind: vscode.CompletionItemKind): Promise<vscode.CompletionItem[]> {
  const { doc, position } = await openWithCursor(text);
  return (await completionsAt(doc.uri, position)).filter((i) => i.kind === kind);
}

function labels(items: vscode.CompletionItem[]): string[] {
  return items.map(labelOf);
}

function item(items: vscode.CompletionItem[], label: string): vscode.CompletionItem {
  const found = items.find((i) => labelOf(i) === label);
  assert.ok(found, `"${label}" is offered (offered: ${labels(items).join(', ')})`);
  return found;
}

suite('completion', () => {
  test('parameter names of the endpoint: required ones first, written ones left out, timestamp and signature never', async () => {
    const items = await itemsAt(
      ['POST /api/v3/order', 'quantity = 0.001', '|', 'price = 30000'].join('\n'),
      vscode.CompletionItemKind.Property,
    );
    const offered = labels(items);
    for (const name of ['symbol', 'side', 'type', 'recvWindow', 'newClientOrderId', 'timeInForce'])
      assert.ok(offered.includes(name), `${name} is offered (offered: ${offered.join(', ')})`);
    for (const name of ['quantity', 'price'])
      assert.ok(!offered.includes(name), `${name}, already written, is not offered again`);
    for (const name of ['timestamp', 'signature'])
      assert.ok(!offered.includes(name), `${name}, added by TradeReq when it signs, is never offered`);

    const sorted = [...items].sort((a, b) => (a.sortText ?? labelOf(a)).localeCompare(b.sortText ?? labelOf(b)));
    assert.deepEqual(labels(sorted).slice(0, 3), ['symbol', 'side', 'type'], 'the required parameters sort first');
    for (const required of ['symbol', 'side', 'type']) {
      assert.ok(
        item(items, required).sortText! < item(items, 'recvWindow').sortText!,
        `${required} sorts before recvWindow`,
      );
      assert.match(String(item(items, required).detail), /^required/);
    }
    assert.match(String(item(items, 'recvWindow').detail), /^optional/);
    // Choosing a name inserts "name = " and keeps the list open for its value.
    assert.equal(item(items, 'side').insertText, 'side = ');
    assert.equal(item(items, 'side').command?.command, 'editor.action.triggerSuggest');
  });

  test('parameter names on a new, empty line after the last parameter of a request', async () => {
    const text = [
      '### Buy',
      'POST /api/v3/order',
      'symbol = BTCUSDT',
      '|',
      '',
      '### Account',
      'GET /api/v3/account',
    ].join('\n');
    const offered = labels(await itemsAt(text, vscode.CompletionItemKind.Property));
    assert.ok(
      offered.includes('side') && offered.includes('recvWindow'),
      `the order's parameters are offered (offered: ${offered.join(', ')})`,
    );
    assert.ok(!offered.includes('symbol'), 'symbol, already written, is not offered');
  });

  test('parameter names while one is typed: "si" offers side and never signature', async () => {
    const { doc, position } = await openWithCursor(['POST /api/v3/order', 'symbol = BTCUSDT', 'si|'].join('\n'));
    const items = await completionsAt(doc.uri, position);
    const side = item(items, 'side');
    assert.ok((side.range as vscode.Range).isEqual(new vscode.Range(2, 0, 2, 2)), 'side replaces the "si" typed');
    assert.ok(
      !items.some((i) => labelOf(i) === 'signature'),
      `signature is not offered by any provider (offered: ${labels(items).join(', ')})`,
    );
  });

  test('parameter names: quantity and price count as required once type = LIMIT is written', async () => {
    const items = await itemsAt(
      ['POST /api/v3/order', 'type = LIMIT', 'qu|'].join('\n'),
      vscode.CompletionItemKind.Property,
    );
    assert.match(String(item(items, 'quantity').detail), /^required/);
    assert.match(String(item(items, 'price').detail), /^required/);
    assert.match(String(item(items, 'quoteOrderQty').detail), /^optional/);
    assert.ok(item(items, 'price').sortText! < item(items, 'quoteOrderQty').sortText!);
  });

  test('parameter names after ? on the request line (inline query)', async () => {
    const items = await itemsAt('GET /api/v3/order?|', vscode.CompletionItemKind.Property);
    assert.ok(labels(items).includes('orderId'));
    assert.equal(item(items, 'symbol').insertText, 'symbol=');
  });

  test('enum values after "side = ": BUY and SELL', async () => {
    const items = await itemsAt(
      ['POST /api/v3/order', 'symbol = BTCUSDT', 'side = |'].join('\n'),
      vscode.CompletionItemKind.EnumMember,
    );
    assert.deepEqual(labels(items), ['BUY', 'SELL']);
    assert.equal(item(items, 'BUY').detail, 'documented by the service');
    assert.equal(item(items, 'SELL').detail, 'assumed');
  });

  test('enum values after "type = ": the order types', async () => {
    const items = await itemsAt(['POST /api/v3/order', 'type = |'].join('\n'), vscode.CompletionItemKind.EnumMember);
    assert.deepEqual(labels(items), ['LIMIT', 'MARKET', 'LIMIT_MAKER', 'IMMEDIATE_OR_CANCEL', 'FILL_OR_KILL']);
  });

  test('enum values replace the value being typed', async () => {
    const { doc, position } = await openWithCursor(['POST /api/v3/order', 'side = BU|'].join('\n'));
    const buy = item(
      (await completionsAt(doc.uri, position)).filter((i) => i.kind === vscode.CompletionItemKind.EnumMember),
      'BUY',
    );
    const r = buy.range as vscode.Range;
    assert.ok(r.isEqual(new vscode.Range(1, 7, 1, 9)), `replaces "BU" (range ${JSON.stringify(r)})`);
  });

  suite('symbols from the tradereq.symbols setting', () => {
    const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('tradereq');
    const settingsFolder = (): vscode.Uri => fixtureUri('.vscode');
    let before: string[] | undefined;
    let hadSettingsFolder = false;

    suiteSetup(async () => {
      before = config().inspect<string[]>('symbols')?.workspaceValue;
      hadSettingsFolder = await vscode.workspace.fs.stat(settingsFolder()).then(
        () => true,
        () => false,
      );
      await config().update('symbols', ['DOGEEUR', 'XRPEUR'], vscode.ConfigurationTarget.Workspace);
    });

    suiteTeardown(async () => {
      await config().update('symbols', before, vscode.ConfigurationTarget.Workspace);
      // The update wrote .vscode/settings.json; the workspace is left as it was (the Electron runner uses the fixture folder itself).
      if (!hadSettingsFolder) await vscode.workspace.fs.delete(settingsFolder(), { recursive: true });
    });

    test('a symbol from the tradereq.symbols setting after "symbol = "', async () => {
      const { doc, position } = await openWithCursor(['POST /api/v3/order', 'symbol = |'].join('\n'));
      const items = await waitFor('DOGEEUR among the symbol completions', async () => {
        const found = (await completionsAt(doc.uri, position)).filter(
          (i) => i.kind === vscode.CompletionItemKind.Constant,
        );
        return labels(found).includes('DOGEEUR') ? found : undefined;
      });
      assert.equal(item(items, 'DOGEEUR').detail, 'tradereq.symbols setting');
      assert.equal(item(items, 'XRPEUR').detail, 'tradereq.symbols setting');
    });
  });

  test('variables after "{{": file variables, system variables and responses of named requests', async () => {
    const text = [
      '@symbol = BTCUSDT',
      '',
      '### Buy',
      '# @name buy',
      'POST /api/v3/order',
      'symbol = {{symbol}}',
      '',
      '### Cancel it',
      'DELETE /api/v3/order',
      'symbol = {{symbol}}',
      'orderId = {{|',
    ].join('\n');
    const items = await itemsAt(text, vscode.CompletionItemKind.Variable);
    const offered = labels(items);
    for (const name of ['symbol', '$timestamp', '$uuid', '$clientOrderId', 'buy.response.'])
      assert.ok(offered.includes(name), `${name} is offered (offered: ${offered.join(', ')})`);
    assert.equal(item(items, 'symbol').detail, 'file variable = BTCUSDT');
    assert.equal(item(items, '$timestamp').detail, 'system variable');
    // The closing braces are added when they are not there yet.
    assert.equal(item(items, 'symbol').insertText, 'symbol}}');
    assert.ok(
      item(items, 'symbol').sortText! < item(items, '$timestamp').sortText!,
      'file variables sort before system variables',
    );
  });

  suite('nothing offered where words are written freely (issue 34)', () => {
    // The file writes orderId, so VS Code's words of the document would offer it; "order" and "limit" were snippet prefixes.
    const file = (cursorLine: string): string =>
      [
        '### Buy',
        'POST /api/v3/order',
        'symbol = BTCUSDT',
        '',
        '### Query it',
        'GET /api/v3/order',
        'orderId = 12345',
        '',
        cursorLine,
        'POST /api/v3/order',
      ].join('\n');

    async function offeredAt(text: string): Promise<string[]> {
      const { doc, position } = await openWithCursor(text);
      return labels(await completionsAt(doc.uri, position));
    }

    test('at the end of a ### title, no provider offers anything', async () => {
      for (const title of ['### My own sell order|', '### Cancel the limit order |', '### Buy {{|'])
        assert.deepEqual(await offeredAt(file(title)), [], `nothing is offered after "${title}"`);
    });

    test('in a comment that is not a directive, nothing; on a # @ line, directives', async () => {
      assert.deepEqual(await offeredAt(file('# a note about the order|')), []);
      const directives = await offeredAt(file('# @ex|'));
      assert.ok(directives.includes('expect'), `@expect is offered (offered: ${directives.join(', ')})`);
    });

    test('the request templates come where a request begins, from TradeReq', async () => {
      const { doc, position } = await openWithCursor(['### Sell', 'lim|'].join('\n'));
      const snippets = (await completionsAt(doc.uri, position)).filter(
        (i) => i.kind === vscode.CompletionItemKind.Snippet,
      );
      const limit = item(snippets, 'limit order');
      assert.ok(limit.insertText instanceof vscode.SnippetString);
      assert.match(limit.insertText.value, /^POST \/api\/v3\/order\n/, 'under its ### line, no second ### line');
    });
  });

  test('directives after "# @"', async () => {
    const items = await itemsAt(
      ['### Buy', '# @|', 'POST /api/v3/order'].join('\n'),
      vscode.CompletionItemKind.Keyword,
    );
    const offered = labels(items);
    for (const name of ['name', 'signed', 'unsigned', 'key', 'weight', 'mode', 'confirm', 'signature', 'expect'])
      assert.ok(offered.includes(name), `@${name} is offered (offered: ${offered.join(', ')})`);
    assert.match(String(item(items, 'expect').detail), /@expect code 30002/);
  });

  test('methods at the start of a request line, and a snippet per known endpoint', async () => {
    const { doc, position } = await openWithCursor(['### Buy', '|'].join('\n'));
    const items = await completionsAt(doc.uri, position);
    const methods = labels(items.filter((i) => i.kind === vscode.CompletionItemKind.Keyword));
    assert.deepEqual(methods, ['GET', 'POST', 'PUT', 'DELETE']);
    const order = item(
      items.filter((i) => i.kind === vscode.CompletionItemKind.Snippet),
      'POST /api/v3/order',
    );
    assert.ok(order.insertText instanceof vscode.SnippetString);
    assert.equal(
      order.insertText.value,
      'POST /api/v3/order\nsymbol = ${1}\nside = ${2}\ntype = ${3}',
      'the snippet writes the required parameters',
    );
  });

  test('known paths after "POST "', async () => {
    const items = await itemsAt(['### Buy', 'POST |'].join('\n'), vscode.CompletionItemKind.File);
    const offered = labels(items);
    for (const p of ['/api/v3/order', '/api/v3/order/test', '/api/v3/exchangeInfo', '/api/v3/account'])
      assert.ok(offered.includes(p), `${p} is offered (offered: ${offered.join(', ')})`);
    assert.equal(item(items, '/api/v3/order').detail, 'Place an order');
    assert.match(String(item(items, '/api/v3/account').detail), /not with POST/);
    assert.ok(
      item(items, '/api/v3/order').sortText! < item(items, '/api/v3/account').sortText!,
      'paths known with POST sort first',
    );
  });

  test('known paths while the path is being typed', async () => {
    const { doc, position } = await openWithCursor(['### Buy', 'POST /api/v3/o|'].join('\n'));
    const paths = (await completionsAt(doc.uri, position)).filter((i) => i.kind === vscode.CompletionItemKind.File);
    const order = item(paths, '/api/v3/order');
    assert.ok((order.range as vscode.Range).isEqual(new vscode.Range(1, 5, 1, 14)), 'replaces the path typed so far');
  });

  test('section names after "["', async () => {
    const items = await itemsAt(
      ['POST /api/v3/order', 'symbol = BTCUSDT', '[|'].join('\n'),
      vscode.CompletionItemKind.Module,
    );
    assert.deepEqual(labels(items), ['[query]', '[body]', '[json]']);
  });

  test('section names: no [json] once the request has a [body]', async () => {
    const items = await itemsAt(
      ['POST /api/v3/order', '[body]', 'symbol = BTCUSDT', '[|'].join('\n'),
      vscode.CompletionItemKind.Module,
    );
    assert.deepEqual(labels(items), ['[query]', '[body]']);
  });
});
