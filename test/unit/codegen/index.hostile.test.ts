/**
 * Issue 18, second round: Copy as code (`tradereq code`) over long lists. A shared request file may
 * hold hundreds of thousands of parameters or headers, or a body of millions of characters: the
 * program is refused in one line past BOUNDS.paramsPerRequest and BOUNDS.headersPerRequest, and
 * nothing is spread onto the stack below them (RangeError was reported as "outcome unknown").
 */
import assert from 'node:assert/strict';
import { BOUNDS } from '../../../src/core/bounds';
import { CODE_LANGUAGES, codeRequestFrom, generateCode, type CodeRequest } from '../../../src/core/codegen';
import { BUILTIN_SANDBOX } from '../../../src/core/env/constants';
import { parse } from '../../../src/core/format/parser';

/** The model of the first request of `text`, resolved against the built-in sandbox as `tradereq code` does. */
function model(text: string): CodeRequest {
  const doc = parse(text);
  const m = codeRequestFrom(doc, doc.requests[0]!, BUILTIN_SANDBOX);
  if (!m.ok) assert.fail(m.error.message);
  if ('kind' in m.value) assert.fail('a WebSocket request: a stream program');
  return m.value;
}

function params(n: number): string {
  return Array.from({ length: n }, (_, i) => `p${i} = ${i}`).join('\n');
}

function refused(request: CodeRequest, pattern: RegExp): void {
  for (const { id } of CODE_LANGUAGES) {
    const r = generateCode(request, id);
    assert.ok(!r.ok, `${id}: a program was made`);
    assert.match(r.error, pattern, id);
    assert.ok(!r.error.includes('\n'), 'one line');
  }
}

describe('Copy as code: long lists are bounded (issue 18, section 4)', () => {
  const { paramsPerRequest, headersPerRequest } = BOUNDS;

  it(`${paramsPerRequest} parameters become a program in every language`, () => {
    const request = model(`GET /api/v3/ticker/price\n${params(paramsPerRequest)}\n`);
    for (const { id } of CODE_LANGUAGES) {
      const r = generateCode(request, id);
      assert.ok(r.ok && r.value.includes(`p${paramsPerRequest - 1}`), r.ok ? id : r.error);
    }
  });

  it('200,000 parameters (past what a spread onto the stack takes, about 120,000) are refused in one line, no stack overflow', () => {
    // Short lines, so that the file stays under BOUNDS.fileChars.
    refused(
      model(`GET /api/v3/ticker/price\n${'p=1\n'.repeat(200_000)}`),
      new RegExp(`200000 parameters, more than the ${paramsPerRequest}`),
    );
  });

  it('query and form parameters count together', () => {
    const half = Math.ceil((paramsPerRequest + 1) / 2);
    const form = Array.from({ length: half }, (_, i) => `f${i} = ${i}`).join('\n');
    refused(
      model(`POST /api/v3/order\n[query]\n${params(half)}\n[body]\n${form}\n`),
      new RegExp(`${half * 2} parameters`),
    );
  });

  it(`more than ${headersPerRequest} headers are refused in one line`, () => {
    const headers = Array.from({ length: headersPerRequest + 1 }, (_, i) => `X-H${i}: ${i}`).join('\n');
    refused(
      model(`GET /api/v3/ping\n${headers}\n`),
      new RegExp(`${headersPerRequest + 1} headers, more than the ${headersPerRequest}`),
    );
  });

  it('a JSON body of 200,000 plain characters becomes a program in every language', () => {
    const request = model(`POST /api/v3/order\n[json]\n{"note": "${'x'.repeat(200_000)}"}\n`);
    for (const { id } of CODE_LANGUAGES) {
      const r = generateCode(request, id);
      assert.ok(r.ok && r.value.length > 200_000, r.ok ? id : r.error);
    }
  });
});
