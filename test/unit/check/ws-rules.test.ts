/**
 * The check step on WebSocket requests (§8 limits, stream names, private streams, directives of
 * the wrong kind of request) and on batchOrders lists: each diagnostic with its rule, severity,
 * range and the error it prevents.
 */
import assert from 'node:assert/strict';
import { deploymentById } from '../../../src/core/catalog/deployment';
import { STREAM_DESCRIPTIONS, exampleStreamName } from '../../../src/core/catalog/stream-names';
import { checkDocument } from '../../../src/core/check/check';
import { itemSpans } from '../../../src/core/check/batch-rules';
import { BUILTIN_SANDBOX } from '../../../src/core/env/constants';
import type { Diagnostic } from '../../../src/core/format/model';
import { parse } from '../../../src/core/format/parser';

const MEXC = deploymentById('mexc')!;
const MEXC_SANDBOX = { ...BUILTIN_SANDBOX, name: 'mexc-sandbox', deployment: 'mexc' };

function check(text: string, environment = BUILTIN_SANDBOX): Diagnostic[] {
  return checkDocument(parse(text), { environment });
}

function onlyUnder(text: string, rule: string, environment: typeof BUILTIN_SANDBOX): Diagnostic {
  const all = check(text, environment);
  assert.equal(all.length, 1, JSON.stringify(all));
  assert.equal(all[0]!.rule, rule);
  return all[0]!;
}

/** "line:char-line:char" of a diagnostic. */
function at(d: Diagnostic): string {
  return `${d.range.startLine}:${d.range.startChar}-${d.range.endLine}:${d.range.endChar}`;
}

/** "rule severity line:char-line:char" of each diagnostic. */
function found(text: string): string[] {
  return check(text).map(
    (d) => `${d.rule} ${d.severity} ${d.range.startLine}:${d.range.startChar}-${d.range.endLine}:${d.range.endChar}`,
  );
}

function only(text: string, rule: string): Diagnostic {
  const all = check(text);
  assert.equal(all.length, 1, JSON.stringify(all));
  assert.equal(all[0]!.rule, rule);
  return all[0]!;
}

/** `n` distinct valid public stream names. */
function streams(n: number): string[] {
  const symbols = ['BTCUSDT', 'ETHUSDT', 'LTCBTC', 'XRPUSDT', 'SOLUSDT', 'ADAUSDT', 'DOTUSDT', 'BNBUSDT'];
  const out: string[] = [];
  for (const s of symbols)
    for (const name of [
      `spot@public.deals.v3.api@${s}`,
      `spot@public.bookTicker.v3.api@${s}`,
      `spot@public.limit.depth.v3.api@${s}@5`,
      `spot@public.kline.v3.api@${s}@Min1`,
    ])
      out.push(name);
  assert.ok(out.length >= n);
  return out.slice(0, n);
}

