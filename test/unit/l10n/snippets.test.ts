/**
 * The request snippets in the display language (issue 34, point 8). VS Code shows a contributed
 * snippet file's descriptions as written, in no display language, so TradeReq's completion offers
 * them (core/editor/completion-templates.ts), their words through t().
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { completionsAt, type CompletionEntry } from '../../../src/core/editor/completion';
import { parse } from '../../../src/core/format/parser';
import { setL10nBundle } from '../../../src/core/l10n';
import { ROOT } from '../../support/cli';
import { zhCnBundle } from '../../support/l10n';

const ENV = { name: 'sandbox', baseUrl: 'http://127.0.0.1:8780' };

/** The snippets offered at the cursor `|` of `text`. */
function snippetsAt(text: string): CompletionEntry[] {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes('|'));
  const character = lines[line]!.indexOf('|');
  const clean = text.replace('|', '');
  const lineText = clean.split('\n')[line]!;
  return completionsAt(parse(clean), lineText, line, character, { environment: ENV, symbols: [] }).filter(
    (e) => e.kind === 'snippet' && !e.label.includes('/'),
  );
}

const HAN = /\p{Script=Han}/u;

describe('l10n: request snippets in the display language (zh-cn)', () => {
  afterEach(() => setL10nBundle(undefined));

  it('the manifest contributes no snippet file: its descriptions could not be translated', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      contributes: Record<string, unknown>;
    };
    assert.equal(manifest.contributes['snippets'], undefined);
  });

  it('each snippet word is offered where a request line fits, its description and title Chinese under zh-cn', () => {
    setL10nBundle(zhCnBundle());
    const offered = snippetsAt('|');
    assert.deepEqual(
      offered.map((e) => e.label),
      ['limit order', 'market order', 'query order', 'cancel order', 'split order', 'json order'],
    );
    for (const e of offered) assert.match(e.detail ?? '', HAN, `${e.label}: ${e.detail}`);
    const limit = offered.find((e) => e.label === 'limit order')!;
    assert.equal(limit.detail, zhCnBundle()['POST /api/v3/order: a LIMIT order (quantity and price)']);
    assert.ok(limit.insertText?.startsWith(`### \${1:${zhCnBundle()['Buy at a limit price']}}\nPOST /api/v3/order\n`));
  });

  it('in English without a bundle, the requests the snippet file wrote', () => {
    const limit = snippetsAt('|').find((e) => e.label === 'limit order')!;
    assert.equal(limit.detail, 'POST /api/v3/order: a LIMIT order (quantity and price)');
    assert.equal(
      limit.insertText,
      [
        '### ${1:Buy at a limit price}',
        'POST /api/v3/order',
        'symbol = ${2:BTCUSDT}',
        'side = ${3|BUY,SELL|}',
        'type = LIMIT',
        'quantity = ${4:0.001}',
        'price = ${5:30000}',
        'newClientOrderId = {{\\$clientOrderId}}',
        '$0',
      ].join('\n'),
    );
    const query = snippetsAt('|').find((e) => e.label === 'query order')!;
    assert.equal(
      query.insertText,
      '### ${1:Query the order}\nGET /api/v3/order\nsymbol = ${2:BTCUSDT}\n' +
        '${3|orderId,origClientOrderId|} = ${4:{{buy.response.orderId\\}\\}}\n$0',
    );
  });

  it('under a ### title the snippet writes no title of its own; nowhere in a title, a comment or a request', () => {
    const under = snippetsAt('### Mine\n|').find((e) => e.label === 'market order')!;
    assert.ok(under.insertText?.startsWith('POST /api/v3/order\n'), under.insertText);
    assert.deepEqual(snippetsAt('### My own sell order|'), []);
    assert.deepEqual(snippetsAt('# order|'), []);
    assert.deepEqual(snippetsAt('### Buy\n|\nPOST /api/v3/order\n'), []);
    assert.deepEqual(snippetsAt('POST /api/v3/order\nsymbol = BTCUSDT\nord|'), []);
  });
});
