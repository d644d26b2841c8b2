/** core/l10n.ts: the one translator of the core's messages (issue 23). */
import assert from 'node:assert/strict';
import { l10nBundle, setL10nBundle, t } from '../../../src/core/l10n';

describe('core l10n: t()', () => {
  afterEach(() => setL10nBundle(undefined));

  it('with no bundle, is the English message with its {N} values filled in, in any order', () => {
    assert.equal(t('{1} is not {0}', 'a', 2), '2 is not a');
    assert.equal(t('no values: {0} stays'), 'no values: {0} stays');
    assert.equal(t('a missing value {3} stays', 'x'), 'a missing value {3} stays');
  });

  it('with a bundle, is the translation of the English message, values filled in; an unknown message stays English', () => {
    setL10nBundle({ 'Sent {0} in {1} ms': '已发送 {0}，用时 {1} 毫秒' });
    assert.equal(t('Sent {0} in {1} ms', 'buy', 12), '已发送 buy，用时 12 毫秒');
    assert.equal(t('Not translated {0}', true), 'Not translated true');
    assert.deepEqual(l10nBundle(), { 'Sent {0} in {1} ms': '已发送 {0}，用时 {1} 毫秒' });
  });

  it('a value that looks like a placeholder is inserted as written, never filled again', () => {
    assert.equal(t('{0} and {1}', '{1}', 'x'), '{1} and x');
  });
});
