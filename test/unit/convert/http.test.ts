/**
 * .http / .rest files → .tradereq (src/core/convert/http.ts), one fixture per client dialect
 * (REST Client, httpYac, JetBrains HTTP client), in plain Node.
 */
import assert from 'node:assert/strict';
import { IMPORT_LIMITS, importEnvironments, importHttpFile } from '../../../src/core/convert';
import type { NamedEnvironment } from '../../../src/core/env/constants';
import { chooseEnvironment, environmentList, type EnvironmentEntries } from '../../../src/core/env/lookup';
import { EXPECT_LINE, assertClean, assertRefused, fixture, imported, paramsOf } from '../../fixtures/convert/harness';
import { cpuTime } from '../../support/cpu-time';

function run(name: string) {
  const result = imported(
    importHttpFile(fixture('http', name), {
      fileName: name.replace('.http', '.tradereq'),
      sourceName: name,
    }),
  );
  return { result, text: result.files[0]!.text };
}

describe('import http', () => {
  describe('REST Client', () => {
    const { result, text } = run('rest-client.http');

    it('keeps @variables at the top, ### titles, # @name and {{variables}}', () => {
      assert.match(text, /^@baseUrl = https:\/\/api\.example-exchange\.com\n@symbol = BTCUSDT$/m);
      assert.match(text, /^### Place a limit order\n# @name placeOrder\n/m);
      assert.match(text, /^POST \{\{baseUrl\}\}\/api\/v3\/order$/m);
    });

    it('a multi-line form body becomes parameter lines in the default placement', () => {
      assert.deepEqual(paramsOf(text, 1), [
        'symbol={{symbol}} [body]',
        'side=BUY [body]',
        'type=LIMIT [body]',
        'quantity=0.001 [body]',
        'price=30000 [body]',
        'newClientOrderId=restClient1 [body]',
        'recvWindow=5000 [body]',
      ]);
    });

    it('multi-line query strings become parameters; {{name.response.body.$.field}} becomes {{name.response.field}}', () => {
      assert.deepEqual(paramsOf(text, 2), [
        'symbol={{symbol}} [query]',
        'origClientOrderId={{placeOrder.response.clientOrderId}} [query]',
      ]);
    });

    it('# @note (confirm before sending) becomes # @confirm; HTTP/1.1 is dropped', () => {
      assert.match(text, /^# @name placeOrder\n# @confirm$/m);
      assert.doesNotMatch(text, /^(GET|POST) .*HTTP\/1\.1$/m);
    });

    it('the API key header (even as {{$dotenv ...}}) is not copied; the timestamp of a signed endpoint is dropped', () => {
      assert.doesNotMatch(text, /^X-SERVICE-APIKEY/m);
      assert.doesNotMatch(text, /dotenv|\{\{EXCHANGE_API_KEY/);
      assert.doesNotMatch(text, /^timestamp =/m);
      assert.match(text, /key profile/);
    });

    it('settings and methods with no counterpart are kept as comments and listed, with the source line', () => {
      assert.match(text, /^# setting with no counterpart in TradeReq: @no-redirect$/m);
      assert.match(
        text,
        /^### Amend it \(the service has no PATCH\)\n# left out \(the service accepts GET, POST, PUT and DELETE \(spec §4\.1\), not PATCH\):\n# \| PATCH/m,
      );
      assert.deepEqual(
        result.notes.filter((n) => /^rest-client\.http:\d+:/.test(n)).map((n) => n.split(':').slice(0, 2).join(':')),
        ['rest-client.http:20', 'rest-client.http:27'],
      );
    });

    it('{{$timestamp}} in a timestamp parameter goes with it: no note about seconds', () => {
      assert.ok(!result.notes.some((n) => /\$timestamp/.test(n)), result.notes.join('\n'));
    });

    it('parses and checks without errors', () => assertClean(text));
  });

  describe('httpYac', () => {
    const { result, text } = run('httpyac.http');

    it('a region named by its ### line gets that name; a JSON body becomes [json], byte for byte', () => {
      assert.match(text, /^### buyLimit\n# @name buyLimit$/m);
      assert.match(text, /^\[json\]\n\{\n {2}"symbol": "ETHUSDT",\n {2}"side": "BUY",\n/m);
      assert.doesNotMatch(text, /^Content-Type/m, 'TradeReq sends application/json for [json] itself');
    });

    it('?? status, ?? js response.parsedBody and ?? duration assertions become # @expect lines', () => {
      assert.match(text, /^# @expect status 200\n# @expect json symbol == ETHUSDT\n# @expect duration < 1000$/m);
      assert.ok(!result.notes.some((n) => /assertion/.test(n)), result.notes.join('\n'));
    });

    it('{{ }} script blocks and GRPC requests are kept as comments and listed', () => {
      assert.match(text, /^# httpYac script block \(no counterpart in TradeReq; kept as a comment\):\n# \| \{\{$/m);
      assert.match(text, /^### ping over gRPC\n# left out \(GRPC requests/m);
      for (const what of [/script block/, /@keepStreaming/, /GRPC requests/, /@ref/])
        assert.ok(
          result.notes.some((n) => what.test(n)),
          `${what} in the notes`,
        );
    });

    it('a WS request becomes a WebSocket request: its SUBSCRIPTION message a [subscribe] section', () => {
      assert.match(
        text,
        /^### trades\n# @name trades\n# setting with no counterpart in TradeReq: @keepStreaming\nWS ws:\/\/127\.0\.0\.1:8780\/ws\n\[subscribe\]\nspot@public\.deals\.v3\.api@BTCUSDT\n/m,
      );
    });

    it('a variable that looks like a secret is not copied', () => {
      assert.doesNotMatch(text, /@apiKey|\{\{API_KEY/);
      assert.ok(result.notes.some((n) => /@apiKey looks like a secret and is not copied/.test(n)));
    });

    it('parses and checks without errors', () => assertClean(text));
  });

  describe('JetBrains HTTP client', () => {
    const { result, text } = run('jetbrains.http');

    it('> {% %} response handlers and < {% %} pre-request scripts are kept as comments, listed with their first line', () => {
      assert.match(text, /^# response handler script \(no counterpart in TradeReq; kept as a comment\):\n# \| > \{%$/m);
      assert.match(text, /^# pre-request script \(no counterpart in TradeReq; kept as a comment\):\n# \| < \{%$/m);
      assert.ok(
        result.notes.includes(
          'jetbrains.http:5: the response handler script has no counterpart and is kept as a comment.',
        ),
        result.notes.join('\n'),
      );
      assert.ok(
        result.notes.includes('jetbrains.http:12: the pre-request script has no counterpart and is kept as a comment.'),
      );
    });

    it('{{$random.uuid}} becomes {{$uuid}}; a form body becomes parameter lines', () => {
      assert.deepEqual(paramsOf(text, 1), [
        'symbol=BTCUSDT [body]',
        'side=SELL [body]',
        'type=LIMIT [body]',
        'quantity=0.002 [body]',
        'price=31000 [body]',
        'newClientOrderId={{$uuid}} [body]',
      ]);
    });

    it('GRAPHQL requests, >> output files and < ./file bodies are kept as comments and listed', () => {
      assert.match(text, /^### Query in GraphQL\n# left out \(GRAPHQL requests/m);
      assert.match(text, /^### Order from a file\n# left out \(a body read from a file has no counterpart\):/m);
      assert.match(text, /^# no counterpart in TradeReq: >> order-response\.json$/m);
      assert.equal(result.requestCount, 3);
    });

    it('a WEBSOCKET request becomes a WebSocket request: the message after === a [message], its header a comment', () => {
      assert.match(
        text,
        /^### Stream over WebSocket\n# header left out \(a WebSocket request has no headers\): Content-Type: application\/json\nWS ws:\/\/127\.0\.0\.1:8780\/ws\n\[message\]\n\{"method": "PING"\}\n/m,
      );
      assert.ok(
        result.notes.includes(
          'jetbrains.http:23: the Content-Type header has no counterpart in a WebSocket request and is kept as a comment.',
        ),
        result.notes.join('\n'),
      );
    });

    it('parses and checks without errors', () => assertClean(text));
  });

  describe('more of the dialects', () => {
    it('a variable defined in a later block moves to the top; a second, different value is noted', () => {
      const r = imported(
        importHttpFile(
          '### a\n@x = 1\nGET https://h.example.com/a?v={{x}}\n\n### b\n@x = 2\nGET https://h.example.com/b\n',
          { sourceName: 's.http' },
        ),
      );
      const text = r.files[0]!.text;
      assert.match(text, /^@x = 1$/m);
      assert.doesNotMatch(text, /^@x = 2$/m);
      assert.ok(r.notes.some((n) => /s\.http:6: @x is defined again with another value/.test(n)));
      assertClean(text);
    });

    it('a bare URL is a GET; // comments are kept; // @name names the request', () => {
      const r = imported(importHttpFile('// @name ping\n// the simplest request\nhttps://h.example.com/api/v3/ping\n'));
      assert.match(
        r.files[0]!.text,
        /^###\n# @name ping\n# the simplest request\nGET https:\/\/h\.example\.com\/api\/v3\/ping$/m,
      );
    });

    it('a cURL command in a block (REST Client reads them) is imported like tradereq import curl', () => {
      const r = imported(
        importHttpFile(
          `### From the docs\ncurl -H "X-MEXC-APIKEY: k" -X POST 'https://api.mexc.com/api/v3/order' -d 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=11&timestamp=1&signature=s'\n`,
        ),
      );
      const text = r.files[0]!.text;
      assert.match(text, /^### From the docs\n/m);
      assert.deepEqual(paramsOf(text), [
        'symbol=BTCUSDT [body]',
        'side=BUY [body]',
        'type=LIMIT [body]',
        'quantity=1 [body]',
        'price=11 [body]',
      ]);
      assert.match(text, /X-MEXC-APIKEY header is not copied/);
      assertClean(text);
    });

    it('# @prompt and other request settings are kept as comments and noted', () => {
      const r = imported(
        importHttpFile(
          '### ask\n# @prompt symbol Which symbol?\n# @timeout 5000\nGET https://h.example.com/api/v3/exchangeInfo\n',
          { sourceName: 'p.http' },
        ),
      );
      const text = r.files[0]!.text;
      assert.match(
        text,
        /^# setting with no counterpart in TradeReq: @prompt symbol Which symbol\?\n# setting with no counterpart in TradeReq: @timeout 5000$/m,
      );
      assert.ok(
        r.notes.includes('p.http:2: the setting @prompt has no counterpart and is kept as a comment.'),
        r.notes.join('\n'),
      );
      assertClean(text);
    });

    it('{{$processEnv NAME}} becomes {{NAME}}, noted', () => {
      const r = imported(
        importHttpFile('GET https://h.example.com/api/v3/exchangeInfo?symbol={{$processEnv SYMBOL}}\n'),
      );
      assert.deepEqual(paramsOf(r.files[0]!.text), ['symbol={{SYMBOL}} [query]']);
      assert.ok(r.notes.some((n) => /\{\{\$processEnv SYMBOL\}\} read SYMBOL/.test(n)));
    });

    it('a file without any request TradeReq can send is one clear error', () => {
      assertRefused(
        importHttpFile('# nothing here\n\n### rpc\nGRPC grpc.example.com/Ping\n'),
        /holds no request TradeReq can send/,
      );
    });

    it(`a file over ${IMPORT_LIMITS.maxInputChars} characters is refused`, () => {
      assertRefused(importHttpFile('#'.repeat(IMPORT_LIMITS.maxInputChars + 1)), /more than the \d+ an import reads/);
    });

    it('a large file is read in bounded time', () => {
      const block =
        '### order\nPOST https://h.example.com/api/v3/order\nContent-Type: application/x-www-form-urlencoded\n\nsymbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=2\n\n';
      const text = block.repeat(IMPORT_LIMITS.maxRequests - 1);
      const { value: r, ms } = cpuTime(() => imported(importHttpFile(text)));
      assert.equal(r.requestCount, IMPORT_LIMITS.maxRequests - 1);
      assert.ok(ms < 5000, `took ${Math.round(ms)} ms of CPU time`);
    });
  });

  describe("httpYac's ?? assertions in the assertion language (issue 21)", () => {
    const lines = [
      '### order',
      '?? status == 200',
      'GET https://api.example.com/api/v3/order?symbol=BTCUSDT&orderId=1',
      '',
      '?? status != 500',
      '?? status < 300',
      '?? js response.statusCode >= 200',
      '?? duration < 1000',
      '?? header content-type includes json',
      '?? header content-type == application/json',
      '?? header content-type startsWith application',
      '?? header x-service-used-weight-1m < 100',
      '?? header content-type exists',
      '?? body symbol == BTCUSDT',
      '?? body status != two words',
      '?? body price > 0.5',
      '?? body origQty <= 100',
      '?? js response.parsedBody.fills[0]["price"] == 1.50',
      '?? body type contains LIMIT',
      '?? body clientOrderId startsWith web_',
      '?? body symbol matches ^BTC/?[A-Z]+$',
      '?? body orderId exists',
      '?? body isIsolated isFalse',
      '?? body isWorking isTrue',
      '?? body orderId isNumber',
      '?? body symbol isString',
      '?? body fills isArray',
      '?? body fills.length > 0',
      '?? duration <= 1000',
      '?? body isIsolated isBoolean',
      '?? duration firstByte < 100',
      '?? body msg == say "hi"',
      '?? body symbol endsWith USDT',
      '?? body symbol sha256 abc=',
      '?? body symbol == {{symbol}}',
      '?? body == {"symbol":"BTCUSDT"}',
      '?? body symbol matches (?<=x)BTC',
      '?? status === 200',
      '?? header X-SERVICE-APIKEY == K3yValueMustNotBeCopied',
    ];
    const r = imported(importHttpFile(lines.join('\n'), { sourceName: 'asserts.http' }));
    const text = r.files[0]!.text;

    it('maps every form with an exact counterpart, in order, each line of the language', () => {
      const expects = text.split('\n').filter((l) => l.startsWith('# @expect'));
      assert.deepEqual(expects, [
        '# @expect status 200',
        '# @expect status != 500',
        '# @expect status < 300',
        '# @expect status >= 200',
        '# @expect duration < 1000',
        '# @expect header content-type contains json',
        '# @expect header content-type == "application/json"',
        '# @expect header content-type startsWith application',
        '# @expect header x-service-used-weight-1m < 100',
        '# @expect header content-type exists',
        '# @expect json symbol == BTCUSDT',
        '# @expect json status != "two words"',
        '# @expect json price > 0.5',
        '# @expect json origQty <= 100',
        '# @expect json fills[0].price == 1.50',
        '# @expect json type contains LIMIT',
        '# @expect json clientOrderId startsWith web_',
        '# @expect json symbol matches /^BTC\\/?[A-Z]+$/',
        '# @expect json orderId exists',
        '# @expect json isIsolated == false',
        '# @expect json isWorking == true',
        '# @expect json orderId isNumber',
        '# @expect json symbol isString',
        '# @expect json fills isArray',
        '# @expect json fills count > 0',
        '# @expect duration <= 1000',
        '# @expect json isIsolated isBoolean',
      ]);
      for (const line of expects) assert.match(line, EXPECT_LINE);
      assertClean(text);
    });

    it('keeps the rest as comments, each listed with its line and why', () => {
      const kept = text.split('\n').filter((l) => l.startsWith('# assertion with no counterpart in TradeReq: '));
      assert.deepEqual(
        kept.map((l) => l.slice('# assertion with no counterpart in TradeReq: '.length)),
        lines.slice(30, 38),
      );
      assert.deepEqual(
        r.notes.filter((n) => /httpYac assertion/.test(n)),
        [
          'asserts.http:31: the httpYac assertion "?? duration firstByte < 100" has no # @expect counterpart (duration firstByte is not the status, the duration, a header or a field of the body) and is kept as a comment.',
          'asserts.http:32: the httpYac assertion "?? body msg == say \\"hi\\"" has no # @expect counterpart (a value with a double quote or backslash) and is kept as a comment.',
          'asserts.http:33: the httpYac assertion "?? body symbol endsWith USDT" has no # @expect counterpart (endsWith has no counterpart) and is kept as a comment.',
          'asserts.http:34: the httpYac assertion "?? body symbol sha256 abc=" has no # @expect counterpart (sha256 has no counterpart) and is kept as a comment.',
          'asserts.http:35: the httpYac assertion "?? body symbol == {{symbol}}" has no # @expect counterpart (its value uses variables, which # @expect does not read) and is kept as a comment.',
          'asserts.http:36: the httpYac assertion "?? body == {\\"symbol\\":\\"BTCUSDT\\"}" has no # @expect counterpart (body is not the status, the duration, a header or a field of the body) and is kept as a comment.',
          'asserts.http:37: the httpYac assertion "?? body symbol matches (?<=x)BTC" has no # @expect counterpart (a regular expression that RE2, the linear-time engine of `matches`, cannot run (lookaround, backreferences or a program too large)) and is kept as a comment.',
          'asserts.http:38: the httpYac assertion "?? status === 200" has no # @expect counterpart (httpYac reads === and !== as == and != followed by =) and is kept as a comment.',
        ],
      );
    });

    it('an assertion above the request line of a WebSocket request, or in a block of no request, stays a comment', () => {
      const ws = imported(
        importHttpFile(
          [
            '### trades',
            '?? status == 101',
            'WS wss://stream.example.com/ws',
            '',
            '{"method": "SUBSCRIPTION", "params": ["spot@public.deals.v3.api@BTCUSDT"]}',
            '### notes',
            '?? status == 200',
          ].join('\n'),
          { sourceName: 'ws.http' },
        ),
      );
      const out = ws.files[0]!.text;
      assert.doesNotMatch(out, /@expect/);
      assert.match(out, /^# assertion with no counterpart for a WebSocket request: \?\? status == 101\nWS /m);
      assert.match(out, /^# assertion of no request: \?\? status == 200$/m);
      assert.ok(
        ws.notes.includes('ws.http:7: httpYac assertions of no request are kept as comments.'),
        ws.notes.join('\n'),
      );
    });

    it('a check of the API key header is not written, its value nowhere', () => {
      assert.doesNotMatch(text, /K3yValueMustNotBeCopied|@expect header X-SERVICE-APIKEY/);
      assert.ok(
        r.notes.some((n) => /the checks of "X-SERVICE-APIKEY" are not copied/.test(n)),
        r.notes.join('\n'),
      );
    });
  });

  describe('WebSocket requests (issue 19)', () => {
    it('httpYac: WS URL with a SUBSCRIPTION message becomes WS with [subscribe]; its assertion and API key header are noted', () => {
      const r = imported(
        importHttpFile(
          [
            '@symbol = BTCUSDT',
            '### trades',
            'WS wss://stream.example.com/ws',
            'X-SERVICE-APIKEY: {{key}}',
            '',
            '{"method": "SUBSCRIPTION", "params": ["spot@public.deals.v3.api@{{symbol}}", "spot@public.bookTicker.v3.api@BTCUSDT"], "id": 1}',
            '',
            '?? status == 101',
          ].join('\n'),
          { sourceName: 'ws.http' },
        ),
      );
      const text = r.files[0]!.text;
      assert.match(
        text,
        /^### trades\n# @name trades\nWS wss:\/\/stream\.example\.com\/ws\n\[subscribe\]\nspot@public\.deals\.v3\.api@\{\{symbol\}\}\nspot@public\.bookTicker\.v3\.api@BTCUSDT\n# assertion with no counterpart for a WebSocket request: \?\? status == 101\n$/m,
      );
      assert.match(text, /^# API key: the X-SERVICE-APIKEY header is not copied/m);
      assert.ok(
        r.notes.some((n) => /^ws\.http:8: an httpYac assertion on a WebSocket request/.test(n)),
        r.notes.join('\n'),
      );
      assert.equal(r.requestCount, 1);
      assertClean(text);
    });

    it('JetBrains: messages between === lines, each a [message] or [subscribe]; === wait-for-server and a text message are comments and notes', () => {
      const r = imported(
        importHttpFile(
          [
            '### stream',
            'WEBSOCKET ws://127.0.0.1:8780/ws',
            '',
            '===',
            '{"method": "SUBSCRIPTION", "params": ["spot@public.bookTicker.v3.api@BTCUSDT"]}',
            '=== wait-for-server',
            '{"method": "PING"}',
            '===',
            'hello',
          ].join('\n'),
          { sourceName: 'jb.http' },
        ),
      );
      const text = r.files[0]!.text;
      assert.match(
        text,
        /^WS ws:\/\/127\.0\.0\.1:8780\/ws\n\[subscribe\]\nspot@public\.bookTicker\.v3\.api@BTCUSDT\n\[message\]\n\{"method": "PING"\}\n# no counterpart in TradeReq: === wait-for-server\n# message left out \(not one JSON object\):\n# hello\n$/m,
      );
      for (const what of [
        /jb\.http:2: === wait-for-server has no counterpart/,
        /jb\.http:2: a WebSocket message that is not one JSON object/,
      ])
        assert.ok(
          r.notes.some((n) => what.test(n)),
          `${what} in:\n${r.notes.join('\n')}`,
        );
      assertClean(text);
    });

    it('GET of a wss:// URL (REST Client) is a WebSocket request; a listen key in its URL becomes # @listenKey, its value nowhere', () => {
      const r = imported(
        importHttpFile('GET wss://stream.example.com/ws?listenKey=L1stenKeyValue0001&x=1\n', { sourceName: 'rc.http' }),
      );
      const text = r.files[0]!.text;
      assert.match(text, /^# @listenKey\nWS wss:\/\/stream\.example\.com\/ws\?x=1$/m);
      assert.doesNotMatch(JSON.stringify(r), /L1stenKeyValue0001/);
      assert.ok(r.notes.some((n) => /^rc\.http:1: the listen key in the URL is not copied: # @listenKey/.test(n)));
      assertClean(text);
    });

    it('WS of an https:// URL is written with wss://, noted; a credential member of a message is not copied', () => {
      const r = imported(
        importHttpFile('WS https://stream.example.com/ws\n\n{"method": "LOGIN", "apiKey": "K3yValue0002", "x": 1}\n'),
      );
      const text = r.files[0]!.text;
      assert.match(text, /^WS wss:\/\/stream\.example\.com\/ws\n\[message\]\n\{"method":"LOGIN","x":1\}$/m);
      assert.doesNotMatch(JSON.stringify(r), /K3yValue0002/);
      assert.ok(r.notes.some((n) => /is written as "wss:\/\/stream\.example\.com\/ws"/.test(n)));
      assert.ok(r.notes.some((n) => /the WebSocket message members "apiKey" are not copied/.test(n)));
    });
  });

  describe("URLs under an environment's base URL become paths (issue 19)", () => {
    /** What the shells pass: the environments of the file and the one it uses by default. */
    const known = (entries?: EnvironmentEntries): { list: NamedEnvironment[]; current: NamedEnvironment } => {
      const current = chooseEnvironment(entries, undefined, 'tradereq.env.json');
      assert.ok(current.ok);
      return { list: environmentList(entries), current: current.value };
    };
    const env = (entries?: EnvironmentEntries): NamedEnvironment[] => {
      const { list, current } = known(entries);
      return importEnvironments(list, current);
    };
    const PROD = { prod: { baseUrl: 'https://api.example.com' } };

    it('the environments considered: those of the file, and the built-in sandbox only when it is the default', () => {
      assert.deepEqual(
        env().map((e) => `${e.name} ${e.baseUrl}`),
        ['sandbox http://127.0.0.1:8780'],
      );
      assert.deepEqual(
        env(PROD).map((e) => e.name),
        ['prod'],
      );
      assert.deepEqual(
        env({ ...PROD, testnet: { baseUrl: 'https://testnet.example.com' } }).map((e) => e.name),
        ['sandbox', 'prod', 'testnet'],
      );
    });

    it('a variable whose URLs became paths stays in the file, and a note says so once, naming the environment; a URL written out names none', () => {
      const source = [
        '@host = https://api.example.com',
        '@other = https://other.example.com',
        '### time',
        'GET {{host}}/api/v3/time',
        '### ping',
        'GET {{host}}/api/v3/ping',
        '### written out',
        'GET https://api.example.com/api/v3/depth',
        '### elsewhere',
        'GET {{other}}/api/v3/ping',
        '### stream',
        'WS {{host}}/ws',
        '',
        '{"method": "PING"}',
      ].join('\n');
      const r = imported(importHttpFile(source, { environments: known(PROD) }));
      const text = r.files[0]!.text;
      assert.match(text, /^@host = https:\/\/api\.example\.com$/m);
      assert.match(text, /^GET \/api\/v3\/time$/m);
      assert.match(text, /^GET \{\{other\}\}\/api\/v3\/ping$/m);
      assert.deepEqual(
        r.notes.filter((n) => n.startsWith('@')),
        [
          '@host = https://api.example.com stays in the file; the requests that began with {{host}} are written as paths under the base URL of the environment "prod", which chooses where they go.',
        ],
      );
    });

    it('absolute URLs and {{variable}} URLs on the base URL become paths, WS URLs on its wsUrl /ws (through an http variable too); others stay', () => {
      const source = [
        '@host = https://api.example.com',
        '### ping',
        'GET https://api.example.com/api/v3/ping',
        '### time',
        'GET {{host}}/api/v3/time',
        '### elsewhere',
        'GET https://other.example.com/api/v3/ping',
        '### loopback',
        'GET http://127.0.0.1:8780/api/v3/ping',
        '### stream',
        'WS wss://api.example.com/ws',
        '',
        '{"method": "PING"}',
        '### other path',
        'WS wss://api.example.com/stream?x=1',
        '',
        '{"method": "PING"}',
        '### through the http variable',
        'WS {{host}}/ws',
        '',
        '{"method": "PING"}',
      ].join('\n');
      const r = imported(importHttpFile(source, { environments: known(PROD) }));
      const lines = r.files[0]!.text.split('\n').filter((l) => /^(GET|WS) /.test(l));
      assert.deepEqual(lines, [
        'GET /api/v3/ping',
        'GET /api/v3/time',
        'GET https://other.example.com/api/v3/ping',
        'GET http://127.0.0.1:8780/api/v3/ping',
        'WS /ws',
        'WS /stream?x=1',
        'WS /ws',
      ]);
      assert.ok(
        r.notes.includes(
          'URLs under https://api.example.com, the base URL of the environment "prod", are written as paths: the environment chooses where they go (and tradereq test --sandbox sends them to the sandbox).',
        ),
        r.notes.join('\n'),
      );
      assert.ok(
        r.notes.some((n) =>
          /^URLs under wss:\/\/api\.example\.com\/ws, the WebSocket URL of the environment "prod"/.test(n),
        ),
      );
      assertClean(r.files[0]!.text);
    });

    it('a base URL with a path: only URLs under that path; another environment than the default is named, with how to choose it', () => {
      const r = imported(
        importHttpFile(
          'GET https://gw.example.com/spot/api/v3/ping\n\n###\nGET https://gw.example.com/spotless/api/v3/ping\n',
          { environments: known({ ...PROD, gateway: { baseUrl: 'https://gw.example.com/spot/' } }) },
        ),
      );
      const lines = r.files[0]!.text.split('\n').filter((l) => l.startsWith('GET '));
      assert.deepEqual(lines, ['GET /api/v3/ping', 'GET https://gw.example.com/spotless/api/v3/ping']);
      assert.ok(
        r.notes.some((n) =>
          n.endsWith(
            'It is not the environment the file uses by default ("sandbox"): choose "gateway" with --env gateway on the command line or in the editor\'s environment picker.',
          ),
        ),
        r.notes.join('\n'),
      );
    });
  });

  describe('the deployment the file talks to (issue 33)', () => {
    const SOURCE = [
      '### coins',
      'GET https://api.mexc.com/api/v3/capital/config/getall?timestamp=1&signature=ab',
      'X-MEXC-APIKEY: {{key}}',
      '',
    ].join('\n');

    it('looks its endpoints up in the catalog of the deployment whose host it names, and says the deployment gives the key header', () => {
      const text = imported(importHttpFile(SOURCE)).files[0]!.text;
      assert.doesNotMatch(text, /^# @signed$/m, 'the deployment documents the endpoint as signed');
      assert.match(text, /"deployment": "mexc"/);
      assert.doesNotMatch(text, /"apiKeyHeader"/);
    });

    it('elsewhere the spec catalog and the header advice are as before', () => {
      const text = imported(importHttpFile(SOURCE.replace('api.mexc.com', 'api.example.com'))).files[0]!.text;
      assert.match(text, /^# @signed$/m);
      assert.match(text, /"apiKeyHeader": "X-MEXC-APIKEY"/);
    });
  });
});
