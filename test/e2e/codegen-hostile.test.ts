/**
 * A shared request file is hostile: its strings become string literals and comments of a program.
 * Values full of quotes, `$()`, backticks, newlines and code of each target language must reach
 * the sandbox intact, through a recording proxy, and nothing in them may run. The shell variant
 * must keep both keys out of every process's arguments and environment.
 */
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CodeRequest } from '../../src/core/codegen';
import { encodeParams } from '../../src/core/signing/encode';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { CHAIN, codeRequest, HOSTILE, HOSTILE_LINE, JSON_TYPE, pairs, value } from '../fixtures/codegen/cases';
import {
  DEMO,
  DEMO_KEYS,
  LANGUAGES,
  describeRun,
  ensureToolchains,
  prepare,
  rawQuery,
  run,
  startRecorder,
  type Recorder,
  type Toolchains,
} from '../fixtures/codegen/support';

describe('Copy as code: hostile strings stay strings', function () {
  this.timeout(600_000);
  let tools: Toolchains;
  let sandbox: Sandbox;
  let proxy: Recorder;
  let dir: string;
  /** The programs' working folder: a file appearing there means a hostile string ran. */
  let marks: string;

  before(async function () {
    tools = ensureToolchains(this);
    sandbox = await startSandbox({ port: 0, banScale: 0.001 });
    proxy = await startRecorder(sandbox.baseUrl);
    dir = mkdtempSync(join(tmpdir(), 'tradereq-codegen-hostile-'));
    marks = join(dir, 'marks');
    mkdirSync(marks);
  });

  after(async () => {
    await proxy?.close();
    await sandbox?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function nothingRan(language: string): void {
    assert.deepEqual(readdirSync(marks), [], `${language}: a hostile string ran as code`);
  }

  function formOrder(h: string): CodeRequest {
    return codeRequest(proxy.baseUrl, {
      title: h,
      query: pairs([
        ['symbol', 'BTCUSDT'],
        [h, h],
        ['note', { kind: 'parameter', parameter: 'note' }],
      ]),
      form: pairs([
        ['side', 'BUY'],
        ['type', 'LIMIT'],
        ['quantity', '0.001'],
        ['price', '30000'],
        ['newClientOrderId', h],
      ]),
      headers: pairs([['X-Note', HOSTILE_LINE]]),
      parameters: [{ name: 'note', description: h }],
      // It asks before it goes, as for a "confirm": true environment: the reason and the order shown are hostile too.
      confirm: {
        reason: h,
        order: [
          { kind: 'text', text: h },
          { kind: 'parameter', parameter: 'note' },
        ],
      },
    });
  }

  it('in names, values, the title, a header, a description, an argument and the order shown before asking: signed as sent (700008, not 700002), intact, nothing run', async () => {
    const h = HOSTILE;
    const request = formOrder(h);
    for (const language of LANGUAGES) {
      const program = prepare(tools, dir, 'hostile-form', request, language);
      proxy.requests.length = 0;
      const refused = await run(program, { env: DEMO_KEYS, args: [h], cwd: marks });
      assert.equal(refused.exit, 4, describeRun(program, refused));
      assert.match(
        refused.stderr,
        /^error: [^\n]+ needs confirmation \([^\n]+\) and there is no terminal to ask: pass --yes to send it\.\n$/,
      );
      assertNoControl(refused.stderr, `${language}: the order and the reason`);
      assert.equal(proxy.requests.length, 0, `${language}: not confirmed, nothing sent`);
      nothingRan(language);
      const timestamp = String(Date.now());
      const r = await run(program, {
        env: { ...DEMO_KEYS, TRADEREQ_TIMESTAMP: timestamp },
        args: ['--yes', h],
        cwd: marks,
      });
      const why = describeRun(program, r);
      // Authenticated first (the HMAC over the bytes as they arrived matched), refused for the characters after.
      assert.equal(r.status, 400, why);
      assert.equal((r.body as { code: number }).code, 700008, why);
      assert.equal(proxy.requests.length, 1, why);
      const got = proxy.requests[0]!;
      const query = [
        { name: 'symbol', value: 'BTCUSDT' },
        { name: h, value: h },
        { name: 'note', value: h },
      ];
      const form = ['side=BUY', 'type=LIMIT', 'quantity=0.001', 'price=30000'].join('&');
      const clientOrderId = encodeParams([{ name: 'newClientOrderId', value: h }]);
      assert.match(rawQuery(got.target), new RegExp(`^${escape(encodeParams(query))}&signature=[0-9a-f]{64}$`), why);
      assert.equal(got.body.toString('utf8'), `${form}&${clientOrderId}&timestamp=${timestamp}`, why);
      assert.equal(got.headers['x-note'], HOSTILE_LINE, why);
      nothingRan(language);
      const usage = await run(program, { cwd: marks });
      assert.equal(usage.exit, 2, describeRun(program, usage));
      assertNoControl(usage.stderr, `${language}: the usage line`);
      nothingRan(language);
    }
  });

  it('in a JSON body, with its escapes and quotes, under a title that looks like a coding line: sent byte for byte, nothing run', async () => {
    const h = HOSTILE;
    const json = JSON.stringify({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.001',
      price: '30000',
      newClientOrderId: h,
    });
    // A title that would be a directive at the top of the file: a Go build constraint, a Python coding line.
    const title = '+build ignore -*- coding: utf-7 -*-';
    const request = codeRequest(proxy.baseUrl, { title, json: value(json), contentType: JSON_TYPE });
    for (const language of LANGUAGES) {
      const program = prepare(tools, dir, 'hostile-json', request, language);
      proxy.requests.length = 0;
      const r = await run(program, { env: DEMO_KEYS, cwd: marks });
      const why = describeRun(program, r);
      assert.equal(r.status, 400, why);
      assert.equal((r.body as { code: number }).code, 700008, why);
      assert.deepEqual(proxy.requests[0]?.body, Buffer.from(json, 'utf8'), why);
      nothingRan(language);
    }
  });

  it('shell: no key in any process it starts, in the arguments or the environment (every command wrapped)', async () => {
    const wrappers = join(dir, 'wrappers');
    const log = join(dir, 'commands.log');
    mkdirSync(wrappers, { recursive: true });
    // PATH holds the wrappers only: a command the script runs that is not wrapped fails the test.
    const commands = ['curl', 'openssl', 'od', 'tr', 'printenv', 'head', 'mktemp', 'rm', 'date'];
    for (const name of commands) {
      const real = ['/usr/bin', '/bin'].map((d) => join(d, name)).find((p) => existsSync(p));
      assert.ok(real, `${name} not found`);
      const wrapper = join(wrappers, name);
      writeFileSync(
        wrapper,
        `#!${tools.bash}\nprintf '%s\\n' "== $0" "$@" >> '${log}'\n/usr/bin/env >> '${log}'\nexec '${real}' "$@"\n`,
      );
      chmodSync(wrapper, 0o755);
    }
    const buy = prepare(tools, dir, 'keys-buy', CHAIN.buy(sandbox.baseUrl), 'shell');
    const bought = await run(buy, { env: { ...DEMO_KEYS, PATH: wrappers } });
    assert.equal(bought.status, 200, describeRun(buy, bought));
    // A parameter from the environment: read with printenv, after the keys were taken out.
    const query = prepare(tools, dir, 'keys-query', CHAIN.byOrderId(sandbox.baseUrl, 'GET'), 'shell');
    const orderId = String((bought.body as { orderId: string }).orderId);
    const queried = await run(query, { env: { ...DEMO_KEYS, PATH: wrappers, buy_orderId: orderId } });
    assert.equal(queried.status, 200, describeRun(query, queried));
    const seen = readFileSync(log, 'utf8');
    for (const name of ['curl', 'openssl', 'od', 'printenv']) {
      assert.ok(seen.includes(`== ${join(wrappers, name)}`), `${name} ran`);
    }
    assert.ok(!seen.includes(DEMO.secretKey), 'the secret key reached a process');
    assert.ok(!seen.includes(DEMO.apiKey), 'the API key reached a process');
  });
});

function assertNoControl(text: string, what: string): void {
  const controls = [...text].filter((c) => c !== '\n' && (c < ' ' || c === '\x7f'));
  assert.deepEqual(controls, [], `${what} shows no control character`);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
