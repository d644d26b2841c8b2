import assert from 'node:assert/strict';
import { completionsAt, type CompletionContext } from '../../../src/core/editor/completion';
import { hoverAt } from '../../../src/core/editor/hover';
import { escapeMarkdown, inlineCode } from '../../../src/core/editor/markdown';
import { environmentJsonSchema } from '../../../src/core/env/json-schema';
import { parse } from '../../../src/core/format/parser';
import { BUILTIN_SANDBOX } from '../../../src/core/env/schema';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ENV = { ...BUILTIN_SANDBOX, variables: { qty: '0.5' } };
const CTX: CompletionContext = {
  environment: ENV,
  symbols: [
    { symbol: 'LTCBTC', detail: 'LTC/BTC', source: 'exchangeInfo' },
    { symbol: 'XRPUSDT', source: 'setting' },
    { symbol: 'LTCBTC', source: 'workspace' },
  ],
};

/** Completion at the `|` of `text`. */
function complete(text: string, ctx = CTX) {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes('|'));
  const character = lines[line]!.indexOf('|');
  const clean = text.replace('|', '');
  return completionsAt(parse(clean), clean.split('\n')[line]!, line, character, ctx);
}

function hover(text: string) {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes('|'));
  const character = lines[line]!.indexOf('|');
  const clean = text.replace('|', '');
  return hoverAt(parse(clean), clean.split('\n')[line]!, line, character, { environment: ENV });
}

describe('editor: completion (pure)', () => {
  it('offers the endpoint parameters, required first, leaving out written ones and timestamp/signature', () => {
    const items = complete('POST /api/v3/order\nsymbol = BTCUSDT\n|\n');
    const labels = items
      .filter((i) => i.kind === 'parameter')
      .sort((a, b) => a.sortText!.localeCompare(b.sortText!))
      .map((i) => i.label);
    assert.deepEqual(labels.slice(0, 2), ['side', 'type']);
    assert.ok(!labels.includes('symbol') && !labels.includes('timestamp') && !labels.includes('signature'));
    assert.ok(labels.includes('recvWindow'));
  });

  it('counts quantity and price as required once type = LIMIT is written', () => {
    const items = complete('POST /api/v3/order\ntype = LIMIT\n|\n');
    assert.match(items.find((i) => i.label === 'price')!.detail!, /^required/);
  });

  it('offers enum values after side = and type =, saying which are documented', () => {
    const side = complete('POST /api/v3/order\nside = |\n');
    assert.deepEqual(
      side.map((i) => [i.label, i.detail]),
      [
        ['BUY', 'documented by the service'],
        ['SELL', 'assumed'],
      ],
    );
    assert.ok(complete('POST /api/v3/order\ntype = L|\n').some((i) => i.label === 'LIMIT_MAKER'));
  });

  it('offers symbols after symbol =, exchangeInfo first, each once', () => {
    const items = complete('POST /api/v3/order\nsymbol = |\n');
    assert.deepEqual(
      items.map((i) => i.label),
      ['LTCBTC', 'XRPUSDT'],
    );
    assert.match(items[0]!.detail!, /LTC\/BTC · exchangeInfo of sandbox/);
  });

  it('offers variables after {{: file, environment, system and named responses, and closes the braces', () => {
    const items = complete('@symbol = BTCUSDT\n### a\n# @name buy\nPOST /api/v3/order\nsymbol = {{|\n');
    const labels = items.map((i) => i.label);
    for (const l of ['symbol', 'qty', '$timestamp', '$uuid', '$clientOrderId', 'buy.response.'])
      assert.ok(labels.includes(l), l);
    assert.equal(items.find((i) => i.label === 'symbol')!.insertText, 'symbol}}');
  });

  it('offers directives after # @, methods and endpoint snippets at a request line, paths after the method, sections after [', () => {
    assert.ok(complete('### a\n# @|\n').some((i) => i.label === 'expect'));
    const start = complete('### a\n|\n');
    assert.ok(
      start.some((i) => i.label === 'POST') && start.some((i) => i.label === 'POST /api/v3/order' && i.snippet),
    );
    const paths = complete('POST /|\n');
    assert.ok(paths.some((i) => i.label === '/api/v3/order' && i.detail === 'Place an order'));
    assert.deepEqual(
      complete('POST /api/v3/order\n[|\n').map((i) => i.label),
      ['[query]', '[body]', '[json]'],
    );
  });

  it('offers member names and values inside a [json] body', () => {
    assert.ok(complete('POST /api/v3/order\n[json]\n{"|"}\n').some((i) => i.label === 'symbol'));
    assert.deepEqual(
      complete('POST /api/v3/order\n[json]\n{"side": "|"}\n').map((i) => i.label),
      ['BUY', 'SELL'],
    );
  });
});

