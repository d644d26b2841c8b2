/**
 * The editor's help on `# @expect` lines (src/core/editor/expectation-help.ts), through completion
 * and hover as the editor asks for them: kinds after `@expect`, paths of the request's last answer
 * (a listen key in it not shown), operators after a path, and what a line checks, in words.
 */
import assert from 'node:assert/strict';
import { completionsAt, type AnswerPath, type CompletionContext } from '../../../src/core/editor/completion';
import { answerPaths } from '../../../src/core/editor/expectation-help';
import { hoverAt } from '../../../src/core/editor/hover';
import { BUILTIN_SANDBOX } from '../../../src/core/env/schema';
import type { RequestBlock } from '../../../src/core/format/model';
import { parse } from '../../../src/core/format/parser';

const ACCOUNT = {
  balances: [{ asset: 'BTC', free: '0.10000000' }],
  canTrade: true,
  'odd.name': 1,
  listenKey: 'pqia91ma19a5s61cv6a81va65sdf19v8a65a1a5s61cv6a81va65sdf19v8a65a1',
};

/** At the `|` of `text`; the request named "account" has answered ACCOUNT. */
function at(text: string) {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes('|'));
  const character = lines[line]!.indexOf('|');
  const clean = text.replace('|', '');
  return { doc: parse(clean), lineText: clean.split('\n')[line]!, line, character };
}

const CTX: CompletionContext = {
  environment: BUILTIN_SANDBOX,
  symbols: [],
  answerPaths: (r: RequestBlock): readonly AnswerPath[] | undefined =>
    r.name?.text === 'account' ? answerPaths(ACCOUNT) : undefined,
};

function complete(text: string): string[] {
  const p = at(text);
  return completionsAt(p.doc, p.lineText, p.line, p.character, CTX).map((e) => e.label);
}

function hover(text: string): string | undefined {
  const p = at(text);
  return hoverAt(p.doc, p.lineText, p.line, p.character, { environment: BUILTIN_SANDBOX })?.markdown;
}

describe('editor: # @expect completion', () => {
  it('the kinds after @expect: those of HTTP requests, or message for a WebSocket one', () => {
    assert.deepEqual(complete('# @expect |\nGET /api/v3/time\n'), [
      'status',
      'code',
      'json',
      'header',
      'duration',
      'snapshot',
    ]);
    assert.deepEqual(complete('# @expect |\nWS /ws\n'), ['message']);
  });

  it("paths of the request's last answer in the editor, [*] for lists, with a sample; a listen key is not shown", () => {
    const p = at('# @name account\n# @expect json |\nGET /api/v3/account\n');
    const items = completionsAt(p.doc, p.lineText, p.line, p.character, CTX);
    assert.deepEqual(
      items.map((e) => [e.label, e.detail]),
      [
        ['balances', 'a list of 1'],
        ['canTrade', 'true'],
        ['listenKey', 'a credential (not shown)'],
        ['balances[*]', 'an object'],
        ['balances[*].asset', '"BTC"'],
        ['balances[*].free', '"0.10000000"'],
      ],
    );
    assert.deepEqual(complete('# @expect json |\nGET /api/v3/time\n'), [], 'a request not sent yet has no paths');
  });

  it('the operators of the kind after a path or name; exists after not; comparisons after count and status', () => {
    const json = complete('# @expect json balances[*].free |\nGET /x\n');
    assert.deepEqual(json.slice(0, 10), ['==', '!=', '<', '<=', '>', '>=', 'contains', 'startsWith', 'matches', 'in']);
    assert.ok(['exists', 'not exists', 'isDecimal', 'count'].every((o) => json.includes(o)));
    assert.ok(!complete('# @expect header content-type |\nGET /x\n').includes('isDecimal'));
    assert.deepEqual(complete('# @expect json a not |\nGET /x\n'), ['exists']);
    assert.deepEqual(complete('# @expect json a count |\nGET /x\n'), ['==', '!=', '<', '<=', '>', '>=']);
    assert.deepEqual(complete('# @expect duration |\nGET /x\n'), ['<', '<=', '>', '>=']);
    assert.deepEqual(complete('# @expect code |\nGET /x\n'), ['==', '!=']);
    assert.deepEqual(complete('# just a comment |\nGET /x\n'), []);
  });
});

