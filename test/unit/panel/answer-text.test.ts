/**
 * Compare Two Answers' documents (src/core/panel/answer-text.ts), made from panel entries of real
 * sends to the in-process sandbox (runRequest with the command line's parts, then entryFromResult as
 * the editor makes them): what they hold, what they never hold (a key, a listen key), and masking.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Budget } from '../../../src/core/budget/budget';
import { FileStateStore } from '../../../src/core/budget/state';
import { ClockSync } from '../../../src/core/clock/sync';
import { DEMO_ACCOUNTS } from '../../../src/core/env/demo';
import { parse } from '../../../src/core/format/parser';
import { NodeHttpSender } from '../../../src/core/net/node-http-sender';
import { answerFileName, answerLabel, answerText } from '../../../src/core/panel/answer-text';
import { entryFromResult } from '../../../src/core/panel/entry';
import type { PanelEntry } from '../../../src/core/panel/protocol';
import { runRequest } from '../../../src/core/request/pipeline';
import { maskVolatile } from '../../../src/core/testing/mask';
import { sandboxEnvironment, sandboxKeys } from '../../../src/core/testing/sandbox';
import { startSandbox, type Sandbox } from '../../../src/sandbox';

const DEMO = DEMO_ACCOUNTS[0]!;
const ORDER =
  'POST /api/v3/order\nsymbol = BTCUSDT\nside = BUY\ntype = LIMIT\ntimeInForce = GTC\nquantity = 0.001\nprice = 30000\n';

/** A stand-in for the volatile fields' masking: the text's contract is only that it shows what the mask gives. */
const maskOrderId = (json: unknown): unknown =>
  json !== null && typeof json === 'object' ? { ...json, orderId: '<orderId>', transactTime: '<transactTime>' } : json;

