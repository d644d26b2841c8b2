/**
 * The signature doctor, one case per cause. Each request is built by a small, deliberately broken
 * signer written here with node:crypto (not the project's signer), in the ways programs get it wrong,
 * sent to the in-process sandbox to see the service refuse it, then diagnosed against the demo key
 * with the server's clock measured from the sandbox.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { request } from 'undici';

import { BOUNDS } from '../../../src/core/bounds';
import { CAUSES, fixFor } from '../../../src/core/doctor/fixes';
import { diagnose } from '../../../src/core/doctor/diagnose';
import { reportJson, reportText } from '../../../src/core/doctor/report';
import type { CauseId, DoctorInput, SentRequest, ServerClock } from '../../../src/core/doctor/types';
import { DEMO_ACCOUNTS } from '../../../src/core/env/demo';
import { startSandbox, type Sandbox } from '../../../src/sandbox';

const TRADE = DEMO_ACCOUNTS.find((a) => a.name === 'trade')!;
const READONLY = DEMO_ACCOUNTS.find((a) => a.name === 'readonly')!;
const KEY = { profile: 'sandbox', apiKey: TRADE.apiKey, secretKey: TRADE.secretKey };
const OTHER = { profile: 'readonly', apiKey: READONLY.apiKey, secretKey: READONLY.secretKey };

const hmac = (secret: string, text: string): string => createHmac('sha256', secret).update(text, 'utf8').digest('hex');

const ORDER = 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=29000';
const BATCH_LIST = '[{"symbol":"BTCUSDT","side":"BUY","type":"LIMIT","quantity":"0.01","price":"29000"}]';
/** The strict encoding of §5 rule 6, upper-case hex. */
const strict = (s: string): string =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());

interface Built {
  readonly path: string;
  readonly query: string;
  readonly body?: string;
  readonly json?: boolean;
  readonly apiKey?: string | null;
}

function sentOf(sb: Sandbox, b: Built): SentRequest {
  const headers = [{ name: 'Content-Type', value: b.json ? 'application/json' : 'application/x-www-form-urlencoded' }];
  if (b.apiKey !== null) headers.push({ name: 'X-SERVICE-APIKEY', value: b.apiKey ?? TRADE.apiKey });
  return { method: 'POST', url: sb.baseUrl + b.path, query: b.query, body: b.body ?? '', headers, form: 'curl' };
}

async function send(sb: Sandbox, sent: SentRequest): Promise<{ status: number; date?: string; code?: number }> {
  const res = await request(sent.url + (sent.query ? '?' + sent.query : ''), {
    method: 'POST',
    body: sent.body.length > 0 ? sent.body : undefined,
    headers: Object.fromEntries(sent.headers.map((h) => [h.name, h.value])),
  });
  const json = (await res.body.json()) as { code?: number };
  const date = res.headers['date'];
  return {
    status: res.statusCode,
    ...(typeof date === 'string' ? { date } : {}),
    ...(json.code !== undefined ? { code: json.code } : {}),
  };
}

async function measure(sb: Sandbox): Promise<ServerClock> {
  const t0 = Date.now();
  const res = await request(sb.baseUrl + '/api/v3/time');
  const { serverTime } = (await res.body.json()) as { serverTime: number };
  return { offsetMs: Math.round(serverTime - (t0 + Date.now()) / 2) };
}

