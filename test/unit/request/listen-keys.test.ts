import * as assert from 'node:assert/strict';
import { hideListenKeys, listenKeysOf } from '../../../src/core/request/listen-keys';
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
