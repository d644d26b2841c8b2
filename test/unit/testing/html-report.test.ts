/**
 * The HTML report (`tradereq test --reporter html`) as a pure function of the results: it validates
 * with html-validate's recommended rules, holds a row per case, and hostile titles, file names and
 * answers (markup, quotes, control characters, a lone surrogate) stay text.
 */
import assert from 'node:assert/strict';
import { HtmlValidate } from 'html-validate';
import { range } from '../../../src/core/format/model';
import type { TestCase } from '../../../src/core/testing/cases';
import { htmlReport } from '../../../src/core/testing/html-report';
import type { CaseResult, RunReport } from '../../../src/core/testing/verdict';

const HOSTILE = '<script>alert(1)</script> & "c" \'d\' \u0001\u001b[31m\ud800 </td></table>';

function testCase(index: number, label: string): TestCase {
  return { id: `#${index + 1}`, index, label, range: range(index * 5, 0, index * 5 + 3, 0), expectRanges: [] };
}

const cases: CaseResult[] = [
  { case: testCase(0, 'Ping'), verdict: 'passed', reason: 'ok', summary: '200 ok', expectations: [], durationMs: 4 },
  {
    case: testCase(1, HOSTILE),
    verdict: 'failed',
    reason: 'expectation',
    summary: '400 rejected',
    expectations: [{ text: '@expect code 30002', passed: false, actual: HOSTILE }],
    request: `GET http://127.0.0.1:8780/api/v3/order?x=${HOSTILE}`,
    response: `400 Bad request\n\n{"msg": "${HOSTILE}"}`,
    durationMs: 12,
  },
  {
    case: testCase(2, 'After'),
    verdict: 'skipped',
    reason: 'after-refusal',
    summary: 'not run',
    expectations: [],
    durationMs: 0,
  },
];

const run: RunReport = {
  files: [{ path: `orders ${HOSTILE}.tradereq`, environment: HOSTILE, cases, durationMs: 20 }],
  durationMs: 20,
  startedAt: '2026-01-01T00:00:00.000Z',
};

describe('htmlReport', () => {
  it('validates as HTML, a row per case, every hostile text escaped, nothing from outside', async () => {
    const html = htmlReport(run);
    const result = await new HtmlValidate({ extends: ['html-validate:recommended'] }).validateString(html);
    assert.ok(
      result.valid,
      JSON.stringify(result.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`))),
    );
    assert.equal(html.match(/<tr><td>/g)?.length, 3);
    assert.doesNotMatch(html, /<script/i);
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(html, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff]/);
    assert.ok(
      html.includes(
        '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;c&quot; &#39;d&#39; \\u0001\\u001b[31m\ufffd &lt;/td&gt;&lt;/table&gt;',
      ),
    );
    assert.doesNotMatch(html, /\b(?:src|href)=|url\(|@import/i);
  });
});