describe('editor: # @expect hover', () => {
  it('says what a line checks, in words', () => {
    const cases: [string, RegExp][] = [
      [
        '# @expect json balances[*].f|ree isDecimal',
        /^\*\*@expect json\*\*: Passes when, in the JSON answer, every value `balances\[\*\]\.free` reaches \(each element at a `\*`; one at least must exist\) is a decimal/,
      ],
      ['# @expect json price |< 0.1', /the value at `price` is less than 0\.1 \(compared exactly, as decimals\)\.$/],
      ['# @expect json fills c|ount > 0', /the value at `fills` is a list whose length is greater than 0\.$/],
      ['# @expect json status i|n [NEW, FILLED]', /is one of `NEW`, `FILLED`\.$/],
      ['# @expect json symbol matche|s /^[A-Z]+$/', /matches `\/\^\[A-Z\]\+\$\/` \(RE2: linear time\)\.$/],
      ['# @expect status |< 300', /^\*\*@expect status\*\*: Passes when the HTTP status is less than 300\.$/],
      ['# @expect duration < 5|00', /round trip .* is less than 500 ms\.$/],
      ['# @expect header Retry-After not ex|ists', /the response header `retry-after` \(in any case\) is absent\.$/],
      ['# @expect co|de != 700003', /does not carry the error code 700003; an answer without an error code passes\.$/],
      ['# @expect json price < a|bc', /^\*\*@expect\*\*: \\`\\<\\` compares numbers, and \\"abc\\" is not one/],
    ];
    for (const [line, markdown] of cases) assert.match(hover(`${line}\nGET /x\n`) ?? '', markdown, line);
  });

  it('the number of # @expect code N keeps its error code hover', () => {
    assert.match(
      hover('# @expect code 7000|03\nGET /x\n') ?? '',
      /^\*\*700003\*\*: Timestamp is outside of the recvWindow/,
    );
  });
});

describe("editor: # @expect message paths from the request's streams", () => {
  const MEXC_ENV = { ...BUILTIN_SANDBOX, name: 'mexc-sandbox', deployment: 'mexc' };
  const under = (environment: typeof BUILTIN_SANDBOX, text: string) => {
    const p = at(text);
    return completionsAt(p.doc, p.lineText, p.line, p.character, { ...CTX, environment });
  };
  const hoverUnder = (environment: typeof BUILTIN_SANDBOX, text: string) => {
    const p = at(text);
    return hoverAt(p.doc, p.lineText, p.line, p.character, { environment })?.markdown;
  };

  it("offers the wrapper's fields and the body's under its name (mexc), the envelope and d's (spec)", () => {
    const mexc = under(
      MEXC_ENV,
      '# @expect message |\nWS /ws\n[subscribe]\nspot@public.aggre.deals.v3.api.pb@10ms@BTCUSDT',
    );
    assert.deepEqual(
      mexc.map((e) => e.label),
      [
        'channel',
        'symbol',
        'symbolId',
        'createTime',
        'sendTime',
        'publicAggreDeals.deals',
        'publicAggreDeals.deals[*].price',
        'publicAggreDeals.deals[*].quantity',
        'publicAggreDeals.deals[*].tradeType',
        'publicAggreDeals.deals[*].time',
        'publicAggreDeals.deals[*].tradeId',
        'publicAggreDeals.eventType',
      ],
    );
    assert.match(mexc[6]!.detail ?? '', /decimal · Price\./);
    const spec = under(BUILTIN_SANDBOX, '# @expect message |\nWS /ws\n[subscribe]\nspot@public.deals.v3.api@BTCUSDT');
    assert.deepEqual(
      spec.slice(0, 5).map((e) => e.label),
      ['c', 's', 't', 'd.e', 'd.deals'],
    );
    // Names that do not read: every stream of the deployment, once each path.
    const all = under(MEXC_ENV, '# @expect message |\nWS /ws\n[subscribe]\n{{stream}}').map((e) => e.label);
    assert.ok(all.includes('privateAccount.balanceAmount') && all.includes('publicSpotKline.windowStart'));
    assert.equal(new Set(all).size, all.length);
  });

  it('hover of a message line names the field its path reaches, any index standing for [*]', () => {
    const h = hoverUnder(
      MEXC_ENV,
      '# @expect message publicAggreDeals.deals[0].tradeType =|= 1\nWS /ws\n[subscribe]\nspot@public.aggre.deals.v3.api.pb@10ms@BTCUSDT',
    );
    assert.match(h ?? '', /`publicAggreDeals\.deals\[\*\]\.tradeType` \(code\): The taker's side: 1 buy, 2 sell\./);
    const none = hoverUnder(
      MEXC_ENV,
      '# @expect message d.deals[0].S =|= 1\nWS /ws\n[subscribe]\nspot@public.aggre.deals.v3.api.pb@10ms@BTCUSDT',
    );
    assert.doesNotMatch(none ?? '', /\(code\)/);
  });
});
