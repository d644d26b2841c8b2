import assert from 'node:assert/strict';
import { knownRequestDocument } from '../../../src/core/format/known-request';
import type { Token } from '../../../src/core/format/model';

describe('format/known-request: a document of one request built as data', () => {
  it('lays the request out as if written: title, request line, one `name = value` line per parameter', () => {
    const doc = knownRequestDocument({
      method: 'GET',
      target: '/api/v3/order',
      title: 'Query',
      query: [
        ['symbol', 'BTCUSDT'],
        ['orderId', '12'],
      ],
    });
    const text = ['### Query', 'GET /api/v3/order', 'symbol = BTCUSDT', 'orderId = 12'];
    assert.equal(doc.lineCount, text.length);
    const r = doc.requests[0]!;
    const at = (t: Token): string => text[t.range.startLine]!.slice(t.range.startChar, t.range.endChar);
    assert.equal(at(r.title!), 'Query');
    assert.equal(at(r.requestLine.method), 'GET');
    assert.equal(at(r.requestLine.target), '/api/v3/order');
    assert.deepEqual(
      r.params.map((p) => [at(p.name), at(p.value), p.placement]),
      [
        ['symbol', 'BTCUSDT', 'query'],
        ['orderId', '12', 'query'],
      ],
    );
  });

  it('keeps a value with a line break as one parameter value: nothing is parsed from it', () => {
    const doc = knownRequestDocument({
      method: 'PUT',
      target: '/api/v3/userDataStream',
      query: [['listenKey', 'a\n# @key x']],
    });
    const r = doc.requests[0]!;
    assert.equal(r.title, undefined);
    assert.deepEqual(r.directives, []);
    assert.deepEqual(
      r.params.map((p) => [p.name.text, p.value.text]),
      [['listenKey', 'a\n# @key x']],
    );
  });
});
