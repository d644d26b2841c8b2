/**
 * generateCode as a pure function: what it refuses (with the reason), what it decides once for all
 * languages (where the timestamp goes, the headers), and properties of every program's text. Running
 * the programs is in codegen-run, codegen-wire and codegen-hostile.
 */
import assert from 'node:assert/strict';
import {
  CODE_LANGUAGES,
  generateCode,
  isCodeLanguage,
  type CodeLanguage,
  type CodeRequest,
} from '../../../src/core/codegen';
import { programNeeds } from '../../../src/core/codegen/adapter';
import { planProgram } from '../../../src/core/codegen/plan';
import { CHAIN, codeRequest, GUARDED_REASON, JSON_TYPE, pairs, RUN_CASES, value } from '../../fixtures/codegen/cases';
import { DEMO, generated, KEY_ENV, LANGUAGES } from '../../fixtures/codegen/support';

const BASE = 'http://127.0.0.1:8780';

/** Lines that are not comments (`#` or `//` first, after indentation). */
function codeLines(source: string, language: CodeLanguage): string[] {
  const marker = language === 'node' || language === 'go' ? '//' : '#';
  return source.split('\n').filter((l) => !l.trimStart().startsWith(marker));
}

function refuses(request: CodeRequest, pattern: RegExp): void {
  for (const language of LANGUAGES) {
    const r = generateCode(request, language);
    assert.ok(!r.ok && pattern.test(r.error), r.ok ? `${language}: generated` : r.error);
  }
}

/** The buy for an environment with "confirm": true, as the adapter makes it. */
const GUARDED_BUY: CodeRequest = {
  ...RUN_CASES.find((c) => c.name === 'buy')!.build(BASE),
  confirm: {
    reason: GUARDED_REASON,
    order: value('POST /api/v3/order: symbol BTCUSDT, side BUY, quantity 0.001, origClientOrderId ', {
      kind: 'clientOrderId',
    }),
  },
};

const ALL: CodeRequest[] = [
  ...RUN_CASES.map((c) => c.build(BASE)),
  CHAIN.byOrderId(BASE, 'GET'),
  codeRequest(BASE, {
    title: 'Über \u202e"\'`$(x)\n# @name',
    form: pairs([['note', 'naïve € 😀 "quoted" \\ $(x) `y` \n']]),
    headers: pairs([['X-Note', 'café "x" $HOME']]),
  }),
  GUARDED_BUY,
  {
    ...CHAIN.byOrderId(BASE, 'DELETE'),
    confirm: {
      reason: 'Über \u202e"\'`$(x)\n# @name',
      order: value('naïve € 😀 "quoted" \\ $(x) `y` \n', { kind: 'parameter', parameter: 'buy_orderId' }),
    },
  },
];