describe('check: WebSocket requests', () => {
  it('a well-formed request has no diagnostic, and its path is not an unknown endpoint', () => {
    const text = [
      '@symbol = BTCUSDT',
      '### Market',
      '# @listen 30s',
      '# @expect message s == BTCUSDT',
      'WS /ws',
      '[subscribe]',
      'spot@public.deals.v3.api@{{symbol}}',
      'spot@public.limit.depth.v3.api@BTCUSDT@20',
      'spot@public.kline.v3.api@BTCUSDT@Hour4',
      '[message]',
      '{"method": "PING"}',
      '### Mine',
      '# @listenKey',
      'WS /ws',
      '[subscribe]',
      ...STREAM_DESCRIPTIONS.filter((s) => s.visibility === 'private').map((s) => s.template),
    ].join('\n');
    assert.deepEqual(found(text), []);
  });

  it('30 streams pass; a 31st is an error (§8) from the 31st name to the last; duplicates count once', () => {
    const thirty = streams(30);
    assert.deepEqual(found(['WS /ws', '[subscribe]', ...thirty, thirty[0]!].join('\n')), []);
    const text = ['WS /ws', '[subscribe]', ...streams(32)].join('\n');
    const last = streams(32)[31]!;
    assert.deepEqual(found(text), [`ws-streams error 32:0-33:${last.length}`]);
    assert.match(check(text)[0]!.message, /subscribes 32 streams: §8 allows at most 30 per connection/);
  });

  it('a [message] list that passes 100 messages a second with its SUBSCRIPTION is an error from the first message past the limit', () => {
    const messages = (n: number): string[] =>
      Array.from({ length: n }, () => ['[message]', '{"method":"PING"}']).flat();
    assert.deepEqual(found(['WS /ws', ...messages(100)].join('\n')), []);
    assert.deepEqual(found(['WS /ws', '[subscribe]', streams(1)[0]!, ...messages(99)].join('\n')), []);
    const text = ['WS /ws', '[subscribe]', streams(1)[0]!, ...messages(101)].join('\n');
    // Line 3 is the first [message]; the 100th message (index 99) is the first past 100 with the SUBSCRIPTION.
    assert.deepEqual(found(text), [`ws-message-rate error ${4 + 99 * 2}:0-${4 + 100 * 2}:17`]);
    assert.match(
      check(text)[0]!.message,
      /sends 102 messages as it connects \(101 \[message\] and 1 SUBSCRIPTION\): §8 allows 100 a second.*cut.*banned/,
    );
  });

  it('an unknown kind or a malformed name is a warning on the part of the name at fault', () => {
    const cases: [string, number, number, RegExp][] = [
      ['spot@public.trades.v3.api@BTCUSDT', 0, 25, /Unknown stream "spot@public.trades.v3.api"; known:/],
      ['spot@public.limit.depth.v3.api@BTCUSDT@15', 39, 41, /depth levels are 5, 10 or 20, not "15"/],
      ['spot@public.kline.v3.api@BTCUSDT@1m', 33, 35, /kline interval is one of Min1/],
      ['spot@public.deals.v3.api', 0, 24, /takes symbol: write spot@public.deals.v3.api@<symbol>/],
      ['spot@private.orders.v3.api@BTCUSDT', 26, 34, /takes no parameters/],
      ['spot@public.deals.v3.api@BTC USDT', 28, 29, /letters, digits and \. _ - @ only/],
      ['spot@public.deals.v3.api@BTC-USDT', 25, 33, /is not a symbol/],
    ];
    for (const [name, start, end, message] of cases) {
      const d = only(`# @listenKey\nWS /ws\n[subscribe]\n  ${name}`, 'unknown-stream');
      assert.equal(d.severity, 'warning', name);
      assert.deepEqual(
        [d.range.startLine, d.range.startChar, d.range.endLine, d.range.endChar],
        [3, 2 + start, 3, 2 + end],
        name,
      );
      assert.match(d.message, message, name);
      assert.match(d.message, /refuses the subscription/);
    }
  });

  it('a symbol not in upper-case is an error on the symbol with a quick fix; through a variable, on the whole name, without one', () => {
    const d = only('WS /ws\n[subscribe]\nspot@public.limit.depth.v3.api@ethusdt@5', 'stream-symbol-case');
    assert.equal(d.severity, 'error');
    assert.deepEqual([d.range.startLine, d.range.startChar, d.range.endChar], [2, 31, 38]);
    assert.deepEqual(d.fix, { title: 'Change to ETHUSDT', replacement: 'ETHUSDT' });
    assert.match(d.message, /The symbol must be upper-case \(§2\.1\): ETHUSDT, not ethusdt/);
    const v = only('@s = ethusdt\nWS /ws\n[subscribe]\nspot@public.deals.v3.api@{{s}}', 'stream-symbol-case');
    assert.deepEqual([v.range.startLine, v.range.startChar, v.range.endChar], [3, 0, 30]);
    assert.equal(v.fix, undefined);
  });

  it('a private stream without # @listenKey is an error on its name; the file header may give # @listenKey', () => {
    const d = only(
      'WS /ws\n[subscribe]\nspot@public.deals.v3.api@BTCUSDT\nspot@private.deals.v3.api',
      'private-stream',
    );
    assert.equal(d.severity, 'error');
    assert.deepEqual([d.range.startLine, d.range.startChar, d.range.endChar], [3, 0, 25]);
    assert.match(d.message, /spot@private\.deals\.v3\.api is private: it needs a listen key.*Add `# @listenKey`/);
    assert.deepEqual(found('# @listenKey\n\n### mine\nWS /ws\n[subscribe]\nspot@private.account.v3.api'), []);
  });

  it("a directive of the other kind of request is a warning on the directive; the file's directives apply to both", () => {
    assert.deepEqual(found('# @expect json a == 1\n# @signed\n# @expect message s == X\nWS /ws'), [
      'ws-directive warning 0:0-0:21',
      'ws-directive warning 1:0-1:9',
    ]);
    assert.deepEqual(found('# @listenKey\n# @listen 5\n# @expect message s == X\nGET /api/v3/ping'), [
      'ws-directive warning 0:0-0:12',
      'ws-directive warning 1:0-1:11',
      'ws-directive warning 2:0-2:24',
    ]);
    assert.deepEqual(found('# @listen 5\n\n### a\nGET /api/v3/ping\n\n### b\nWS /ws'), []);
    // The expectation kinds of HTTP answers: a header and a duration are not a push's.
    assert.deepEqual(found('# @expect header a exists\n# @expect duration < 5\n# @expect message s isString\nWS /ws'), [
      'ws-directive warning 0:0-0:25',
      'ws-directive warning 1:0-1:22',
    ]);
  });
});

