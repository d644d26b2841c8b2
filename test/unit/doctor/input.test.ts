/**
 * The doctor's input reader (src/core/doctor/input.ts): what a program sent, read from a pasted cURL
 * command, raw HTTP request, URL and body, or log line, as it went on the wire; and the one-line
 * refusals, which never echo a header value or a body.
 */
import assert from 'node:assert/strict';
import { BOUNDS } from '../../../src/core/bounds';
import { readSentRequest } from '../../../src/core/doctor/input';
import type { SentRequest } from '../../../src/core/doctor/types';
import { cpuTime } from '../../support/cpu-time';

const KEY = 'mx0vglSECRETAPIKEY0123456789';
const SIG = 'a'.repeat(64);

function read(text: string): SentRequest {
  const r = readSentRequest(text);
  if (!r.ok) assert.fail(`refused: ${r.error}`);
  return r.value;
}

/** The refusal of `text`: one line, without the API key or the secret written in the text. */
function refused(text: string, pattern: RegExp): string {
  const r = readSentRequest(text);
  assert.equal(r.ok, false, 'read, but should be refused');
  const message = r.ok ? '' : r.error;
  assert.match(message, pattern);
  assert.doesNotMatch(message, /[\r\n]/, 'one line');
  assert.ok(!message.includes(KEY) && !message.includes('s3cr3t'), `echoes a credential: ${message}`);
  return message;
}

const header = (r: SentRequest, name: string): string | undefined =>
  r.headers.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;

const crlf = (text: string): string => text.replace(/\n/g, '\r\n');