describe('Copy as code: generateCode', () => {
  it('offers the five languages, each with a label and an extension', () => {
    assert.deepEqual(
      CODE_LANGUAGES.map((l) => l.id),
      ['python', 'python-requests', 'node', 'go', 'shell'],
    );
    assert.ok(isCodeLanguage('go') && !isCodeLanguage('ruby') && !isCodeLanguage('__proto__'));
  });

  it('is a pure function: the same request gives the same text', () => {
    for (const request of ALL) {
      for (const language of LANGUAGES) assert.equal(generated(request, language), generated(request, language));
    }
  });

  it('every string from the model is a literal in printable ASCII: no code line holds a raw control or non-ASCII character', () => {
    for (const request of ALL) {
      for (const language of LANGUAGES) {
        for (const line of codeLines(generated(request, language), language)) {
          const bad = [...line].filter((c) => c !== '\t' && (c < ' ' || c > '~'));
          assert.deepEqual(bad, [], `${language}: ${JSON.stringify(line)}`);
        }
      }
    }
  });

  it('a title with a line break, a bidirectional override or a separator stays one comment line', () => {
    const request = codeRequest(BASE, { title: 'one\ntwo\r\u2028three\u202efour\u0085five' });
    for (const language of LANGUAGES) {
      const source = generated(request, language);
      assert.ok(
        source.includes('one\\u000Atwo\\u000D\\u2028three\\u202Efour\\u0085five'),
        `${language} shows the title escaped, on one line`,
      );
    }
  });

  it('a title cannot act as a directive: Python declares UTF-8 on line 2, Go opens with its package clause', () => {
    const request = codeRequest(BASE, { title: '+build ignore -*- coding: utf-7 -*-' });
    for (const language of ['python', 'python-requests'] as const) {
      const lines = generated(request, language).split('\n');
      assert.deepEqual(lines.slice(0, 2), ['#!/usr/bin/env python3', '# -*- coding: utf-8 -*-']);
    }
    // go build reads build constraints (`// +build`) only from the comments before the package clause.
    assert.equal(generated(request, 'go').split('\n')[0], 'package main');
  });

  it('a signed program names its key variables and holds no key; an unsigned one neither reads keys nor signs', () => {
    const signed = RUN_CASES.find((c) => c.name === 'buy')!.build(BASE);
    const unsigned = RUN_CASES.find((c) => c.name === 'ping')!.build(BASE);
    for (const language of LANGUAGES) {
      const s = generated(signed, language);
      assert.ok(s.includes(KEY_ENV.apiKey) && s.includes(KEY_ENV.secretKey), language);
      assert.ok(!s.includes(DEMO.apiKey) && !s.includes(DEMO.secretKey), language);
      const u = generated(unsigned, language);
      assert.ok(!u.includes(KEY_ENV.apiKey) && !/hmac|signature=/i.test(codeLines(u, language).join('\n')), language);
    }
  });

  it('a request that asks says why in its first comment lines and takes --yes; one that does not ask is as before', () => {
    for (const language of LANGUAGES) {
      const asks = generated(GUARDED_BUY, language);
      const top = asks.split('\n').slice(0, 8).join('\n');
      assert.ok(top.includes(`Asks before sending, as tradereq send asks: ${GUARDED_REASON}.`), `${language}:\n${top}`);
      assert.ok(top.includes('[--yes]'), `${language}: the Run line names --yes`);
      const code = codeLines(asks, language).join('\n');
      assert.ok(code.includes('[y/N]') && code.includes('--yes'), `${language}: asks, or takes --yes`);
      for (const request of ALL.filter((r) => r.confirm === undefined)) {
        assert.ok(!/--yes|y\/N/.test(generated(request, language)), `${language}: ${request.title}`);
      }
    }
    assert.match(programNeeds(GUARDED_BUY), /It asks before sending \(environment "guarded" has "confirm": true\)/);
    assert.doesNotMatch(programNeeds(RUN_CASES[0]!.build(BASE)), /asks/);
  });

  it('the order shown and the reason are checked as values: declared parameters, no NUL', () => {
    const asks = (order: CodeRequest['confirm']): CodeRequest => ({ ...GUARDED_BUY, confirm: order });
    refuses(asks({ reason: 'x', order: [{ kind: 'parameter', parameter: 'nope' }] }), /parameter "nope"/);
    refuses(asks({ reason: 'a\0b', order: [] }), /NUL/);
  });

  it('the shell script has no eval, no backtick and no $(...) but around fixed commands', () => {
    // Plain values: what the script itself writes, around them (hostile values are in codegen-hostile).
    for (const request of [...RUN_CASES.map((c) => c.build(BASE)), GUARDED_BUY]) {
      const lines = codeLines(generated(request, 'shell'), 'shell');
      for (const line of lines) {
        assert.ok(!/\beval\b|`/.test(line), line);
        // Command substitutions run fixed commands (od, openssl, printenv, mktemp, date, base_url, send).
        for (const m of line.matchAll(/\$\(\s*\{?\s*([a-z_]+)/g)) {
          assert.ok(['printf', 'od', 'printenv', 'mktemp', 'date', 'base_url', 'send'].includes(m[1]!), line);
        }
      }
    }
  });
});

describe('Copy as code: the plan shared by every language', () => {
  it('adds timestamp at the end of the form body when it has parameters, else of the query string; not when written', () => {
    const at = (over: Partial<CodeRequest>): string | undefined => planProgram(codeRequest(BASE, over)).addTimestamp;
    assert.equal(at({ form: pairs([['a', '1']]) }), 'form');
    assert.equal(at({ query: pairs([['a', '1']]) }), 'query');
    assert.equal(at({ json: value('{}'), contentType: JSON_TYPE }), 'query');
    assert.equal(at({ form: pairs([['timestamp', '1']]), timestampWritten: true }), undefined);
    assert.equal(at({ signed: false, form: pairs([['a', '1']]) }), undefined);
  });

  it('headers as send builds them: written ones (last value wins, first spelling), Content-Type unless written, the key last', () => {
    const plan = planProgram(
      codeRequest(BASE, {
        headers: pairs([
          ['X-One', '1'],
          ['x-one', '2'],
          ['X-SERVICE-APIKEY', 'written'],
        ]),
      }),
    );
    assert.deepEqual(
      plan.headers.map((h) => [
        h.name,
        h.value === 'apiKey' ? 'apiKey' : h.value.map((p) => (p.kind === 'text' ? p.text : p.kind)).join(''),
      ]),
      [
        ['X-One', '2'],
        ['X-SERVICE-APIKEY', 'apiKey'],
        ['Content-Type', 'application/x-www-form-urlencoded'],
      ],
    );
    const typed = planProgram(codeRequest(BASE, { headers: pairs([['content-type', 'text/plain']]) }));
    assert.deepEqual(
      typed.headers.map((h) => h.name),
      ['content-type', 'X-SERVICE-APIKEY'],
    );
  });

  it('makes only the run-time pieces the request uses', () => {
    const plan = planProgram(codeRequest(BASE, { form: pairs([['id', { kind: 'clientOrderId' }]]), signed: false }));
    assert.deepEqual([plan.usesTimestamp, plan.usesClientOrderId, plan.usesUuid], [false, true, false]);
  });
});

describe('Copy as code: requests that cannot become a program, and why', () => {
  const p = (over: Partial<CodeRequest>): CodeRequest => codeRequest(BASE, over);

  it('program parameters: an identifier, declared once, declared before use, not a variable the program reads', () => {
    refuses(p({ parameters: [{ name: 'order id', description: '' }] }), /must be letters, digits and _/);
    refuses(p({ parameters: [{ name: '_x', description: '' }] }), /starting with a letter/);
    refuses(
      p({
        parameters: [
          { name: 'a', description: '' },
          { name: 'a', description: '' },
        ],
      }),
      /declared twice/,
    );
    refuses(p({ form: pairs([['id', { kind: 'parameter', parameter: 'nope' }]]) }), /does not declare/);
    refuses(p({ parameters: [{ name: 'TRADEREQ_BASE_URL', description: '' }] }), /a variable the program reads/);
  });

  it('key variables: upper-case names, two different ones', () => {
    refuses(p({ keyEnv: { apiKey: 'api_key', secretKey: 'SECRET' } }), /not an environment variable name/);
    refuses(p({ keyEnv: { apiKey: 'X;rm -rf', secretKey: 'SECRET' } }), /not an environment variable name/);
    refuses(p({ keyEnv: { apiKey: 'SAME', secretKey: 'SAME' } }), /two different environment variables/);
  });

  it('the URL: http(s) with no credentials, query or fragment; a path of URL characters', () => {
    refuses(codeRequest('ftp://example.com', {}), /http:\/\/ or https:\/\//);
    refuses(codeRequest('https://user:pw@example.com', {}), /user name or password/);
    refuses(codeRequest('https://example.com/?a=1', {}), /query string or a fragment/);
    refuses(codeRequest('not a url', {}), /is not a URL/);
    refuses(p({ path: '/api/v3/order?x=1' }), /not a URL path/);
    refuses(p({ path: '/api v3' }), /not a URL path/);
    refuses(p({ path: 'api/v3' }), /not a URL path/);
  });

  it('headers: the rules of send (a valid name, not Host, one line of Latin-1)', () => {
    refuses(p({ headers: pairs([['Host', 'evil.example']]) }), /Host is not for request files/);
    refuses(p({ headers: pairs([['Bad Name', 'x']]) }), /not a valid header name/);
    refuses(p({ headers: pairs([['X-A', 'one\r\nX-B: two']]) }), /one line of Latin-1/);
    refuses(p({ headers: pairs([['X-A', '€']]) }), /one line of Latin-1/);
    refuses(p({ apiKeyHeader: 'X KEY' }), /not a valid header name/);
  });

  it('bodies: one body, a form one for `# @signature body`, and no NUL anywhere', () => {
    refuses(p({ json: value('{}'), form: pairs([['a', '1']]) }), /one body/);
    refuses(p({ json: value('{}'), signaturePlacement: 'body' }), /needs a form body/);
    refuses(p({ signaturePlacement: 'body' }), /needs a form body/);
    refuses(p({ form: pairs([['a', 'x\0y']]) }), /NUL/);
  });
});
