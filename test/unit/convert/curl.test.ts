/**
 * cURL → .tradereq (src/core/convert/curl.ts) on cURL lines shaped like the exchange family's
 * documentation writes them, in plain Node: what is carried over, what is dropped and said so,
 * and that every generated request parses and checks clean.
 */
import assert from 'node:assert/strict';
import { IMPORT_LIMITS, importCurl } from '../../../src/core/convert';
import { parse } from '../../../src/core/format/parser';
import { shellWords } from '../../../src/core/convert/shell-words';
import { assertClean, assertRefused, fixture, imported, paramsOf } from '../../fixtures/convert/harness';
import { cpuTime } from '../../support/cpu-time';

function text(input: string | string[], options = {}): string {
  return imported(importCurl(input, options)).files[0]!.text;
}

describe('import curl', () => {
  describe('the documentation shapes', () => {
    it('MEXC-style: every parameter in the query string of a POST goes under [query], values raw', () => {
      const out = text(fixture('curl', 'mexc-query.sh'));
      assert.match(out, /^POST https:\/\/api\.mexc\.com\/api\/v3\/order$/m);
      assert.match(out, /^\[query\]$/m);
      assert.deepEqual(paramsOf(out), [
        'symbol=BTCUSDT [query]',
        'side=BUY [query]',
        'type=LIMIT [query]',
        'quantity=1 [query]',
        'price=11 [query]',
        'recvWindow=5000 [query]',
      ]);
      assertClean(out);
    });

    it('Binance-style: -d form data stays in the body (the default placement of POST), with the continuation lines joined', () => {
      const result = imported(importCurl(fixture('curl', 'binance-body.sh')));
      const out = result.files[0]!.text;
      assert.doesNotMatch(out, /^\[(query|body)\]$/m, 'POST parameters need no section line');
      assert.deepEqual(paramsOf(out), [
        'symbol=LTCBTC [body]',
        'side=BUY [body]',
        'type=LIMIT [body]',
        'timeInForce=GTC [body]',
        'quantity=1 [body]',
        'price=0.1 [body]',
        'recvWindow=5000 [body]',
      ]);
      assert.ok(
        result.notes.some((n) => /signature went in the body/.test(n)),
        'the move of the signature to the query string is noted',
      );
      assertClean(out);
    });

    it('a split request keeps the query string under [query] and the data under [body]', () => {
      const out = text(fixture('curl', 'split.sh'));
      assert.deepEqual(paramsOf(out), [
        'symbol=BTCUSDT [query]',
        'side=BUY [query]',
        'type=LIMIT [query]',
        'quantity=0.001 [body]',
        'price=30000 [body]',
        'newClientOrderId=fixtureOrder1 [body]',
      ]);
      assert.match(out, /^\[query\]\n(.+\n){3}\[body\]$/m);
      assertClean(out);
    });

    it('-G moves the data into the query string; --data-urlencode values are taken raw', () => {
      const result = imported(importCurl(fixture('curl', 'get-query.sh')));
      const out = result.files[0]!.text;
      assert.match(out, /^GET https:\/\/api\.mexc\.com\/api\/v3\/openOrders$/m);
      assert.deepEqual(paramsOf(out), ['symbol=BTCUSDT [query]', 'recvWindow=5000 [query]']);
      assert.ok(
        result.notes.some((n) => /--compressed/.test(n)),
        'ignored options are listed',
      );
      assert.ok(
        result.notes.some((n) => /\$\(date \+%s000\)/.test(n)),
        'the command substitution is noted',
      );
      assert.ok(
        !result.notes.some((n) => /\{\{SIGNATURE\}\}/.test(n)),
        'a variable that went with the signature is not asked for',
      );
      assertClean(out);
    });
  });

  describe('signature, timestamp and the API key', () => {
    it('drops signature and timestamp and says so in a comment line', () => {
      const out = text(fixture('curl', 'mexc-query.sh'));
      assert.doesNotMatch(out, /^(signature|timestamp) =/m);
      assert.match(
        out,
        /^# signature and timestamp are left out: TradeReq adds timestamp and signs the request itself/m,
      );
    });

    it('drops any header whose name ends in APIKEY, never copies its value, and names a key profile instead', () => {
      const result = imported(importCurl(fixture('curl', 'mexc-query.sh')));
      const out = result.files[0]!.text;
      assert.doesNotMatch(out, /mx0vglTestKeyOnly4Fixture/, 'the key value is not in the file');
      assert.doesNotMatch(JSON.stringify(result), /mx0vglTestKeyOnly4Fixture/, 'nor anywhere in the result');
      assert.doesNotMatch(out, /^X-MEXC-APIKEY:/m);
      assert.match(out, /TradeReq: Add API Key/);
      assert.match(out, /TRADEREQ_MEXC_API_KEY and TRADEREQ_MEXC_SECRET_KEY/);
      // The host is the mexc deployment's (issue 33): it is named, and gives the base URL and key header.
      assert.deepEqual(result.environment, { mexc: { deployment: 'mexc', key: 'mexc' } });
      assert.match(out, /"key": "mexc", "deployment": "mexc"/);
    });

    it("names the deployment whose host it talks to, writing the base URL and key header only where they differ from the deployment's (issue 33)", () => {
      const other = imported(
        importCurl(`curl -H 'X-OTHER-APIKEY: k' 'https://www.mexc.com/api/v3/account?timestamp=1&signature=ab'`),
      );
      assert.deepEqual(Object.values(other.environment!)[0], {
        deployment: 'mexc',
        baseUrl: 'https://www.mexc.com',
        key: 'mexc',
        apiKeyHeader: 'X-OTHER-APIKEY',
      });
      const spec = imported(importCurl(`curl 'https://api.example.com/api/v3/ping'`));
      assert.deepEqual(Object.values(spec.environment!)[0], { baseUrl: 'https://api.example.com', key: 'example' });
    });

    it("looks the endpoint up in the deployment's catalog: a signed endpoint it documents gets no # @signed (issue 33)", () => {
      const out = text(`curl 'https://api.mexc.com/api/v3/capital/config/getall?timestamp=1&signature=ab'`);
      assert.doesNotMatch(out, /^# @signed$/m);
      const elsewhere = text(`curl 'https://api.example.com/api/v3/capital/config/getall?timestamp=1&signature=ab'`);
      assert.match(elsewhere, /^# @signed$/m);
    });

    it('the header match is case-insensitive: x-mbx-apikey is the API key too', () => {
      const out = text(`curl -H 'x-mbx-apikey: abc' 'https://api.binance.com/api/v3/account?timestamp=1&signature=x'`);
      assert.doesNotMatch(out, /^x-mbx-apikey/im);
      assert.match(out, /x-mbx-apikey header is not copied/);
    });

    it('a signed endpoint the catalog does not know gets # @signed', () => {
      const out = text(
        `curl 'https://api.binance.com/sapi/v1/capital/config/getall?recvWindow=5000&timestamp=1&signature=ab'`,
      );
      assert.match(out, /^# @signed$/m);
      assert.deepEqual(paramsOf(out), ['recvWindow=5000 [query]']);
    });

    it('an unsigned request keeps a timestamp it writes (TradeReq adds one only when it signs)', () => {
      const out = text(`curl 'https://api.mexc.com/api/v3/klines?symbol=BTCUSDT&timestamp=1700000000000'`);
      assert.deepEqual(paramsOf(out), ['symbol=BTCUSDT [query]', 'timestamp=1700000000000 [query]']);
    });

    it('a timestamp that was not last is noted: totalParams will be in another order', () => {
      const result = imported(
        importCurl(
          `curl 'https://api.mexc.com/api/v3/order?timestamp=1&symbol=BTCUSDT&side=BUY&type=MARKET&quantity=1&signature=a' -X POST`,
        ),
      );
      assert.ok(
        result.notes.some((n) => /timestamp stood within the query/.test(n)),
        result.notes.join('\n'),
      );
    });

    it('Authorization and cookies are credentials: not copied, and noted', () => {
      const result = imported(
        importCurl(`curl -H 'Authorization: Bearer abc.def' -b 'session=1' https://api.mexc.com/api/v3/ping`),
      );
      assert.doesNotMatch(result.files[0]!.text, /Bearer|session=1/);
      assert.ok(result.notes.some((n) => /Authorization header is a credential/.test(n)));
      assert.ok(result.notes.some((n) => /cookies/.test(n)));
    });
  });

  describe('bodies and headers', () => {
    it('a JSON body becomes [json]; its timestamp and signature are taken out and the rewrite is noted', () => {
      const result = imported(
        importCurl(
          `curl --json '{"symbol":"BTCUSDT","side":"BUY","type":"LIMIT","quantity":"1","price":"2","timestamp":1,"signature":"x"}' http://127.0.0.1:8780/api/v3/order`,
        ),
      );
      const out = result.files[0]!.text;
      assert.match(out, /^\[json\]\n\{"symbol":"BTCUSDT","side":"BUY","type":"LIMIT","quantity":"1","price":"2"\}$/m);
      assert.ok(result.notes.some((n) => /JSON body is written again/.test(n)));
      assertClean(out);
    });

    it('a JSON body without timestamp or signature is kept byte for byte', () => {
      const body = '{ "symbol": "BTCUSDT",  "side": "BUY", "type": "MARKET", "quantity": "1" }';
      const out = text([
        'curl',
        '-H',
        'Content-Type: application/json',
        '-d',
        body,
        'http://127.0.0.1:8780/api/v3/order',
      ]);
      assert.ok(out.includes(`[json]\n${body}\n`), out);
    });

    it('Content-Type is not copied; a value other than what TradeReq sends is noted', () => {
      const same = imported(
        importCurl(`curl -H 'Content-Type: application/x-www-form-urlencoded' -d a=1 https://x.example.com/p`),
      );
      assert.doesNotMatch(same.files[0]!.text, /Content-Type/);
      assert.ok(!same.notes.some((n) => /Content-Type/.test(n)));
      const other = imported(importCurl(`curl -H 'Content-Type: text/plain' -d a=1 https://x.example.com/p`));
      assert.ok(other.notes.some((n) => /Content-Type text\/plain is not copied/.test(n)));
    });

    it('--url names the URL; -X DELETE with -d puts the data under [body] (DELETE parameters default to the query string)', () => {
      const out = text(
        `curl -X DELETE --url 'http://127.0.0.1:8780/api/v3/order' -d 'symbol=BTCUSDT&origClientOrderId=abc'`,
      );
      assert.match(out, /^DELETE http:\/\/127\.0\.0\.1:8780\/api\/v3\/order\n\[body\]$/m);
      assert.deepEqual(paramsOf(out), ['symbol=BTCUSDT [body]', 'origClientOrderId=abc [body]']);
      assertClean(out);
    });

    it('other headers are kept; -A becomes User-Agent', () => {
      const out = text(`curl -A 'my-bot/1.0' -H 'Accept: application/json' https://api.mexc.com/api/v3/ping`);
      assert.match(
        out,
        /^GET https:\/\/api\.mexc\.com\/api\/v3\/ping\nUser-Agent: my-bot\/1\.0\nAccept: application\/json$/m,
      );
      assertClean(out);
    });

    it('percent-encoded values are written raw, decoded, and re-encoded strictly by TradeReq', () => {
      const result = imported(
        importCurl(`curl 'https://api.mexc.com/api/v3/capital/withdraw?coin=USDT&network=BEP20%28BSC%29&memo=a+b'`),
      );
      assert.deepEqual(paramsOf(result.files[0]!.text), [
        'coin=USDT [query]',
        'network=BEP20(BSC) [query]',
        'memo=a b [query]',
      ]);
      assert.ok(
        result.notes.some((n) => /percent-encoded differently/.test(n)),
        'a+b is sent as a%20b: noted',
      );
    });

    it('a value the format cannot hold on one line becomes a comment and a note', () => {
      const result = imported(
        importCurl([
          'curl',
          '--data-urlencode',
          'memo=two\nlines',
          '--data-urlencode',
          'a=1',
          'https://x.example.com/p',
        ]),
      );
      const out = result.files[0]!.text;
      assert.deepEqual(paramsOf(out), ['a=1 [body]']);
      assert.match(out, /^# left out \(it spans lines\): memo = two\n# lines$/m);
      assert.ok(result.notes.some((n) => /"memo" left out as a comment: it spans lines/.test(n)));
    });
  });

  describe('base URL', () => {
    it('a URL under --base-url is written as its path', () => {
      const out = text(fixture('curl', 'mexc-query.sh'), { baseUrl: 'https://api.mexc.com' });
      assert.match(out, /^POST \/api\/v3\/order$/m);
    });

    it('a URL not under --base-url keeps the full URL, and says so', () => {
      const result = imported(importCurl(fixture('curl', 'mexc-query.sh'), { baseUrl: 'https://api.binance.com' }));
      assert.match(result.files[0]!.text, /^POST https:\/\/api\.mexc\.com\/api\/v3\/order$/m);
      assert.ok(
        result.notes.some((n) =>
          /not under the base URL https:\/\/api\.binance\.com; the request line keeps the full URL/.test(n),
        ),
      );
    });
  });

  describe('the shell splitter', () => {
    it("reads '...', \"...\", $'...', backslash escapes and line continuations as a shell does", () => {
      const words = shellWords(
        `curl a\\ b 'c d'"e\\"f" $'g\\th\\x41\\u00e9' \\\n i\\\r\nj \\$k "l\\$m" # comment\n`,
      ).words;
      assert.deepEqual(words, ['curl', 'a b', 'c de"f', 'g\thAé', 'ij', '$k', 'l$m'], 'a continuation joins i and j');
    });

    it('turns $VAR and ${VAR} into {{VAR}} and keeps command substitutions as written', () => {
      const split = shellWords(`curl "https://h/p?a=$A&b=\${B}&c=$(date +%s)"`);
      assert.deepEqual(split.words, ['curl', 'https://h/p?a={{A}}&b={{B}}&c=$(date +%s)']);
      assert.deepEqual(split.variables, ['A', 'B']);
      assert.deepEqual(split.substitutions, ['$(date +%s)']);
    });

    it('stops at | and ;, and reads an unquoted & inside a URL as part of it', () => {
      const split = shellWords(`curl https://h/p?a=1&b=2 | jq .`);
      assert.deepEqual(split.words, ['curl', 'https://h/p?a=1&b=2']);
      assert.equal(split.rest, '| jq .');
      assert.equal(split.ampersandInWord, true);
    });

    it('with lineEnds, an unquoted line break ends the command (rest holds what follows); a quoted one or a continuation does not', () => {
      const split = shellWords(`curl -d 'a\nb' \\\n https://h/p\n{"code":1}`, { lineEnds: true });
      assert.deepEqual(split.words, ['curl', '-d', 'a\nb', 'https://h/p']);
      assert.equal(split.rest, '{"code":1}');
    });

    it('the documentation prompt "$ curl" and the options written -XPOST, -sS are read', () => {
      const out = text(
        `$ curl -sSXPOST -H'X-MEXC-APIKEY: k' 'https://api.mexc.com/api/v3/order/test?symbol=BTCUSDT&side=BUY&type=MARKET&quantity=1'`,
      );
      assert.match(out, /^POST https:\/\/api\.mexc\.com\/api\/v3\/order\/test$/m);
      assertClean(out);
    });

    it('shell variables left in the request become {{VAR}} and are noted', () => {
      const result = imported(
        importCurl(`curl "https://api.mexc.com/api/v3/openOrders?symbol=$SYMBOL&timestamp=$TS&signature=$SIG"`),
      );
      assert.deepEqual(paramsOf(result.files[0]!.text), ['symbol={{SYMBOL}} [query]']);
      assert.ok(
        result.notes.some((n) => /\{\{SYMBOL\}\}/.test(n) && !/\{\{TS\}\}/.test(n)),
        result.notes.join('\n'),
      );
    });
  });

  describe('bad input: one clear message', () => {
    const cases: [string, string | string[], RegExp][] = [
      ['an unclosed quote', `curl 'https://api.mexc.com/api/v3/ping`, /unclosed ' quote/],
      ['no URL', 'curl -X POST -d a=1', /has no URL/],
      ['two URLs', 'curl https://a.example.com/x https://b.example.com/y', /2 URLs: import one request at a time/],
      ['not a cURL command', 'wget https://a.example.com/x', /not a cURL command: it starts with "wget"/],
      ['empty input', '   \n', /the input is empty/],
      ['a method the service does not accept', 'curl -X PATCH https://a.example.com/x', /not PATCH/],
      ['an option without its value', 'curl https://a.example.com/x -H', /-H needs a value/],
      ['a scheme other than http(s)', 'curl ftp://a.example.com/x', /not an http:\/\/ or https:\/\/ URL/],
    ];
    for (const [what, input, message] of cases) {
      it(`${what}`, () => {
        assertRefused(importCurl(input), message);
      });
    }

    it(`input over ${IMPORT_LIMITS.maxInputChars} characters is refused before it is read`, () => {
      assertRefused(importCurl('curl ' + 'a'.repeat(IMPORT_LIMITS.maxInputChars)), /more than the \d+ an import reads/);
    });

    it('a hostile input at the size limit is read in bounded time', () => {
      const data = 'a='.repeat(IMPORT_LIMITS.maxInputChars / 4);
      const { value: result, ms } = cpuTime(() => imported(importCurl(`curl https://x.example.com/p -d '${data}'`)));
      assert.ok(result.files[0]!.text.length > 0);
      assert.ok(ms < 5000, `took ${Math.round(ms)} ms of CPU time`);
    });
  });

  it('every cURL fixture gives a file that parses without errors', () => {
    for (const name of ['mexc-query.sh', 'binance-body.sh', 'split.sh', 'get-query.sh', 'quoting.sh']) {
      const doc = parse(text(fixture('curl', name)));
      assert.deepEqual(
        doc.diagnostics.filter((d) => d.severity === 'error'),
        [],
        name,
      );
      assert.equal(doc.requests.length, 1, name);
    }
  });
});
