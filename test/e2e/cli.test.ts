/**
 * The `tradereq` command line as a user runs it: `node dist/cli.js ...` in a child process, with
 * a controlled environment (no TRADEREQ_* variables unless a test sets them) and request files
 * in temporary folders.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { BOUNDS } from '../../src/core/bounds';
import { DEMO_ACCOUNTS } from '../../src/core/env/demo';
import { errorTable, serviceDoc, signingVectors, type SigningVector } from '../support/docs';
import { ensureBuilt } from '../support/build';

const ROOT = path.resolve(__dirname, '../..');
// TRADEREQ_TEST_CLI runs the file against another build (as test/support/cli.ts).
const CLI = process.env['TRADEREQ_TEST_CLI'] ?? path.join(ROOT, 'dist', 'cli.js');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'vectors');

type Vector = SigningVector;

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** process.env without any TRADEREQ_* variable, plus `extra`. */
function controlledEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.toUpperCase().startsWith('TRADEREQ_')) env[k] = v;
  }
  return { ...env, ...extra };
}

function tradereq(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string; input?: string } = {},
): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? ROOT,
    env: controlledEnv(options.env),
    encoding: 'utf8',
    timeout: 20_000,
    input: options.input ?? '',
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function describeRun(r: Run): string {
  return `exit ${r.status}\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}`;
}

/** Exit 0, nothing on stderr, and stdout parsed as one JSON object. */
function json(r: Run): Record<string, unknown> & { headers: Record<string, string> } {
  assert.equal(r.status, 0, describeRun(r));
  assert.equal(r.stderr, '', describeRun(r));
  return JSON.parse(r.stdout) as Record<string, unknown> & { headers: Record<string, string> };
}

