/**
 * The stream catalog per deployment: every deployment's descriptions agree with themselves (names
 * read back, examples that are real pushes of their stream), mexc's names read by position with
 * their own parameters (rate, levels, intervals), and a name of the other deployment is told apart
 * with its equivalent as the suggestion.
 */
import assert from 'node:assert/strict';
import { fromJson, toBinary, type JsonValue } from '@bufbuild/protobuf';
import { DEPLOYMENTS, deploymentById, type Deployment } from '../../../src/core/catalog/deployment';
import {
  MEXC_KLINE_INTERVALS,
  equivalentStream,
  exampleStreamName,
  formatStreamName,
  readStreamName,
  type StreamProblem,
} from '../../../src/core/catalog/stream-names';
import { decodePush } from '../../../src/core/ws/pb';
import { PushDataV3ApiWrapperSchema } from '../../../src/core/ws/proto/push_pb';

const SPEC = deploymentById('spec')!;
const MEXC = deploymentById('mexc')!;

function problemOf(name: string, d: Deployment): StreamProblem {
  const r = readStreamName(name, d);
  assert.ok(!r.ok, `${name} read under ${d.id}`);
  return r.error;
}

/** A decoded push as it is shown: the wrapper's fields and the body under its name. */
function shown(bytes: Uint8Array): Record<string, unknown> {
  const r = decodePush(bytes);
  assert.ok(r.ok, JSON.stringify(r));
  const { body, ...wrapper } = r.value;
  return { ...wrapper, [body.name]: body.value };
}

/** Every path of a JSON value, with `[]` for list items: `deals`, `deals[].price`. */
function paths(v: unknown, prefix = ''): string[] {
  if (Array.isArray(v)) return v.length === 0 ? [] : paths(v[0], `${prefix}[]`);
  if (v === null || typeof v !== 'object') return [];
  return Object.entries(v).flatMap(([k, x]) => {
    const p = prefix === '' ? k : `${prefix}.${k}`;
    return [p, ...paths(x, p)];
  });
}

