/**
 * Completion and hover inside WebSocket requests (stream names: kinds, then symbols from the same
 * source as REST, then depth levels or kline intervals) and inside batchOrders lists (the
 * parameters of an order), as pure functions of the document model.
 */
import assert from 'node:assert/strict';
import { STREAM_DESCRIPTIONS } from '../../../src/core/catalog/stream-names';
import { completionsAt, wantsSymbols, type CompletionContext } from '../../../src/core/editor/completion';
import { hoverAt } from '../../../src/core/editor/hover';
import { openContainers } from '../../../src/core/editor/stream-completion';
import { BUILTIN_SANDBOX } from '../../../src/core/env/constants';
import { parse } from '../../../src/core/format/parser';

const CTX: CompletionContext = {
  environment: BUILTIN_SANDBOX,
  symbols: [
    { symbol: 'LTCBTC', detail: 'LTC/BTC', source: 'exchangeInfo' },
    { symbol: 'XRPUSDT', source: 'setting' },
  ],
};

/** The text without its `|`, and where the `|` was. */
function at(text: string): { clean: string; line: number; character: number; lineText: string } {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes('|'));
  const character = lines[line]!.indexOf('|');
  const clean = text.replace('|', '');
  return { clean, line, character, lineText: clean.split('\n')[line]! };
}

function complete(text: string) {
  const c = at(text);
  return completionsAt(parse(c.clean), c.lineText, c.line, c.character, CTX);
}

function hover(text: string) {
  const c = at(text);
  return hoverAt(parse(c.clean), c.lineText, c.line, c.character, { environment: BUILTIN_SANDBOX });
}

const range = (r: { startLine: number; startChar: number; endLine: number; endChar: number }): string =>
  `${r.startLine}:${r.startChar}-${r.endLine}:${r.endChar}`;

