/**
 * `# @expect message PATH OP VALUE` over WebSocket pushes (src/core/ws/expect.ts): every operator of
 * `# @expect json`, judged by the same rules, passing when one push satisfies it; the line as the
 * resolved request carries it (its text) is what is checked.
 */
import assert from 'node:assert/strict';
import { readOptions } from '../../../src/core/format/directives';
import { parse } from '../../../src/core/format/parser';
import { resolveWsRequest } from '../../../src/core/ws/resolved-request';
import { checkMessageExpectations, MessageExpectations } from '../../../src/core/ws/expect';
import { BUILTIN_SANDBOX } from '../../../src/core/env/schema';

const deals = (...prices: string[]) => ({
  c: 'spot@public.deals.v3.api@BTCUSDT',
  s: 'BTCUSDT',
  t: 1700000000000,
  d: {
    deals: prices.map((p, i) => ({ p, v: '0.1', S: 1 + (i % 2), t: 1700000000000 + i })),
    e: 'spot@public.deals.v3.api',
  },
});

/** The message expectations of a WS request with these `# @expect` lines, as `tradereq listen` gets them. */
function expectations(...lines: string[]) {
  const doc = parse(
    [...lines.map((l) => `# @expect ${l}`), 'WS /ws', '[subscribe]', 'spot@public.deals.v3.api@BTCUSDT', ''].join('\n'),
  );
  assert.deepEqual(readOptions(doc, doc.requests[0]).diagnostics, []);
  const r = resolveWsRequest(doc, doc.requests[0]!, {
    environment: BUILTIN_SANDBOX,
    now: () => 1700000000000,
    uuid: () => 'u',
    clientOrderId: () => 'c',
  });
  assert.ok(r.ok);
  return r.value.expectations;
}

describe('# @expect message: the operators of # @expect json over pushes', () => {
  it('passes when one push satisfies the line; each push with * must hold for every element', () => {
    const results = checkMessageExpectations(
      expectations(
        'message d.deals[*].p > 30000',
        'message d.deals[*].p isDecimal',
        'message d.deals count >= 2',
        'message s matches /^[A-Z]+USDT$/',
        'message d.deals[0].p == 29990',
        'message d.deals[0].S in [1, 2]',
        'message d.deals[*].p < 1',
      ),
      [deals('29990.00000000'), deals('30010.5', '30020'), deals('abc')],
    );
    assert.deepEqual(
      results.map((r) => [r.text, r.passed, r.actual]),
      [
        ['@expect message d.deals[*].p > 30000', true, '2 values at d.deals[*].p, each as expected'],
        ['@expect message d.deals[*].p isDecimal', true, '1 value at d.deals[*].p, each as expected'],
        ['@expect message d.deals count >= 2', true, 'd.deals count 2'],
        ['@expect message s matches /^[A-Z]+USDT$/', true, 's = BTCUSDT'],
        ['@expect message d.deals[0].p == 29990', true, 'd.deals[0].p = 29990.00000000'],
        ['@expect message d.deals[0].S in [1, 2]', true, 'd.deals[0].S = 1'],
        ['@expect message d.deals[*].p < 1', false, 'd.deals[0].p = abc (not a number) (the last of 3 pushes)'],
      ],
    );
  });

  it('not exists passes on a push without PATH; a push without PATH says nothing to the others', () => {
    const m = new MessageExpectations(expectations('message d.deals not exists', 'message d.deals[0].p == 1'));
    m.observe(deals('2'));
    assert.deepEqual(
      m.results().map((r) => [r.passed, r.actual]),
      [
        [false, 'd.deals = [{"p":"2","v":"0.1","S":1,"t":1700000000000}] (the last of 1 pushes)'],
        [false, 'd.deals[0].p = 2 (the last of 1 pushes)'],
      ],
    );
    m.observe({ id: 1, code: 0, msg: 'spot@public.deals.v3.api@BTCUSDT' });
    assert.deepEqual(
      m.results().map((r) => [r.passed, r.actual]),
      [
        [true, 'no value at d.deals'],
        [false, 'd.deals[0].p = 2 (the last of 2 pushes)'],
      ],
    );
    assert.equal(m.allPassed, false);
  });

  it('a path and VALUE given as data, without the line, is PATH == VALUE (decimals compared exactly)', () => {
    const [r] = checkMessageExpectations([{ path: 'd.deals[0].p', value: '29990' }], [deals('29990.00000000')]);
    assert.deepEqual(r, {
      text: '@expect message d.deals[0].p == 29990',
      passed: true,
      actual: 'd.deals[0].p = 29990.00000000',
    });
  });
});
