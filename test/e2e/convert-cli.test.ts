/**
 * `tradereq import` as a user runs it (`node dist/cli.js`), and the round trips: import, then
 * `tradereq sign --timestamp T` gives the totalParams the source would have signed (computed
 * here from the cURL line, the collection or the .http file, with the timestamp replaced by T),
 * and `tradereq check` finds no error in what was written.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  FIXTURES,
  assertUsageError,
  describeRun,
  fixture,
  hmac,
  tempDir,
  tradereq,
  type Run,
} from '../fixtures/convert/harness';
import { ensureBuilt } from '../support/build';

const T = 1_700_000_123_456;
const API_KEY = 'convertRoundTripKey0000000000001';
const SECRET = 'convertRoundTripSecret000000000000000000000000000000000000000001';
const KEYS = { TRADEREQ_API_KEY: API_KEY, TRADEREQ_SECRET_KEY: SECRET };

/** What `sign --json` printed. */
function signed(r: Run): { totalParams: string; signature: string; query: string; body: string } {
  assert.equal(r.status, 0, describeRun(r));
  return JSON.parse(r.stdout) as { totalParams: string; signature: string; query: string; body: string };
}

/**
 * The totalParams a cURL line of the documentation's shape signs: its query string, then its
 * data (joined by & as cURL joins them), without signature, with the timestamp T. With -G the
 * data is part of the query string.
 */
