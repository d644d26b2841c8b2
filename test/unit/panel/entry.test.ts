/**
 * A panel entry in the display language (issue 23): with the Simplified Chinese bundle loaded, what
 * the pipeline and the entry say (the outcome line, a 700003's clock note, a refusal's reason, the
 * decoded error code) is Chinese. Real parts: the sandbox over HTTP, node:http's sender, the budget.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { Budget } from '../../../src/core/budget/budget';
import { MemoryStateStore } from '../../../src/core/budget/state';
import { ClockSync } from '../../../src/core/clock/sync';
import { parse } from '../../../src/core/format/parser';
import { setL10nBundle } from '../../../src/core/l10n';
import { NodeHttpSender } from '../../../src/core/net/node-http-sender';
import { entryFromResult } from '../../../src/core/panel/entry';
import type { PanelEntry } from '../../../src/core/panel/protocol';
import { runRequest, type PipelineDeps } from '../../../src/core/request/pipeline';
import { sandboxEnvironment, sandboxKeys } from '../../../src/core/testing/sandbox';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { zhCnBundle } from '../../support/l10n';
import { DEMO_ACCOUNTS } from '../../../src/core/env/demo';
import { ownerDecision } from '../../../src/core/request/confirm';
import { ok } from '../../../src/core/result';
import { controlOk } from '../../support/sandbox-ws';

/** A loopback port nothing listens on: one the system gave and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('panel entry in the display language', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let sender: NodeHttpSender;
  let store: MemoryStateStore;
  let deps: PipelineDeps;

  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0 });
    sender = new NodeHttpSender();
    store = new MemoryStateStore();
    deps = {
      sender,
      budget: new Budget(store),
      clock: new ClockSync(store),
      clockSync: true,
      responses: new Map<string, unknown>(),
      key: sandboxKeys(new URL(sandbox.baseUrl).origin),
      confirm: () => true,
    };
  });

  afterEach(async () => {
    setL10nBundle(undefined);
    await sender.close();
    await sandbox.close();
  });

  /** Sends `text` to `baseUrl` (the sandbox's by default) and makes the panel's entry of it. */
  async function entry(text: string, baseUrl = sandbox.baseUrl): Promise<PanelEntry> {
    const doc = parse(text);
    const r = await runRequest(doc, doc.requests[0]!, sandboxEnvironment(baseUrl), deps);
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    const origin = new URL(baseUrl).origin;
    return entryFromResult(r.value, { id: '1', at: Date.now(), title: text, clock: deps.clock.sample(origin) });
  }

  it("a 700003: the outcome line, the error code's words and the clock note are Chinese", async () => {
    await entry('GET /api/v3/account\n');
    await controlOk(sandbox, '/clock', { offsetMs: 30_000 });
    setL10nBundle(zhCnBundle());
    const e = await entry('GET /api/v3/account\n');
    assert.equal(e.outcome, 'rejected');
    assert.match(e.summary, /^\d{3} 被拒绝：700003 timestamp 超出了 recvWindow /);
    assert.deepEqual(e.error?.meanings, ['timestamp 超出了 recvWindow']);
    assert.match(e.error?.cause ?? '', /^只有满足 timestamp < serverTime \+ 1000/);
    assert.match(e.error?.action ?? '', /^服务未处理任何内容，因此重新发送是安全的/);
    assert.match(e.error?.hoverText ?? '', /常见原因：.*\n\n处理建议：/s);
    assert.match(
      e.note ?? '',
      /^服务只处理满足 timestamp < serverTime \+ 1000 .*。已重新测量服务器时钟：你的时钟比服务器慢 \d+ ms（此前：比服务器(慢|快) \d+ ms）；下次发送将使用新的偏差。$/,
    );
    assert.equal(e.sendAgain, true);
  });

  it("a refusal of the gate (a 418 ban in the state): the entry's reason and outcome line are Chinese", async () => {
    const origin = new URL(sandbox.baseUrl).origin;
    await deps.budget.record({ origin, mode: 'ip', weight: 0 }, { status: 418, retryAfterSeconds: 120 });
    setL10nBundle(zhCnBundle());
    const e = await entry('GET /api/v3/ping\n');
    assert.equal(e.outcome, 'refused');
    const reason = `服务因反复违反频率限制封禁了此 IP（418）：\\d+ 秒内不会向 ${origin} 发送任何请求。现在发送会延长封禁（§8 规则 2–3）。`;
    assert.match(e.reason ?? '', new RegExp(`^${reason}$`));
    assert.match(e.summary, new RegExp(`^已拦截：${reason}$`));
  });

  it('nothing answers at the origin: the reason and the outcome line are Chinese; with no bundle, English', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    setL10nBundle(zhCnBundle());
    const zh = await entry('GET /api/v3/ping\n', baseUrl);
    assert.equal(zh.outcome, 'not-sent');
    assert.match(zh.reason ?? '', /^http:\/\/127\.0\.0\.1:\d+ 没有响应：服务器是否在运行？/);
    assert.match(zh.summary, /^未发送：http:\/\/127\.0\.0\.1:\d+ 没有响应/);
    setL10nBundle(undefined);
    const en = await entry('GET /api/v3/ping\n', baseUrl);
    assert.match(en.summary, /^not sent: Nothing answers at http:\/\/127\.0\.0\.1:\d+: is the server running\?/);
  });

  it('a 700006 in a remote window: the note says the request left from the remote host; in a local window, no such note', async () => {
    const ipbound = DEMO_ACCOUNTS.find((a) => a.name === 'ipbound')!;
    const origin = new URL(sandbox.baseUrl).origin;
    deps = {
      ...deps,
      key: () =>
        ok({
          key: ipbound,
          binding: { profile: 'ipbound', origins: [origin], source: 'test' },
          owner: ownerDecision(ipbound, 'ipbound'),
        }),
    };
    const doc = parse('GET /api/v3/account\n');
    const r = await runRequest(doc, doc.requests[0]!, sandboxEnvironment(sandbox.baseUrl), deps);
    assert.ok(r.ok);
    assert.equal(r.value.report.decoded?.code, 700006);
    const remote = entryFromResult(r.value, { id: '1', at: 0, title: 't', remote: 'ssh-remote' });
    assert.match(remote.note ?? '', /This window is remote \(ssh-remote\): requests leave from the remote host/);
    const local = entryFromResult(r.value, { id: '2', at: 0, title: 't' });
    assert.doesNotMatch(local.note ?? '', /remote/);
  });
});
