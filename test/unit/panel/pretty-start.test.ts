import assert from 'node:assert/strict';
import { prettyStart } from '../../../src/core/panel/pretty-start';
import { exchangeInfoText } from '../../support/exchange-info';

describe('prettyStart: the start of JSON pretty-printed, made only as far as it is shown', () => {
  it('writes what JSON.stringify(value, null, 2) writes, for every kind of value JSON.parse makes', () => {
    const texts = [
      'null',
      '-0',
      '1e21',
      '"a\\"b\\u0000\\n"',
      '[]',
      '{}',
      '[[], {}, [[1]]]',
      '{"a": {"b": [true, false, null]}, "": "", "1": 2, "__proto__": {"x": 1}}',
      exchangeInfoText(20),
    ];
    for (const text of texts) {
      const value = JSON.parse(text) as unknown;
      assert.deepEqual(
        prettyStart(value, Number.MAX_SAFE_INTEGER),
        { text: JSON.stringify(value, null, 2), whole: true },
        text,
      );
    }
  });

  it('stops soon after the bound: a 2,500-symbol answer costs what is kept of it', () => {
    const value = JSON.parse(exchangeInfoText(2_500)) as unknown;
    const whole = JSON.stringify(value, null, 2);
    const r = prettyStart(value, 64 * 1024);
    assert.equal(r.whole, false);
    assert.ok(whole.startsWith(r.text));
    // Past the bound by one piece at most: a member's name or a value (here short ones).
    assert.ok(r.text.length > 64 * 1024 && r.text.length < 64 * 1024 + 200, `${r.text.length} characters`);
  });
});