/** Bad input: exit 2, exactly one line on stderr, nothing on stdout. Returns the line. */
function assertUsageError(r: Run, pattern?: RegExp): string {
  assert.equal(r.status, 2, describeRun(r));
  assert.equal(r.stdout, '', describeRun(r));
  assert.match(r.stderr, /^[^\n]+\n$/, `exactly one line on stderr: ${describeRun(r)}`);
  const line = r.stderr.trimEnd();
  if (pattern) assert.match(line, pattern);
  return line;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A 64-character alphanumeric API key ending in `tail` (4 characters), distinct per seed. */
function apiKey(seed: number, tail: string): string {
  let s = '';
  for (let i = 0; i < 60; i++) s += ALNUM[(i * 7 + seed * 13) % ALNUM.length];
  return s + tail;
}

function hmac(secret: string, message: string): string {
  return createHmac('sha256', secret).update(message, 'utf8').digest('hex');
}

const SIGNATURE_SUFFIX = /&signature=[0-9a-f]{64}$/;

/** A complete LIMIT order; `header` lines go above it (directives, a ### line). */
function orderText(side = 'BUY', header: readonly string[] = []): string {
  return [
    ...header,
    'POST /api/v3/order',
    'symbol = BTCUSDT',
    `side = ${side}`,
    'type = LIMIT',
    'quantity = 0.001',
    'price = 30000',
    '',
  ].join('\n');
}

const TWO_REQUESTS = ['### Buy', '# @name buy', orderText('BUY'), '### Sell', '# @name sell', orderText('SELL')].join(
  '\n',
);

const LIVE_ENV_FILE = JSON.stringify({ live: { baseUrl: 'https://api.example.com', key: 'main-desk' } });

const GENERIC_KEY = apiKey(1, 'GEN1');
const GENERIC_SECRET = 'genericSecret000000000000000000000000000000000000000000000000001';
const DESK_KEY = apiKey(2, 'DSK2');
const DESK_SECRET = 'mainDeskSecret00000000000000000000000000000000000000000000000002';
const OTHER_KEY = apiKey(3, 'OTH3');
const OTHER_SECRET = 'otherProfileSecret000000000000000000000000000000000000000000003';

const ALL_KEYS = {
  TRADEREQ_API_KEY: GENERIC_KEY,
  TRADEREQ_SECRET_KEY: GENERIC_SECRET,
  TRADEREQ_MAIN_DESK_API_KEY: DESK_KEY,
  TRADEREQ_MAIN_DESK_SECRET_KEY: DESK_SECRET,
  TRADEREQ_OTHER_API_KEY: OTHER_KEY,
  TRADEREQ_OTHER_SECRET_KEY: OTHER_SECRET,
};

describe('tradereq command line (dist/cli.js)', function () {
  this.timeout(60_000);

  let tmpRoot: string;

  /** A fresh folder under the suite's temp folder holding `files` (name → text). */
  function folder(files: Record<string, string>): string {
    const dir = fs.mkdtempSync(path.join(tmpRoot, 'case-'));
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    return dir;
  }

  before(() => {
    ensureBuilt();
    assert.ok(fs.existsSync(CLI), `${CLI} was built`);
    tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-cli-test-'));
  });

  after(() => {
    if (tmpRoot) fs.rmSync(tmpRoot, { recursive: true, force: true });
  });

  describe('sign: published signing vectors', () => {
    const vectors = signingVectors();
    const v0 = vectors[0]!;
    const v1 = vectors[1]!;
    const timestamp = /timestamp=(\d+)/.exec(v0.query)![1]!;
    const key = apiKey(4, 'VecK');

    function signFixture(name: string, vector: Vector): Record<string, unknown> & { headers: Record<string, string> } {
      return json(
        tradereq(['sign', path.join(FIXTURES, name), '--timestamp', timestamp, '--json'], {
          env: { TRADEREQ_API_KEY: key, TRADEREQ_SECRET_KEY: vector.secretKey },
        }),
      );
    }

    it('the vector file holds the two vectors these tests rely on', () => {
      assert.equal(vectors.length, 2);
      assert.equal(v0.body, '');
      assert.ok(v1.body.length > 0);
      assert.equal(timestamp, '1499827319559');
      assert.ok(v1.body.endsWith('timestamp=' + timestamp));
    });

    it('all-in-query.tradereq reproduces vector 0: query, empty body, totalParams and signature', () => {
      const out = signFixture('all-in-query.tradereq', v0);
      assert.equal((out.query as string).replace(SIGNATURE_SUFFIX, ''), v0.query);
      assert.ok((out.query as string).endsWith('&signature=' + v0.signature));
      assert.equal(out.body, v0.body);
      assert.equal(out.totalParams, v0.query + v0.body);
      assert.equal(out.signature, v0.signature);
      assert.equal(out.timestamp, timestamp);
      assert.equal(out.signed, true);
    });

    it('split.tradereq reproduces vector 1: query, body, totalParams (no separator) and signature', () => {
      const out = signFixture('split.tradereq', v1);
      assert.equal((out.query as string).replace(SIGNATURE_SUFFIX, ''), v1.query);
      assert.equal(out.body, v1.body);
      assert.equal(out.totalParams, v1.query + v1.body);
      assert.equal(out.signature, v1.signature);
    });

    it('all-in-body.tradereq signs the same totalParams and signature as vector 0 (spec §5 rule 4)', () => {
      const out = signFixture('all-in-body.tradereq', v0);
      assert.equal(out.query, 'signature=' + v0.signature);
      assert.equal(out.body, v0.query);
      assert.equal(out.totalParams, v0.query);
      assert.equal(out.signature, v0.signature);
    });

    it('text output ends with the totalParams and signature comment lines of the vector', () => {
      const r = tradereq(['sign', path.join(FIXTURES, 'split.tradereq'), '--timestamp', timestamp], {
        env: { TRADEREQ_API_KEY: key, TRADEREQ_SECRET_KEY: v1.secretKey },
      });
      assert.equal(r.status, 0, describeRun(r));
      assert.equal(r.stderr, '');
      assert.ok(r.stdout.includes(`# totalParams: ${v1.query}${v1.body}\n`), r.stdout);
      assert.ok(r.stdout.includes(`# signature: ${v1.signature}`), r.stdout);
      assert.ok(r.stdout.startsWith('POST '), r.stdout);
    });
  });

  describe('sign: keys stay secret', () => {
    const secret = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';
    const key = apiKey(5, 'MskT');

    /** No 12-character window of `s` appears in `out`. */
    function assertNoPieceOf(s: string, out: string, what: string): void {
      for (let i = 0; i + 12 <= s.length; i++) {
        assert.ok(
          !out.includes(s.slice(i, i + 12)),
          `${what} (characters ${i}..${i + 12}) appears in the output:\n${out}`,
        );
      }
    }

    for (const mode of ['text', '--json'] as const) {
      it(`the secret key appears nowhere and the API key only masked to its last 4 characters (${mode})`, () => {
        const args = [
          'sign',
          path.join(FIXTURES, 'split.tradereq'),
          '--timestamp',
          '1499827319559',
          ...(mode === '--json' ? ['--json'] : []),
        ];
        const r = tradereq(args, { env: { TRADEREQ_API_KEY: key, TRADEREQ_SECRET_KEY: secret } });
        assert.equal(r.status, 0, describeRun(r));
        const all = r.stdout + r.stderr;
        assertNoPieceOf(secret, all, 'the secret key');
        assertNoPieceOf(key, all, 'the API key');
        assert.ok(r.stdout.includes('****MskT'), `masked API key shown: ${r.stdout}`);
        if (mode === '--json') assert.equal(json(r).headers['X-SERVICE-APIKEY'], '****MskT');
      });
    }
  });

  describe('sign: environments, key profiles and request selection', () => {
    it("the environment's key profile (TRADEREQ_MAIN_DESK_*) takes precedence over TRADEREQ_API_KEY", () => {
      const dir = folder({ 'tradereq.env.json': LIVE_ENV_FILE, 'order.tradereq': orderText() });
      const out = json(
        tradereq(['sign', 'order.tradereq', '--env', 'live', '--timestamp', '1700000000000', '--json'], {
          cwd: dir,
          env: ALL_KEYS,
        }),
      );
      assert.equal(out.headers['X-SERVICE-APIKEY'], '****DSK2');
      assert.equal(out.keyProfile, 'main-desk');
      assert.equal(out.environment, 'live');
      assert.equal(out.signature, hmac(DESK_SECRET, out.totalParams as string), "signed with the profile's secret key");
      assert.ok((out.url as string).startsWith('https://api.example.com/api/v3/order?'), out.url as string);
    });

    it("without the profile's variables, TRADEREQ_API_KEY / TRADEREQ_SECRET_KEY are used", () => {
      const dir = folder({ 'tradereq.env.json': LIVE_ENV_FILE, 'order.tradereq': orderText() });
      const out = json(
        tradereq(['sign', 'order.tradereq', '--env', 'live', '--timestamp', '1700000000000', '--json'], {
          cwd: dir,
          env: { TRADEREQ_API_KEY: GENERIC_KEY, TRADEREQ_SECRET_KEY: GENERIC_SECRET },
        }),
      );
      assert.equal(out.headers['X-SERVICE-APIKEY'], '****GEN1');
      assert.equal(out.signature, hmac(GENERIC_SECRET, out.totalParams as string));
    });

    it('--env NAME selects the environment: its base URL and its key profile', () => {
      const envFile = JSON.stringify({
        live: { baseUrl: 'https://api.example.com', key: 'main-desk' },
        desk2: { baseUrl: 'https://desk2.example.com', key: 'other' },
      });
      const dir = folder({ 'tradereq.env.json': envFile, 'order.tradereq': orderText() });
      const live = json(tradereq(['sign', 'order.tradereq', '--env', 'live', '--json'], { cwd: dir, env: ALL_KEYS }));
      assert.ok((live.url as string).startsWith('https://api.example.com/'), live.url as string);
      assert.equal(live.headers['X-SERVICE-APIKEY'], '****DSK2');
      const desk2 = json(tradereq(['sign', 'order.tradereq', '--env', 'desk2', '--json'], { cwd: dir, env: ALL_KEYS }));
      assert.ok((desk2.url as string).startsWith('https://desk2.example.com/'), desk2.url as string);
      assert.equal(desk2.environment, 'desk2');
      assert.equal(desk2.headers['X-SERVICE-APIKEY'], '****OTH3');
    });

    it("--base-url overrides the environment's URL (the key profile stays the environment's)", () => {
      const dir = folder({ 'tradereq.env.json': LIVE_ENV_FILE, 'order.tradereq': orderText() });
      const out = json(
        tradereq(['sign', 'order.tradereq', '--env', 'live', '--base-url', 'https://other.example.org', '--json'], {
          cwd: dir,
          env: ALL_KEYS,
        }),
      );
      assert.ok((out.url as string).startsWith('https://other.example.org/api/v3/order?'), out.url as string);
      assert.equal(out.environment, 'live');
      assert.equal(out.headers['X-SERVICE-APIKEY'], '****DSK2');
    });

    it('--request NAME and --request INDEX (1-based) select a request of a file holding several', () => {
      const dir = folder({ 'tradereq.env.json': LIVE_ENV_FILE, 'two.tradereq': TWO_REQUESTS });
      const byName = json(
        tradereq(['sign', 'two.tradereq', '--request', 'sell', '--timestamp', '1700000000000', '--json'], {
          cwd: dir,
          env: ALL_KEYS,
        }),
      );
      assert.equal(
        byName.body,
        'symbol=BTCUSDT&side=SELL&type=LIMIT&quantity=0.001&price=30000&timestamp=1700000000000',
      );
      const byIndex = json(
        tradereq(['sign', 'two.tradereq', '--request', '2', '--timestamp', '1700000000000', '--json'], {
          cwd: dir,
          env: ALL_KEYS,
        }),
      );
      assert.equal(byIndex.body, byName.body);
      assert.equal(byIndex.signature, byName.signature);
      const first = json(
        tradereq(['sign', 'two.tradereq', '--request', '1', '--timestamp', '1700000000000', '--json'], {
          cwd: dir,
          env: ALL_KEYS,
        }),
      );
      assert.match(first.body as string, /side=BUY/);
      const buy = json(
        tradereq(['sign', 'two.tradereq', '--request', 'buy', '--timestamp', '1700000000000', '--json'], {
          cwd: dir,
          env: ALL_KEYS,
        }),
      );
      assert.equal(buy.signature, first.signature);
    });

    it("`# @key other` signs with TRADEREQ_OTHER_API_KEY / TRADEREQ_OTHER_SECRET_KEY instead of the environment's profile", () => {
      const dir = folder({ 'tradereq.env.json': LIVE_ENV_FILE, 'other.tradereq': orderText('BUY', ['# @key other']) });
      const out = json(tradereq(['sign', 'other.tradereq', '--env', 'live', '--json'], { cwd: dir, env: ALL_KEYS }));
      assert.equal(out.headers['X-SERVICE-APIKEY'], '****OTH3');
      assert.equal(out.keyProfile, 'other');
      assert.equal(out.signature, hmac(OTHER_SECRET, out.totalParams as string));
    });

    it('the built-in sandbox demo key signs a request to the default sandbox environment with no TRADEREQ_* variables', () => {
      const dir = folder({ 'order.tradereq': orderText() });
      const demo = DEMO_ACCOUNTS[0]!;
      const out = json(tradereq(['sign', 'order.tradereq', '--json'], { cwd: dir }));
      assert.equal(out.environment, 'sandbox');
      assert.equal(out.signed, true);
      assert.ok((out.url as string).startsWith('http://127.0.0.1:8780/api/v3/order?'), out.url as string);
      assert.equal(out.headers['X-SERVICE-APIKEY'], '****' + demo.apiKey.slice(-4));
      assert.equal(out.signature, hmac(demo.secretKey, out.totalParams as string));
    });

    it('the sandbox demo key is NOT used for a non-loopback --base-url: exit 2, no key', () => {
      const dir = folder({ 'order.tradereq': orderText() });
      assertUsageError(
        tradereq(['sign', 'order.tradereq', '--base-url', 'https://api.example.com'], { cwd: dir }),
        /no key/,
      );
    });
  });

  describe('sign: bad input gives exit 2, one line on stderr, nothing on stdout', () => {
    it('a missing file', () => {
      const dir = folder({});
      assertUsageError(
        tradereq(['sign', 'nope.tradereq'], { cwd: dir, env: ALL_KEYS }),
        /nope\.tradereq: no such file/,
      );
    });

    it('an unknown request name', () => {
      const dir = folder({ 'two.tradereq': TWO_REQUESTS });
      assertUsageError(
        tradereq(['sign', 'two.tradereq', '--request', 'hold'], { cwd: dir, env: ALL_KEYS }),
        /no request named "hold"/,
      );
    });

    it('a request index out of range (3 of 2, and 0)', () => {
      const dir = folder({ 'two.tradereq': TWO_REQUESTS });
      assertUsageError(
        tradereq(['sign', 'two.tradereq', '--request', '3'], { cwd: dir, env: ALL_KEYS }),
        /no request 3/,
      );
      assertUsageError(
        tradereq(['sign', 'two.tradereq', '--request', '0'], { cwd: dir, env: ALL_KEYS }),
        /no request 0/,
      );
    });

    it('a file with several requests and no --request', () => {
      const dir = folder({ 'two.tradereq': TWO_REQUESTS });
      assertUsageError(tradereq(['sign', 'two.tradereq'], { cwd: dir, env: ALL_KEYS }), /holds 2 requests.*--request/);
    });

    it("a missing key: the environment's key profile has no variables (and no generic pair)", () => {
      const dir = folder({ 'tradereq.env.json': LIVE_ENV_FILE, 'order.tradereq': orderText() });
      const line = assertUsageError(
        tradereq(['sign', 'order.tradereq', '--env', 'live'], { cwd: dir }),
        /no key for profile "main-desk"/,
      );
      assert.match(line, /TRADEREQ_MAIN_DESK_API_KEY/);
      assert.match(line, /TRADEREQ_MAIN_DESK_SECRET_KEY/);
    });

    it('an undefined variable: the message names the variable and file:line:col', () => {
      const dir = folder({
        'var.tradereq': [
          'POST /api/v3/order',
          'symbol = {{pair}}',
          'side = BUY',
          'type = LIMIT',
          'quantity = 0.001',
          'price = 30000',
          '',
        ].join('\n'),
      });
      const file = path.join(dir, 'var.tradereq');
      const line = assertUsageError(tradereq(['sign', file], { cwd: dir, env: ALL_KEYS }));
      assert.ok(line.includes(`${file}:2:12`), line);
      assert.match(line, /\{\{pair\}\}/);
    });

    it('a malformed flag value: --timestamp abc', () => {
      assertUsageError(
        tradereq(['sign', path.join(FIXTURES, 'split.tradereq'), '--timestamp', 'abc'], { env: ALL_KEYS }),
        /--timestamp.*"abc"/,
      );
    });

    it('an unknown flag: --nope', () => {
      assertUsageError(
        tradereq(['sign', path.join(FIXTURES, 'split.tradereq'), '--nope'], { env: ALL_KEYS }),
        /--nope.*tradereq sign --help/,
      );
    });

    it('no command at all', () => {
      assertUsageError(tradereq([]), /a command is needed: sign, send, check, errors, sandbox/);
    });

    it('messages name the file as the user typed it, with line and column', () => {
      const dir = folder({ 'bad.tradereq': 'POST /api/v3/order\nsymbol = {{nope}}\n' });
      assertUsageError(
        tradereq(['sign', 'bad.tradereq'], { cwd: dir, env: ALL_KEYS }),
        /^tradereq: bad\.tradereq:2:12: Undefined variable \{\{nope\}\}/,
      );
    });

    it('an unknown command', () => {
      assertUsageError(tradereq(['frobnicate']), /unknown command "frobnicate"/);
    });
  });

  describe('errors', () => {
    /** The codes of the §7.2 table of docs/service.md. */
    function specCodes(): number[] {
      return errorTable(serviceDoc()).map((r) => r.code);
    }

    it('errors --json lists every code of the §7.2 table, code a number and meanings an array of strings', () => {
      const codes = specCodes();
      assert.ok(codes.length >= 90, `only ${codes.length} codes parsed from docs/service.md §7.2`);
      const r = tradereq(['errors', '--json']);
      assert.equal(r.status, 0, describeRun(r));
      assert.equal(r.stderr, '');
      const list = JSON.parse(r.stdout) as { code: unknown; meanings: unknown }[];
      assert.ok(Array.isArray(list));
      for (const e of list) {
        assert.equal(typeof e.code, 'number', JSON.stringify(e));
        assert.ok(Array.isArray(e.meanings) && e.meanings.length > 0, JSON.stringify(e));
        for (const m of e.meanings as unknown[]) assert.equal(typeof m, 'string', JSON.stringify(e));
      }
      const listed = new Set(list.map((e) => e.code));
      const missing = codes.filter((c) => !listed.has(c));
      assert.deepEqual(missing, [], 'codes of the spec table missing from errors --json');
    });

    it('errors 700003 explains the code and mentions recvWindow', () => {
      const r = tradereq(['errors', '700003']);
      assert.equal(r.status, 0, describeRun(r));
      assert.equal(r.stderr, '');
      assert.match(r.stdout, /^700003/);
      assert.match(r.stdout, /recvWindow/);
    });

    it('errors 700003 --json gives that one code', () => {
      const list = JSON.parse(tradereq(['errors', '700003', '--json']).stdout) as { code: number }[];
      assert.deepEqual(
        list.map((e) => e.code),
        [700003],
      );
    });

    it('errors abc: not a number gives exit 2 and one line', () => {
      assertUsageError(tradereq(['errors', 'abc']), /"abc" is not an error code/);
    });

    it('errors 999: a number that is not a code of the service gives exit 2 and one line', () => {
      assertUsageError(tradereq(['errors', '999']), /999 is not an error code/);
    });
  });

  describe('check', () => {
    const LINE = /^(.+):(\d+):(\d+): (error|warning|information|hint): (.+)$/;

    it('prints file:line:col: severity: message lines and exits 1 when a file has an error', () => {
      const dir = folder({
        'bad.tradereq': [
          'POST /api/v3/order',
          'symbol = btcusdt',
          'side = BUY',
          'type = LIMIT',
          'quantity = 0.001',
          'price = 30000',
          'colour = red',
          '',
        ].join('\n'),
      });
      const file = path.join(dir, 'bad.tradereq');
      const r = tradereq(['check', file], { cwd: dir });
      assert.equal(r.status, 1, describeRun(r));
      assert.equal(r.stderr, '');
      const lines = r.stdout.trimEnd().split('\n');
      for (const l of lines) assert.match(l, LINE);
      assert.equal(lines.length, 2, r.stdout);
      assert.ok(lines[0]!.startsWith(`${file}:2:10: error: Symbol "btcusdt"`), lines[0]);
      assert.ok(lines[1]!.startsWith(`${file}:7:1: warning: "colour"`), lines[1]);
    });

    it('exits 0 when a file has warnings but no error', () => {
      const dir = folder({
        'warn.tradereq': orderText('BUY').replace('price = 30000', 'price = 30000\nrecvWindow = 60000'),
      });
      const r = tradereq(['check', 'warn.tradereq'], { cwd: dir });
      assert.equal(r.status, 0, describeRun(r));
      assert.match(r.stdout, /^warn\.tradereq:7:14: warning: recvWindow 60000/);
    });

    it('exits 0 and prints nothing for a clean file (split.tradereq fixture and a clean LIMIT order)', () => {
      const fixture = tradereq(['check', path.join(FIXTURES, 'split.tradereq')]);
      assert.equal(fixture.status, 0, describeRun(fixture));
      assert.equal(fixture.stdout, '');
      assert.equal(fixture.stderr, '');
      const dir = folder({ 'clean.tradereq': orderText() });
      const own = tradereq(['check', 'clean.tradereq'], { cwd: dir });
      assert.equal(own.status, 0, describeRun(own));
      assert.equal(own.stdout, '');
      assert.equal(own.stderr, '');
    });

    it('a missing file gives exit 2 and one line; a file beside it is still checked (issue 19)', () => {
      const dir = folder({ 'bad.tradereq': orderText('buy') });
      assertUsageError(tradereq(['check', 'missing.tradereq'], { cwd: dir }), /missing\.tradereq: no such file/);
      const both = tradereq(['check', 'bad.tradereq', 'missing.tradereq'], { cwd: dir });
      assert.equal(both.status, 2, describeRun(both));
      assert.match(both.stderr, /^[^\n]*missing\.tradereq: no such file[^\n]*\n$/);
      assert.match(both.stdout, /^bad\.tradereq:\d+:\d+: error: /);
    });
  });

  describe('check --json and check - (issue 34, point 10)', () => {
    const BAD = [
      'POST /api/v3/order',
      'symbol = btcusdt',
      'side = BUY',
      'type = LIMIT',
      'quantity = 0.001',
      'price = 30000',
      'colour = red',
      '',
    ].join('\n');

    it('--json: one document, version 1, a finding per problem (file, line, column, severity, rule, message); exit codes as the text', () => {
      const dir = folder({ 'bad.tradereq': BAD, 'clean.tradereq': orderText() });
      const r = tradereq(['check', '--json', 'bad.tradereq'], { cwd: dir });
      assert.equal(r.status, 1, describeRun(r));
      assert.equal(r.stderr, '');
      const doc = JSON.parse(r.stdout) as { version: number; findings: Record<string, unknown>[] };
      assert.equal(doc.version, 1);
      assert.equal(doc.findings.length, 2);
      assert.deepEqual(Object.keys(doc.findings[0]!).sort(), [
        'column',
        'endColumn',
        'endLine',
        'file',
        'line',
        'message',
        'rule',
        'severity',
      ]);
      assert.deepEqual(
        doc.findings.map((f) => [f['file'], f['line'], f['column'], f['severity']]),
        [
          ['bad.tradereq', 2, 10, 'error'],
          ['bad.tradereq', 7, 1, 'warning'],
        ],
      );
      assert.match(String(doc.findings[0]!['message']), /^Symbol "btcusdt"/);
      assert.equal(typeof doc.findings[0]!['rule'], 'string');
      const clean = tradereq(['check', '--json', 'clean.tradereq'], { cwd: dir });
      assert.equal(clean.status, 0, describeRun(clean));
      assert.deepEqual(JSON.parse(clean.stdout), { version: 1, findings: [] });
      const missing = tradereq(['check', '--json', 'bad.tradereq', 'missing.tradereq'], { cwd: dir });
      assert.equal(missing.status, 2, describeRun(missing));
      assert.equal((JSON.parse(missing.stdout) as { findings: unknown[] }).findings.length, 2);
      assert.match(missing.stderr, /missing\.tradereq: no such file/);
    });

    it('- reads the request file from standard input: shown as "-", its environment from the current folder', () => {
      const dir = folder({
        'tradereq.env.json': JSON.stringify({
          mine: { baseUrl: 'http://127.0.0.1:9', variables: { symbol: 'ETHUSDT' } },
        }),
      });
      const r = tradereq(['check', '-'], { cwd: dir, input: BAD });
      assert.equal(r.status, 1, describeRun(r));
      assert.match(r.stdout, /^-:2:10: error: Symbol "btcusdt"/);
      const json = tradereq(['check', '--json', '-'], {
        cwd: dir,
        input: 'GET /api/v3/exchangeInfo\nsymbol = {{symbol}}\n',
      });
      assert.equal(json.status, 0, describeRun(json));
      assert.deepEqual(
        JSON.parse(json.stdout),
        { version: 1, findings: [] },
        'the current folder\'s environment "mine" resolves {{symbol}}',
      );
    });

    it('- refuses a # @data file (no folder to read it from), and - with other paths', () => {
      const dir = folder({ 'rows.csv': 'symbol\nBTCUSDT\n' });
      const r = tradereq(['check', '--json', '-'], {
        cwd: dir,
        input: '# @data rows.csv\nGET /api/v3/depth\nsymbol = {{symbol}}\n',
      });
      assert.equal(r.status, 1, describeRun(r));
      const findings = (JSON.parse(r.stdout) as { findings: { rule: string; message: string; line: number }[] })
        .findings;
      assert.ok(
        findings.some((f) => f.rule === 'data-file' && f.line === 1 && /standard input/.test(f.message)),
        r.stdout,
      );
      assertUsageError(
        tradereq(['check', '-', 'other.tradereq'], { cwd: dir }),
        /- \(standard input\) is the only PATH/,
      );
    });

    it('- bounds standard input while reading it', () => {
      const r = tradereq(['check', '-'], { input: '#'.repeat(BOUNDS.fileChars + 1) });
      assertUsageError(r, /standard input .*more than TradeReq reads/);
    });
  });

  describe('help', () => {
    // Each --help is run once for the tests that read it: a process costs more than the reading.
    const helps = new Map<string, Run>();
    const help = (...command: string[]): Run => {
      const key = command.join(' ');
      if (!helps.has(key)) helps.set(key, tradereq([...command, '--help']));
      return helps.get(key)!;
    };

    it('tradereq --help lists the commands and exits 0', () => {
      const r = help();
      assert.equal(r.status, 0, describeRun(r));
      assert.equal(r.stderr, '');
      for (const word of ['sign', 'errors', 'check', '--help'])
        assert.ok(r.stdout.includes(word), `${word} in:\n${r.stdout}`);
    });

    it("tradereq --version prints package.json's version and exits 0", () => {
      const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
      for (const flag of ['--version', '-v']) {
        const r = tradereq([flag]);
        assert.equal(r.status, 0, describeRun(r));
        assert.equal(r.stdout, `tradereq ${version}\n`);
        assert.equal(r.stderr, '');
      }
      assert.match(help().stdout, /tradereq --version/);
    });

    const COMMAND_FLAGS: Record<string, readonly string[]> = {
      sign: ['--request', '--env', '--base-url', '--timestamp', '--json', '--help'],
      errors: ['--json', '--help'],
      check: ['--env', '--json', '--help'],
    };

    for (const [command, flags] of Object.entries(COMMAND_FLAGS)) {
      it(`${command} --help mentions every flag ${command} accepts (${flags.join(', ')})`, () => {
        const r = help(command);
        assert.equal(r.status, 0, describeRun(r));
        assert.equal(r.stderr, '');
        for (const flag of flags) assert.match(r.stdout, new RegExp(`${flag}(?![\\w-])`), `${flag} in:\n${r.stdout}`);
      });

      it(`every flag ${command} --help mentions is accepted by ${command}`, () => {
        const mentioned = [...new Set(help(command).stdout.match(/--[a-z][a-z-]*/g) ?? [])];
        assert.ok(mentioned.length > 0);
        for (const flag of mentioned) {
          const r = tradereq([command, flag]);
          assert.doesNotMatch(r.stderr, /Unknown option/, `${command} ${flag}: ${describeRun(r)}`);
        }
      });
    }
  });
});
