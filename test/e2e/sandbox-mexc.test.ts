/**
 * The sandbox playing mexc as a user starts it: `tradereq sandbox --deployment mexc` as a process
 * (its JSON line, its key header, a binary push decoded by protobufjs), and `tradereq test
 * --sandbox` on a request file whose environment says "deployment": "mexc": the sandbox is started
 * as mexc, the REST requests go with X-MEXC-APIKEY and pass, the WebSocket request is left to
 * `tradereq listen`; a spec file beside it runs against a spec sandbox in the same run.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import protobuf from 'protobufjs';
import { request } from 'undici';
import { WebSocket } from 'ws';
import { ensureBuilt } from '../support/build';
import { CLI, ROOT, cleanEnv, describeRun, tradereq } from '../support/cli';

const Wrapper = protobuf
  .loadSync(join(ROOT, 'src', 'core', 'ws', 'proto', 'push.proto'))
  .lookupType('tradereq.push.PushDataV3ApiWrapper');

const MEXC_FILE = `### Buy at a limit price
# @name buy
# @expect status 200
# @expect json status == FILLED
POST /api/v3/order
symbol = BTCUSDT
side = BUY
type = LIMIT
quantity = 0.5
price = 30010

### The order placed
# @expect json executedQty == 0.50000000
GET /api/v3/order
symbol = BTCUSDT
orderId = {{buy.response.orderId}}

### Its trades, decoded
# @listen 5
# @expect message publicAggreDeals.deals[0].price == 30010.00000000
WS /ws
[subscribe]
spot@public.aggre.deals.v3.api.pb@100ms@BTCUSDT
`;

const SPEC_FILE = `### The account
# @expect status 200
GET /api/v3/account
`;

interface Info {
  readonly baseUrl: string;
  readonly wsUrl: string;
  readonly deployment: string;
  readonly apiKeyHeader: string;
  readonly keys: readonly { apiKey: string; secretKey: string }[];
}

describe('the sandbox playing mexc, as a user runs it', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    ensureBuilt();
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tradereq-sandbox-mexc-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('tradereq sandbox --deployment mexc --json: names mexc and X-MEXC-APIKEY; a trade is pushed as a binary wrapper protobufjs decodes', async () => {
    const child = spawn(process.execPath, [CLI, 'sandbox', '--deployment', 'mexc', '--port', '0', '--json'], {
      cwd: ROOT,
      env: cleanEnv({ TRADEREQ_STATE_DIR: join(dir, 'state') }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const info = JSON.parse(
        await new Promise<string>((resolve, reject) => {
          createInterface({ input: child.stdout }).once('line', resolve);
          child.once('exit', () => reject(new Error('exited before printing')));
        }),
      ) as Info;
      assert.deepEqual([info.deployment, info.apiKeyHeader], ['mexc', 'X-MEXC-APIKEY']);
      const ws = new WebSocket(info.wsUrl);
      const frames: Buffer[] = [];
      const replied = new Promise<string>((resolve) =>
        ws.on('message', (data: Buffer, binary: boolean) => (binary ? frames.push(data) : resolve(data.toString()))),
      );
      await new Promise((resolve) => ws.once('open', resolve));
      ws.send(JSON.stringify({ method: 'SUBSCRIPTION', params: ['spot@public.aggre.deals.v3.api.pb@10ms@BTCUSDT'] }));
      assert.deepEqual(JSON.parse(await replied), {
        id: 0,
        code: 0,
        msg: 'spot@public.aggre.deals.v3.api.pb@10ms@BTCUSDT',
      });
      const key = info.keys[0]!;
      const query = `symbol=BTCUSDT&side=SELL&type=LIMIT&quantity=0.25&price=29990&timestamp=${Date.now()}`;
      const signature = createHmac('sha256', key.secretKey).update(query).digest('hex');
      const res = await request(`${info.baseUrl}/api/v3/order?${query}&signature=${signature}`, {
        method: 'POST',
        headers: { 'X-MEXC-APIKEY': key.apiKey },
      });
      assert.equal(res.statusCode, 200, await res.body.text());
      const deadline = Date.now() + 20_000;
      while (frames.length === 0 && Date.now() < deadline) await new Promise((r) => ws.once('message', r));
      const push = Wrapper.toObject(Wrapper.decode(frames[0]!), { longs: Number, oneofs: true }) as {
        body: string;
        publicAggreDeals: { deals: { price: string; quantity: string; tradeType: number }[] };
      };
      assert.equal(push.body, 'publicAggreDeals');
      assert.deepEqual(push.publicAggreDeals.deals[0], {
        ...push.publicAggreDeals.deals[0],
        price: '29990.00000000',
        quantity: '0.25000000',
        tradeType: 2,
      });
      ws.terminate();
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); // a failure above left it running
    }
  });

  it('tradereq test --sandbox: a file whose environment says "deployment": "mexc" runs against a mexc sandbox, a spec file beside it against a spec one', async () => {
    mkdirSync(join(dir, 'mexc'));
    mkdirSync(join(dir, 'spec'));
    writeFileSync(
      join(dir, 'mexc', 'tradereq.env.json'),
      JSON.stringify({ sandbox: { baseUrl: 'http://127.0.0.1:8780', key: 'sandbox', deployment: 'mexc' } }),
    );
    writeFileSync(join(dir, 'mexc', 'trade.tradereq'), MEXC_FILE);
    writeFileSync(
      join(dir, 'spec', 'tradereq.env.json'),
      JSON.stringify({ sandbox: { baseUrl: 'http://127.0.0.1:8780', key: 'sandbox' } }),
    );
    writeFileSync(join(dir, 'spec', 'account.tradereq'), SPEC_FILE);
    const r = await tradereq(['test', '--sandbox', '--reporter', 'json'], {
      cwd: dir,
      env: { TRADEREQ_STATE_DIR: join(dir, 'state') },
    });
    assert.equal(r.status, 0, describeRun(r));
    const report = JSON.parse(r.stdout) as {
      summary: { passed: number; failed: number };
      files: { path: string; cases: { verdict: string; request?: string }[] }[];
    };
    assert.deepEqual([report.summary.passed, report.summary.failed], [3, 0], r.stdout);
    const mexc = report.files.find((f) => f.path.includes('trade.tradereq'))!;
    assert.deepEqual(
      mexc.cases.map((c) => c.verdict),
      ['passed', 'passed', 'skipped'],
      'the REST requests pass; the WebSocket request is left to tradereq listen',
    );
    // A mexc sandbox refuses the spec's header (§5 rule 1): these passed with the deployment's own.
    assert.match(mexc.cases[0]!.request ?? '', /\nX-MEXC-APIKEY: \*+0001\n/);
    const spec = report.files.find((f) => f.path.includes('account.tradereq'))!;
    assert.match(spec.cases[0]!.request ?? '', /\nX-SERVICE-APIKEY: \*+0001\n/);
  });
});