/** The broken signers, each as programs write it. `ts` is the timestamp the program would send. */
const SIGNERS: Record<string, (ts: number) => Built> = {
  // Correct: everything in the query string, signed as sent.
  none: (ts) => {
    const q = `${ORDER}&timestamp=${ts}`;
    return { path: '/api/v3/order', query: `${q}&signature=${hmac(TRADE.secretKey, q)}` };
  },
  // Node: `${query}&${body}` signed, the two sent apart.
  'ampersand-join': (ts) => {
    const q = 'symbol=BTCUSDT&side=BUY';
    const b = `type=LIMIT&quantity=0.01&price=29000&timestamp=${ts}`;
    return { path: '/api/v3/order', query: `${q}&signature=${hmac(TRADE.secretKey, q + '&' + b)}`, body: b };
  },
  // Python requests: compact JSON signed, then requests.post(json=params) writes {"a": 1} with spaces.
  'body-reserialised': (ts) => {
    const params = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '29000', timestamp: ts };
    const signed = JSON.stringify(params);
    const sent =
      '{' +
      Object.entries(params)
        .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
        .join(', ') +
      '}';
    return { path: '/api/v3/order', query: `signature=${hmac(TRADE.secretKey, signed)}`, body: sent, json: true };
  },
  // Python: urlencode(sorted(params.items())) signed, params sent in the order written.
  'order-differs': (ts) => {
    const q = `${ORDER}&timestamp=${ts}`;
    const sorted = q.split('&').sort().join('&');
    return { path: '/api/v3/order', query: `${q}&signature=${hmac(TRADE.secretKey, sorted)}` };
  },
  // Escapes written in lower case (a hand-rolled encoder): what is signed is what is sent, but §5 rule 6 wants upper case.
  'encoding-lowercase': (ts) => {
    const q = `batchOrders=${strict(BATCH_LIST).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())}&timestamp=${ts}`;
    return { path: '/api/v3/batchOrders', query: `${q}&signature=${hmac(TRADE.secretKey, q)}` };
  },
  // The list signed as written, sent percent-encoded by the HTTP library.
  'encoding-missing': (ts) => {
    const signed = `batchOrders=${BATCH_LIST}&timestamp=${ts}`;
    const q = `batchOrders=${strict(BATCH_LIST)}&timestamp=${ts}`;
    return { path: '/api/v3/batchOrders', query: `${q}&signature=${hmac(TRADE.secretKey, signed)}` };
  },
  // Python: int(time.time()).
  'timestamp-seconds': (ts) => {
    const q = `${ORDER}&timestamp=${Math.floor(ts / 1000)}`;
    return { path: '/api/v3/order', query: `${q}&signature=${hmac(TRADE.secretKey, q)}` };
  },
  // Java/C#: the hex upper-cased.
  'signature-uppercase': (ts) => {
    const q = `${ORDER}&timestamp=${ts}`;
    return { path: '/api/v3/order', query: `${q}&signature=${hmac(TRADE.secretKey, q).toUpperCase()}` };
  },
  // A placeholder "signature=" left in the string that was signed.
  'signature-included': (ts) => {
    const q = `${ORDER}&timestamp=${ts}`;
    return { path: '/api/v3/order', query: `${q}&signature=${hmac(TRADE.secretKey, q + '&signature=')}` };
  },
  // The secret read from a file with its newline.
  'secret-whitespace': (ts) => {
    const q = `${ORDER}&timestamp=${ts}`;
    return { path: '/api/v3/order', query: `${q}&signature=${hmac(TRADE.secretKey + '\n', q)}` };
  },
  // The secret of another key profile, with this key's API key.
  'wrong-secret': (ts) => {
    const q = `${ORDER}&timestamp=${ts}`;
    return { path: '/api/v3/order', query: `${q}&signature=${hmac(READONLY.secretKey, q)}` };
  },
  // Node: JSON.stringify(params) signed, the params sent as a form body.
  'json-vs-form': (ts) => {
    const b = `${ORDER}&timestamp=${ts}`;
    const json = JSON.stringify(Object.fromEntries(new URLSearchParams(b)));
    return { path: '/api/v3/order', query: `signature=${hmac(TRADE.secretKey, json)}`, body: b };
  },
  // A clock 5 s fast.
  'clock-window': (ts) => {
    const q = `${ORDER}&timestamp=${ts + 5000}`;
    return { path: '/api/v3/order', query: `${q}&signature=${hmac(TRADE.secretKey, q)}` };
  },
  // Shell: echo "$query" | openssl dgst ... signs the newline echo adds.
  'message-newline': (ts) => {
    const q = `${ORDER}&timestamp=${ts}`;
    return { path: '/api/v3/order', query: `${q}&signature=${hmac(TRADE.secretKey, q + '\n')}` };
  },
  'recv-window': (ts) => {
    const q = `${ORDER}&recvWindow=70000&timestamp=${ts}`;
    return { path: '/api/v3/order', query: `${q}&signature=${hmac(TRADE.secretKey, q)}` };
  },
  'api-key-header': (ts) => ({ ...SIGNERS['none']!(ts), apiKey: null }),
  // The secret key sent in the API key's header (two values mixed up where the keys are read).
  'secret-sent': (ts) => ({ ...SIGNERS['none']!(ts), apiKey: TRADE.secretKey }),
  'signature-missing': (ts) => ({ path: '/api/v3/order', query: `${ORDER}&timestamp=${ts}` }),
  unknown: (ts) => ({ path: '/api/v3/order', query: `${ORDER}&timestamp=${ts}&signature=${'ab'.repeat(32)}` }),
};