describe('doctor: reading what a program sent', () => {
  describe('a cURL command', () => {
    const command = [
      `$ curl -X POST 'https://api.mexc.com/api/v3/order?symbol=BTCUSDT&note=a%2cb' \\`,
      `  -H 'X-MEXC-APIKEY: ${KEY}' \\`,
      `  -d 'side=BUY&type=LIMIT' \\`,
      `  -d "timestamp=1700000000000&signature=${SIG}"`,
      '',
    ].join('\n');

    for (const [ending, text] of [
      ['LF', command],
      ['CRLF', crlf(command)],
    ] as const) {
      it(`reads method, URL, raw query, -d parts joined by "&" and -H, over ${ending} line continuations`, () => {
        const r = read(text);
        assert.equal(r.form, 'curl');
        assert.equal(r.method, 'POST');
        assert.equal(r.url, 'https://api.mexc.com/api/v3/order');
        assert.equal(r.query, 'symbol=BTCUSDT&note=a%2cb', 'the lower-case escape is kept as written');
        assert.equal(r.body, `side=BUY&type=LIMIT&timestamp=1700000000000&signature=${SIG}`);
        assert.equal(header(r, 'X-MEXC-APIKEY'), KEY);
        assert.equal(header(r, 'Content-Type'), 'application/x-www-form-urlencoded', "cURL's own for -d");
        assert.equal(r.code, undefined);
      });
    }

    it('--data-urlencode encodes the value as cURL does (upper-case %XX on UTF-8, the name as written); POST without -X', () => {
      const r = read(`curl https://h.example/api/v3/x --data-urlencode 'memo=a b(é)~*' -d 'n=1%2c'`);
      assert.equal(r.method, 'POST');
      assert.equal(r.body, 'memo=a%20b%28%C3%A9%29~%2A&n=1%2c');
    });

    it('-G moves the data into the query string after the URL\'s own, joined by "&"; GET, no body', () => {
      const r = read(
        `curl -G 'https://h.example/api/v3/openOrders?symbol=BTCUSDT' -d 'timestamp=1' --data-urlencode 'x=1,2'`,
      );
      assert.equal(r.method, 'GET');
      assert.equal(r.query, 'symbol=BTCUSDT&timestamp=1&x=1%2C2');
      assert.equal(r.body, '');
      assert.equal(header(r, 'Content-Type'), undefined);
    });

    it('--json is sent as written (pieces joined without "&"), with Content-Type and Accept application/json', () => {
      const r = read(`curl --json '{"symbol":"BTCUSDT",' --json ' "side":"BUY"}' http://localhost:8080/api/v3/order`);
      assert.equal(r.method, 'POST');
      assert.equal(r.url, 'http://localhost:8080/api/v3/order');
      assert.equal(r.body, '{"symbol":"BTCUSDT", "side":"BUY"}');
      assert.equal(header(r, 'Content-Type'), 'application/json');
      assert.equal(header(r, 'Accept'), 'application/json');
    });

    it('in a log line, with the answer logged after it: the code is read from the answer, the method upper-cased', () => {
      const r = read(
        [
          `2026-11-25 10:00:01 DEBUG curl -X post "https://api.mexc.com:443/api/v3/order?timestamp=1&signature=${SIG}" -H 'X-MEXC-APIKEY: ${KEY}'`,
          '2026-11-25 10:00:01 DEBUG {"code":700002,"msg":"Signature for this request is not valid."}',
        ].join('\n'),
      );
      assert.equal(r.method, 'POST');
      assert.equal(r.url, 'https://api.mexc.com/api/v3/order', 'the default port is not part of the URL');
      assert.equal(r.code, 700002);
    });

    it('shell variables or command substitutions: refused, saying to paste the command as it ran (set -x)', () => {
      const message = refused(
        `curl -X POST "https://h.example/api/v3/order?timestamp=$(date +%s000)&signature=$(echo -n x | openssl dgst -hmac s3cr3t)" -H "X-MEXC-APIKEY: $KEY"`,
        /shell variables.*paste the command as it ran.*set -x/,
      );
      assert.doesNotMatch(message, /openssl|date/, 'the substitution is not echoed');
    });

    it('two commands: refused, asking for one', () => {
      refused(`curl https://h.example/a\ncurl https://h.example/b`, /more than one cURL command: paste the one/);
      refused(`curl https://h.example/a && curl https://h.example/b`, /more than one cURL command/);
    });

    it('data read from a file, a multipart body, HEAD and a missing URL: refused, each saying what to paste', () => {
      refused(`curl -d @body.txt https://h.example/a`, /from a file.*paste the command with them written out/);
      refused(`curl -F a=1 https://h.example/a`, /multipart/);
      refused(`curl -I https://h.example/a`, /GET, POST, PUT and DELETE.*not HEAD/);
      refused(`curl -X POST -H 'X-MEXC-APIKEY: ${KEY}'`, /no URL/);
      refused(`curl -d 'a=1 https://h.example/a`, /unclosed ' quote: paste the whole command/);
    });
  });

  describe('a raw HTTP request', () => {
    const body = `symbol=BTCUSDT&side=BUY&timestamp=1&signature=${SIG}`;
    const request = [
      'POST /api/v3/order?recvWindow=5000&x=%2c HTTP/1.1',
      'Host: api.mexc.com',
      `X-MEXC-APIKEY: ${KEY}`,
      'Content-Type: application/x-www-form-urlencoded',
      '',
      body,
      '',
    ].join('\n');

    for (const [ending, text] of [
      ['LF', request],
      ['CRLF', crlf(request)],
    ] as const) {
      it(`origin-form target with Host (https), headers, body without the paste's last line break (${ending})`, () => {
        const r = read(text);
        assert.equal(r.form, 'http');
        assert.equal(r.method, 'POST');
        assert.equal(r.url, 'https://api.mexc.com/api/v3/order');
        assert.equal(r.query, 'recvWindow=5000&x=%2c');
        assert.equal(r.body, body);
        assert.equal(header(r, 'x-mexc-apikey'), KEY);
      });
    }

    it('Content-Length cuts the body to its bytes; the answer after it gives the code; loopback Host is http', () => {
      const json = '{"symbol":"BTCUSDT",\n "note":"é"}\n';
      const r = read(
        [
          'POST /api/v3/order HTTP/1.1',
          'Host: 127.0.0.1:8080',
          `Content-Length: ${Buffer.byteLength(json)}`,
          '',
          `${json}HTTP/1.1 401 Unauthorized`,
          '',
          '{"code": -1022, "msg": "bad"}',
        ].join('\n'),
      );
      assert.equal(r.url, 'http://127.0.0.1:8080/api/v3/order');
      assert.equal(r.body, json, 'kept byte for byte, its own line breaks included');
      assert.equal(r.code, -1022);
    });

    it('absolute-form target; a GET without body; curl -v lines (`> `) read as the request', () => {
      const r = read(
        `GET https://api.mexc.com/api/v3/account?timestamp=1&signature=${SIG} HTTP/1.1\nX-MEXC-APIKEY: ${KEY}\n`,
      );
      assert.deepEqual([r.method, r.url, r.body], ['GET', 'https://api.mexc.com/api/v3/account', '']);
      const verbose = read(
        `* Connected to api.mexc.com\n> GET /api/v3/account?timestamp=1 HTTP/2\n> Host: api.mexc.com\n> X-MEXC-APIKEY: ${KEY}\n>\n< HTTP/2 400\n{"code":700003,"msg":"x"}`,
      );
      assert.deepEqual(
        [verbose.url, verbose.query, verbose.code],
        ['https://api.mexc.com/api/v3/account', 'timestamp=1', 700003],
      );
    });

    it('refused: no Host, a line that is no header, a body curl -v did not print, PATCH, two requests', () => {
      refused('POST /api/v3/order HTTP/1.1\nContent-Type: x\n\na=1', /no Host header/);
      refused(
        `POST /api/v3/order HTTP/1.1\nHost: h\nsymbol=BTCUSDT&apiKey=${KEY}`,
        /neither a header nor the blank line/,
      );
      refused(
        '> POST /api/v3/order HTTP/1.1\n> Host: h\n> Content-Length: 12\n>\n* upload completely sent off',
        /not in the text/,
      );
      refused('PATCH /api/v3/order HTTP/1.1\nHost: h\n', /not PATCH/);
      refused('GET /a HTTP/1.1\nHost: h\n\nGET /b HTTP/1.1\nHost: h\n', /2 HTTP request lines: paste the one/);
    });
  });

  describe('a log line', () => {
    it("urllib3's debug line (Python requests): origin, quoted request line; its status is not an answer code", () => {
      const r = read(
        'DEBUG:urllib3.connectionpool:Starting new HTTPS connection (1): api.example.com:443\n' +
          `DEBUG:urllib3.connectionpool:https://api.example.com:443 "POST /api/v3/order?symbol=BTCUSDT&price=1%2c5&signature=${SIG} HTTP/1.1" 400 None\n`,
      );
      assert.equal(r.form, 'http');
      assert.equal(r.method, 'POST');
      assert.equal(r.url, 'https://api.example.com/api/v3/order');
      assert.equal(r.query, `symbol=BTCUSDT&price=1%2c5&signature=${SIG}`);
      assert.equal(r.body, '');
      assert.equal(r.code, undefined);
    });

    it("Python http.client's debug lines (send: b'...'): the head and the body as sent, escapes read", () => {
      const body = `symbol=BTCUSDT&memo=caf\\xc3\\xa9&signature=${SIG}`;
      const r = read(
        [
          'DEBUG:urllib3.connectionpool:Starting new HTTPS connection (1): api.mexc.com:443',
          `send: b'POST /api/v3/order?recvWindow=5000 HTTP/1.1\\r\\nHost: api.mexc.com\\r\\nX-MEXC-APIKEY: ${KEY}\\r\\nContent-Length: ${body.length - 6}\\r\\n\\r\\n'`,
          `send: b'${body}'`,
          `DEBUG:urllib3.connectionpool:https://api.mexc.com:443 "POST /api/v3/order?recvWindow=5000 HTTP/1.1" 400 None`,
          "reply: 'HTTP/1.1 400 Bad Request\\r\\n'",
          '{"code":700002,"msg":"Signature for this request is not valid."}',
        ].join('\n'),
      );
      assert.deepEqual(
        [r.form, r.method, r.url, r.query, r.body, header(r, 'x-mexc-apikey'), r.code],
        [
          'python',
          'POST',
          'https://api.mexc.com/api/v3/order',
          'recvWindow=5000',
          `symbol=BTCUSDT&memo=café&signature=${SIG}`,
          KEY,
          700002,
        ],
      );
    });

    it('a Node log line: `POST url body={...}` (the JSON value only) and `data=form` labels; the answer code after', () => {
      const r = read(
        `[app] 10:00 POST https://api.example.com/api/v3/order body={"symbol":"BTCUSDT","note":"} x"} status=400\n[app] answer {"code":700002,"msg":"x"}`,
      );
      assert.deepEqual(
        [r.form, r.method, r.body, r.code],
        ['url', 'POST', '{"symbol":"BTCUSDT","note":"} x"}', 700002],
      );
      assert.equal(read(`POST https://h.example/a data=symbol=X&side=BUY`).body, 'symbol=X&side=BUY');
      assert.equal(read(`POST https://h.example/a data=x&side=BUY`).body, 'data=x&side=BUY', 'a parameter named data');
      const sameLine = read('POST https://h.example/a body={"a":1} -> {"code":700002,"msg":"x"}');
      assert.deepEqual([sameLine.body, sameLine.code], ['{"a":1}', 700002], 'the answer on the same line');
      const json = read('{"level":"debug","url":"https://h.example/a?x=%2c","body":"a=1&b=2","status":400}');
      assert.deepEqual([json.method, json.query, json.body], ['POST', 'x=%2c', 'a=1&b=2'], 'a JSON log line');
    });
  });

  describe('a URL and a body', () => {
    const text = `POST https://api.mexc.com/api/v3/order?a=1\nsymbol=BTCUSDT&signature=${SIG}\n\n{"code":700002,"msg":"x"}\n`;

    for (const [ending, t] of [
      ['LF', text],
      ['CRLF', crlf(text)],
    ] as const) {
      it(`the body on the next line, up to the blank line; the answer after it (${ending})`, () => {
        const r = read(t);
        assert.deepEqual(
          [r.form, r.method, r.url, r.query, r.body, r.code],
          ['url', 'POST', 'https://api.mexc.com/api/v3/order', 'a=1', `symbol=BTCUSDT&signature=${SIG}`, 700002],
        );
      });
    }

    it('the body on the same line; without a method POST with a body, GET without; headers as a .http file writes them', () => {
      assert.deepEqual(
        [read('https://h.example/a?x=1 a=1&b=2').method, read('https://h.example/a?x=1 a=1&b=2').body],
        ['POST', 'a=1&b=2'],
      );
      const bare = read('https://h.example/api/v3/time\n');
      assert.deepEqual(
        [bare.method, bare.url, bare.query, bare.body],
        ['GET', 'https://h.example/api/v3/time', '', ''],
      );
      const withHeaders = read(`PUT https://h.example/a\nX-MEXC-APIKEY: ${KEY}\n\n{"a":1}\n`);
      assert.deepEqual(
        [withHeaders.method, withHeaders.body, header(withHeaders, 'x-mexc-apikey')],
        ['PUT', '{"a":1}', KEY],
      );
    });

    it('two requests: refused', () => {
      refused('GET https://h.example/a\nPOST https://h.example/b a=1', /2 URLs with a method: paste the one request/);
    });
  });

  describe('hostile text', () => {
    it(`longer than ${BOUNDS.doctorInputChars} characters: refused at once, naming the bound`, () => {
      refused(
        'curl https://h.example/a '.padEnd(BOUNDS.doctorInputChars + 1, 'x'),
        /more than the 256 KiB the doctor reads/,
      );
    });

    it('nothing, or no request: refused, saying what to paste', () => {
      refused(' \n', /nothing to read: paste the request/);
      refused(`my key is ${KEY}`, /no request found.*cURL command, a raw HTTP request/);
    });

    it(`more than ${BOUNDS.headersPerRequest} headers: refused`, () => {
      const headers = Array.from({ length: BOUNDS.headersPerRequest + 1 }, (_, i) => `-H 'X-${i}: ${KEY}'`).join(' ');
      refused(`curl ${headers} https://h.example/a`, /101 headers, more than the 100/);
    });

    it(`a JSON body nested past ${BOUNDS.prettyJsonDepth} levels, in every form: refused in one line, without reading it as JSON (issue 31)`, () => {
      const deep = `{"symbol":"BTCUSDT","x":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
      const forms = [
        `POST /api/v3/order HTTP/1.1\nHost: api.mexc.com\nX-SERVICE-APIKEY: ${KEY}\nContent-Type: application/json\n\n${deep}\n`,
        `curl -X POST 'https://api.mexc.com/api/v3/order?signature=${SIG}' -H 'Content-Type: application/json' -d '${deep}'`,
        `POST https://api.mexc.com/api/v3/order?signature=${SIG}\n${deep}\n`,
        `POST https://api.mexc.com/api/v3/order?signature=${SIG} body=${deep}`,
      ];
      for (const text of forms)
        refused(
          text,
          /^the JSON body nests deeper than 256 levels, more than the doctor reads \(the service takes flat parameters\): paste the request your program sent$/,
        );
      // A string holding brackets is no nesting; 256 levels are read.
      const fine = `{"note":"${'['.repeat(1000)}","x":${'['.repeat(255)}${']'.repeat(255)}}`;
      assert.equal(read(`POST https://api.mexc.com/api/v3/order\n${fine}\n`).body, fine);
    });

    it('texts of the full size built to make a scanner backtrack are read (or refused) in well under a second of CPU', () => {
      const size = BOUNDS.doctorInputChars;
      const texts = [
        '"code" :'.repeat(size / 8),
        'http:/'.repeat(size / 6),
        ' HTTP/1.1"'.repeat(size / 10),
        `curl https://h.example/a -d '${'{['.repeat(size / 2 - 20)}'`,
        `POST https://h.example/a body=${'{"\\'.repeat(size / 3 - 20)}`,
        `POST /a HTTP/1.1\nHost: h\n\n${'a\n'.repeat(size / 2 - 20)}`,
        'a\n'.repeat(size / 2),
        'GET x https://h.example/a\n'.repeat(size / 26),
        `POST /a HTTP/1.1\n${'a: b\n'.repeat(size / 5 - 10)}`,
      ];
      for (const text of texts) {
        const { ms } = cpuTime(() => readSentRequest(text));
        assert.ok(ms < 500, `${text.slice(0, 20)}…: ${Math.round(ms)} ms of CPU time`);
      }
    });
  });
});