describe("check: WebSocket requests under the environment's deployment", () => {
  it("mexc's names pass under an environment of mexc; its private streams still need # @listenKey", () => {
    const text = [
      'WS /ws',
      '[subscribe]',
      ...MEXC.streams.filter((s) => s.visibility === 'public').map((s) => exampleStreamName(s)),
      'spot@public.kline.v3.api.pb@BTCUSDT@Hour8',
      '',
      '### Mine',
      '# @listenKey',
      'WS /ws',
      '[subscribe]',
      ...MEXC.streams.filter((s) => s.visibility === 'private').map((s) => s.template),
    ].join('\n');
    assert.deepEqual(check(text, MEXC_SANDBOX), []);
    const d = onlyUnder('WS /ws\n[subscribe]\nspot@private.orders.v3.api.pb', 'private-stream', MEXC_SANDBOX);
    assert.match(d.message, /spot@private\.orders\.v3\.api\.pb is private/);
  });

  it('a JSON name under mexc is a stream-deployment warning on the whole name, with the .pb name as its quick fix', () => {
    const cases: [string, string][] = [
      ['spot@public.deals.v3.api@BTCUSDT', 'spot@public.aggre.deals.v3.api.pb@100ms@BTCUSDT'],
      ['spot@public.limit.depth.v3.api@ETHUSDT@20', 'spot@public.limit.depth.v3.api.pb@ETHUSDT@20'],
      ['spot@public.kline.v3.api@BTCUSDT@Month', 'spot@public.kline.v3.api.pb@BTCUSDT@Month1'],
    ];
    for (const [name, fixed] of cases) {
      const d = onlyUnder(`WS /ws\n[subscribe]\n  ${name}`, 'stream-deployment', MEXC_SANDBOX);
      assert.equal(d.severity, 'warning');
      assert.equal(at(d), `2:2-2:${2 + name.length}`, name);
      assert.deepEqual(d.fix, { title: `Change to ${fixed}`, replacement: fixed });
      assert.match(d.message, /is a stream of the published spec; under MEXC Spot v3/);
      assert.match(d.message, /environment "mexc-sandbox" of tradereq\.env\.json \("deployment": "spec"\)/);
    }
  });

  it('a .pb name under the spec is a stream-deployment warning with the JSON name as its fix, or none when the spec has no such stream', () => {
    const d = only('WS /ws\n[subscribe]\nspot@public.aggre.bookTicker.v3.api.pb@10ms@BTCUSDT', 'stream-deployment');
    assert.deepEqual(d.fix?.replacement, 'spot@public.bookTicker.v3.api@BTCUSDT');
    assert.match(d.message, /is a stream of MEXC Spot v3; under the published spec/);
    assert.match(d.message, /\("deployment": "mexc"\)/);
    const none = only('WS /ws\n[subscribe]\nspot@public.aggre.depth.v3.api.pb@10ms@BTCUSDT', 'stream-deployment');
    assert.equal(none.fix, undefined);
    assert.equal(at(none), '2:0-2:33');
    assert.match(none.message, /has none like it; known: spot@public\.deals\.v3\.api/);
  });

  it('through a variable the finding covers the whole name and offers no fix', () => {
    const d = onlyUnder(
      '@s = BTCUSDT\nWS /ws\n[subscribe]\nspot@public.deals.v3.api@{{s}}',
      'stream-deployment',
      MEXC_SANDBOX,
    );
    assert.equal(at(d), '3:0-3:30');
    assert.equal(d.fix, undefined);
  });

  it('a mexc parameter written another way is an unknown-stream warning on it, with a fix where the right text is plain', () => {
    const month = onlyUnder(
      'WS /ws\n[subscribe]\nspot@public.kline.v3.api.pb@BTCUSDT@Month',
      'unknown-stream',
      MEXC_SANDBOX,
    );
    assert.equal(at(month), '2:36-2:41');
    assert.deepEqual(month.fix, { title: 'Change to Month1', replacement: 'Month1' });
    const rate = onlyUnder(
      'WS /ws\n[subscribe]\nspot@public.aggre.deals.v3.api.pb@100MS@BTCUSDT',
      'unknown-stream',
      MEXC_SANDBOX,
    );
    assert.deepEqual(rate.fix?.replacement, '100ms');
    const bad = onlyUnder(
      'WS /ws\n[subscribe]\nspot@public.aggre.deals.v3.api.pb@1s@BTCUSDT',
      'unknown-stream',
      MEXC_SANDBOX,
    );
    assert.equal(bad.fix, undefined);
    assert.match(bad.message, /rate is one of 100ms, 10ms, not "1s"/);
  });
});

