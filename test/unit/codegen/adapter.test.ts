/**
 * The adapter from a request of a .tradereq file to the model of a program (codeRequestFrom):
 * resolved as for sending, with {{$timestamp}}, {{$uuid}}, {{$clientOrderId}} left to the run and
 * {{NAME.response.PATH}} as a program parameter. Pure: no sandbox, no toolchain.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeRequest, Value } from '../../../src/core/codegen';
import { codeRequestFrom, programNeeds } from '../../../src/core/codegen/adapter';
import { BUILTIN_SANDBOX, type NamedEnvironment } from '../../../src/core/env/constants';
import { parse } from '../../../src/core/format/parser';
import { CHAIN, GUARDED_REASON, guarded, RUN_CASES, text } from '../../fixtures/codegen/cases';
import { DEMO, generated, LANGUAGES } from '../../fixtures/codegen/support';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'codegen');

function model(source: string, environment: NamedEnvironment = BUILTIN_SANDBOX, index = 0): CodeRequest {
  const doc = parse(source);
  const r = codeRequestFrom(doc, doc.requests[index]!, environment);
  if (!r.ok) assert.fail(`refused: ${r.error.message}`);
  if ('kind' in r.value) assert.fail('a WebSocket request: a stream program');
  return r.value;
}

function refusal(source: string, environment: NamedEnvironment = BUILTIN_SANDBOX): string {
  const doc = parse(source);
  const r = codeRequestFrom(doc, doc.requests[0]!, environment);
  assert.equal(r.ok, false, 'the adapter should refuse this request');
  return r.ok ? '' : r.error.message;
}

/** The value of parameter `name` (query or form) of `m`. */
function valueOf(m: CodeRequest, name: string): Value {
  const found = [...m.query, ...m.form].find((p) => p.name === name);
  assert.ok(found, `parameter ${name}`);
  return found.value;
}

