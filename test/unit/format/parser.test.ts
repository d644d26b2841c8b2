import assert from 'node:assert/strict';
import { BOUNDS } from '../../../src/core/bounds';
import { parse } from '../../../src/core/format/parser';
import { requestAtLine, type TradeReqDocument } from '../../../src/core/format/model';

const FORMAT_EXAMPLE = `# Requests for the spot order endpoint. No secrets in this file.
@symbol = BTCUSDT
@qty = 0.001

### Buy at a limit price
# @name buy
POST /api/v3/order
symbol = {{symbol}}
side = BUY
type = LIMIT
quantity = {{qty}}
price = 30000
recvWindow = 5000

### Same order, parameters split between query string and body
POST /api/v3/order
[query]
symbol = {{symbol}}
side = BUY
type = LIMIT
[body]
quantity = {{qty}}
price = 30000

### Same order as a JSON body
POST /api/v3/order
[json]
{"symbol": "{{symbol}}", "side": "BUY", "type": "LIMIT", "quantity": "{{qty}}", "price": "30000"}
`;

function textAt(text: string, r: { startLine: number; startChar: number; endLine: number; endChar: number }): string {
  const lines = text.split('\n');
  if (r.startLine === r.endLine) return lines[r.startLine]!.slice(r.startChar, r.endChar);
  return [
    lines[r.startLine]!.slice(r.startChar),
    ...lines.slice(r.startLine + 1, r.endLine),
    lines[r.endLine]!.slice(0, r.endChar),
  ].join('\n');
}

function errorsOf(doc: TradeReqDocument): string[] {
  return doc.diagnostics.filter((d) => d.severity === 'error').map((d) => d.rule);
}