function curlTotalParams(line: string): string {
  const url = /(['"])(https?:\/\/.*?)\1/.exec(line)![2]!;
  const data = [...line.matchAll(/(?:-d|--data|--data-raw|--data-urlencode)\s+(['"])(.*?)\1/g)].map((m) => m[2]!);
  const fix = (s: string): string =>
    s
      .split('&')
      .filter((p) => p.length > 0 && !p.startsWith('signature='))
      .map((p) => (p.startsWith('timestamp=') ? `timestamp=${T}` : p))
      .join('&');
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const body = data.join('&');
  return /(^|\s)-G\s/.test(line) ? fix([query, body].filter((s) => s).join('&')) : fix(query) + fix(body);
}

interface KeyValue {
  key: string;
  value?: string;
  disabled?: boolean;
}

/**
 * What the fixture collection's own pre-request script signs: enabled, non-empty parameters
 * (signature and timestamp aside) with variables replaced, query string then form body, and
 * timestamp at the end of the form body when there is one, else of the query string.
 */
function postmanTotalParams(
  item: { request: { url: { query?: KeyValue[] }; body?: { urlencoded?: KeyValue[] } } },
  vars: Record<string, string>,
): string {
  const signable = (list: KeyValue[] = []): KeyValue[] =>
    list.filter((p) => !p.disabled && p.key !== 'signature' && p.key !== 'timestamp' && (p.value ?? '').trim() !== '');
  const text = (list: KeyValue[]): string =>
    list
      .map(
        (p) => `${p.key}=${encodeURIComponent((p.value ?? '').replace(/\{\{(\w+)\}\}/g, (_m, n: string) => vars[n]!))}`,
      )
      .join('&');
  const query = signable(item.request.url.query);
  const form = signable(item.request.body?.urlencoded);
  let q = text(query);
  let b = text(form);
  if (form.length > 0) b += `&timestamp=${T}`;
  else q += (q ? '&' : '') + `timestamp=${T}`;
  return q + b;
}

function findItem(items: unknown[], name: string): unknown {
  for (const i of items as { name: string; item?: unknown[] }[]) {
    if (i.name === name) return i;
    const inner = i.item ? findItem(i.item, name) : undefined;
    if (inner) return inner;
  }
  return undefined;
}

describe('tradereq import (command line)', function () {
  this.timeout(60_000);
  before(ensureBuilt);

  describe('curl: round trip through tradereq sign', () => {
    for (const name of ['mexc-query.sh', 'binance-body.sh', 'split.sh', 'get-query.sh']) {
      it(`${name}: the imported request signs the same totalParams as the cURL line, with timestamp ${T}`, () => {
        const dir = tempDir();
        const line = fixture('curl', name);
        const imported = tradereq(['import', 'curl'], { input: line });
        assert.equal(imported.status, 0, describeRun(imported));
        assert.match(imported.stderr, /^Imported 1 request from the cURL command\./);
        fs.writeFileSync(path.join(dir, 'request.tradereq'), imported.stdout);
        const out = signed(
          tradereq(['sign', 'request.tradereq', '--timestamp', String(T), '--json'], { cwd: dir, env: KEYS }),
        );
        assert.equal(out.totalParams, curlTotalParams(line));
        assert.equal(out.signature, hmac(SECRET, out.totalParams));
        const check = tradereq(['check', 'request.tradereq'], { cwd: dir });
        assert.equal(check.status, 0, describeRun(check));
      });
    }

    it('the command given after -- as words (the shell already split them), with --base-url: a path, same totalParams', () => {
      const dir = tempDir();
      const words = [
        'curl',
        '-H',
        'X-MBX-APIKEY: someKey',
        '-X',
        'POST',
        'https://api.binance.com/api/v3/order',
        '-d',
        'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1&signature=abc',
      ];
      const imported = tradereq(['import', 'curl', '--base-url', 'https://api.binance.com', '--', ...words]);
      assert.equal(imported.status, 0, describeRun(imported));
      assert.match(imported.stdout, /^POST \/api\/v3\/order$/m);
      fs.writeFileSync(path.join(dir, 'r.tradereq'), imported.stdout);
      const out = signed(
        tradereq(['sign', 'r.tradereq', '--base-url', 'https://api.binance.com', '--timestamp', String(T), '--json'], {
          cwd: dir,
          env: KEYS,
        }),
      );
      assert.equal(
        out.totalParams,
        `symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=${T}`,
      );
    });

    it('prints what was not carried over on standard error, the request alone on standard output', () => {
      const r = tradereq(['import', 'curl'], { input: fixture('curl', 'binance-body.sh') });
      assert.equal(r.status, 0, describeRun(r));
      assert.match(r.stdout, /^# Imported from a cURL command/);
      assert.match(
        r.stderr,
        /Not carried over as it was \(1\):\n {2}- the cURL command: the signature went in the body/,
      );
      assert.doesNotMatch(r.stdout + r.stderr, /fixtureApiKeyNotARealOne/, 'the API key value is printed nowhere');
    });
  });

  describe('postman: round trip through tradereq sign and check', () => {
    const collectionPath = path.join(FIXTURES, 'postman', 'exchange.postman_collection.json');
    const envPath = path.join(FIXTURES, 'postman', 'exchange.postman_environment.json');
    const collection = JSON.parse(fixture('postman', 'exchange.postman_collection.json')) as { item: unknown[] };
    const vars = { symbol: 'BTCUSDT', recvWindow: '5000', qty: '0.001' };
    let dir = '';

    before(() => {
      dir = tempDir();
      const r = tradereq(['import', 'postman', collectionPath, '--environment', envPath, '--out', 'out'], { cwd: dir });
      assert.equal(r.status, 0, describeRun(r));
      assert.match(
        r.stderr,
        /^Imported 8 requests into out: market-data\.tradereq, trade-orders\.tradereq, trade\.tradereq, account\.tradereq, example-exchange-spot-api\.tradereq, tradereq\.env\.json\n/,
      );
    });

    it('writes the files and a tradereq.env.json without any secret', () => {
      const env = fs.readFileSync(path.join(dir, 'out', 'tradereq.env.json'), 'utf8');
      assert.deepEqual(JSON.parse(env), {
        'example-exchange-production': {
          baseUrl: 'https://api.example-exchange.com',
          key: 'example-exchange-production',
          variables: { qty: '0.001' },
        },
      });
      const all = fs
        .readdirSync(path.join(dir, 'out'))
        .map((f) => fs.readFileSync(path.join(dir, 'out', f), 'utf8'))
        .join('\n');
      assert.doesNotMatch(all, /fixtureApiKeyValue|fixtureSecretValue/);
    });

    it('tradereq check finds no error in any generated file', () => {
      const files = fs
        .readdirSync(path.join(dir, 'out'))
        .filter((f) => f.endsWith('.tradereq'))
        .map((f) => path.join('out', f));
      const r = tradereq(['check', ...files], { cwd: dir });
      assert.equal(r.status, 0, describeRun(r));
      assert.doesNotMatch(r.stdout, /: error: /);
    });

    const signedRequests: [string, string, string][] = [
      ['trade-orders.tradereq', 'new-order-trade', 'New Order (TRADE)'],
      ['trade-orders.tradereq', 'test-new-order-trade', 'Test New Order (TRADE)'],
      ['trade-orders.tradereq', 'cancel-order-trade', 'Cancel Order (TRADE)'],
      ['trade.tradereq', 'query-order-user-data', 'Query Order (USER_DATA)'],
      ['account.tradereq', 'account-information-user-data', 'Account Information (USER_DATA)'],
    ];
    for (const [file, name, title] of signedRequests) {
      it(`"${title}": tradereq sign gives the totalParams the collection's signing script computes`, () => {
        const item = findItem(collection.item, title) as Parameters<typeof postmanTotalParams>[0];
        const out = signed(
          tradereq(['sign', path.join('out', file), '--request', name, '--timestamp', String(T), '--json'], {
            cwd: dir,
            env: KEYS,
          }),
        );
        assert.equal(out.totalParams, postmanTotalParams(item, vars));
        assert.equal(out.signature, hmac(SECRET, out.totalParams));
      });
    }

    it('does not write over existing files without --force; with it, it does', () => {
      const again = tradereq(['import', 'postman', collectionPath, '--out', 'out'], { cwd: dir });
      assertUsageError(
        again,
        /out\/market-data\.tradereq exists: choose another output or add --force to overwrite \(and \d+ more\)/,
      );
      const forced = tradereq(['import', 'postman', collectionPath, '--out', 'out', '--force'], { cwd: dir });
      assert.equal(forced.status, 0, describeRun(forced));
    });
  });

  describe('http: round trip through tradereq sign and check', () => {
    it('REST Client: the form body signs as the source would, with the timestamp TradeReq adds at its end', () => {
      const dir = tempDir();
      const source = path.join(FIXTURES, 'http', 'rest-client.http');
      const r = tradereq(['import', 'http', source, '--out', 'orders.tradereq'], { cwd: dir });
      assert.equal(r.status, 0, describeRun(r));
      assert.match(
        r.stderr,
        /^Imported 3 requests into orders\.tradereq\.\nNot carried over as it was \(2\):\n {2}- rest-client\.http:20: /,
      );
      const body = /\n\n(symbol=[^]*?)\n\n###/
        .exec(fixture('http', 'rest-client.http'))![1]!
        .replace(/\n/g, '')
        .replace('{{symbol}}', 'BTCUSDT');
      const out = signed(
        tradereq(['sign', 'orders.tradereq', '--request', 'placeOrder', '--timestamp', String(T), '--json'], {
          cwd: dir,
          env: KEYS,
        }),
      );
      assert.equal(out.totalParams, `${body}&timestamp=${T}`);
      const check = tradereq(['check', 'orders.tradereq'], { cwd: dir });
      assert.equal(check.status, 0, describeRun(check));
    });

    it('one request is "1 request"; a @host holding the base URL it writes paths under stays in the file, and the summary says so', () => {
      const dir = tempDir();
      const source = '@host = http://127.0.0.1:8780\n\n### Ping\nGET {{host}}/api/v3/ping\n';
      fs.writeFileSync(path.join(dir, 'one.http'), source);
      for (const args of [['one.http'], ['one.http', '--out', 'one.tradereq']]) {
        const r = tradereq(['import', 'http', ...args], { cwd: dir });
        assert.equal(r.status, 0, describeRun(r));
        const headline =
          args.length === 1 ? 'Imported 1 request from one.http.' : 'Imported 1 request into one.tradereq.';
        assert.equal(r.stderr.split('\n')[0], headline);
        assert.ok(
          r.stderr.includes(
            '@host = http://127.0.0.1:8780 stays in the file; the requests that began with {{host}} are written as paths under the base URL of the environment "sandbox", which chooses where they go.',
          ),
          r.stderr,
        );
      }
      const written = fs.readFileSync(path.join(dir, 'one.tradereq'), 'utf8');
      assert.match(written, /^@host = http:\/\/127\.0\.0\.1:8780$/m);
      assert.match(written, /^GET \/api\/v3\/ping$/m);
    });

    it('without --out, prints the file on standard output', () => {
      const r = tradereq(['import', 'http', path.join(FIXTURES, 'http', 'jetbrains.http')]);
      assert.equal(r.status, 0, describeRun(r));
      assert.match(r.stdout, /^# Imported from a \.http file/);
      assert.match(r.stderr, /jetbrains\.http:5: the response handler script/);
    });
  });

  describe('bad input: one line, exit 2', () => {
    const write = (name: string, text: string): string => {
      const dir = tempDir();
      fs.writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    it('a collection that is not JSON', () => {
      const file = write('c.json', 'not json at all');
      assertUsageError(
        tradereq(['import', 'postman', file, '--out', tempDir()]),
        /c\.json: the collection is not JSON/,
      );
    });
    it('a Postman collection v2.0', () => {
      const file = write(
        'c.json',
        JSON.stringify({
          info: { schema: 'https://schema.getpostman.com/json/collection/v2.0.0/collection.json' },
          item: [],
        }),
      );
      assertUsageError(
        tradereq(['import', 'postman', file, '--out', tempDir()]),
        /Postman collection v2\b.*export it again from Postman as "Collection v2\.1"/,
      );
    });
    it('a Postman collection v1', () => {
      const file = write('c.json', JSON.stringify({ id: '1', name: 'old', order: [], requests: [] }));
      assertUsageError(tradereq(['import', 'postman', file, '--out', tempDir()]), /collection v1/);
    });
    it('an environment that is not JSON', () => {
      const env = write('e.json', '{');
      assertUsageError(
        tradereq([
          'import',
          'postman',
          path.join(FIXTURES, 'postman', 'exchange.postman_collection.json'),
          '--environment',
          env,
          '--out',
          tempDir(),
        ]),
        /the environment is not JSON/,
      );
    });
    it('postman without --out', () => {
      assertUsageError(
        tradereq(['import', 'postman', path.join(FIXTURES, 'postman', 'exchange.postman_collection.json')]),
        /needs --out DIR/,
      );
    });
    it('a cURL command that does not parse', () => {
      assertUsageError(
        tradereq(['import', 'curl'], { input: "curl -X POST 'https://api.mexc.com/api/v3/order" }),
        /^tradereq: the cURL command has an unclosed ' quote$/,
      );
    });
    it('something that is not a cURL command', () => {
      assertUsageError(tradereq(['import', 'curl'], { input: 'http POST https://x' }), /not a cURL command/);
    });
    it('a cURL command over the size limit on standard input', () => {
      assertUsageError(
        tradereq(['import', 'curl'], { input: 'curl ' + 'x'.repeat(4 * 1024 * 1024 + 10) }),
        /too long to import/,
      );
    });
    it('a missing file', () => {
      assertUsageError(tradereq(['import', 'http', 'nowhere.http']), /nowhere\.http: no such file/);
    });
    it('an unknown kind of import', () => {
      assertUsageError(
        tradereq(['import', 'insomnia', 'x.json']),
        /cannot import "insomnia": use curl, postman or http/,
      );
    });
    it('a bad --base-url', () => {
      assertUsageError(
        tradereq(['import', 'curl', '--base-url', 'api.mexc.com', '--', 'curl', 'https://api.mexc.com/api/v3/ping']),
        /--base-url must be an http/,
      );
    });
  });

  it('tradereq --help lists import; tradereq import --help explains the three kinds', () => {
    assert.match(
      tradereq(['--help']).stdout,
      /^ {2}import KIND {3}turn a cURL command, a Postman collection or a \.http file into \.tradereq files$/m,
    );
    const help = tradereq(['import', '--help']);
    assert.equal(help.status, 0);
    assert.match(
      help.stdout,
      /tradereq import curl .*\n.*tradereq import postman FILE .*\n.*tradereq import http FILE/,
    );
  });
});
