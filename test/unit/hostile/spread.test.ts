/**
 * Issue 18, second round: `push(...list)`, `Math.max(...list)` and `splice(i, n, ...list)` put
 * every item of a list on the stack as an argument, and a list from outside can be longer than the
 * stack holds (RangeError). The importers and Copy as code have their own tests
 * (import-hostile, codegen-hostile); these are the other places a shared file's size reached one:
 * a hover's inline code, an incremental parse, the TAP report.
 */
import assert from 'node:assert/strict';
import { inlineCode } from '../../../src/core/editor/markdown';
import { range } from '../../../src/core/format/model';
import { parse, reparse } from '../../../src/core/format/parser';
import { tapReport } from '../../../src/core/testing/reporters';
import type { CaseResult, RunReport } from '../../../src/core/testing/verdict';

describe('no unbounded list is spread onto the stack (issue 18, section 4)', () => {
  it('hover: inline code of a line with 500,000 runs of backticks has a fence longer than any of them', () => {
    const text = '`a'.repeat(499_999) + '``a';
    const code = inlineCode(text);
    assert.ok(code.startsWith('``` ') && code.endsWith(' ```'), code.slice(0, 10));
  });

  it('an edit that pastes 200,000 ### lines (more than a spread takes) is parsed again like the whole file', () => {
    const base = 'GET /api/v3/time\n';
    const pasted = '###\n'.repeat(200_000);
    const lines = (pasted + base).split('\n');
    const next = reparse(parse(base), { fromLine: 0, oldToLine: 0, newToLine: 200_000 }, (from, to) =>
      lines.slice(from, to).join('\n'),
    );
    const whole = parse(pasted + base);
    assert.equal(next.requests.length, whole.requests.length);
    assert.deepEqual(next.separatorLines.length, whole.separatorLines.length);
  });

  it('the TAP report of a request with 200,000 unmet expectations lists each of them', () => {
    const expectation = { text: '@expect status 200', passed: false, actual: 'status 400', range: range(1, 0, 1, 18) };
    const failed: CaseResult = {
      case: { id: '#1', index: 0, label: 'many', range: range(0, 0, 200_001, 0), expectRanges: [] },
      verdict: 'failed',
      reason: 'expectation',
      summary: '400 rejected',
      expectations: Array.from({ length: 200_000 }, () => expectation),
      durationMs: 1,
    };
    const run: RunReport = {
      files: [{ path: 'many.tradereq', environment: 'sandbox', cases: [failed], durationMs: 1 }],
      durationMs: 1,
      startedAt: '2024-01-01T00:00:00.000Z',
    };
    const tap = tapReport(run);
    assert.equal(tap.split('\n').filter((l) => l.startsWith('  expected: ')).length, 200_000);
  });
});
