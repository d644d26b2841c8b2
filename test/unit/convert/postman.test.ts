/**
 * Postman collection v2.1 (+ environment) → .tradereq files and tradereq.env.json
 * (src/core/convert/postman.ts), on a collection laid out like the exchange family's official
 * ones (folders, the API key header on each request, a collection-level signing script,
 * variables, disabled and empty parameters), in plain Node.
 */
import assert from 'node:assert/strict';
import { IMPORT_LIMITS, importPostman, type ImportResult } from '../../../src/core/convert';
import {
  EXPECT_LINE,
  assertClean,
  assertRefused,
  fixture,
  imported,
  onlyEnvironment,
  paramsOf,
} from '../../fixtures/convert/harness';
import { cpuTime } from '../../support/cpu-time';

const COLLECTION = fixture('postman', 'exchange.postman_collection.json');
const ENVIRONMENT = fixture('postman', 'exchange.postman_environment.json');

function file(result: ImportResult, path: string): string {
  const f = result.files.find((x) => x.path === path);
  assert.ok(f, `no ${path} among ${result.files.map((x) => x.path).join(', ')}`);
  return f.text;
}

/** A v2.1 collection of the given items (and collection-level extras). */
function collection(items: unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    info: { name: 'Test', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    item: items,
    ...extra,
  });
}

function request(name: string, method: string, raw: string, more: Record<string, unknown> = {}): unknown {
  return { name, request: { method, header: [], url: { raw }, ...more } };
}