describe('Copy as code: from a request of a file to the model of a program', () => {
  it('every request of requests.tradereq and chain.tradereq gives the twin cases.ts writes by hand (those run against the sandbox)', () => {
    const requests = parse(readFileSync(join(FIXTURES, 'requests.tradereq'), 'utf8'));
    for (const c of RUN_CASES) {
      const block = requests.requests.find((r) => r.name?.text === c.name)!;
      const r = codeRequestFrom(requests, block, BUILTIN_SANDBOX);
      assert.ok(r.ok, c.name);
      assert.deepEqual(r.value, c.build(BUILTIN_SANDBOX.baseUrl), c.name);
    }
    const chain = parse(readFileSync(join(FIXTURES, 'chain.tradereq'), 'utf8'));
    const twins = [
      CHAIN.buy(BUILTIN_SANDBOX.baseUrl),
      CHAIN.byOrderId(BUILTIN_SANDBOX.baseUrl, 'GET'),
      CHAIN.byOrderId(BUILTIN_SANDBOX.baseUrl, 'DELETE'),
    ];
    chain.requests.forEach((block, i) => {
      const r = codeRequestFrom(chain, block, BUILTIN_SANDBOX);
      assert.ok(r.ok);
      assert.deepEqual(r.value, twins[i]);
    });
  });

  it('run-time pieces keep the text around them, through file variables, and each is one value per run', () => {
    const m = model(
      [
        '@id = {{$clientOrderId}}',
        '@stamp = {{$timestamp}}',
        'POST /api/v3/order',
        'newClientOrderId = {{id}}',
        'memo = a-{{$uuid}}-b-{{$uuid}}',
        'note = 1{{stamp}}2',
        'copy = {{$clientOrderId}}',
      ].join('\n'),
    );
    assert.deepEqual(valueOf(m, 'newClientOrderId'), [{ kind: 'clientOrderId' }]);
    assert.deepEqual(valueOf(m, 'memo'), [text('a-'), { kind: 'uuid' }, text('-b-'), { kind: 'uuid' }]);
    assert.deepEqual(valueOf(m, 'note'), [text('1'), { kind: 'timestamp' }, text('2')]);
    assert.deepEqual(valueOf(m, 'copy'), [{ kind: 'clientOrderId' }]);
    assert.equal(m.timestampWritten, false, 'timestamp is not written: the program adds it');
  });

  it('long numbers of the file stay text: only the run-time pieces become code', () => {
    const m = model('GET /api/v3/order\norderId = 12345678901234567890\nsymbol = BTCUSDT');
    assert.deepEqual(valueOf(m, 'orderId'), [text('12345678901234567890')]);
    assert.deepEqual(m.parameters, []);
  });

  it('response fields become parameters, named NAME_PATH, declared once, also unquoted inside a JSON body', () => {
    const m = model(
      [
        '@oid = {{buy.response.orderId}}',
        '@unused = {{other.response.x}}',
        'POST /api/v3/order',
        '[json]',
        '{"orderId": {{buy.response.orderId}}, "again": "{{oid}}", "price": "{{my-buy.response.fills[0].price}}"}',
      ].join('\n'),
    );
    assert.deepEqual(m.parameters, [
      { name: 'buy_orderId', description: 'orderId from the response of the request named buy' },
      { name: 'my_buy_fills_0_price', description: 'fills[0].price from the response of the request named my-buy' },
    ]);
    const orderId = { kind: 'parameter', parameter: 'buy_orderId' } as const;
    assert.deepEqual(m.json, [
      text('{"orderId": '),
      orderId,
      text(', "again": "'),
      orderId,
      text('", "price": "'),
      { kind: 'parameter', parameter: 'my_buy_fills_0_price' },
      text('"}'),
    ]);
    assert.equal(m.contentType, 'application/json');
  });

  it('two fields that would get the same parameter name get different ones', () => {
    const m = model('GET /api/v3/order\na = {{x.response.b_c}}\nb = {{x.response.b.c}}');
    assert.deepEqual(
      m.parameters.map((p) => p.name),
      ['x_b_c', 'x_b_c_2'],
    );
  });

  it("key variables: the environment's profile, a # @key profile, or the generic pair; the environment's header", () => {
    const live: NamedEnvironment = {
      name: 'live',
      baseUrl: 'https://api.example.com/base/',
      key: 'live-main',
      apiKeyHeader: 'X-EXAMPLE-APIKEY',
    };
    const order = 'POST /api/v3/order\nsymbol = BTCUSDT';
    const m = model(order, live);
    assert.deepEqual(m.keyEnv, { apiKey: 'TRADEREQ_LIVE_MAIN_API_KEY', secretKey: 'TRADEREQ_LIVE_MAIN_SECRET_KEY' });
    assert.equal(m.apiKeyHeader, 'X-EXAMPLE-APIKEY');
    assert.equal(m.baseUrl, 'https://api.example.com/base', 'the base path is part of the base URL');
    assert.equal(m.path, '/api/v3/order');
    assert.deepEqual(model(`# @key other\n${order}`, live).keyEnv, {
      apiKey: 'TRADEREQ_OTHER_API_KEY',
      secretKey: 'TRADEREQ_OTHER_SECRET_KEY',
    });
    assert.deepEqual(model(order, { name: 'bare', baseUrl: 'https://api.example.com' }).keyEnv, {
      apiKey: 'TRADEREQ_API_KEY',
      secretKey: 'TRADEREQ_SECRET_KEY',
    });
  });

  it('for the sandbox, says what its key variables take: the public demo key "trade" that tradereq sandbox prints (named, never its keys); nowhere else', () => {
    const order = 'POST /api/v3/order\nsymbol = BTCUSDT';
    const sandbox = model(order);
    assert.equal(
      programNeeds(sandbox),
      'It reads the keys from TRADEREQ_SANDBOX_API_KEY and TRADEREQ_SANDBOX_SECRET_KEY and signs when it runs (for the sandbox: its public demo key "trade", which tradereq sandbox prints).',
    );
    for (const language of LANGUAGES) {
      const program = generated(sandbox, language);
      const top = program.split('\n').slice(0, 14).join('\n');
      assert.match(
        top,
        /For the sandbox: its public demo key "trade", which tradereq sandbox prints \(docs\/sandbox\.md\)\./,
        language,
      );
      for (const key of [DEMO.apiKey, DEMO.secretKey]) assert.ok(!program.includes(key), `${language} holds no key`);
    }
    // The demo key signs only for the sandbox profile, and only to loopback (src/core/env/demo.ts).
    const elsewhere: NamedEnvironment[] = [
      { name: 'remote', baseUrl: 'https://sandbox.example.com', key: 'sandbox' },
      { name: 'local', baseUrl: 'http://127.0.0.1:8780', key: 'main' },
      { name: 'bare', baseUrl: 'http://127.0.0.1:8780' },
    ];
    for (const environment of elsewhere) {
      const m = model(order, environment);
      assert.doesNotMatch(programNeeds(m), /demo/, environment.name);
      for (const language of LANGUAGES) assert.doesNotMatch(generated(m, language), /demo key/, environment.name);
    }
    assert.doesNotMatch(programNeeds(model('GET /api/v3/ping')), /demo/, 'an unsigned request needs no key');
  });

  it('environment variables are resolved as for sending; a full URL keeps its own origin; @signature body and @unsigned are kept', () => {
    const env: NamedEnvironment = { ...BUILTIN_SANDBOX, variables: { symbol: 'ETHUSDT', ref: '{{buy.response.id}}' } };
    const m = model(
      '# @signature body\nPOST https://api.other.example/api/v3/order\nsymbol = {{symbol}}\nid = {{ref}}',
      env,
    );
    assert.equal(m.baseUrl, 'https://api.other.example');
    assert.deepEqual(valueOf(m, 'symbol'), [text('ETHUSDT')]);
    assert.deepEqual(valueOf(m, 'id'), [{ kind: 'parameter', parameter: 'buy_id' }]);
    assert.equal(m.signaturePlacement, 'body');
    assert.equal(model('# @unsigned\nGET /api/v3/openOrders').signed, false);
  });

  it('a timestamp written in the JSON body counts as written', () => {
    const m = model('POST /api/v3/order\n[json]\n{"symbol": "BTCUSDT", "timestamp": {{$timestamp}}}');
    assert.equal(m.timestampWritten, true);
    assert.deepEqual(m.json, [text('{"symbol": "BTCUSDT", "timestamp": '), { kind: 'timestamp' }, text('}')]);
  });

  it('an order to a "confirm": true environment asks as send asks: why, and the order with the pieces of its run', () => {
    const env = guarded('http://127.0.0.1:8780');
    const order = [
      'POST /api/v3/order',
      'symbol = BTCUSDT',
      'side = BUY',
      'type = LIMIT',
      'quantity = 0.001',
      'price = {{$timestamp}}',
      'origClientOrderId = {{$clientOrderId}}',
    ].join('\n');
    assert.deepEqual(model(order, env).confirm, {
      reason: GUARDED_REASON,
      order: [
        text('POST /api/v3/order: symbol BTCUSDT, side BUY, type LIMIT, quantity 0.001, price '),
        // Read after the answer, so that a slow answer cannot age it: shown as text.
        text('(the time of sending)'),
        text(', origClientOrderId '),
        { kind: 'clientOrderId' },
      ],
    });
    assert.deepEqual(model('# @confirm\nGET /api/v3/openOrders').confirm, {
      reason: '# @confirm',
      order: [text('GET /api/v3/openOrders')],
    });
    assert.deepEqual(model('POST /api/v3/order\nsymbol = A\u001b[2JB', env).confirm?.order, [
      text('POST /api/v3/order: symbol A\\u001B[2JB'),
    ]);
  });

  it('no confirmation where send asks none: a GET to a "confirm": true environment, an order elsewhere', () => {
    assert.ok(!('confirm' in model('GET /api/v3/openOrders\nsymbol = BTCUSDT', guarded('http://127.0.0.1:8780'))));
    assert.ok(!('confirm' in model('POST /api/v3/order\nsymbol = BTCUSDT')));
  });

  it('refuses what a program cannot do, in one sentence', () => {
    assert.match(
      refusal('WS /ws\n[subscribe]\nspot@public.deals.v3.api@BTCUSDT'),
      /WebSocket request cannot become a program/,
    );
    assert.match(refusal('GET /api/v3/order/{{buy.response.orderId}}'), /fixed path and fixed names/);
    assert.match(refusal('GET /api/v3/order\n{{$uuid}} = 1'), /fixed path and fixed names/);
    assert.match(refusal('GET /api/v3/order\nsymbol = {{nope}}'), /Undefined variable \{\{nope\}\}/);
    assert.match(
      refusal('GET /api/v3/order\na = {{x.response.b}}\nb = {{x.response.b.c}}'),
      /both as a value and as an object/,
    );
  });

  it('an undefined variable is located in the file (for file:line:col messages)', () => {
    const doc = parse('GET /api/v3/order\nsymbol = {{nope}}');
    const r = codeRequestFrom(doc, doc.requests[0]!, BUILTIN_SANDBOX);
    assert.ok(!r.ok && r.error.kind === 'bad-input');
    assert.equal(r.error.diagnostics[0]?.range.startLine, 1);
  });
});