describe('doctor/diagnose: a broken signer per cause, refused by the sandbox, diagnosed', function () {
  let sb: Sandbox;
  let clock: ServerClock;
  before(async () => {
    sb = await startSandbox({ port: 0, limits: false });
    clock = await measure(sb);
  });
  after(() => sb.close());

  function input(sent: SentRequest, extra: Partial<DoctorInput> = {}): DoctorInput {
    return { sent, key: KEY, otherKeys: [OTHER], clock, now: Date.now(), ...extra };
  }

  for (const [cause, signer] of Object.entries(SIGNERS)) {
    it(`${cause}: ${cause === 'none' ? 'a correct request' : 'the broken request'} is diagnosed with that cause and its fix`, async () => {
      const sent = sentOf(sb, signer(Date.now()));
      const answer = await send(sb, sent);
      if (cause === 'none') assert.equal(answer.status, 200, JSON.stringify(answer));
      else assert.notEqual(answer.status, 200, `the sandbox refuses the ${cause} request`);
      // Judged at the time of the answer (its status and Date header), whenever the diagnosis runs.
      const seen = { answer: { status: answer.status, date: answer.date } };
      const d = diagnose(input(sent, answer.code !== undefined ? { ...seen, code: answer.code } : seen));
      assert.equal(d.cause, cause as CauseId, reportText(d));
      // A cURL command: the timestamp's fix speaks of the script (issue 34, point 7), the rest as CAUSES says.
      assert.equal(d.fix, fixFor(cause as CauseId, 'shell'));
      if (CAUSES[cause as CauseId].snippets)
        assert.deepEqual(Object.keys(d.snippets).sort(), ['go', 'node', 'python', 'python-requests', 'shell']);
      const text = reportText(d) + reportJson(d);
      assert.ok(!text.includes(TRADE.secretKey) && !text.includes(READONLY.secretKey), 'no secret in the report');
    });
  }

  it('marks what the program signed against what the service signs, at the first difference', () => {
    const sent = sentOf(sb, SIGNERS['ampersand-join']!(Date.now()));
    const d = diagnose(input(sent));
    const c = d.comparison;
    assert.ok(c.signed !== undefined && c.difference !== undefined);
    assert.equal(c.signed.slice(c.difference.start, c.difference.signedEnd), '&');
    assert.equal(c.difference.expectedEnd, c.difference.start);
    assert.match(reportText(d), /signed: {3}symbol=BTCUSDT&side=BUY&type=LIMIT/);
    const caret = reportText(d)
      .split('\n')
      .find((l) => /^ +\^+$/.test(l))!;
    assert.equal(
      caret.indexOf('^'),
      '  expected: '.length + c.difference.start,
      'the caret stands under the first difference',
    );
  });

  it('a correct signature with the service code 700002 says the rejection is not about how it was signed', () => {
    const d = diagnose(input(sentOf(sb, SIGNERS['none']!(Date.now())), { code: 700002, sentByTradeReq: true }));
    assert.equal(d.cause, 'none');
    assert.match(d.summary, /the rejection is not about signing/);
    assert.match(d.codeNote ?? '', /TradeReq signed this request correctly/);
  });

  it('a correct request refused for another reason gives the likely cause from the code the user got', () => {
    const d = diagnose(input(sentOf(sb, SIGNERS['none']!(Date.now())), { code: 700007 }));
    assert.equal(d.cause, 'none');
    assert.match(
      d.codeNote ?? '',
      /^The service answered 700007 \(No permission to access the endpoint\)\. Likely cause: The key lacks the permission/,
    );
  });

  it('names two mistakes made together: the order and the secret read with its newline', async () => {
    const ts = Date.now();
    const q = `${ORDER}&timestamp=${ts}`;
    const sorted = q.split('&').sort().join('&');
    const sent = sentOf(sb, { path: '/api/v3/order', query: `${q}&signature=${hmac(TRADE.secretKey + '\n', sorted)}` });
    assert.equal((await send(sb, sent)).code, 700002);
    assert.deepEqual(diagnose(input(sent)).causes.slice(0, 2), ['order-differs', 'secret-whitespace']);
  });

  it('the API key of another profile is named by profile, never shown whole', () => {
    const sent = sentOf(sb, { ...SIGNERS['none']!(Date.now()), apiKey: READONLY.apiKey });
    const d = diagnose(input(sent));
    const check = d.checks.find((c) => c.id === 'api-key-header')!;
    assert.equal(check.ok, false);
    assert.match(check.text, /key profile "readonly"'s API key \*{4}0002/);
    assert.ok(!reportText(d).includes(READONLY.apiKey));
  });

  it('a listen key in what was signed is hidden in the report', () => {
    const listenKey = 'Lk' + '7'.repeat(58);
    const q = `listenKey=${listenKey}&timestamp=${Date.now()}`;
    const sent = {
      ...sentOf(sb, { path: '/api/v3/userDataStream', query: `${q}&signature=${hmac(TRADE.secretKey, q + '\n')}` }),
      method: 'PUT',
    };
    const d = diagnose(input(sent));
    assert.equal(d.cause, 'message-newline');
    assert.ok(!(reportText(d) + reportJson(d)).includes(listenKey), 'the listen key is not shown');
    assert.match(reportText(d), /listenKey=<hidden>/);
  });

  it("a JSON body nested 10,000 deep that reached it without the reader (the panel's Why?) is diagnosed: its members are not read as JSON, nothing thrown", () => {
    const body = `{"symbol":"BTCUSDT","x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const sent = sentOf(sb, { path: '/api/v3/order', query: `signature=${'cd'.repeat(32)}`, body, json: true });
    const d = diagnose(input(sent));
    assert.equal(d.cause, 'unknown');
    assert.doesNotThrow(() => reportText(d) + reportJson(d));
  });

  describe('a request that carried the secret key itself (issue 31, point 6)', () => {
    /** A key profile of its own, so that no part of its secret is also part of another key. */
    const LIVE = {
      profile: 'live',
      apiKey: 'LiveApiKeyForTheDoctor000000AK01',
      secretKey: 'qZ7vLiveSecretThatMustNeverBePrinted9x3WmB4cR8tY2uN6pK1dF5gH0jE',
    };
    const order = (ts: number, extra = ''): string => `${ORDER}${extra}&timestamp=${ts}`;

    /** The report as text and JSON holds no stretch of 8 characters of `secret`, nor its last four as a masked key shows them. */
    function assertNotShown(d: ReturnType<typeof diagnose>, secret: string): void {
      const out = reportText(d) + reportJson(d);
      for (let i = 0; i + 8 <= secret.length; i++)
        assert.ok(!out.includes(secret.slice(i, i + 8)), `"${secret.slice(i, i + 8)}" is printed:\n${reportText(d)}`);
      assert.ok(!out.includes(`****${secret.slice(-4)}`), 'its last four characters are printed');
    }

    function sentWith(query: string, headers: [string, string][], body = '', json = false): SentRequest {
      const signature = hmac(LIVE.secretKey, query + body);
      return {
        method: 'POST',
        url: 'https://api.example.com/api/v3/order',
        query: `${query}&signature=${signature}`,
        body,
        headers: [
          { name: 'Content-Type', value: json ? 'application/json' : 'application/x-www-form-urlencoded' },
          ...headers.map(([name, value]) => ({ name, value })),
        ],
        form: 'curl',
      };
    }

    const diagnosed = (sent: SentRequest, otherKeys = [OTHER]): ReturnType<typeof diagnose> =>
      diagnose({ sent, key: LIVE, otherKeys, now: Date.now() });

    it('sent as the API key: the report says which header carried it, leads with it, and never prints it, whole or in part', () => {
      const d = diagnosed(sentWith(order(Date.now()), [['X-SERVICE-APIKEY', LIVE.secretKey]]));
      assert.equal(d.cause, 'secret-sent');
      assert.ok(d.causes.includes('api-key-header'));
      assert.match(
        d.summary,
        /^Your program sent its secret key as the API key \(the X-SERVICE-APIKEY header\)\. Replace that key pair/,
      );
      const check = d.checks.find((c) => c.id === 'secret-sent')!;
      assert.deepEqual(
        [check.ok, check.text.startsWith('Your program sent its secret key as the API key')],
        [false, true],
      );
      assert.match(
        d.checks.find((c) => c.id === 'api-key-header')!.text,
        /carries the secret key of the key profile "live", not its API key \*{4}AK01/,
      );
      assertNotShown(d, LIVE.secretKey);
    });

    it('sent as a parameter, as recvWindow, in a JSON member or in the path: each place named in words, masked in what was signed and in every check', () => {
      const ts = Date.now();
      // The request, the words that name where, and whether totalParams holds the secret (then shown as <secret key>).
      const cases: [SentRequest, RegExp, boolean][] = [
        [
          sentWith(order(ts, `&secretKey=${LIVE.secretKey}`), [['X-SERVICE-APIKEY', LIVE.apiKey]]),
          /^Your program sent its secret key as the value of the parameter "secretKey" in the query string\./,
          true,
        ],
        [
          sentWith(order(ts, `&recvWindow=${LIVE.secretKey}`), [['X-SERVICE-APIKEY', LIVE.apiKey]]),
          /^Your program sent its secret key as the value of the parameter "recvWindow" in the query string\./,
          true,
        ],
        [
          sentWith(
            `timestamp=${ts}`,
            [['X-SERVICE-APIKEY', LIVE.apiKey]],
            `{"symbol":"BTCUSDT","auth":{"secret":"${LIVE.secretKey}"}}`,
            true,
          ),
          /^Your program sent its secret key in the JSON member "auth" of the body\./,
          true,
        ],
        [
          {
            ...sentWith(order(ts), [['X-SERVICE-APIKEY', LIVE.apiKey]]),
            url: `https://api.example.com/api/v3/order/${LIVE.secretKey}`,
          },
          /^Your program sent its secret key in the URL's path\./,
          false,
        ],
      ];
      for (const [sent, words, signed] of cases) {
        const d = diagnosed(sent);
        assert.equal(d.cause, 'secret-sent', reportText(d));
        assert.match(d.summary, words);
        assert.equal(d.comparison.expected.includes('<secret key>'), signed, d.comparison.expected);
        assertNotShown(d, LIVE.secretKey);
      }
    });

    it("another profile's secret sent is named by its profile; a request without any secret says so in a passing check", () => {
      const d = diagnosed(sentWith(order(Date.now(), `&s=${OTHER.secretKey}`), [['X-SERVICE-APIKEY', LIVE.apiKey]]));
      assert.match(
        d.summary,
        /^Your program sent the secret key of the key profile "readonly" as the value of the parameter "s" in the query string\./,
      );
      assert.ok(!(reportText(d) + reportJson(d)).includes(OTHER.secretKey));
      const clean = diagnosed(sentWith(order(Date.now()), [['X-SERVICE-APIKEY', LIVE.apiKey]]));
      assert.deepEqual(
        clean.checks.find((c) => c.id === 'secret-sent'),
        {
          id: 'secret-sent',
          ok: true,
          text: 'No secret key was sent: only the signature made with it.',
        },
      );
      assert.ok(!clean.causes.includes('secret-sent'));
    });
  });

  it('a request at the size bound is diagnosed in bounded time (variants, no search over secrets)', () => {
    // The reader's bounds: 256 KiB of text, 1,000 parameters (bounds.ts).
    const body = Array.from({ length: BOUNDS.paramsPerRequest - 1 }, (_, i) => `p${i}=${'v'.repeat(240)}`).join('&');
    const sent = sentOf(sb, { path: '/api/v3/order', query: `signature=${'cd'.repeat(32)}`, body });
    assert.ok(body.length > 200_000 && body.length < BOUNDS.doctorInputChars);
    const start = process.cpuUsage();
    const d = diagnose(
      input(sent, {
        otherKeys: Array.from({ length: 100 }, (_, i) => ({ ...OTHER, profile: `p${i}`, secretKey: `s${i}` })),
      }),
    );
    const cpuMs = (process.cpuUsage(start).user + process.cpuUsage(start).system) / 1000;
    assert.equal(d.cause, 'unknown');
    assert.ok(cpuMs < 5_000, `${cpuMs} ms of CPU`);
  });
});