describe('parser', () => {
  it('reads the example of docs/format.md: file variables, three requests, titles, @name', () => {
    const doc = parse(FORMAT_EXAMPLE);
    assert.deepEqual(doc.diagnostics, []);
    assert.deepEqual(
      doc.variables.map((v) => [v.name.text, v.value.text]),
      [
        ['symbol', 'BTCUSDT'],
        ['qty', '0.001'],
      ],
    );
    assert.equal(doc.requests.length, 3);
    assert.equal(doc.requests[0]!.title?.text, 'Buy at a limit price');
    assert.equal(doc.requests[0]!.name?.text, 'buy');
    assert.deepEqual(
      doc.requests.map((r) => r.requestLine.method.text),
      ['POST', 'POST', 'POST'],
    );
  });

  it('places parameters without a section by method: POST in the body, GET and DELETE in the query', () => {
    const doc = parse(
      'POST /api/v3/order\na = 1\n###\nGET /api/v3/order\nb = 2\n###\nDELETE /api/v3/order\nc = 3\n###\nPUT /x\nd = 4\n',
    );
    assert.deepEqual(
      doc.requests.map((r) => r.params.map((p) => `${p.name.text}:${p.placement}:${p.origin}`)),
      [['a:body:default'], ['b:query:default'], ['c:query:default'], ['d:body:default']],
    );
  });

  it('places parameters under [query] and [body] by section, keeping the order written', () => {
    const doc = parse(FORMAT_EXAMPLE);
    assert.deepEqual(
      doc.requests[1]!.params.map((p) => `${p.name.text}:${p.placement}`),
      ['symbol:query', 'side:query', 'type:query', 'quantity:body', 'price:body'],
    );
  });

  it('gives every token a range that points at its text', () => {
    const doc = parse(FORMAT_EXAMPLE);
    const r = doc.requests[0]!;
    assert.equal(textAt(FORMAT_EXAMPLE, r.requestLine.method.range), 'POST');
    assert.equal(textAt(FORMAT_EXAMPLE, r.requestLine.path.range), '/api/v3/order');
    for (const p of r.params) {
      assert.equal(textAt(FORMAT_EXAMPLE, p.name.range), p.name.text);
      assert.equal(textAt(FORMAT_EXAMPLE, p.value.range), p.value.text);
    }
    for (const ref of r.variableRefs) {
      assert.equal(textAt(FORMAT_EXAMPLE, ref.range), `{{${ref.name}}}`);
      assert.equal(textAt(FORMAT_EXAMPLE, ref.nameRange), ref.name);
    }
    const d = r.directives[0]!;
    assert.equal(textAt(FORMAT_EXAMPLE, d.name.range), 'name');
    assert.equal(textAt(FORMAT_EXAMPLE, d.args!.range), 'buy');
    assert.equal(textAt(FORMAT_EXAMPLE, doc.variables[0]!.value.range), 'BTCUSDT');
    assert.equal(textAt(FORMAT_EXAMPLE, doc.requests[1]!.sections[0]!.range), '[query]');
  });

  it('keeps a parameter value raw and trimmed, including = and # inside it', () => {
    const doc = parse('POST /x\nnote =  a=b #c  \n');
    assert.equal(doc.requests[0]!.params[0]!.value.text, 'a=b #c');
  });

  it('reads the JSON body byte for byte from { to }, across lines, and its top-level members as body parameters', () => {
    const text = 'POST /api/v3/order\n[json]\n{"symbol": "{{s}}",\n  "nested": {"a": [1, 2]},\n  "quantity": 0.5}\n';
    const doc = parse(text);
    const r = doc.requests[0]!;
    assert.deepEqual(doc.diagnostics, []);
    assert.equal(r.json?.text, '{"symbol": "{{s}}",\n  "nested": {"a": [1, 2]},\n  "quantity": 0.5}');
    assert.equal(textAt(text, r.json.range), r.json.text);
    assert.deepEqual(
      r.params.map((p) => [p.name.text, p.value.text, p.origin, p.quoted]),
      [
        ['symbol', '{{s}}', 'json', true],
        ['nested', '{"a": [1, 2]}', 'json', false],
        ['quantity', '0.5', 'json', false],
      ],
    );
    for (const p of r.params) assert.equal(textAt(text, p.value.range), p.value.text);
    assert.deepEqual(
      r.variableRefs.map((v) => v.name),
      ['s'],
    );
  });

  it('reports invalid JSON and an unclosed JSON body with a range, and the next ### still starts a request', () => {
    const bad = parse('POST /x\n[json]\n{"a": 1,, "b": 2}\n');
    assert.ok(errorsOf(bad).includes('json-invalid'));
    const unclosed = parse('POST /x\n[json]\n{"a": 1,\n### next\nGET /api/v3/time\n');
    assert.ok(errorsOf(unclosed).includes('json-unclosed'));
    assert.equal(unclosed.requests.length, 2);
    assert.equal(unclosed.requests[1]!.requestLine.path.text, '/api/v3/time');
  });

  it(`a JSON body nests at most ${BOUNDS.prettyJsonDepth} levels, the one depth of JSON TradeReq reads anywhere (issue 31)`, () => {
    const body = (levels: number): string => `{"a":${'['.repeat(levels - 1)}1${']'.repeat(levels - 1)}}`;
    assert.deepEqual(errorsOf(parse(`POST /x\n[json]\n${body(BOUNDS.prettyJsonDepth)}\n`)), []);
    const deep = parse(`POST /x\n[json]\n${body(BOUNDS.prettyJsonDepth + 1)}\n`);
    assert.deepEqual(errorsOf(deep), ['json-invalid']);
    assert.match(deep.diagnostics[0]!.message, /nested too deeply/);
  });

  it('does not mix [json] and [body]', () => {
    assert.ok(errorsOf(parse('POST /x\n[json]\n{"a": "1"}\n[body]\nb = 2\n')).includes('json-and-body'));
  });

  it('reads inline ?a=1&b=2 as query parameters before any others, percent-decoded', () => {
    const text = 'POST /api/v3/order?symbol=BTC%2DUSDT&side=BUY\n[query]\ntype = LIMIT\n';
    const doc = parse(text);
    const r = doc.requests[0]!;
    assert.equal(r.requestLine.path.text, '/api/v3/order');
    assert.equal(r.requestLine.query?.text, 'symbol=BTC%2DUSDT&side=BUY');
    assert.deepEqual(
      r.params.map((p) => `${p.name.text}=${p.value.text}:${p.placement}:${p.origin}`),
      ['symbol=BTC-USDT:query:inline', 'side=BUY:query:inline', 'type=LIMIT:query:section'],
    );
    assert.equal(textAt(text, r.params[0]!.value.range), 'BTC%2DUSDT');
  });

  it('reads headers only directly under the request line', () => {
    const doc = parse('POST /x\nX-Trace: abc\nContent-Type: application/json\na = 1\nX-Late: 1\n');
    const r = doc.requests[0]!;
    assert.deepEqual(
      r.headers.map((h) => [h.name.text, h.value.text]),
      [
        ['X-Trace', 'abc'],
        ['Content-Type', 'application/json'],
      ],
    );
    assert.deepEqual(errorsOf(doc), ['misplaced-header']);
  });

  it('reads directives of the request and of the file, and comments with # and //', () => {
    const doc = parse(
      '# @key main\n// a comment\n@a = 1\n\n### one\n# @name one\n// @signed\n# @expect code 30002\nGET /api/v3/account\n',
    );
    assert.deepEqual(
      doc.fileDirectives.map((d) => d.name.text),
      ['key'],
    );
    assert.deepEqual(
      doc.requests[0]!.directives.map((d) => `${d.name.text} ${d.args?.text ?? ''}`.trim()),
      ['name one', 'signed', 'expect code 30002'],
    );
    assert.equal(doc.comments.length, 1);
  });

  it('treats a file without ### as one request, its directives above the request line belonging to it', () => {
    const doc = parse('# @name solo\nGET /api/v3/time\n');
    assert.equal(doc.requests.length, 1);
    assert.equal(doc.requests[0]!.name?.text, 'solo');
    assert.equal(doc.fileDirectives.length, 0);
  });

  it('accepts a full URL, a {{variable}} target and a trailing HTTP/1.1', () => {
    const doc = parse('GET https://api.example.com/api/v3/time HTTP/1.1\n###\nGET {{base}}/api/v3/ping\n');
    assert.deepEqual(doc.diagnostics, []);
    assert.equal(doc.requests[0]!.requestLine.path.text, 'https://api.example.com/api/v3/time');
    assert.equal(doc.requests[0]!.requestLine.version?.text, 'HTTP/1.1');
    assert.deepEqual(
      doc.requests[1]!.variableRefs.map((v) => v.name),
      ['base'],
    );
  });

  it('reports what it cannot read, with the line: unknown method, method case, stray lines, a second request line, unclosed {{', () => {
    assert.ok(errorsOf(parse('PATCH /x\n')).includes('unknown-method'));
    const lower = parse('post /x\n');
    assert.equal(lower.diagnostics[0]!.fix?.replacement, 'POST');
    assert.ok(errorsOf(parse('symbol = X\nPOST /x\n')).includes('missing-request-line'));
    assert.ok(errorsOf(parse('POST /x\nGET /y\n')).includes('second-request-line'));
    assert.ok(errorsOf(parse('POST /x\na = {{oops\n')).includes('unclosed-variable'));
    assert.ok(errorsOf(parse('POST /x\njust words\n')).includes('unreadable-line'));
    assert.ok(errorsOf(parse('POST /x\n[form]\n')).includes('unknown-section'));
  });

  it('keeps file variables at the top: one after the first request is reported and not defined', () => {
    const doc = parse('### a\nGET /api/v3/time\n@late = 1\n');
    assert.ok(errorsOf(doc).includes('misplaced-variable'));
    assert.equal(doc.variables.length, 0);
  });

  it('warns about two requests with the same @name', () => {
    const doc = parse('###\n# @name a\nGET /x\n###\n# @name a\nGET /y\n');
    assert.ok(doc.diagnostics.some((d) => d.rule === 'duplicate-name' && d.range.startLine === 4));
  });

  it('handles CRLF line endings like LF', () => {
    const crlf = parse(FORMAT_EXAMPLE.replace(/\n/g, '\r\n'));
    const lf = parse(FORMAT_EXAMPLE);
    assert.deepEqual(
      crlf.requests.map((r) => r.params.map((p) => p.value.text)),
      lf.requests.map((r) => r.params.map((p) => p.value.text)),
    );
    assert.deepEqual(crlf.diagnostics, []);
  });

  it('finds the request that holds a line, leaving out trailing blank lines', () => {
    const doc = parse(FORMAT_EXAMPLE);
    assert.equal(requestAtLine(doc, 8)?.index, 0);
    assert.equal(doc.requests[0]!.range.endLine, 12);
    assert.equal(requestAtLine(doc, 13), undefined);
    assert.equal(requestAtLine(doc, 17)?.index, 1);
  });

  it('never throws on random input, and every diagnostic range lies within the text', () => {
    const alphabet = [
      '###',
      '#',
      '@',
      '=',
      '{',
      '}',
      '{{',
      '}}',
      '[',
      ']',
      '[json]',
      '[query]',
      '[body]',
      '"',
      '\\',
      ':',
      '?',
      '&',
      '%',
      ' ',
      '\t',
      '\n',
      '\r\n',
      'POST /api/v3/order',
      'GET ',
      'x',
      'symbol',
      '// ',
      '# @',
      'é',
      '\u{1F600}',
      '\u0000',
    ];
    let seed = 12345;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let round = 0; round < 3000; round++) {
      let text = '';
      const len = random(60);
      for (let k = 0; k < len; k++) text += alphabet[random(alphabet.length)];
      const doc = parse(text);
      const lineCount = text.split('\n').length;
      for (const d of doc.diagnostics) {
        assert.ok(
          d.range.startLine >= 0 && d.range.endLine < lineCount,
          `diagnostic outside the text for ${JSON.stringify(text)}`,
        );
      }
    }
  });
});
