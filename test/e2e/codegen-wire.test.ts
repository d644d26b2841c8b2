/**
 * "Copy as code", byte for byte: what each generated program puts on the wire, recorded by an
 * HTTP server in the test. The programs honour TRADEREQ_TIMESTAMP (documented in each program as
 * for tests only), so with the timestamp fixed their bytes can be compared exactly: with the
 * published signing vectors, and with what `tradereq send` sends for the same request.
 */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CodeRequest } from '../../src/core/codegen';
import { signatureMatches } from '../../src/core/signing/hmac';
import { describeRun as describeCli, ROOT, tradereq } from '../support/cli';
import { signingVectors, type SigningVector } from '../support/docs';
import { codeRequest, FORM, JSON_TYPE, pairs, RUN_CASES, value } from '../fixtures/codegen/cases';
import {
  DEMO,
  DEMO_KEYS,
  KEY_ENV,
  LANGUAGES,
  describeRun,
  ensureToolchains,
  generated,
  prebuildGo,
  prepare,
  rawQuery,
  run,
  startRecorder,
  type Recorded,
  type Recorder,
  type Toolchains,
} from '../fixtures/codegen/support';
import { ensureBuilt } from '../support/build';

type Vector = SigningVector;

const VECTORS = signingVectors();
const VECTOR_TIMESTAMP = '1499827319559';
const VECTOR_API_KEY = 'vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A';
// Nothing listens here: the programs reach the recorder only through TRADEREQ_BASE_URL.
const NOWHERE = 'http://127.0.0.1:9';

/** `a=1&b=2` as the pairs of a model, without the timestamp the program adds itself. */
function paramsOf(encoded: string): ReturnType<typeof pairs> {
  const list = encoded
    .split('&')
    .filter((p) => p.length > 0 && !p.startsWith('timestamp='))
    .map((p) => p.split('=') as [string, string]);
  return pairs(list);
}

interface VectorLayout {
  readonly title: string;
  readonly vector: Vector;
  readonly request: CodeRequest;
  /** What must reach the server, signature included. */
  readonly query: string;
  readonly body: string;
}

function layouts(): VectorLayout[] {
  const [all, split] = VECTORS as [Vector, Vector];
  const sig = (v: Vector): string => `signature=${v.signature}`;
  return [
    {
      title: 'every parameter in the query string',
      vector: all,
      request: codeRequest(NOWHERE, { query: paramsOf(all.query) }),
      query: `${all.query}&${sig(all)}`,
      body: '',
    },
    {
      title: 'every parameter in the body (the same totalParams)',
      vector: all,
      request: codeRequest(NOWHERE, { form: paramsOf(all.query) }),
      query: sig(all),
      body: all.query,
    },
    {
      title: 'parameters split between query string and body',
      vector: split,
      request: codeRequest(NOWHERE, { query: paramsOf(split.query), form: paramsOf(split.body) }),
      query: `${split.query}&${sig(split)}`,
      body: split.body,
    },
  ];
}

const withoutSignature = (s: string): string => s.replace(/(^|&)signature=[0-9a-f]{64}$/, '');

/** The signature sent is HMAC-SHA256 (with `secret`) of the query string and body as sent, without it. */
function signedRight(r: Recorded, secret: string = DEMO.secretKey): boolean {
  const query = rawQuery(r.target);
  const body = r.body.toString('utf8');
  const signature = /signature=([0-9a-f]{64})$/.exec(query)?.[1] ?? /signature=([0-9a-f]{64})$/.exec(body)?.[1] ?? '';
  return signatureMatches(secret, withoutSignature(query) + withoutSignature(body), signature);
}