describe('doctor: a message about unreadable text never quotes a secret the doctor knows (issue 31, point 6)', () => {
  const SECRET = 'zzSecretValue0123456789abcdef';

  it('a URL that is not http(s) or a method that is not one, holding the secret, is quoted with it hidden', () => {
    for (const text of [
      // A secret of ten capitals is quoted as the method that is not one.
      `curl -X QWERTYUIOP 'https://api.example.com/api/v3/order'`,
      `curl 'ftp://api.example.com/api/v3/order?secretKey=${SECRET}'`,
      `curl -X ${SECRET} 'https://api.example.com/api/v3/order'`,
      `curl 'ftp://api.example.com/api/v3/order?secretKey=${encodeURIComponent(SECRET + '/+')}'`,
    ]) {
      const bare = readSentRequest(text);
      assert.ok(!bare.ok);
      const read = readSentRequest(text, [SECRET, SECRET + '/+', 'QWERTYUIOP']);
      assert.ok(!read.ok);
      assert.ok(!read.error.includes(SECRET.slice(0, 12)) && !read.error.includes('QWERTYUIOP'), read.error);
    }
  });
});

describe('doctor: the answer pasted after the request, its status and its Date (issue 34, point 6)', () => {
  const DATE = 'Tue, 02 Jan 2024 03:04:05 GMT';
  const Q = `symbol=BTCUSDT&timestamp=1704164645000&signature=${SIG}`;

  it("curl -v's < lines: the status line and the Date header", () => {
    const text = [
      `> POST /api/v3/order?${Q} HTTP/1.1`,
      '> Host: api.example.com',
      `> X-SERVICE-APIKEY: ${KEY}`,
      '>',
      '< HTTP/1.1 200 OK',
      '< Content-Type: application/json',
      `< Date: ${DATE}`,
      '<',
      '{"symbol":"BTCUSDT","orderId":"1"}',
    ].join('\n');
    assert.deepEqual(read(text).answer, { status: 200, date: DATE });
  });

  it("an HTTP message: the response part's Date, CRLF too; a Date in the request's own headers is not the answer's", () => {
    const text = [
      `POST /api/v3/order?${Q} HTTP/1.1`,
      'Host: api.example.com',
      'Date: Mon, 01 Jan 2024 00:00:00 GMT',
      `X-SERVICE-APIKEY: ${KEY}`,
      '',
      'HTTP/1.1 400 Bad Request',
      `date: ${DATE}`,
      '',
      '{"code":700002,"msg":"Signature for this request is not valid."}',
    ].join('\n');
    for (const t of [text, crlf(text)]) {
      const r = read(t);
      assert.deepEqual([r.answer, r.code], [{ status: 400, date: DATE }, 700002]);
    }
  });

  it("Python http.client's reply: and header: lines", () => {
    const text = `send: b'POST /api/v3/order?${Q} HTTP/1.1\\r\\nHost: api.example.com\\r\\n\\r\\n'\nreply: 'HTTP/1.1 400 Bad Request\\r\\n'\nheader: Date: ${DATE}\n`;
    const r = read(text);
    assert.equal(r.form, 'python');
    assert.deepEqual(r.answer, { status: 400, date: DATE });
  });

  it('no answer, an answer without a Date, and a Date line that is not a header: only what is there', () => {
    assert.equal(read(`curl -X POST 'https://api.example.com/api/v3/order?${Q}'`).answer, undefined);
    const noDate = read(`curl -X POST 'https://api.example.com/api/v3/order?${Q}'\nHTTP/1.1 503 Service Unavailable\n`);
    assert.deepEqual(noDate.answer, { status: 503 });
    const prose = read(`curl -X POST 'https://api.example.com/api/v3/order?${Q}'\nDate: ${DATE}\n`);
    assert.equal(prose.answer, undefined, 'a Date line with no status line before it belongs to no answer');
  });
});
