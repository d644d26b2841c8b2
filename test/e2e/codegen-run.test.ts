/**
 * "Copy as code" for real: every generated program (Python with the standard library and with
 * requests, Node, Go, bash with curl and openssl) is run with its real toolchain against the
 * sandbox, and must get the answer `tradereq send` gets for the same request in a .tradereq file.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { codeRequestFrom, type CodeRequest } from '../../src/core/codegen';
import { parse } from '../../src/core/format/parser';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { CHAIN, GUARDED_REASON, guarded, RUN_CASES } from '../fixtures/codegen/cases';
import {
  DEMO_KEYS,
  LANGUAGES,
  codeOf,
  describeRun,
  fixtureFolder,
  sendJson,
  type SendLine,
  ensureToolchains,
  generated,
  normalise,
  prebuildGo,
  prepare,
  run,
  sandboxControl,
  terminalCommand,
  type Toolchains,
} from '../fixtures/codegen/support';
import { ensureBuilt } from '../support/build';
import { ROOT } from '../support/cli';

/** The buy of requests.tradereq for an environment with "confirm": true, made by the adapter as Copy as Code makes it. */
function guardedBuy(baseUrl: string): CodeRequest {
  const doc = parse(readFileSync(join(ROOT, 'test', 'fixtures', 'codegen', 'requests.tradereq'), 'utf8'));
  const block = doc.requests.find((r) => r.name?.text === 'buy')!;
  const model = codeRequestFrom(doc, block, guarded(baseUrl));
  if (!model.ok) assert.fail(model.error.message);
  if ('kind' in model.value) assert.fail('a WebSocket request: a stream program');
  return model.value;
}

const BUY_SHOWN = 'POST /api/v3/order: symbol BTCUSDT, side BUY, type LIMIT, quantity 0.001, price 30000';

