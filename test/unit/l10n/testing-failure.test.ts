/**
 * What the Testing view says of a failed case, in the display language (issue 34, point 8): the
 * failure's lines (core/testing/verdict.ts failureLines) and the summary of a request that was not
 * sent (judge.ts) through t(), Chinese with the zh-cn bundle, the English of the command line's
 * reports without one.
 */
import assert from 'node:assert/strict';
import { range } from '../../../src/core/format/model';
import { setL10nBundle } from '../../../src/core/l10n';
import type { TestCase } from '../../../src/core/testing/cases';
import { judge } from '../../../src/core/testing/judge';
import { failureLines, type CaseResult } from '../../../src/core/testing/verdict';
import { zhCnBundle } from '../../support/l10n';

const aCase: TestCase = { id: '#1', index: 0, label: 'Cancel', range: range(0, 0, 3, 0), expectRanges: [] };

const unmet: CaseResult = {
  case: aCase,
  verdict: 'failed',
  reason: 'expectation',
  summary: '400 rejected: 700004',
  expectations: [{ text: '@expect code 30002', passed: false, actual: 'code 700004' }],
  durationMs: 3,
};

const rejected: CaseResult = { ...unmet, reason: 'rejected', expectations: [] };

/** Han characters: the words of a line in Chinese. */
const HAN = /\p{Script=Han}/u;

describe("l10n: the Testing view's failure text (zh-cn)", () => {
  afterEach(() => setL10nBundle(undefined));

  it('an unmet expectation and an unexpected rejection are Chinese under the zh-cn bundle, values as they came', () => {
    setL10nBundle(zhCnBundle());
    const [expectation] = failureLines(unmet);
    assert.match(expectation!, HAN);
    assert.ok(expectation!.includes('@expect code 30002') && expectation!.includes('code 700004'), expectation);
    assert.doesNotMatch(expectation!, /\bexpected\b|\bgot\b/);
    const [rejection] = failureLines(rejected);
    assert.match(rejection!, HAN);
    assert.doesNotMatch(rejection!, /accepted/, rejection);
  });

  it('a request not sent says so in Chinese (the summary the Testing view shows)', () => {
    setL10nBundle(zhCnBundle());
    const error = { kind: 'bad-input', diagnostics: [], message: 'price is not a decimal' } as const;
    assert.equal(judge(aCase, { ok: false, error }).summary, '未发送：price is not a decimal');
  });

  it('without a bundle (the command line), the same lines in English', () => {
    assert.deepEqual(failureLines(unmet), ['expected @expect code 30002, got code 700004', '400 rejected: 700004']);
    assert.deepEqual(failureLines(rejected), [
      'expected the request to be accepted (or # @expect lines for a rejection)',
      '400 rejected: 700004',
    ]);
  });
});