function header(r: Recorded, name: string): string | undefined {
  const v = r.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

describe('Copy as code: the bytes on the wire', function () {
  this.timeout(600_000);
  let tools: Toolchains;
  let recorder: Recorder;
  let dir: string;

  before(async function () {
    tools = ensureToolchains(this);
    recorder = await startRecorder();
    const requests = [...layouts().map((l) => l.request), ...RUN_CASES.map((c) => c.build(recorder.baseUrl))];
    prebuildGo(
      tools,
      requests.map((r) => generated(r, 'go')),
    );
    dir = mkdtempSync(join(tmpdir(), 'tradereq-codegen-wire-'));
    copyFileSync(join(ROOT, 'test', 'fixtures', 'codegen', 'requests.tradereq'), join(dir, 'requests.tradereq'));
  });

  after(async () => {
    await recorder?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the program and returns the one request it sent. */
  async function sent(
    request: CodeRequest,
    name: string,
    language: (typeof LANGUAGES)[number],
    env: Record<string, string>,
  ) {
    const program = prepare(tools, dir, name, request, language);
    recorder.requests.length = 0;
    const r = await run(program, { env: { TRADEREQ_BASE_URL: recorder.baseUrl, ...env }, cwd: dir });
    assert.equal(r.exit, 0, describeRun(program, r));
    assert.equal(recorder.requests.length, 1, describeRun(program, r));
    return recorder.requests[0]!;
  }

  for (const language of LANGUAGES) {
    it(`${language}: signs the published vectors (signing.json) at their timestamp, in all three layouts`, async () => {
      for (const [i, layout] of layouts().entries()) {
        const got = await sent(layout.request, `vector-${i}`, language, {
          [KEY_ENV.apiKey]: VECTOR_API_KEY,
          [KEY_ENV.secretKey]: layout.vector.secretKey,
          TRADEREQ_TIMESTAMP: VECTOR_TIMESTAMP,
        });
        assert.equal(got.method, 'POST');
        assert.equal(got.target, `/api/v3/order?${layout.query}`, layout.title);
        assert.equal(got.body.toString('utf8'), layout.body, layout.title);
        assert.equal(header(got, 'x-service-apikey'), VECTOR_API_KEY);
        assert.equal(header(got, 'content-type'), FORM);
      }
    });
  }

  it('signs with any secret key: one byte, longer than a SHA-256 block (hashed first), quotes, spaces, non-ASCII', async () => {
    const secrets = [
      'k',
      'x'.repeat(64),
      'y'.repeat(65),
      'é'.repeat(40),
      `'"\`$(touch pwned) \\ %41 ${'z'.repeat(100)}`,
    ];
    const request = codeRequest(NOWHERE, { query: pairs([['symbol', 'BTCUSDT']]), form: pairs([['side', 'BUY']]) });
    for (const language of LANGUAGES) {
      for (const [i, secret] of secrets.entries()) {
        const got = await sent(request, `secret-${i}`, language, {
          [KEY_ENV.apiKey]: 'someApiKey',
          [KEY_ENV.secretKey]: secret,
        });
        assert.ok(signedRight(got, secret), `${language}, secret ${i}`);
      }
    }
    assert.ok(!existsSync(join(dir, 'pwned')), 'a secret key ran as code');
  });

  it('every request of requests.tradereq: each program sends the bytes `tradereq send` sends, given its timestamp', async () => {
    ensureBuilt();
    // The one random piece, {{$clientOrderId}}, is compared by its form, and so the signature over it
    // by recomputing it.
    const mask = (s: string, random: boolean): string =>
      random
        ? s
            .replace(/newClientOrderId=[A-Za-z0-9]{32}/, 'newClientOrderId=<id>')
            .replace(/signature=[0-9a-f]{64}/, '<sig>')
        : s;
    for (const c of RUN_CASES) {
      recorder.requests.length = 0;
      const cli = await tradereq(
        ['send', 'requests.tradereq', '--request', c.name, '--base-url', recorder.baseUrl, '--json', '--no-clock-sync'],
        { cwd: dir, env: { TRADEREQ_STATE_DIR: join(dir, 'state') } },
      );
      assert.equal(recorder.requests.length, 1, describeCli(cli));
      const reference = recorder.requests[0]!;
      const timestamp = /timestamp=(\d+)/.exec(reference.target + reference.body.toString())?.[1] ?? '';
      const request = c.build(recorder.baseUrl);
      for (const language of LANGUAGES) {
        const got = await sent(request, `same-${c.name}`, language, { ...DEMO_KEYS, TRADEREQ_TIMESTAMP: timestamp });
        const what = `${c.name} in ${language}`;
        assert.equal(got.method, reference.method, what);
        const random = c.name === 'clientOrderId';
        assert.equal(mask(got.target, random), mask(reference.target, random), what);
        assert.equal(mask(got.body.toString('utf8'), random), mask(reference.body.toString('utf8'), random), what);
        if (request.signed) assert.ok(signedRight(got), `${what}: the signature covers query string + body as sent`);
        for (const h of ['content-type', 'x-service-apikey'])
          assert.equal(header(got, h), header(reference, h), `${what}: ${h}`);
      }
    }
  });

  it('every character of a text reaches the wire as written: a JSON body byte for byte, a header value as Latin-1', async () => {
    const controls = Array.from({ length: 0x7f }, (_, i) => String.fromCharCode(i + 1)).join('');
    const text = `${controls}é€\u0085\u00a0\u2028\u2029\u202e\ufeff😀𝄞 lone:\ud800:\udc00: '"\`$(id)\${HOME}\\n%41%%`;
    const latin1 = 'A' + Array.from({ length: 0x5f }, (_, i) => String.fromCharCode(i + 0x20)).join('') + '\t';
    const headerText = latin1 + Array.from({ length: 0x80 }, (_, i) => String.fromCharCode(i + 0x80)).join('') + 'Z';
    const request = codeRequest(NOWHERE, {
      path: '/echo',
      json: value(text),
      contentType: JSON_TYPE,
      headers: pairs([['X-Note', headerText]]),
      signed: false,
    });
    for (const language of LANGUAGES) {
      const got = await sent(request, 'literals', language, {});
      // Buffer.from writes a lone surrogate as U+FFFD, as TradeReq sends it.
      assert.deepEqual(got.body, Buffer.from(text, 'utf8'), `${language}: the body`);
      assert.equal(header(got, 'x-note'), headerText, `${language}: the header`);
      assert.equal(rawQuery(got.target), '');
    }
  });
});