describe('editor: completion never where words are written freely (issue 34)', () => {
  it('offers nothing in a ### title, even after {{ or a trigger character', () => {
    for (const text of [
      '### My own sell order|',
      '### My own sell order |',
      '### Buy {{|',
      '### a\nPOST /api/v3/order\n\n### Cancel the limit|\n',
      '  ### indented title = |',
    ])
      assert.deepEqual(complete(text), [], text);
  });

  it('offers nothing in a comment that is not a directive, even after {{ or =', () => {
    for (const text of [
      '### a\n# a note about the order|\nPOST /api/v3/order',
      '### a\n# see {{|\nPOST /api/v3/order',
      '### a\nPOST /api/v3/order\n# price = |',
      '// order {{sym|',
      '### a\n# expect the order to fill|\nPOST /api/v3/order',
    ])
      assert.deepEqual(complete(text), [], text);
  });

  it('still completes # @directive lines: directives, expectation kinds and variables', () => {
    assert.ok(complete('### a\n# @ex|\nPOST /api/v3/order').some((i) => i.label === 'expect'));
    assert.ok(complete('### a\n// @|\nPOST /api/v3/order').some((i) => i.label === 'name'));
    assert.ok(complete('### a\n# @expect |\nPOST /api/v3/order').some((i) => i.label === 'json'));
    const vars = complete('@symbol = BTCUSDT\n### a\nPOST /api/v3/order\n# @expect json symbol == {{|');
    assert.ok(
      vars.some((i) => i.label === 'symbol' && i.kind === 'variable'),
      vars.map((i) => i.label).join(', '),
    );
  });

  it('offers the request templates where a request begins, with its ### line only where the block has none', () => {
    const bare = complete('lim|');
    const limit = bare.find((i) => i.label === 'limit order');
    assert.ok(limit?.snippet, bare.map((i) => i.label).join(', '));
    assert.match(limit.insertText!, /^### \$\{1:[^}]+\}\nPOST \/api\/v3\/order\n/);
    assert.match(limit.insertText!, /type = LIMIT/);
    const titled = complete('### a\nord|').find((i) => i.label === 'limit order');
    assert.ok(titled?.insertText?.startsWith('POST /api/v3/order\n'), titled?.insertText);
    for (const label of ['market order', 'query order', 'cancel order', 'split order', 'json order'])
      assert.ok(
        bare.some((i) => i.label === label && i.kind === 'snippet'),
        label,
      );
    // Inside a request, after its request line, the templates are not offered.
    assert.ok(!complete('POST /api/v3/order\nlim|').some((i) => i.kind === 'snippet'));
  });
});

describe('editor: hover (pure)', () => {
  it('decodes an error code in an @expect code line and in a comment, with every meaning, cause and next step', () => {
    const h = hover('# @expect code 7000|03\nGET /api/v3/time\n')!;
    assert.match(h.markdown, /\*\*700003\*\*: Timestamp is outside of the recvWindow/);
    assert.match(h.markdown, /Usual cause/);
    assert.match(h.markdown, /timestamp < serverTime \+ 1000/);
    const two = hover('// this gave 7300|01 yesterday\nGET /api/v3/time\n')!;
    assert.match(two.markdown, /2 meanings/);
    assert.equal(hover('POST /api/v3/order\nprice = 300|00\n'), undefined, 'a number in a value is not an error code');
  });

  it('describes a parameter with its type, rule and whether the service documents it', () => {
    assert.match(
      hover('POST /api/v3/order\nsym|bol = BTCUSDT\n')!.markdown,
      /upper-case letters[\s\S]*Documented by the service/,
    );
    assert.match(hover('POST /api/v3/order\nnewClient|OrderId = x\n')!.markdown, /Assumed/);
  });

  it("shows a variable's resolved value and where it comes from", () => {
    assert.match(
      hover('@symbol = BTCUSDT\nPOST /api/v3/order\nsymbol = {{sym|bol}}\n')!.markdown,
      /= `BTCUSDT`[\s\S]*file variable/,
    );
    assert.match(hover('POST /api/v3/order\nquantity = {{q|ty}}\n')!.markdown, /= `0\.5`[\s\S]*environment "sandbox"/);
  });

  it('escapes what comes from a file', () => {
    assert.equal(escapeMarkdown('<img src=x>*[a](b)'), '\\<img src=x\\>\\*\\[a\\]\\(b\\)');
    assert.equal(inlineCode('a`b'), '``a`b``');
  });
});

describe('tradereq.env.json schema', () => {
  it('media/tradereq.env.schema.json is the schema generated from the zod schema (npm run build writes it)', () => {
    const committed: unknown = JSON.parse(
      readFileSync(join(__dirname, '..', '../../media/tradereq.env.schema.json'), 'utf8'),
    );
    assert.deepEqual(committed, environmentJsonSchema());
  });
});