describe('catalog: stream names per deployment', () => {
  it('mexc has the documented channels, three of them private, and the spec its seven', () => {
    assert.deepEqual(
      MEXC.streams.map((s) => s.template),
      [
        'spot@public.aggre.deals.v3.api.pb@<rate>@<symbol>',
        'spot@public.aggre.depth.v3.api.pb@<rate>@<symbol>',
        'spot@public.limit.depth.v3.api.pb@<symbol>@<levels>',
        'spot@public.increase.depth.batch.v3.api.pb@<symbol>',
        'spot@public.aggre.bookTicker.v3.api.pb@<rate>@<symbol>',
        'spot@public.bookTicker.batch.v3.api.pb@<symbol>',
        'spot@public.kline.v3.api.pb@<symbol>@<interval>',
        'spot@private.orders.v3.api.pb',
        'spot@private.deals.v3.api.pb',
        'spot@private.account.v3.api.pb',
      ],
    );
    assert.deepEqual(
      MEXC.streams.filter((s) => s.visibility === 'private').map((s) => s.kind),
      ['orders', 'privateDeals', 'account'],
    );
    assert.equal(SPEC.streams.length, 7);
    assert.deepEqual(MEXC_KLINE_INTERVALS, [
      'Min1',
      'Min5',
      'Min15',
      'Min30',
      'Min60',
      'Hour4',
      'Hour8',
      'Day1',
      'Week1',
      'Month1',
    ]);
  });

  for (const d of DEPLOYMENTS)
    it(`${d.id}: each stream's template lists its parameters in order, and its example name reads back to itself`, () => {
      assert.equal(new Set(d.streams.map((s) => s.kind)).size, d.streams.length, 'one stream a kind');
      for (const s of d.streams) {
        assert.equal(s.template, [s.channel, ...s.params.map((p) => `<${p.name}>`)].join('@'));
        const name = exampleStreamName(s);
        const r = readStreamName(name, d);
        assert.ok(r.ok, `${name}: ${JSON.stringify(r)}`);
        assert.equal(r.value.info, s);
        assert.equal(formatStreamName(r.value.stream, d), name);
      }
    });

  it("mexc: each example is a push its body's field carries, decoding to itself, whose fields are the description's", () => {
    for (const s of MEXC.streams) {
      assert.ok(s.body !== undefined, s.channel);
      const field = PushDataV3ApiWrapperSchema.fields.find((f) => f.localName === s.body!.name);
      assert.equal(field?.number, s.body.field, s.channel);
      assert.equal(field.message?.name, s.body.message, s.channel);
      const example = JSON.parse(s.example) as Record<string, JsonValue>;
      const bytes = toBinary(PushDataV3ApiWrapperSchema, fromJson(PushDataV3ApiWrapperSchema, example));
      assert.deepEqual(shown(bytes), example, s.channel);
      const read = readStreamName(example['channel'] as string, MEXC);
      assert.ok(read.ok && read.value.info === s, s.channel);
      assert.deepEqual(
        s.fields.map((f) => f.path).sort(),
        paths(example[s.body.name]).sort(),
        `${s.channel}: every field described, none invented`,
      );
    }
  });

  it('mexc names read by position: the rate, the levels, the interval, each with its parameters', () => {
    const read = (name: string) => {
      const r = readStreamName(name, MEXC);
      assert.ok(r.ok, JSON.stringify(r));
      return r.value.stream;
    };
    assert.deepEqual(read('spot@public.aggre.deals.v3.api.pb@10ms@ETHUSDT'), {
      kind: 'deals',
      symbol: 'ETHUSDT',
      rate: '10ms',
    });
    assert.deepEqual(read('spot@public.aggre.depth.v3.api.pb@100ms@BTCUSDT'), {
      kind: 'aggreDepth',
      symbol: 'BTCUSDT',
      rate: '100ms',
    });
    assert.deepEqual(read('spot@public.limit.depth.v3.api.pb@BTCUSDT@20'), {
      kind: 'depth',
      symbol: 'BTCUSDT',
      levels: 20,
    });
    assert.deepEqual(read('spot@public.kline.v3.api.pb@BTCUSDT@Hour8'), {
      kind: 'kline',
      symbol: 'BTCUSDT',
      interval: 'Hour8',
    });
    assert.deepEqual(read('spot@public.bookTicker.batch.v3.api.pb@BTCUSDT'), {
      kind: 'bookTickerBatch',
      symbol: 'BTCUSDT',
    });
    assert.deepEqual(read('spot@private.account.v3.api.pb'), { kind: 'account' });
    assert.equal(
      formatStreamName({ kind: 'bookTicker', symbol: 'BTCUSDT', rate: '10ms' }, MEXC),
      'spot@public.aggre.bookTicker.v3.api.pb@10ms@BTCUSDT',
    );
    // The spec's deals carry no rate: written for mexc, the first documented one.
    assert.equal(
      formatStreamName({ kind: 'deals', symbol: 'BTCUSDT' }, MEXC),
      'spot@public.aggre.deals.v3.api.pb@100ms@BTCUSDT',
    );
    assert.throws(
      () => formatStreamName({ kind: 'aggreDepth', symbol: 'BTCUSDT', rate: '10ms' }, SPEC),
      /no aggreDepth/,
    );
  });

  it('a bad mexc parameter is a problem on that parameter, with a fix where one is plain', () => {
    const rate = problemOf('spot@public.aggre.deals.v3.api.pb@50ms@BTCUSDT', MEXC);
    assert.deepEqual([rate.kind, rate.start, rate.end], ['bad-rate', 34, 38]);
    assert.match(rate.message, /rate is one of 100ms, 10ms, not "50ms"/);
    assert.deepEqual(rate.expected, ['100ms', '10ms']);
    assert.equal(rate.suggestion, undefined);
    const upper = problemOf('spot@public.aggre.deals.v3.api.pb@100MS@BTCUSDT', MEXC);
    assert.equal(upper.suggestion, 'spot@public.aggre.deals.v3.api.pb@100ms@BTCUSDT');
    const month = problemOf('spot@public.kline.v3.api.pb@BTCUSDT@Month', MEXC);
    assert.equal(month.kind, 'bad-interval');
    assert.match(month.message, /MEXC Spot v3 writes "Month" as Month1/);
    assert.equal(month.suggestion, 'spot@public.kline.v3.api.pb@BTCUSDT@Month1');
    const levels = problemOf('spot@public.limit.depth.v3.api.pb@BTCUSDT@15', MEXC);
    assert.equal(levels.kind, 'bad-levels');
    const symbol = problemOf('spot@public.aggre.deals.v3.api.pb@100ms@btcusdt', MEXC);
    assert.equal(symbol.suggestion, 'spot@public.aggre.deals.v3.api.pb@100ms@BTCUSDT');
    const count = problemOf('spot@public.aggre.deals.v3.api.pb@BTCUSDT', MEXC);
    assert.match(count.message, /takes rate and symbol: .*e\.g\. spot@public\.aggre\.deals\.v3\.api\.pb@100ms@BTCUSDT/);
    // Under the spec, mexc's month is the spec's Month; Hour8 has no equal there.
    assert.equal(
      problemOf('spot@public.kline.v3.api@BTCUSDT@Month1', SPEC).suggestion,
      'spot@public.kline.v3.api@BTCUSDT@Month',
    );
    assert.equal(problemOf('spot@public.kline.v3.api@BTCUSDT@Hour8', SPEC).suggestion, undefined);
  });

  it("a name of the other deployment says whose it is, with this deployment's equivalent as the suggestion", () => {
    const cases: [string, Deployment, string | undefined][] = [
      ['spot@public.deals.v3.api@BTCUSDT', MEXC, 'spot@public.aggre.deals.v3.api.pb@100ms@BTCUSDT'],
      ['spot@public.aggre.deals.v3.api.pb@10ms@BTCUSDT', SPEC, 'spot@public.deals.v3.api@BTCUSDT'],
      ['spot@public.limit.depth.v3.api@BTCUSDT@10', MEXC, 'spot@public.limit.depth.v3.api.pb@BTCUSDT@10'],
      ['spot@public.bookTicker.v3.api@BTCUSDT', MEXC, 'spot@public.aggre.bookTicker.v3.api.pb@100ms@BTCUSDT'],
      ['spot@public.kline.v3.api@BTCUSDT@Month', MEXC, 'spot@public.kline.v3.api.pb@BTCUSDT@Month1'],
      ['spot@public.kline.v3.api.pb@BTCUSDT@Month1', SPEC, 'spot@public.kline.v3.api@BTCUSDT@Month'],
      ['spot@private.orders.v3.api', MEXC, 'spot@private.orders.v3.api.pb'],
      ['spot@private.account.v3.api.pb', SPEC, 'spot@private.account.v3.api'],
      // No equivalent: the spec has no aggregated depth and no 8-hour candles.
      ['spot@public.aggre.depth.v3.api.pb@100ms@BTCUSDT', SPEC, undefined],
      ['spot@public.kline.v3.api.pb@BTCUSDT@Hour8', SPEC, undefined],
    ];
    for (const [name, d, suggestion] of cases) {
      const p = problemOf(name, d);
      assert.equal(p.kind, 'other-deployment', name);
      assert.equal(p.deployment, d === MEXC ? 'spec' : 'mexc', name);
      assert.equal(p.suggestion, suggestion, name);
      assert.equal(p.start, 0, name);
      assert.equal(p.end, suggestion === undefined ? name.split('@').slice(0, 2).join('@').length : name.length, name);
      assert.match(
        p.message,
        d === MEXC ? /is a stream of the published spec; .*MEXC Spot v3/ : /is a stream of MEXC Spot v3/,
      );
      if (suggestion !== undefined) assert.ok(readStreamName(suggestion, d).ok, suggestion);
    }
    // Neither deployment's: unknown, listing this deployment's channels.
    const unknown = problemOf('spot@public.trades.v3.api.pb@BTCUSDT', MEXC);
    assert.equal(unknown.kind, 'unknown-kind');
    assert.deepEqual(
      unknown.expected,
      MEXC.streams.map((s) => s.channel),
    );
  });

  it('the equivalent of a stream keeps its symbol and parameters, choosing the first rate where it had none', () => {
    assert.deepEqual(equivalentStream({ kind: 'depth', symbol: 'ETHUSDT', levels: 5 }, MEXC), {
      kind: 'depth',
      symbol: 'ETHUSDT',
      levels: 5,
    });
    assert.deepEqual(equivalentStream({ kind: 'deals', symbol: 'ETHUSDT', rate: '10ms' }, SPEC), {
      kind: 'deals',
      symbol: 'ETHUSDT',
    });
    assert.equal(equivalentStream({ kind: 'bookTickerBatch', symbol: 'ETHUSDT' }, SPEC), undefined);
  });
});
