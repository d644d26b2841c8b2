import * as assert from 'node:assert/strict';
import { hideListenKeys, listenKeysInText, listenKeysOf } from '../../../src/core/request/listen-keys';
import { DEPLOYMENTS } from '../../../src/core/catalog/deployment';
import { redact } from '../../../src/core/ws/url';
import type { RoundTripReport } from '../../../src/core/net/round-trip';
import { EXIT, worstExit } from '../../../src/cli/send';

const KEY = 'f'.repeat(60) + 'ab12';

describe('listen keys in REST exchanges', () => {
  it('finds the key of a userDataStream answer and of a listenKey parameter, and masks both wherever they appear', () => {
    const report = { decoded: { json: { listenKey: KEY } } } as unknown as RoundTripReport;
    const sent = 'e'.repeat(60) + 'cd34';
    const keys = listenKeysOf(report, [
      { name: 'symbol', value: 'BTCUSDT' },
      { name: 'listenKey', value: sent },
    ]);
    assert.deepEqual(keys, [sent, KEY]);
    const text = `PUT /api/v3/userDataStream?listenKey=${sent}\n{"listenKey":"${KEY}"}`;
    assert.equal(hideListenKeys(text, keys), 'PUT /api/v3/userDataStream?listenKey=****cd34\n{"listenKey":"****ab12"}');
  });

  it("finds each deployment's documented keys in a list, parsed or only as text cut short, and masks them all", () => {
    const examples = DEPLOYMENTS.flatMap((d) => d.listenKey.examples);
    assert.ok(examples.length >= 3);
    const text = JSON.stringify({ listenKey: examples });
    const parsed = { decoded: { json: JSON.parse(text) as unknown }, response: { bodyText: text } } as RoundTripReport;
    assert.deepEqual(listenKeysOf(parsed, []), examples);
    // Cut before its end (an answer past the bound is not parsed): its keys are named by the text alone.
    const cut = text.slice(0, -3);
    const unparsed = { response: { bodyText: cut } } as RoundTripReport;
    assert.deepEqual(listenKeysOf(unparsed, []), examples);
    const shown = hideListenKeys(cut, listenKeysOf(unparsed, []));
    for (const k of examples) assert.ok(!shown.includes(k.slice(0, 16)), shown);
    // A field's name spelled with an escape is still that field once parsed.
    const spelled = `{"listen\\u004bey":"${examples[1]!}"}`;
    const escapedName = { decoded: { json: JSON.parse(spelled) as unknown }, response: { bodyText: spelled } };
    assert.deepEqual(listenKeysOf(escapedName as RoundTripReport, []), [examples[1]!]);
    // A word of the key's length that no credential field holds is left as it is (a transaction id, a hash).
    assert.deepEqual(listenKeysInText(`{"txId":"${examples[0]!}"}`), []);
  });

  it('masks the start of a key left at the cut of a text (redact, the WebSocket side)', () => {
    const key = DEPLOYMENTS.flatMap((d) => d.listenKey.examples)[0]!;
    assert.equal(redact(`opened with ${key.slice(0, 30)}`, key), 'opened with ****');
    assert.equal(redact(`a ${key.slice(0, 20)}… (40 more)`, key), 'a ****… (40 more)');
    assert.equal(
      redact(`whole ${key}, then ${key.slice(0, 3)}`, key),
      `whole ****${key.slice(-4)}, then ${key.slice(0, 3)}`,
    );
  });

  it('masks a hostile answer\'s "key" of megabytes without failing (no pattern of that size is made)', () => {
    const huge = 'k'.repeat(2 * 1024 * 1024) + 'zz99';
    const text = JSON.stringify({ listenKey: huge });
    const report = { decoded: { json: JSON.parse(text) as unknown }, response: { bodyText: text } } as RoundTripReport;
    assert.equal(hideListenKeys(text, listenKeysOf(report, [])), '{"listenKey":"****zz99"}');
  });

  it('finds none in other answers', () => {
    const report = { decoded: { json: { orderId: 1 } } } as unknown as RoundTripReport;
    assert.deepEqual(listenKeysOf(report, [{ name: 'symbol', value: 'BTCUSDT' }]), []);
    assert.deepEqual(listenKeysOf(undefined, []), []);
  });
});

describe('the exit code of several requests', () => {
  it('is the gravest: an unknown outcome (3) is never hidden by a later refusal (4)', () => {
    assert.equal(worstExit([EXIT.unknown, EXIT.refused]), EXIT.unknown);
    assert.equal(worstExit([EXIT.refused, EXIT.badInput, EXIT.rejected]), EXIT.refused);
    assert.equal(worstExit([EXIT.ok, EXIT.rejected]), EXIT.rejected);
    assert.equal(worstExit([]), EXIT.ok);
  });
});