describe('editor: completion in WebSocket requests', () => {
  it('under [subscribe]: every stream kind, those with parameters ending in @ and keeping the list open', () => {
    const items = complete('WS /ws\n[subscribe]\nspot@pu|\n');
    assert.deepEqual(
      items.map((i) => i.label),
      [
        'spot@public.deals.v3.api@',
        'spot@public.limit.depth.v3.api@',
        'spot@public.bookTicker.v3.api@',
        'spot@public.kline.v3.api@',
        'spot@private.orders.v3.api',
        'spot@private.deals.v3.api',
        'spot@private.account.v3.api',
      ],
    );
    assert.equal(range(items[0]!.range), '2:0-2:7', 'the whole name typed so far is replaced');
    assert.equal(items[0]!.retrigger, true);
    assert.equal(items[4]!.retrigger, undefined);
    assert.match(items[4]!.detail!, /My orders · private · needs # @listenKey/);
    assert.match(items[0]!.documentation!, /\*\*Trades\*\* \(public stream\)[\s\S]*deals\[\]\.p/);
  });

  it('after the kind: symbols from the same source as REST, then depth levels or kline intervals', () => {
    const symbols = complete('WS /ws\n[subscribe]\nspot@public.limit.depth.v3.api@L|\n');
    assert.deepEqual(
      symbols.map((i) => [i.label, i.insertText, range(i.range)]),
      [
        ['LTCBTC', 'LTCBTC@', '2:31-2:32'],
        ['XRPUSDT', 'XRPUSDT@', '2:31-2:32'],
      ],
      'the symbol is followed by the levels: @ and the list stays open',
    );
    assert.match(symbols[0]!.detail!, /LTC\/BTC · exchangeInfo of sandbox/);
    const deals = complete('WS /ws\n[subscribe]\nspot@public.deals.v3.api@|\n');
    assert.deepEqual(
      deals.map((i) => [i.label, i.insertText]),
      [
        ['LTCBTC', undefined],
        ['XRPUSDT', undefined],
      ],
    );
    const levels = complete('WS /ws\n[subscribe]\nspot@public.limit.depth.v3.api@BTCUSDT@|\n');
    assert.deepEqual(
      levels.map((i) => i.label),
      ['5', '10', '20'],
    );
    const intervals = complete('WS /ws\n[subscribe]\n  spot@public.kline.v3.api@BTCUSDT@M|in\n');
    assert.deepEqual(
      intervals.map((i) => i.label),
      ['Min1', 'Min5', 'Min15', 'Min30', 'Min60', 'Hour4', 'Day1', 'Week1', 'Month'],
    );
    assert.equal(range(intervals[0]!.range), '2:35-2:38');
    assert.deepEqual(complete('WS /ws\n[subscribe]\nspot@private.orders.v3.api@|\n'), []);
  });

  it('symbols are loaded only where a symbol goes: in a stream name after its kind, or after symbol =', () => {
    const wants = (text: string): boolean => {
      const c = at(text);
      return wantsSymbols(parse(c.clean), c.lineText, c.line, c.character);
    };
    assert.equal(wants('WS /ws\n[subscribe]\nspot@public.deals.v3.api@B|\n'), true);
    assert.equal(wants('WS /ws\n[subscribe]\nspot@public.deals|\n'), false);
    assert.equal(wants('WS /ws\n[subscribe]\nspot@public.kline.v3.api@BTCUSDT@M|\n'), false);
    assert.equal(wants('WS /ws\n[message]\nspot@public.deals.v3.api@|\n'), false);
    assert.equal(wants('POST /api/v3/order\nsymbol = |\n'), true);
    assert.equal(wants('POST /api/v3/batchOrders\nbatchOrders = [{"symbol": "|\n'), true);
  });

  it('sections after [ (and on a bare line before any), /ws on the request line, nothing inside a [message]', () => {
    assert.deepEqual(
      complete('WS /ws\n[|\n').map((i) => i.label),
      ['[subscribe]', '[message]'],
    );
    assert.deepEqual(
      complete('WS /ws\n|\n').map((i) => i.label),
      ['[subscribe]', '[message]'],
    );
    assert.deepEqual(
      complete('WS /w|\n').map((i) => [i.label, range(i.range)]),
      [['/ws', '0:3-0:5']],
    );
    assert.deepEqual(complete('WS /ws\n[message]\n{"method": "|"}\n'), []);
  });
});

describe('editor: completion in a batchOrders list', () => {
  it('the parameters of an order at a key, those written in it left out, required first; never timestamp or signature', () => {
    const items = complete(
      'POST /api/v3/batchOrders\nbatchOrders = [{"symbol":"BTCUSDT","side":"BUY"}, {"symbol":"X", "|',
    );
    const labels = items.map((i) => i.label);
    assert.ok(labels.includes('side') && labels.includes('type') && labels.includes('price'), labels.join());
    for (const l of ['symbol', 'timestamp', 'signature', 'recvWindow', 'batchOrders'])
      assert.ok(!labels.includes(l), l);
    const sorted = [...items].sort((a, b) => a.sortText!.localeCompare(b.sortText!));
    assert.deepEqual(
      sorted.slice(0, 2).map((i) => i.label),
      ['side', 'type'],
    );
    assert.match(items[0]!.detail!, /in each order/);
    assert.match(items.find((i) => i.label === 'side')!.documentation!, /in each order of batchOrders/);
  });

  it('the values of an order parameter after "name": "', () => {
    assert.deepEqual(
      complete('POST /api/v3/batchOrders\nbatchOrders = [{"side": "|').map((i) => i.label),
      ['BUY', 'SELL'],
    );
    assert.deepEqual(
      complete('POST /api/v3/batchOrders\nbatchOrders = [{"symbol": "|').map((i) => i.label),
      ['LTCBTC', 'XRPUSDT'],
    );
  });

  it('in a [json] body: the order parameters inside the list, the endpoint parameters at the top', () => {
    const inside = complete(
      'POST /api/v3/batchOrders\n[json]\n{"batchOrders": [\n  {"symbol": "BTCUSDT", "type": "LIMIT"},\n  {"|"}\n]}\n',
    );
    const labels = inside.map((i) => i.label);
    assert.ok(labels.includes('symbol') && labels.includes('quantity'), labels.join());
    assert.ok(!labels.includes('batchOrders'));
    const top = complete('POST /api/v3/batchOrders\n[json]\n{"|"}\n').map((i) => i.label);
    assert.ok(top.includes('batchOrders') && !top.includes('side'), top.join());
  });

  it('openContainers reads JSON cut anywhere, strings with brackets included', () => {
    assert.deepEqual(
      openContainers('{"batchOrders": [{"a": "]}", "b": [1, 2], "c').map((o) => [o.kind, o.key]),
      [
        ['{', undefined],
        ['[', 'batchOrders'],
        ['{', undefined],
      ],
    );
  });
});

describe('editor: hover in WebSocket requests', () => {
  it('a stream name: what it pushes, public or private, assumed as the catalog marks it', () => {
    const h = hover('WS /ws\n[subscribe]\nspot@public.limit.depth.v3.api@BT|CUSDT@5\n')!;
    assert.equal(range(h.range), '2:0-2:40');
    assert.match(
      h.markdown,
      /^\*\*Order book, best levels\*\* \(public stream\): `spot@public\.limit\.depth\.v3\.api@BTCUSDT@5`/,
    );
    assert.match(h.markdown, /Public: no key needed/);
    assert.match(h.markdown, /- `bids\[\]\.p` \(decimal\): Price of the level\./);
    assert.match(h.markdown, /_Assumed \(not documented by the service\): §6 shows no stream names/);
    const p = hover('WS /ws\n[subscribe]\nspot@private.or|ders.v3.api\n')!;
    assert.match(p.markdown, /\(private stream\)[\s\S]*Add `# @listenKey`/);
    for (const s of STREAM_DESCRIPTIONS) assert.equal(s.source, 'assumed');
  });

  it('a name through a variable is described once substituted; a bad name says what is wrong, escaped', () => {
    assert.match(
      hover('@s = BTCUSDT\nWS /ws\n[subscribe]\nspot@pub|lic.deals.v3.api@{{s}}\n')!.markdown,
      /\*\*Trades\*\*.*`spot@public\.deals\.v3\.api@BTCUSDT`/,
    );
    const bad = hover('WS /ws\n[subscribe]\nspot@public.nope.v3|.api@X\n')!;
    assert.match(bad.markdown, /^`spot@public\.nope\.v3\.api@X`: Unknown stream \\"spot@public\\.nope/);
  });

  it("the request line: the environment's WebSocket endpoint; the directives' hover comes from DIRECTIVES", () => {
    assert.match(hover('W|S /ws\n')!.markdown, /\*\*WebSocket request\*\*.*"sandbox".*`ws:\/\/127\.0\.0\.1:8780\/ws`/);
    assert.match(
      hover('# @listen|Key\nWS /ws\n')!.markdown,
      /^\*\*@listenKey\*\*: WebSocket request: obtains a listen key/,
    );
    assert.match(hover('# @lis|ten 30s\nWS /ws\n')!.markdown, /`@listen 30s \| @listen 50`/);
  });
});

describe("editor: WebSocket requests under the environment's deployment (mexc)", () => {
  const MEXC_ENV = { ...BUILTIN_SANDBOX, name: 'mexc-sandbox', deployment: 'mexc' };
  const MEXC_CTX: CompletionContext = { ...CTX, environment: MEXC_ENV };
  const completeMexc = (text: string) => {
    const c = at(text);
    return completionsAt(parse(c.clean), c.lineText, c.line, c.character, MEXC_CTX);
  };
  const hoverMexc = (text: string) => {
    const c = at(text);
    return hoverAt(parse(c.clean), c.lineText, c.line, c.character, { environment: MEXC_ENV });
  };

  it('offers the .pb channels, then each parameter in its place: the rate, the symbol, the level, the interval', () => {
    assert.deepEqual(
      completeMexc('WS /ws\n[subscribe]\nspot@|\n').map((i) => i.label),
      [
        'spot@public.aggre.deals.v3.api.pb@',
        'spot@public.aggre.depth.v3.api.pb@',
        'spot@public.limit.depth.v3.api.pb@',
        'spot@public.increase.depth.batch.v3.api.pb@',
        'spot@public.aggre.bookTicker.v3.api.pb@',
        'spot@public.bookTicker.batch.v3.api.pb@',
        'spot@public.kline.v3.api.pb@',
        'spot@private.orders.v3.api.pb',
        'spot@private.deals.v3.api.pb',
        'spot@private.account.v3.api.pb',
      ],
    );
    const rates = completeMexc('WS /ws\n[subscribe]\nspot@public.aggre.deals.v3.api.pb@|\n');
    assert.deepEqual(
      rates.map((i) => [i.label, i.insertText]),
      [
        ['100ms', '100ms@'],
        ['10ms', '10ms@'],
      ],
    );
    const symbols = completeMexc('WS /ws\n[subscribe]\nspot@public.aggre.deals.v3.api.pb@10ms@|\n');
    assert.deepEqual(
      symbols.map((i) => i.label),
      ['LTCBTC', 'XRPUSDT'],
    );
    const intervals = completeMexc('WS /ws\n[subscribe]\nspot@public.kline.v3.api.pb@BTCUSDT@|\n');
    assert.ok(intervals.some((i) => i.label === 'Hour8') && intervals.some((i) => i.label === 'Month1'));
    assert.ok(!intervals.some((i) => i.label === 'Month'));
    // The shell loads symbols where a symbol goes, whichever deployment's channel it is.
    const c = at('WS /ws\n[subscribe]\nspot@public.aggre.deals.v3.api.pb@10ms@|\n');
    assert.equal(wantsSymbols(parse(c.clean), c.lineText, c.line, c.character), true);
    const r = at('WS /ws\n[subscribe]\nspot@public.aggre.deals.v3.api.pb@|\n');
    assert.equal(wantsSymbols(parse(r.clean), r.lineText, r.line, r.character), false);
  });

  it('the spec environment offers no .pb channel', () => {
    assert.ok(!complete('WS /ws\n[subscribe]\nspot@|\n').some((i) => i.label.includes('.pb')));
  });

  it('hover of a .pb name says what it pushes, decoded, with its body, and whose documentation it is', () => {
    const h = hoverMexc('WS /ws\n[subscribe]\nspot@public.aggre.deals.v3.api.pb@100ms@BTC|USDT\n');
    assert.ok(h);
    assert.match(h.markdown, /\*\*Trades\*\* \(public stream\)/);
    assert.match(h.markdown, /binary \(Protocol Buffers, body 314 PublicAggreDealsV3Api\)/);
    assert.match(h.markdown, /`deals\[\]\.price` \(decimal\)/);
    assert.match(h.markdown, /\*\*rate\*\*/);
    assert.match(h.markdown, /Documented by the deployment MEXC Spot v3/);
    // A JSON name under mexc: the problem, with the equivalent.
    const j = hoverMexc('WS /ws\n[subscribe]\nspot@public.deals.v3.api@BTC|USDT\n');
    assert.match(j!.markdown, /spot@public\\\.aggre\\\.deals\\\.v3\\\.api\\\.pb@100ms@BTCUSDT/);
    const line = hoverMexc('W|S /ws\n[subscribe]\n');
    assert.match(line!.markdown, /deployment MEXC Spot v3 .*binary \(Protocol Buffers\)/);
  });
});