describe('Compare Two Answers: the answer documents', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let sender: NodeHttpSender;
  let dir: string;
  let sent = 0;

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    sender = new NodeHttpSender();
    dir = mkdtempSync(join(tmpdir(), 'tradereq-answer-text-'));
  });
  after(async () => {
    await sender.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Sends `text`'s first request to the sandbox with the demo key; the panel entry as the editor makes it. */
  async function send(text: string): Promise<PanelEntry> {
    const doc = parse(text);
    const store = new FileStateStore(dir);
    const r = await runRequest(doc, doc.requests[0]!, sandboxEnvironment(sandbox.baseUrl), {
      sender,
      budget: new Budget(store),
      clock: new ClockSync(store),
      clockSync: true,
      responses: new Map(),
      key: sandboxKeys(new URL(sandbox.baseUrl).origin),
      confirm: () => true,
    });
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    return entryFromResult(r.value, { id: `e${++sent}`, at: Date.UTC(2025, 2, 14, 13, 2, sent), title: 'the test' });
  }

  it('an accepted order: request line, environment, outcome, status, headers by name, the body pretty; no key in it', async () => {
    const entry = await send(ORDER);
    const text = answerText(entry);
    const lines = text.split('\n');
    assert.deepEqual(lines.slice(0, 5), [
      'POST /api/v3/order',
      'environment: sandbox',
      'outcome: ok',
      `status: 200 ${entry.statusMeaning}`,
      '',
    ]);
    assert.equal(lines[5], 'headers:');
    const names = lines.slice(6, lines.indexOf('', 6)).map((l) => l.split(':')[0]!);
    assert.deepEqual(names, [...names].sort(), 'headers sorted by name');
    assert.ok(names.includes('content-type'));
    assert.match(text, /\nbody \(JSON\):\n\{\n {2}"symbol": "BTCUSDT",\n/);
    assert.ok(text.endsWith('}\n'));
    for (const secret of [DEMO.apiKey, DEMO.secretKey]) assert.ok(!text.includes(secret), 'no key value');
    assert.ok(!/x-service-apikey/i.test(text), 'the request headers (the API key) are not in it');
  });

  it('a listen key in the answer shows masked (its last four characters), never in full', async () => {
    const entry = await send('POST /api/v3/userDataStream\n');
    assert.match(entry.response!.body, /"listenKey": "\*{4}\w{4}"/, 'the entry keeps it masked');
    // An entry that kept it whole (none does: entry.ts masks it): its document masks it all the same.
    const whole = `${'k'.repeat(60)}ab12`;
    const raw = { ...entry, response: { ...entry.response!, body: `{\n  "listenKey": "${whole}"\n}` } };
    for (const text of [answerText(entry), answerText(raw), answerText(raw, (j) => j), answerText(raw, maskOrderId)]) {
      assert.ok(!text.includes(whole), `a listen key in full:\n${text}`);
      assert.ok(!text.includes(DEMO.apiKey) && !text.includes(DEMO.secretKey));
    }
    assert.match(answerText(raw), /"listenKey": "\*{4}ab12"/);
  });

  it('a rejection: the decoded code with its meanings and the service’s message', async () => {
    const entry = await send(ORDER.replace('quantity = 0.001', 'quantity = 0.00000001'));
    assert.equal(entry.outcome, 'rejected', entry.summary);
    const text = answerText(entry);
    assert.match(text, new RegExp(`\\ncode: ${entry.error!.code} \\S`));
    assert.match(text, /\nmsg: \S/);
  });

  it('masking: the mask’s copy of the body, and the volatile headers (date, length, used weight) as placeholders', async () => {
    const [a, b] = [await send(ORDER), await send(ORDER)];
    assert.notEqual(answerText(a), answerText(b), 'two orders differ as received');
    // Masked as the editor masks them (src/extension/answer-documents.ts): two orders alike but for ids and times read the same.
    const mask = (json: unknown): unknown => maskVolatile(json).value;
    assert.equal(answerText(a, mask), answerText(b, mask));
    assert.match(
      answerText(a, mask),
      /"orderId": "<orderId>",\n {2}"orderListId": -1,\n {2}"clientOrderId": "<clientOrderId>"/,
    );
    const masked = answerText(a, maskOrderId);
    assert.match(masked, /\nbody \(JSON, volatile fields masked\):\n/);
    assert.match(masked, /"orderId": "<orderId>"/);
    assert.match(masked, /\ncontent-length: <content-length>\n/);
    assert.match(masked, /\nx-service-used-weight-10s: <x-service-used-weight-10s>\n/);
    assert.doesNotMatch(answerText(a), /<content-length>/, 'nothing masked without the mask');
  });

  it('a body cut by the history is shown as kept and not masked; a send without an answer says so', async () => {
    const entry = await send(ORDER);
    const cut = { ...entry, response: { ...entry.response!, body: '{"orderId": 1', truncated: true } };
    assert.match(answerText(cut, maskOrderId), /\nbody \(JSON, cut by the history, not masked\):\n\{"orderId": 1\n$/);
    const refused: PanelEntry = {
      ...entry,
      outcome: 'refused',
      status: undefined,
      statusMeaning: undefined,
      response: undefined,
      reason: 'The service asked to back off (429).',
    };
    const text = answerText(refused);
    assert.match(text, /\nstatus: none\nreason: The service asked to back off \(429\)\.\n/);
    assert.match(text, /\nheaders: none \(no answer\)\n\nbody: none \(no answer\)\n$/);
  });

  it('labels and file names: method, path, environment and time; a file name without path separators', async () => {
    const entry = await send(ORDER);
    assert.match(answerLabel(entry), /^POST \/api\/v3\/order · sandbox · \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const hostile = { ...entry, title: '../../etc/passwd\\..\u0000<b>', environment: 'live' };
    assert.match(answerFileName(hostile), /^[\w .()@-]+\.txt$/);
    assert.ok(!answerFileName(hostile).includes('/'));
  });
});
