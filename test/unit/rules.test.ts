/**
 * The rules of src/core/rules.ts are the one list: the table of docs/guide.md is generated from it, every
 * diagnostic reported carries a severity its rule allows, every rule is reported somewhere, and
 * the editor's quick fixes are offered for exactly the rules marked with one.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkDocument } from '../../src/core/check/check';
import { BUILTIN_SANDBOX } from '../../src/core/env/schema';
import type { Diagnostic } from '../../src/core/format/model';
import { parse } from '../../src/core/format/parser';
import { RULES, type RuleId, type RuleInfo } from '../../src/core/rules';
import { RULES_PAGE, withGeneratedDocs } from '../../scripts/docs';

const ROOT = join(__dirname, '..', '..');

function filesUnder(dir: string, ext: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return filesUnder(p, ext);
    return e.name.endsWith(ext) ? [p] : [];
  });
}

/** A file that breaks many rules at once, beside the request files of the repository. */
const WRONG = [
  '@host = https://example.com',
  'apiSecret = x',
  '### ',
  '# @weight zero',
  '# @nonsense',
  'post /api/v3/order',
  'symbol = btcusdt',
  'side = buy',
  'type = LIMIT',
  'quantity = -1',
  'timestamp = 1700000000',
  'price = {{missing}}',
  '[json]',
  '{"a": 1',
  '### ',
  'FETCH /api/v3/ping',
  '[footer]',
  '### ',
  'GET /api/v3/nothing',
  '### ',
  'SUBSCRIBE btcusdt@trade',
].join('\n');

function corpus(): string[] {
  const files = [...filesUnder(join(ROOT, 'examples'), '.tradereq'), ...filesUnder(join(ROOT, 'test'), '.tradereq')];
  return [...files.map((f) => readFileSync(f, 'utf8')), WRONG];
}

describe('rules: one list for the parser, the check step, the quick fixes and the docs', () => {
  it('the rules table of docs/guide.md is the one `npm run docs` generates from RULES', () => {
    const page = readFileSync(RULES_PAGE, 'utf8');
    assert.equal(withGeneratedDocs(page), page, 'docs/guide.md is out of date: run npm run docs');
  });

  it('every diagnostic of the repository’s request files carries a severity its rule allows', () => {
    const seen = new Set<RuleId>();
    let count = 0;
    for (const text of corpus()) {
      const found: Diagnostic[] = checkDocument(parse(text), { environment: BUILTIN_SANDBOX });
      for (const d of found) {
        const info: RuleInfo = RULES[d.rule];
        assert.ok(info, `unknown rule ${d.rule}`);
        assert.ok(info.severities.includes(d.severity), `${d.rule} reported as ${d.severity}: ${d.message}`);
        if (d.fix) assert.ok(info.fix, `${d.rule} carries a fix but RULES marks none`);
        seen.add(d.rule);
        count++;
      }
    }
    assert.ok(count > 20 && seen.size > 10, `only ${count} diagnostics of ${seen.size} rules: the corpus is too thin`);
  });

  it('every rule is reported somewhere in src/ (no rule is only a row of the table)', () => {
    const code = filesUnder(join(ROOT, 'src'), '.ts')
      .filter((f) => !f.endsWith(join('core', 'rules.ts')))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const unused = Object.keys(RULES).filter((id) => !code.includes(`'${id}'`));
    assert.deepEqual(unused, []);
  });

  it('the quick-fix provider switches on exactly the rules RULES marks with a fix', () => {
    const provider = readFileSync(join(ROOT, 'src', 'extension', 'quick-fixes.ts'), 'utf8');
    const cases = [...provider.matchAll(/case '([a-z-]+)':/g)].map((m) => m[1]).sort();
    const withFix = Object.entries(RULES)
      .filter(([, r]: [string, RuleInfo]) => r.fix === true)
      .map(([id]) => id)
      .sort();
    assert.deepEqual(cases, withFix);
  });
});
