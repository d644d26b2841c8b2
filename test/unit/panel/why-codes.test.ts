/**
 * The panel's Why? on a request whose file writes its own `timestamp` (issue 34): the advice is to
 * delete that line, which TradeReq writes itself, not clock code for a program. Real parts: the
 * request sent to the in-process sandbox through the pipeline, its panel entry, the doctor's diagnosis
 * of what TradeReq sent (as the editor's Why? reads it from the history), and its report.
 */
import assert from 'node:assert/strict';
import { Budget } from '../../../src/core/budget/budget';
import { MemoryStateStore } from '../../../src/core/budget/state';
import { ClockSync } from '../../../src/core/clock/sync';
import { diagnose } from '../../../src/core/doctor/diagnose';
import { reportText } from '../../../src/core/doctor/report';
import type { DoctorKey, SentRequest } from '../../../src/core/doctor/types';
import { maskApiKey } from '../../../src/core/env/keys';
import { DEMO_ACCOUNTS } from '../../../src/core/env/demo';
import { parse } from '../../../src/core/format/parser';
import { NodeHttpSender } from '../../../src/core/net/node-http-sender';
import { entryFromResult } from '../../../src/core/panel/entry';
import type { PanelEntry } from '../../../src/core/panel/protocol';
import { whyAdvice } from '../../../src/core/panel/why-codes';
import { runRequest, type PipelineDeps } from '../../../src/core/request/pipeline';
import { sandboxEnvironment, sandboxKeys } from '../../../src/core/testing/sandbox';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { controlOk } from '../../support/sandbox-ws';

const KEY: DoctorKey = { profile: 'sandbox', apiKey: DEMO_ACCOUNTS[0]!.apiKey, secretKey: DEMO_ACCOUNTS[0]!.secretKey };

/** What TradeReq sent, as Why? reads it from a history entry: the masked API key put back. */
function sentOf(entry: PanelEntry): SentRequest {
  const r = entry.request;
  const mask = maskApiKey(KEY.apiKey);
  const headers = r.headers.map(([name, value]) => ({ name, value: value === mask ? KEY.apiKey : value }));
  return { method: r.method, url: r.url.split('?')[0]!, query: r.query, body: r.body, headers, form: 'tradereq' };
}

describe('panel: Why? on a request that writes its own timestamp', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let sender: NodeHttpSender;
  let deps: PipelineDeps;

  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0 });
    sender = new NodeHttpSender();
    const store = new MemoryStateStore();
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
    await sender.close();
    await sandbox.close();
  });

  /** Sends the first request of `text` and makes its panel entry. */
  async function send(text: string): Promise<PanelEntry> {
    const doc = parse(text);
    const r = await runRequest(doc, doc.requests[0]!, sandboxEnvironment(sandbox.baseUrl), deps);
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    return entryFromResult(r.value, { id: '1', at: Date.now(), title: 'Stale', keyProfile: 'sandbox' });
  }

  /** Sends the first request of `text`, refused with 700003, and gives its entry and what Why? reports on it. */
  async function why(text: string): Promise<{ entry: PanelEntry; report: string; fix: string; snippets: object }> {
    const entry = await send(text);
    assert.equal(entry.error?.code, 700003, `the sandbox refuses it with 700003 (${entry.summary})`);
    const d = diagnose({
      sent: sentOf(entry),
      key: KEY,
      otherKeys: [],
      now: entry.at,
      sentByTradeReq: true,
      code: 700003,
    });
    const advised = whyAdvice(d, entry);
    return { entry, report: reportText(advised), fix: advised.fix, snippets: advised.snippets };
  }

  it('a stale timestamp written in the file: delete that line (named), no clock code', async () => {
    const { report, fix, snippets } = await why(
      ['### Stale', 'GET /api/v3/account', 'recvWindow = 5000', 'timestamp = 1600000000000', ''].join('\n'),
    );
    assert.match(fix, /^Line 4 of "Stale"/, fix);
    assert.match(fix, /\(1600000000000\)/, fix);
    assert.match(fix, /[Dd]elete/, fix);
    assert.deepEqual(snippets, {}, 'no code for a program');
    // No clock code for a program: the report shows no snippet of any language.
    assert.doesNotMatch(report, /^ {2}(Python|Node|Go|Shell)\b|time\.time\(|UnixMilli/m, report);
  });

  it('a stale timestamp written in a [json] body: delete that line too', async () => {
    const { fix, snippets } = await why(
      [
        '### Seconds',
        'POST /api/v3/order',
        '[json]',
        '{"symbol": "BTCUSDT", "side": "BUY", "type": "MARKET",',
        ' "quantity": "0.001", "timestamp": 1600000000000}',
        '',
      ].join('\n'),
    );
    assert.match(fix, /^Line 5 of/, fix);
    assert.deepEqual(snippets, {});
  });

  it('without a timestamp in the file, the clock advice stays', async () => {
    // The clock measured on a first send, then the sandbox's clock moved: TradeReq's own timestamp is refused.
    assert.equal((await send('GET /api/v3/account\n')).status, 200);
    await controlOk(sandbox, '/clock', { offsetMs: 30_000 });
    const { entry, fix } = await why(['### Fresh', 'GET /api/v3/account', ''].join('\n'));
    assert.equal(entry.request.ownTimestamp, undefined);
    assert.doesNotMatch(fix, /[Dd]elete/);
    assert.match(fix, /TradeReq wrote this timestamp .* set the system clock/, fix);
  });
});
