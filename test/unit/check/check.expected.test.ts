/**
 * Issue 19, point 3: a request that expects its rejection (`# @expect code N`) is not an error of
 * the file. A finding whose service error the request's own `# @expect code` names is reported as
 * information, in the check step that the command line and the editor share.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkDocument } from '../../../src/core/check/check';
import { BUILTIN_SANDBOX } from '../../../src/core/env/schema';
import type { Diagnostic } from '../../../src/core/format/model';
import { parse } from '../../../src/core/format/parser';
import { RULES } from '../../../src/core/rules';

const ROOT = join(__dirname, '..', '..', '..');
const EXAMPLES = join(ROOT, 'examples');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

function check(lines: readonly string[]): Diagnostic[] {
  return checkDocument(parse(lines.join('\n') + '\n'), { environment: BUILTIN_SANDBOX });
}

const CANCEL = ['DELETE /api/v3/order', 'symbol = BTCUSDT'];

function only(found: readonly Diagnostic[], rule: Diagnostic['rule']): Diagnostic {
  const of = found.filter((d) => d.rule === rule);
  assert.equal(of.length, 1, JSON.stringify(found, null, 2));
  return of[0]!;
}

describe('check: a rejection the request expects (# @expect code N) is information', () => {
  it('a cancel without an order id is an error, and information under # @expect code 700004', () => {
    assert.equal(only(check(CANCEL), 'missing-param').severity, 'error');
    const d = only(check(['# @expect code 700004', ...CANCEL]), 'missing-param');
    assert.equal(d.severity, 'information');
    assert.match(d.message, /# @expect code 700004/);
    assert.doesNotMatch(d.message, /\n/);
  });

  it('a code the finding does not lead to leaves it an error', () => {
    const d = only(check(['# @expect code 44444', ...CANCEL]), 'missing-param');
    assert.equal(d.severity, 'error');
  });

  it('only the request that expects the code: the next request keeps its error', () => {
    const found = check(['# @expect code 700004', ...CANCEL, '', '###', ...CANCEL]);
    const severities = found.filter((d) => d.rule === 'missing-param').map((d) => d.severity);
    assert.deepEqual(severities, ['information', 'error']);
  });

  it('a warning the request expects is information too (an unknown parameter, 33333)', () => {
    const order = ['POST /api/v3/order', 'symbol = BTCUSDT', 'side = BUY', 'type = MARKET', 'quantity = 1'];
    assert.equal(only(check([...order, 'colour = red']), 'unknown-param').severity, 'warning');
    const d = only(check(['# @expect code 33333', ...order, 'colour = red']), 'unknown-param');
    assert.equal(d.severity, 'information');
  });

  it('# @expect status is not a code: the finding stays as it is', () => {
    assert.equal(only(check(['# @expect status 400', ...CANCEL]), 'missing-param').severity, 'error');
  });

  it('every rule that prevents a service error allows information among its severities (RULES, the rules table of docs/guide.md)', () => {
    for (const [id, info] of Object.entries(RULES)) {
      if (info.prevents.length > 0) assert.ok(info.severities.includes('information'), id);
    }
  });

  it('the examples the README checks (its Quick start runs `tradereq check examples/*.tradereq`) have no error', () => {
    assert.match(README, /\ntradereq check examples\/\*\.tradereq\r?\n/);
    const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.tradereq'));
    assert.ok(files.includes('rejections.tradereq'), files.join(', '));
    for (const f of files) {
      const found = checkDocument(parse(readFileSync(join(EXAMPLES, f), 'utf8')), { environment: BUILTIN_SANDBOX });
      const errors = found.filter((d) => d.severity === 'error');
      assert.deepEqual(errors, [], f);
    }
  });

  it("the README's example request has no problem at all", () => {
    const block = /\n```tradereq\r?\n([\s\S]*?)\r?\n```\r?\n/.exec(README);
    assert.ok(block, 'the README shows a request');
    assert.deepEqual(check([block[1]!]), []);
  });
});