describe('import postman', () => {
  const result = imported(importPostman(COLLECTION, ENVIRONMENT));

  describe("the family's layout", () => {
    it('writes one file per folder, nested folders flattened into the file name, root requests in a file named after the collection', () => {
      assert.deepEqual(
        result.files.map((f) => f.path),
        [
          'market-data.tradereq',
          'trade-orders.tradereq',
          'trade.tradereq',
          'account.tradereq',
          'example-exchange-spot-api.tradereq',
        ],
      );
      assert.equal(result.requestCount, 8);
    });

    it('keeps the requests in order with ### titles from the item names and # @name from their slugs', () => {
      const orders = file(result, 'trade-orders.tradereq');
      const titles = [...orders.matchAll(/^### (.*)$/gm)].map((m) => m[1]);
      assert.deepEqual(titles, ['New Order (TRADE)', 'Test New Order (TRADE)', 'Cancel Order (TRADE)']);
      const names = [...orders.matchAll(/^# @name (.*)$/gm)].map((m) => m[1]);
      assert.deepEqual(names, ['new-order-trade', 'test-new-order-trade', 'cancel-order-trade']);
    });

    it('the {{url}} base becomes the environment baseUrl and the request line a path', () => {
      assert.match(file(result, 'trade-orders.tradereq'), /^POST \/api\/v3\/order$/m);
      assert.equal(onlyEnvironment(result.environment).baseUrl, 'https://api.example-exchange.com');
    });

    it('query parameters of a POST go under [query], form body parameters stay in the default placement', () => {
      const orders = file(result, 'trade-orders.tradereq');
      assert.deepEqual(paramsOf(orders, 0), [
        'symbol={{symbol}} [query]',
        'side=BUY [query]',
        'type=LIMIT [query]',
        'quantity={{qty}} [query]',
        'price=30000 [query]',
        'recvWindow={{recvWindow}} [query]',
      ]);
      assert.deepEqual(paramsOf(orders, 1), [
        'symbol=ETHUSDT [body]',
        'side=SELL [body]',
        'type=LIMIT [body]',
        'quantity=0.25 [body]',
        'price=2500.5 [body]',
      ]);
    });

    it('leaves out disabled and empty parameters, each with a comment saying so', () => {
      const orders = file(result, 'trade-orders.tradereq');
      assert.match(orders, /^# left out \(disabled in Postman\): timeInForce = GTC$/m);
      assert.match(orders, /^# left out \(empty in Postman\): newClientOrderId$/m);
      assert.match(
        file(result, 'market-data.tradereq'),
        /^# left out \(disabled in Postman\): symbols = BTCUSDT,ETHUSDT$/m,
      );
    });

    it('collection variables become file variables; environment variables go to tradereq.env.json', () => {
      for (const f of result.files) assert.match(f.text, /^@symbol = BTCUSDT\n@recvWindow = 5000$/m, f.path);
      const env = onlyEnvironment(result.environment);
      assert.equal(env.name, 'example-exchange-production');
      assert.deepEqual(env.variables, { qty: '0.001' });
      assert.equal(env.key, 'example-exchange-production');
    });

    it('every generated file parses and checks without errors against the generated environment', () => {
      for (const f of result.files) assertClean(f.text, onlyEnvironment(result.environment));
    });
  });

  describe('signing script and other scripts', () => {
    it("recognises the collection's HMAC SHA256 pre-request script, replaces it and says so at the top of each file", () => {
      for (const f of result.files)
        assert.match(
          f.text,
          /pre-request script that signed requests .* is replaced by TradeReq's own signing/,
          f.path,
        );
      assert.doesNotMatch(
        result.files.map((f) => f.text).join('\n'),
        /CryptoJS/,
        'the signing script itself is not kept',
      );
      assert.ok(result.notes.some((n) => /anything else it does .* is not carried over/.test(n)));
    });

    it('drops {{timestamp}} and {{signature}} parameters from the signed requests', () => {
      for (const f of result.files) assert.doesNotMatch(f.text, /^(timestamp|signature) =/m, f.path);
      assert.match(file(result, 'account.tradereq'), /^GET \/api\/v3\/account$/m);
    });

    it("a folder's test script of status checks becomes # @expect status on each of its requests, sub-folders too, and is not kept", () => {
      for (const name of ['trade.tradereq', 'trade-orders.tradereq']) {
        const text = file(result, name);
        assert.equal([...text.matchAll(/^# @expect status 200$/gm)].length, name === 'trade.tradereq' ? 1 : 3, name);
        assert.doesNotMatch(text, /folder "Trade"|pm\.test/, name);
      }
      assert.doesNotMatch(file(result, 'market-data.tradereq'), /@expect/);
      assert.ok(!result.notes.some((n) => /folder "Trade"/.test(n)), result.notes.join('\n'));
    });

    it('keeps a script whose check has no counterpart as a comment, and names the check in the notes', () => {
      assert.match(file(result, 'account.tradereq'), /^# \| pm\.test\("balances are listed"/m);
      assert.ok(result.notes.some((n) => /Account Information \(USER_DATA\)": its Postman test script/.test(n)));
      assert.ok(
        result.notes.includes(
          'account.tradereq: "Account Information (USER_DATA)": the check "pm.expect(body.balances).to.not.be.empty" in the Postman test script of "Account Information (USER_DATA)" has no # @expect counterpart (.empty has no counterpart).',
        ),
        result.notes.join('\n'),
      );
    });

    it('recognises a signing script by what it does: crypto.subtle HMAC SHA-256 setting a signature parameter', () => {
      const script = [
        'const key = await crypto.subtle.importKey("raw", enc(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);',
        'setParam("signature", hex(await crypto.subtle.sign("HMAC", key, enc(text))));',
      ];
      const r = imported(
        importPostman(
          collection(
            [
              request('Open orders', 'GET', '{{url}}/api/v3/openOrders?symbol=BTCUSDT&timestamp=&signature=', {
                url: {
                  raw: '{{url}}/api/v3/openOrders',
                  query: [
                    { key: 'symbol', value: 'BTCUSDT' },
                    { key: 'timestamp', value: '' },
                    { key: 'signature', value: '' },
                  ],
                },
              }),
            ],
            {
              event: [{ listen: 'prerequest', script: { exec: script } }],
              variable: [{ key: 'url', value: 'https://api.example.com' }],
            },
          ),
        ),
      );
      const text = r.files[0]!.text;
      assert.match(text, /replaced by TradeReq's own signing/);
      assert.deepEqual(paramsOf(text), ['symbol=BTCUSDT [query]']);
      assert.match(text, /^# signature and timestamp are left out/m);
    });

    it('a pre-request script that does not sign is kept as a comment at the top of the files', () => {
      const r = imported(
        importPostman(
          collection([request('Ping', 'GET', 'https://api.example.com/api/v3/ping')], {
            event: [{ listen: 'prerequest', script: { exec: ['console.log("sending");'] } }],
          }),
        ),
      );
      assert.match(
        r.files[0]!.text,
        /^# Postman pre-request script of the collection \(no counterpart in TradeReq; kept as a comment\):\n# \| console\.log\("sending"\);$/m,
      );
      assert.ok(r.notes.some((n) => /pre-request script of the collection/.test(n)));
    });
  });

  describe('secrets', () => {
    it('never copies an API key or a secret key value, into any file or the environment', () => {
      const everything = JSON.stringify(result);
      assert.doesNotMatch(everything, /fixtureApiKeyValue0000000000000001/);
      assert.doesNotMatch(everything, /fixtureSecretValueThatMustNeverBeCopied/);
    });

    it('says which key profile to create, for the editor and for the command line', () => {
      const note = result.notes.find((n) => /Create the key profile/.test(n));
      assert.ok(note, result.notes.join('\n'));
      assert.match(note, /"api-key", "secret-key" are not copied/);
      assert.match(note, /TradeReq: Add API Key/);
      assert.match(
        note,
        /TRADEREQ_EXAMPLE_EXCHANGE_PRODUCTION_API_KEY and TRADEREQ_EXAMPLE_EXCHANGE_PRODUCTION_SECRET_KEY/,
      );
    });

    it('the API key header is not copied; a header other than X-SERVICE-APIKEY becomes the environment apiKeyHeader', () => {
      for (const f of result.files) assert.doesNotMatch(f.text, /^X-SERVICE-APIKEY:/m, f.path);
      const r = imported(
        importPostman(
          collection([
            request('Account', 'GET', '{{url}}/api/v3/account?timestamp={{timestamp}}&signature={{signature}}', {
              header: [{ key: 'X-MBX-APIKEY', value: '{{binance-api-key}}' }],
            }),
          ]),
          JSON.stringify({
            name: 'Binance',
            values: [
              { key: 'url', value: 'https://api.binance.com' },
              { key: 'binance-api-key', value: 'k' },
            ],
          }),
        ),
      );
      assert.deepEqual(r.environment, {
        binance: { baseUrl: 'https://api.binance.com', key: 'binance', apiKeyHeader: 'X-MBX-APIKEY' },
      });
    });

    it('Postman apikey authorization is read as the API key header; other authorizations are noted', () => {
      const apikey = imported(
        importPostman(
          collection([request('Account', 'GET', 'https://api.binance.com/api/v3/account')], {
            auth: {
              type: 'apikey',
              apikey: [
                { key: 'key', value: 'X-MBX-APIKEY' },
                { key: 'value', value: '{{k}}' },
                { key: 'in', value: 'header' },
              ],
            },
          }),
        ),
      );
      assert.equal(onlyEnvironment(apikey.environment).apiKeyHeader, 'X-MBX-APIKEY');
      const bearer = imported(
        importPostman(collection([request('A', 'GET', 'https://x.example.com/a', { auth: { type: 'bearer' } })])),
      );
      assert.ok(bearer.notes.some((n) => /bearer authorization is not carried over/.test(n)));
    });
  });

  describe('bodies, names and variables', () => {
    it('a raw JSON body becomes [json]; form-data fields a form body, noted', () => {
      const r = imported(
        importPostman(
          collection(
            [
              request('Json', 'POST', 'https://x.example.com/api/v3/order/test', {
                body: {
                  mode: 'raw',
                  raw: '{"symbol": "{{sym}}", "quantity": "1"}',
                  options: { raw: { language: 'json' } },
                },
              }),
              request('Form', 'POST', 'https://x.example.com/api/v3/order/test', {
                body: {
                  mode: 'formdata',
                  formdata: [
                    { key: 'symbol', value: 'BTCUSDT', type: 'text' },
                    { key: 'file', type: 'file', src: '/tmp/x' },
                  ],
                },
              }),
            ],
            { variable: [{ key: 'sym', value: 'BTCUSDT' }] },
          ),
        ),
      );
      const text = r.files[0]!.text;
      assert.match(text, /^\[json\]\n\{"symbol": "\{\{sym\}\}", "quantity": "1"\}$/m);
      assert.deepEqual(paramsOf(text, 1), ['symbol=BTCUSDT [body]']);
      assert.ok(r.notes.some((n) => /form-data fields are sent as a form body/.test(n)));
      assert.ok(r.notes.some((n) => /file field "file" is not carried over/.test(n)));
    });

    it('# @name is left out where two requests of a file have the same slug', () => {
      const r = imported(
        importPostman(
          collection([
            request('Ping', 'GET', 'https://x.example.com/api/v3/ping'),
            request('ping', 'GET', 'https://x.example.com/api/v3/ping'),
            request('Time', 'GET', 'https://x.example.com/api/v3/time'),
          ]),
        ),
      );
      assert.deepEqual(
        [...r.files[0]!.text.matchAll(/^# @name (.*)$/gm)].map((m) => m[1]),
        ['time'],
      );
    });

    it('a base URL variable with no value points the environment at the sandbox, and says so', () => {
      const r = imported(importPostman(collection([request('Ping', 'GET', '{{baseUrl}}/api/v3/ping')])));
      assert.equal(onlyEnvironment(r.environment).baseUrl, 'http://127.0.0.1:8780');
      assert.match(r.files[0]!.text, /^GET \/api\/v3\/ping$/m);
      assert.ok(r.notes.some((n) => /\{\{baseUrl\}\} stands for the base URL but has no http\(s\) value/.test(n)));
      assert.ok(r.notes.some((n) => /no base URL is known/.test(n)));
    });

    it('a base URL variable with no value, next to a url-like variable that has one: that one is the baseUrl, noted', () => {
      const r = imported(
        importPostman(
          collection([request('Ping', 'GET', '{{url}}/api/v3/ping')], {
            variable: [{ key: 'prod_url', value: 'https://api.example.com/' }],
          }),
        ),
      );
      assert.equal(onlyEnvironment(r.environment).baseUrl, 'https://api.example.com');
      assert.ok(
        r.notes.some((n) => /the environment's baseUrl is \{\{prod_url\}\} \(https:\/\/api\.example\.com\)/.test(n)),
      );
    });

    it('a variable defined nowhere is noted', () => {
      const r = imported(
        importPostman(
          collection([request('Order', 'GET', 'https://x.example.com/api/v3/order?symbol={{sym}}&orderId=1')]),
        ),
      );
      assert.ok(
        r.notes.some((n) => /\{\{sym\}\} is defined neither in the collection nor in the environment/.test(n)),
        r.notes.join('\n'),
      );
    });

    it('Postman dynamic variables: {{$guid}} becomes {{$uuid}}; {{$timestamp}} is noted (seconds there, milliseconds here)', () => {
      const r = imported(
        importPostman(
          collection([
            request(
              'Order',
              'POST',
              'https://x.example.com/api/v3/order/test?symbol=BTCUSDT&side=BUY&type=MARKET&quantity=1&newClientOrderId={{$guid}}&note={{$timestamp}}',
            ),
          ]),
        ),
      );
      assert.match(r.files[0]!.text, /^newClientOrderId = \{\{\$uuid\}\}$/m);
      assert.ok(
        r.notes.some((n) => /\{\{\$timestamp\}\} counts seconds in Postman and milliseconds in TradeReq/.test(n)),
      );
    });
  });

  describe('bad input: one clear message', () => {
    const cases: [string, string, RegExp][] = [
      ['not JSON', '{"info": ', /the collection is not JSON/],
      [
        'a v2.0 collection',
        JSON.stringify({
          info: { name: 'x', schema: 'https://schema.getpostman.com/json/collection/v2.0.0/collection.json' },
          item: [],
        }),
        /collection v2\b.*Collection v2\.1/,
      ],
      [
        'a v1 collection',
        JSON.stringify({ id: 'x', name: 'x', order: [], requests: [] }),
        /collection v1, which the import does not read/,
      ],
      [
        'an environment given as the collection',
        ENVIRONMENT,
        /Postman environment, not a collection: give it with --environment/,
      ],
      ['no info.schema', JSON.stringify({ item: [] }), /not a Postman collection: it has no info\.schema/],
      ['a collection without requests', collection([]), /holds no request/],
      [
        'an item that is not an item',
        collection([{ name: 'x', request: 42 }]),
        /does not follow Postman's format v2\.1 \(item\.0\.request/,
      ],
    ];
    for (const [what, input, message] of cases) {
      it(what, () => {
        assertRefused(importPostman(input), message);
      });
    }

    it('an environment that is not a Postman environment export', () => {
      assertRefused(importPostman(COLLECTION, '[1, 2]'), /the environment is not a Postman environment export/);
    });

    it(`folders nested deeper than ${IMPORT_LIMITS.maxDepth} levels are refused`, () => {
      let item: unknown = request('Ping', 'GET', 'https://x.example.com/api/v3/ping');
      for (let i = 0; i < IMPORT_LIMITS.maxDepth + 2; i++) item = { name: `f${i}`, item: [item] };
      assertRefused(importPostman(collection([item])), /nests folders too deeply/);
    });

    it(`more than ${IMPORT_LIMITS.maxRequests} requests are refused`, () => {
      const items = Array.from({ length: IMPORT_LIMITS.maxRequests + 1 }, (_, i) =>
        request(`r${i}`, 'GET', 'https://x.example.com/api/v3/ping'),
      );
      assertRefused(importPostman(collection(items)), /more than 5000 requests/);
    });
  });

  describe('test scripts as # @expect lines (issue 19)', () => {
    const tested = (exec: string[], extra: Record<string, unknown> = {}): ImportResult =>
      imported(
        importPostman(
          collection([
            {
              ...(request('Price', 'GET', 'https://api.example.com/api/v3/ticker/price?symbol=BTCUSDT') as object),
              event: [{ listen: 'test', script: { exec } }],
              ...extra,
            },
          ]),
        ),
      );
    const expects = (r: ImportResult): string[] =>
      [...r.files[0]!.text.matchAll(/^# @(expect .*)$/gm)].map((m) => m[1]!);

    it("Postman's snippets of status and JSON checks map, in order, each once; a script of only those is not kept", () => {
      const r = tested([
        'pm.test("Status code is 200", function () {',
        '    pm.response.to.have.status(200);',
        '});',
        'pm.test("code", () => pm.expect(pm.response.code).to.eql(200));',
        'pm.test("Your test name", function () {',
        '    var jsonData = pm.response.json();',
        '    pm.expect(jsonData.symbol).to.eql("BTCUSDT");',
        "    pm.expect(jsonData.fills[0]['price'], 'the first fill').to.deep.equal('0.50');",
        '    pm.expect(jsonData.count)',
        '        .to.equal(1.50);',
        '});',
        'pm.test("json", () => { pm.expect(pm.response.json().ok).to.be.eql(true); });',
        "pm.test('body', function () { pm.response.to.have.jsonBody('symbols[0].status', \"  TRADING\"); });",
      ]);
      assert.deepEqual(expects(r), [
        'expect status 200',
        'expect json symbol == BTCUSDT',
        'expect json fills[0].price == 0.50',
        'expect json count == 1.5',
        'expect json ok == true',
        'expect json symbols[0].status == "  TRADING"',
      ]);
      assert.doesNotMatch(r.files[0]!.text, /pm\.test|Postman test script/);
      assert.ok(!r.notes.some((n) => /test script/.test(n)), r.notes.join('\n'));
      assertClean(r.files[0]!.text);
    });

    it('a check with no counterpart is named in a note; the script is kept as a comment that says its other checks map', () => {
      const r = tested([
        'pm.test("fast", function () {',
        '    pm.response.to.have.status(200);',
        '    pm.expect(pm.response.responseTime).to.be.within(5, 500);',
        '    pm.response.to.be.ok;',
        '});',
      ]);
      assert.deepEqual(expects(r), ['expect status 200']);
      assert.match(
        r.files[0]!.text,
        /^# Postman test script of "Price" \(its 1 check\(s\) with a counterpart are # @expect lines; the rest has no counterpart in TradeReq; kept as a comment\):\n# \| pm\.test\("fast"/m,
      );
      const checks = r.notes.filter((n) => /has no # @expect counterpart/.test(n));
      assert.deepEqual(
        checks.map((n) => /the check (".*?") in/.exec(n)![1]),
        ['"pm.expect(pm.response.responseTime).to.be.within(5, 500)"', '"pm.response.to.be.ok"'],
      );
      assert.ok(
        r.notes.some((n) => /its Postman test script is kept as a comment: its checks with a counterpart/.test(n)),
      );
    });

    it('a script with conditions maps nothing (a check under a condition may not run), and says so', () => {
      const r = tested([
        'if (pm.response.code === 200) {',
        '    pm.test("symbol", () => pm.expect(pm.response.json().symbol).to.eql("BTCUSDT"));',
        '}',
      ]);
      assert.deepEqual(expects(r), []);
      assert.match(r.files[0]!.text, /^# \| if \(pm\.response\.code === 200\) \{$/m);
      assert.ok(
        r.notes.some((n) => /has conditions or loops, under which a check may not run/.test(n)),
        r.notes.join('\n'),
      );
    });

    it('a check of a credential field is not written, its value nowhere', () => {
      const r = tested([
        'pm.test("key", () => pm.expect(pm.response.json().listenKey).to.eql("L1stenKeyValueMustNotBeCopied6"));',
      ]);
      assert.deepEqual(expects(r), []);
      assert.doesNotMatch(r.files[0]!.text, /L1stenKeyValueMustNotBeCopied6/);
      assert.ok(
        r.notes.some((n) => /the checks of "listenKey" are not copied/.test(n)),
        r.notes.join('\n'),
      );
    });

    it(`hostile scripts are read in bounded time: ${IMPORT_LIMITS.maxChecks} checks at most, no more than ${IMPORT_LIMITS.maxScriptChars} characters`, () => {
      const many = Array.from({ length: 2100 }, (_, i) => `pm.expect(pm.response.json().f${i}).to.eql(${i});`);
      const { value: r, ms } = cpuTime(() => tested(many.slice(0, 1000)));
      assert.equal(expects(r).length, IMPORT_LIMITS.maxChecks);
      assert.ok(r.notes.some((n) => /has more than 100 checks: those after the 100th are not read/.test(n)));
      const long = cpuTime(() => tested(many));
      assert.deepEqual(expects(long.value), []);
      assert.ok(
        long.value.notes.some((n) => /is longer than the 65536 characters an import reads checks from/.test(n)),
      );
      const nested = cpuTime(() =>
        tested(['pm.expect(' + '('.repeat(30_000) + 'x' + ')'.repeat(30_000) + ').to.eql(1);']),
      );
      assert.deepEqual(expects(nested.value), []);
      assert.ok(nested.value.notes.some((n) => /the check "pm\.expect\(\(\(/.test(n)));
      for (const t of [ms, long.ms, nested.ms]) assert.ok(t < 1000, `took ${Math.round(t)} ms of CPU time`);
    });
  });

  describe('test scripts in the assertion language (issue 21)', () => {
    const tested = (exec: string[]): ImportResult =>
      imported(
        importPostman(
          collection([
            {
              ...(request('Order', 'GET', 'https://api.example.com/api/v3/order?symbol=BTCUSDT&orderId=1') as object),
              event: [{ listen: 'test', script: { exec } }],
            },
          ]),
        ),
      );
    const expects = (r: ImportResult): string[] =>
      [...r.files[0]!.text.matchAll(/^# @(expect .*)$/gm)].map((m) => m[1]!);
    const unmapped = (r: ImportResult): string[] =>
      r.notes.flatMap(
        (n) =>
          /the check (".*") in the Postman test script of "Order" has no # @expect counterpart \((.*)\)\.$/
            .exec(n)
            ?.slice(1, 3)
            .join(': ') ?? [],
      );

    it('maps every form with an exact counterpart, in order, each line of the language', () => {
      const r = tested([
        'const jsonData = pm.response.json();',
        'pm.test("all", function () {',
        '    pm.response.to.not.have.status(500);',
        '    pm.expect(pm.response.code).to.be.below(300);',
        '    pm.response.to.have.header("Content-Type");',
        "    pm.response.to.have.header('Content-Type', 'application/json; charset=utf-8');",
        '    pm.expect(pm.response.responseTime).to.be.below(500);',
        '    pm.expect(jsonData.symbol).to.equal("BTCUSDT");',
        '    pm.expect(jsonData.status).to.not.eql("REJECTED");',
        '    pm.expect(jsonData.price).to.be.above(0);',
        '    pm.expect(jsonData.origQty).to.be.at.most(100.5);',
        '    pm.expect(jsonData.type).to.include("LIMIT");',
        '    pm.expect(jsonData.fills).to.have.lengthOf(2);',
        '    pm.expect(jsonData.fills.length).to.be.at.least(1);',
        '    pm.expect(jsonData.orderId).to.exist;',
        '    pm.expect(jsonData.msg).to.not.exist;',
        "    pm.expect(jsonData.clientOrderId).to.be.a('string');",
        "    pm.expect(jsonData.fills).to.be.an('array');",
        "    pm.expect(jsonData.fills[0]).to.be.an('object');",
        "    pm.expect(jsonData.orderId).to.be.a('number');",
        '    pm.expect(jsonData.symbol).to.match(/^BTC["\'/]?[A-Z]+$/i);',
        "    pm.expect(jsonData.status).to.be.oneOf(['NEW', 'PARTIALLY_FILLED', 'two words']);",
        '    pm.expect(pm.response.json().isIsolated).to.be.false;',
        "    pm.expect(pm.response.headers.get('Content-Type')).to.include('json');",
        "    pm.expect(jsonData).to.have.property('side', 'BUY');",
        "    pm.response.to.not.have.jsonBody('code');",
        '    pm.expect(pm.response.responseTime).to.be.above(5);',
        '    pm.expect(pm.response.json()).to.be.an("object");',
        '    pm.expect(jsonData.stopPrice).to.be.null;',
        "    pm.expect(jsonData.isWorking).to.be.a('boolean');",
        "    pm.response.to.not.have.header('X-Debug');",
        '});',
      ]);
      assert.deepEqual(expects(r), [
        'expect status != 500',
        'expect status < 300',
        'expect header Content-Type exists',
        'expect header Content-Type == "application/json; charset=utf-8"',
        'expect duration < 500',
        'expect json symbol == BTCUSDT',
        'expect json status != REJECTED',
        'expect json price > 0',
        'expect json origQty <= 100.5',
        'expect json type contains LIMIT',
        'expect json fills count == 2',
        'expect json fills count >= 1',
        'expect json orderId exists',
        'expect json msg not exists',
        'expect json clientOrderId isString',
        'expect json fills isArray',
        'expect json fills[0] isObject',
        'expect json orderId isNumber',
        'expect json symbol matches /^BTC["\'\\/]?[A-Z]+$/i',
        'expect json status in [NEW, PARTIALLY_FILLED, "two words"]',
        'expect json isIsolated == false',
        'expect header Content-Type contains json',
        'expect json side == BUY',
        'expect json code not exists',
        'expect duration > 5',
        'expect json $ isObject',
        'expect json stopPrice isNull',
        'expect json isWorking isBoolean',
        'expect header X-Debug not exists',
      ]);
      for (const line of expects(r)) assert.match(`# @${line}`, EXPECT_LINE);
      assert.doesNotMatch(r.files[0]!.text, /Postman test script/, 'a script of checks that all map is not kept');
      assertClean(r.files[0]!.text);
    });

    it('keeps what has no exact counterpart as a comment, each check listed with why', () => {
      const r = tested([
        'pm.test("rest", () => {',
        '    pm.expect(pm.response.code).to.be.oneOf([200, 201]);',
        '    pm.expect(pm.response.responseTime).to.be.within(5, 500);',
        '    pm.expect(pm.response.json().symbol).to.match(/^(?=BTC)/);',
        '    pm.expect(pm.response.json().symbol).to.match(/^.{1000}$/);',
        '    pm.expect(pm.response.json().fills).to.deep.include({ price: "1" });',
        '    pm.expect(pm.response.text()).to.include("BTC");',
        '    pm.expect(pm.response.json().msg).to.eql(\'say "hi"\');',
        '    pm.response.to.have.header("X-SERVICE-APIKEY", "K3yValueMustNotBeCopied");',
        '    pm.response.to.have.status(200);',
        '});',
      ]);
      assert.deepEqual(expects(r), ['expect status 200']);
      assert.deepEqual(unmapped(r), [
        '"pm.expect(pm.response.code).to.be.oneOf([200, 201])": a status is compared with ==, !=, <, <=, > or >= and a whole number',
        '"pm.expect(pm.response.responseTime).to.be.within(5, 500)": .within(…) with these values has no counterpart',
        '"pm.expect(pm.response.json().symbol).to.match(/^(?=BTC)/)": a regular expression that RE2, the linear-time engine of `matches`, cannot run (lookaround, backreferences or a program too large)',
        '"pm.expect(pm.response.json().symbol).to.match(/^.{1000}$/)": a regular expression that RE2, the linear-time engine of `matches`, cannot run (lookaround, backreferences or a program too large)',
        '"pm.expect(pm.response.json().fills).to.deep.include({ price: \\"1\\" })": it holds more than names and plain values',
        '"pm.expect(pm.response.text()).to.include(\\"BTC\\")": its subject is not the status, the response time, a header or a field of pm.response.json()',
        '"pm.expect(pm.response.json().msg).to.eql(\'say \\"hi\\"\')": a value with a double quote or backslash',
      ]);
      assert.match(r.files[0]!.text, /^# \| {5}pm\.expect\(pm\.response\.code\)\.to\.be\.oneOf/m);
      assert.doesNotMatch(r.files[0]!.text, /K3yValueMustNotBeCopied|@expect header X-SERVICE-APIKEY/);
      assert.ok(
        r.notes.some((n) => /the checks of "X-SERVICE-APIKEY" are not copied/.test(n)),
        r.notes.join('\n'),
      );
    });

    it('a script of regular expressions and divisions is read in bounded time', () => {
      const { value: r, ms } = cpuTime(() =>
        tested([
          `pm.expect(pm.response.json().a).to.match(/${'[/]'.repeat(60)}/);`,
          'x = ' + '1 / '.repeat(15_000) + '1;',
        ]),
      );
      assert.deepEqual(expects(r), [`expect json a matches /${'[\\/]'.repeat(60)}/`]);
      assert.ok(ms < 1000, `took ${Math.round(ms)} ms of CPU time`);
    });
  });

  describe('URLs under the base URL become paths (issue 19)', () => {
    it('the base variable, the base URL written out and another variable holding it give paths; another origin stays', () => {
      const r = imported(
        importPostman(
          collection(
            [
              request('Ping', 'GET', '{{baseUrl}}/api/v3/ping'),
              request('Time', 'GET', 'https://api.example.com/api/v3/time'),
              request('Info', 'GET', '{{host}}/api/v3/exchangeInfo'),
              request('Elsewhere', 'GET', 'https://other.example.com/api/v3/ping'),
            ],
            {
              variable: [
                { key: 'baseUrl', value: 'https://api.example.com' },
                { key: 'host', value: 'https://API.example.com/' },
              ],
            },
          ),
        ),
      );
      const lines = r.files[0]!.text.split('\n').filter((l) => l.startsWith('GET '));
      assert.deepEqual(lines, [
        'GET /api/v3/ping',
        'GET /api/v3/time',
        'GET /api/v3/exchangeInfo',
        'GET https://other.example.com/api/v3/ping',
      ]);
      assert.ok(
        r.notes.some((n) => /^URLs under https:\/\/api\.example\.com, the base URL of the environment "test"/.test(n)),
      );
      assertClean(r.files[0]!.text, onlyEnvironment(r.environment));
    });
  });
});