describe('Copy as code: each program gets the answer `tradereq send` gets from the sandbox', function () {
  this.timeout(600_000);
  let tools: Toolchains;
  let sandbox: Sandbox;
  let dir: string;

  before(async function () {
    tools = ensureToolchains(this);
    ensureBuilt();
    sandbox = await startSandbox({ port: 0, banScale: 0.001 });
    const url = sandbox.baseUrl;
    const requests = [
      ...RUN_CASES.map((c) => c.build(url)),
      CHAIN.buy(url),
      CHAIN.byOrderId(url, 'GET'),
      guardedBuy(url),
    ];
    prebuildGo(
      tools,
      [...requests, CHAIN.byOrderId(url, 'DELETE')].map((r) => generated(r, 'go')),
    );
    dir = fixtureFolder('tradereq-codegen-');
  });

  after(async () => {
    await sandbox?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function control(path: string, body: object = {}): Promise<void> {
    const r = await sandboxControl(sandbox.baseUrl, path, body);
    assert.equal(r.status, 200, r.text);
  }

  async function reached(): Promise<string[]> {
    const log = JSON.parse((await sandboxControl(sandbox.baseUrl, 'requests')).text) as {
      method: string;
      path: string;
    }[];
    return log.map((e) => `${e.method} ${e.path}`);
  }

  const send = (file: string, args: string[]): Promise<SendLine[]> => sendJson(sandbox.baseUrl, dir, file, args);

  for (const c of RUN_CASES) {
    const expected = `${c.expected.status}${c.expected.code === null ? '' : ` ${c.expected.code}`}`;
    it(`${c.name}: the five programs get the answer of \`tradereq send\` (${expected})`, async () => {
      await control('reset');
      const [reference] = await send('requests.tradereq', ['--request', c.name]);
      assert.deepEqual([reference!.status, reference!.code], [c.expected.status, c.expected.code], 'the fixture');
      const request = c.build(sandbox.baseUrl);
      const ids = new Set<string>();
      for (const language of LANGUAGES) {
        const program = prepare(tools, dir, c.name, request, language);
        await control('reset');
        const r = await run(program, { env: DEMO_KEYS });
        const why = describeRun(program, r);
        assert.equal(r.status, reference!.status, why);
        assert.equal(codeOf(r.body), reference!.code, why);
        assert.deepEqual(normalise(r.body), normalise(reference!.body), why);
        assert.equal(r.exit, reference!.exit, why);
        if (c.name === 'clientOrderId') ids.add((r.body as { clientOrderId: string }).clientOrderId);
      }
      if (c.name === 'clientOrderId') {
        assert.equal(ids.size, LANGUAGES.length, 'a fresh id on each run');
        for (const id of ids) assert.match(id, /^[A-Za-z0-9]{32}$/);
      }
    });
  }

  it('a response field is a program parameter: buy, then query (argument) and cancel (environment) by its orderId', async () => {
    await control('reset');
    const reference = await send('chain.tradereq', ['--all']);
    assert.deepEqual(
      reference.map((l) => l.status),
      [200, 200, 200],
    );
    for (const language of LANGUAGES) {
      const buy = prepare(tools, dir, 'chain-buy', CHAIN.buy(sandbox.baseUrl), language);
      const query = prepare(tools, dir, 'chain-query', CHAIN.byOrderId(sandbox.baseUrl, 'GET'), language);
      const cancel = prepare(tools, dir, 'chain-cancel', CHAIN.byOrderId(sandbox.baseUrl, 'DELETE'), language);
      await control('reset');
      const bought = await run(buy, { env: DEMO_KEYS });
      assert.equal(bought.status, 200, describeRun(buy, bought));
      const orderId = String((bought.body as { orderId: string }).orderId);
      const queried = await run(query, { env: DEMO_KEYS, args: [orderId] });
      assert.equal(queried.status, 200, describeRun(query, queried));
      assert.equal(String((queried.body as { orderId: string }).orderId), orderId);
      assert.deepEqual(normalise(queried.body), normalise(reference[1]!.body));
      const cancelled = await run(cancel, { env: { ...DEMO_KEYS, buy_orderId: orderId } });
      assert.equal(cancelled.status, 200, describeRun(cancel, cancelled));
      assert.deepEqual(normalise(cancelled.body), normalise(reference[2]!.body));
      assert.equal((cancelled.body as { status: string }).status, 'CANCELED');
    }
  });

  it('an order for a "confirm": true environment: without a terminal nothing is sent, exit 4 and why, unless --yes is given', async () => {
    const request = guardedBuy(sandbox.baseUrl);
    for (const language of LANGUAGES) {
      const program = prepare(tools, dir, 'guarded', request, language);
      await control('reset');
      const refused = await run(program, { env: DEMO_KEYS });
      const why = describeRun(program, refused);
      assert.equal(refused.exit, 4, why);
      assert.equal(refused.stdout, '', why);
      assert.equal(
        refused.stderr,
        `error: ${BUY_SHOWN} needs confirmation (${GUARDED_REASON}) and there is no terminal to ask: pass --yes to send it.\n`,
      );
      assert.deepEqual(await reached(), [], `${language} sent nothing`);
      const sent = await run(program, { env: DEMO_KEYS, args: ['--yes'] });
      assert.equal(sent.status, 200, describeRun(program, sent));
      assert.equal(sent.exit, 0, describeRun(program, sent));
      assert.deepEqual(await reached(), ['POST /api/v3/order'], `${language} sent once`);
    }
  });

  it('an order for a "confirm": true environment in a terminal: shows the order and where it goes, asks y/N; y sends, n sends nothing', async function () {
    if (terminalCommand() === undefined) {
      console.log('      not run here: needs util-linux script, which gives a program a terminal');
      return this.skip();
    }
    const request = guardedBuy(sandbox.baseUrl);
    const question = `Send ${BUY_SHOWN} to ${sandbox.baseUrl}? [y/N] `;
    for (const language of LANGUAGES) {
      const program = prepare(tools, dir, 'guarded', request, language);
      await control('reset');
      const no = await run(program, { env: DEMO_KEYS, typed: 'n' });
      assert.equal(no.exit, 4, describeRun(program, no));
      assert.ok(no.stdout.includes(question), describeRun(program, no));
      assert.ok(no.stdout.includes(`${BUY_SHOWN} was not sent: you answered no.`), describeRun(program, no));
      assert.deepEqual(await reached(), [], `${language} sent nothing`);
      const yes = await run(program, { env: DEMO_KEYS, typed: 'y' });
      assert.equal(yes.exit, 0, describeRun(program, yes));
      assert.ok(yes.stdout.includes(question), describeRun(program, yes));
      // The status line follows the question: the terminal echoed the answer, typed ahead, before it.
      assert.match(yes.stdout, /\b200\r?\n\{"symbol":"BTCUSDT"/, describeRun(program, yes));
      assert.deepEqual(await reached(), ['POST /api/v3/order'], `${language} sent once`);
    }
  });

  it('exit 2 with a usage line, nothing sent, when a parameter is missing; exit 2 naming the variables when the keys are', async () => {
    for (const language of LANGUAGES) {
      const query = prepare(tools, dir, 'usage-query', CHAIN.byOrderId(sandbox.baseUrl, 'GET'), language);
      await control('reset');
      const noArgument = await run(query, { env: DEMO_KEYS });
      assert.equal(noArgument.exit, 2, describeRun(query, noArgument));
      assert.match(
        noArgument.stderr,
        /usage: \S+ buy_orderId\n {2}buy_orderId: orderId from the response of the request named buy/,
      );
      const tooMany = await run(query, { env: DEMO_KEYS, args: ['1', '2'] });
      assert.equal(tooMany.exit, 2, describeRun(query, tooMany));
      const noKeys = await run(query, { args: ['1'] });
      assert.equal(noKeys.exit, 2, describeRun(query, noKeys));
      assert.match(
        noKeys.stderr,
        /TRADEREQ_SANDBOX_API_KEY \(the API key\) and TRADEREQ_SANDBOX_SECRET_KEY \(the secret key\)/,
      );
      assert.equal(noKeys.stdout, '');
      assert.deepEqual(await reached(), [], `${language} sent nothing`);
    }
  });

  it('exit 3 on a 5xx after the order was carried out, as send: the outcome is unknown, the program does not retry', async () => {
    const fault = { status: 503, count: 1, path: '/api/v3/order' };
    await control('reset');
    await control('fault', fault);
    const [reference] = await send('requests.tradereq', ['--request', 'buy']);
    assert.deepEqual([reference!.status, reference!.exit, reference!.outcome], [503, 3, 'unknown']);
    const request = RUN_CASES.find((c) => c.name === 'buy')!.build(sandbox.baseUrl);
    for (const language of LANGUAGES) {
      const program = prepare(tools, dir, 'fault', request, language);
      await control('reset');
      await control('fault', fault);
      const r = await run(program, { env: DEMO_KEYS });
      assert.equal(r.status, 503, describeRun(program, r));
      assert.equal(r.exit, 3, describeRun(program, r));
      assert.equal(codeOf(r.body), reference!.code);
      assert.match(r.stderr, /outcome is unknown: the request may have been carried out/);
      assert.deepEqual(await reached(), ['POST /api/v3/order'], `${language} sent once`);
    }
  });
});