describe('check: batchOrders', () => {
  const order = (extra = ''): string =>
    `{"symbol":"BTCUSDT","side":"BUY","type":"LIMIT","quantity":"0.001","price":"20000"${extra}}`;

  it('a list of 1 to 20 whole orders passes, as a parameter line and as a [json] member', () => {
    assert.deepEqual(found(`POST /api/v3/batchOrders\nbatchOrders = [${order()}, ${order()}]`), []);
    const list = Array.from({ length: 20 }, () => order()).join(',');
    assert.deepEqual(found(`POST /api/v3/batchOrders\nbatchOrders = [${list}]`), []);
    assert.deepEqual(found(`POST /api/v3/batchOrders\n[json]\n{"batchOrders": [\n  ${order()}\n]}`), []);
  });

  it('more than 20 orders (or none) is a batch-size error preventing 730002, from the 21st order to the last', () => {
    const list = Array.from({ length: 22 }, () => order()).join(',');
    const text = `POST /api/v3/batchOrders\nbatchOrders = [${list}]`;
    const d = only(text, 'batch-size');
    const one = order().length;
    assert.equal(d.prevents, 730002);
    assert.deepEqual(
      [d.range.startLine, d.range.startChar, d.range.endChar],
      [1, 15 + 20 * (one + 1), 15 + 22 * (one + 1) - 1],
    );
    assert.match(d.message, /batchOrders holds 1 to 20 orders; this one holds 22 \(the service answers 730002/);
    assert.equal(only('POST /api/v3/batchOrders\nbatchOrders = []', 'batch-size').prevents, 730002);
  });

  it('a malformed list is a batch-list error preventing 33333: not JSON, not a list, an order not an object, a value not text or a number', () => {
    const cases: [string, RegExp, string][] = [
      ['[{"symbol": "BTCUSDT"', /not valid JSON/, '1:14-1:35'],
      ['{"symbol": "BTCUSDT"}', /this is not a list/, '1:14-1:35'],
      [
        `[${order()}, "BUY"]`,
        /Order 2 of batchOrders is not an object/,
        `1:${17 + order().length}-1:${22 + order().length}`,
      ],
      [`[${order(',"x":[1]')}]`, /"x" of order 1 must be text or a number/, `1:15-1:${15 + order(',"x":[1]').length}`],
    ];
    for (const [list, message, at] of cases) {
      const d = only(`POST /api/v3/batchOrders\nbatchOrders = ${list}`, 'batch-list');
      assert.equal(d.prevents, 33333, list);
      assert.match(d.message, message, list);
      assert.equal(`${d.range.startLine}:${d.range.startChar}-${d.range.endLine}:${d.range.endChar}`, at, list);
    }
  });

  it('an order missing what its type needs is a missing-param error on that order (44444), also across lines of a [json] body', () => {
    const text = [
      'POST /api/v3/batchOrders',
      '[json]',
      '{"batchOrders": [',
      `  ${order()},`,
      '  {"symbol": "BTCUSDT", "side": "SELL", "type": "MARKET"},',
      '  {"symbol": "BTCUSDT", "type": "LIMIT",',
      '   "quantity": "1"}',
      ']}',
    ].join('\n');
    const all = check(text);
    assert.deepEqual(
      all.map((d) => `${d.rule} ${d.range.startLine}:${d.range.startChar}-${d.range.endLine}:${d.range.endChar}`),
      ['missing-param 4:2-4:57', 'missing-param 5:2-6:19'],
    );
    assert.match(all[0]!.message, /Order 2 of batchOrders is a MARKET order and needs quantity or quoteOrderQty/);
    assert.match(
      all[1]!.message,
      /Order 3 of batchOrders is a LIMIT order and needs "side", "price" \(the service answers 44444/,
    );
    for (const d of all) assert.equal(d.prevents, 44444);
  });

  it('a parameter an order does not take is a warning; a list through a variable is checked whole', () => {
    const d = only(`POST /api/v3/batchOrders\nbatchOrders = [${order(',"recvWindow":"5000"')}]`, 'unknown-param');
    assert.match(d.message, /"recvWindow" of order 1 is not a parameter of an order/);
    const v = only('@list = [{"symbol":"BTCUSDT"}]\nPOST /api/v3/batchOrders\nbatchOrders = {{list}}', 'missing-param');
    assert.deepEqual([v.range.startLine, v.range.startChar, v.range.endChar], [2, 14, 22]);
  });

  it('itemSpans finds each element of a list, strings with brackets and escapes included', () => {
    const text = '[ {"a":"]\\"x"} ,\n 2, "s,t" ,[1,[2]] ]';
    assert.deepEqual(
      itemSpans(text).map(([s, e]) => text.slice(s, e)),
      ['{"a":"]\\"x"}', '2', '"s,t"', '[1,[2]]'],
    );
    assert.deepEqual(itemSpans('[]'), []);
  });
});
