import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { hoversAt, openFixture, positionOf, rangeOf } from './helpers';

function assertHolds(text: string, fragments: readonly string[]): void {
  for (const f of fragments) assert.ok(text.includes(f), `the hover holds "${f}":\n${text}`);
}

/** What the hover on 700003 must say: the meaning, the usual cause, what to do, and the timing rule. */
const ERROR_700003 = [
  '**700003**: Timestamp is outside of the recvWindow',
  '**Usual cause:**',
  'Clock skew',
  '**What to do:**',
  'clock sync',
  'timestamp < serverTime + 1000',
];

suite('hover', () => {
  let doc: vscode.TextDocument;

  suiteSetup(async () => {
    doc = await openFixture('hover.tradereq');
  });

  test('on the error code of an "@expect code 700003" line: its meaning, usual cause, what to do and the timing rule', async () => {
    const { text, range } = await hoversAt(doc.uri, positionOf(doc, '# @expect code 700003', '700003', 3));
    assertHolds(text, ERROR_700003);
    assert.ok(range?.isEqual(rangeOf(doc, '# @expect code 700003', '700003')), 'the hover covers the code');
  });

  test('on an error code in a comment: its meaning, usual cause, what to do and the timing rule', async () => {
    const comment = '# When the clock is off, the service answers 700003: hover over the code to see why.';
    const { text, range } = await hoversAt(doc.uri, positionOf(doc, comment, '700003', 1));
    assertHolds(text, ERROR_700003);
    assert.ok(range?.isEqual(rangeOf(doc, comment, '700003')), 'the hover covers the code');
  });

  test('on a number in a comment that is no error code: no error text', async () => {
    const { text } = await hoversAt(doc.uri, positionOf(doc, '# @expect status 200', '200', 1));
    assert.ok(!text.includes('**Usual cause:**'), text);
  });

  test('on the parameter name symbol: type, rule, and "documented by the service"', async () => {
    const { text, range } = await hoversAt(doc.uri, positionOf(doc, 'symbol = {{symbol}}', 'symbol', 2));
    assertHolds(text, [
      '**symbol** (symbol) on POST /api/v3/order',
      '**Rule:** upper-case letters',
      'Required.',
      'Documented by the service',
    ]);
    assert.ok(range?.isEqual(rangeOf(doc, 'symbol = {{symbol}}', 'symbol')), 'the hover covers the name');
  });

  test('on the parameter name newClientOrderId: type, rule, and "assumed"', async () => {
    const { text } = await hoversAt(
      doc.uri,
      positionOf(doc, 'newClientOrderId = {{$clientOrderId}}', 'newClientOrderId', 5),
    );
    assertHolds(text, [
      '**newClientOrderId** (clientOrderId)',
      '**Rule:** at most 32 characters of A-Z a-z 0-9',
      'Optional.',
      'Assumed (not documented by the service)',
    ]);
  });

  test('on the parameter name price: required for LIMIT orders', async () => {
    const { text } = await hoversAt(doc.uri, positionOf(doc, 'price = 30000', 'price', 1));
    assertHolds(text, ['**price** (decimal)', '**Rule:** decimal number sent as text', 'Required for LIMIT']);
  });

  test('on a {{variable}}: its resolved value and where it comes from', async () => {
    const { text, range } = await hoversAt(doc.uri, positionOf(doc, 'quantity = {{qty}}', 'qty', 1));
    assertHolds(text, ['**{{qty}}** = `0.001`', 'file variable']);
    assert.ok(
      range?.isEqual(rangeOf(doc, 'quantity = {{qty}}', '{{qty}}')),
      'the hover covers the reference with its braces',
    );
  });

  test('on a system {{variable}}: what it is made of when the request is sent', async () => {
    const { text } = await hoversAt(
      doc.uri,
      positionOf(doc, 'newClientOrderId = {{$clientOrderId}}', '$clientOrderId', 2),
    );
    assertHolds(text, ['**{{$clientOrderId}}**', '32 characters of A-Z a-z 0-9', 'Made when the request is sent']);
  });

  test('on an enum value: what it means and whether the service documents it', async () => {
    const { text } = await hoversAt(doc.uri, positionOf(doc, 'side = BUY', 'BUY', 1));
    assertHolds(text, ['**BUY**: Buy the base asset.', 'Documented by the service']);
  });

  test('on the request line: the endpoint, whether it is signed and its weight', async () => {
    const { text } = await hoversAt(doc.uri, positionOf(doc, 'GET /api/v3/account', '/api', 2));
    assertHolds(text, [
      '**Account**: GET /api/v3/account',
      'Signed (timestamp and signature added by TradeReq)',
      'weight 10',
    ]);
  });
});
