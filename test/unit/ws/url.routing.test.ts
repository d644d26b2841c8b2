/**
 * A listen key goes only where the key that obtained it may go (issue 18, section 1), in the core
 * that the command line, the editor's Send and the Testing view share: a listen key never resolves
 * into a request (runRequest, against the sandbox over HTTP, a hostile server standing for the
 * other host), every result of a run masks the credentials its answers gave (runCases), and a
 * WebSocket endpoint is approved through the key profile's origins (checkListenKeyBinding).
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Budget } from '../../../src/core/budget/budget';
import { MemoryStateStore } from '../../../src/core/budget/state';
import { checkDocument } from '../../../src/core/check/check';
import { ClockSync } from '../../../src/core/clock/sync';
import { BUILTIN_SANDBOX } from '../../../src/core/env/constants';
import { parse } from '../../../src/core/format/parser';
import type { Sender } from '../../../src/core/net/send';
import { NodeHttpSender } from '../../../src/core/net/node-http-sender';
import type { KeyBinding } from '../../../src/core/request/origin-binding';
import { runRequest, type PipelineDeps } from '../../../src/core/request/pipeline';
import { testCases } from '../../../src/core/testing/cases';
import { runCases } from '../../../src/core/testing/run';
import { sandboxEnvironment, sandboxKeys } from '../../../src/core/testing/sandbox';
import { restListenKeyApi } from '../../../src/core/ws/listen-key-api';
import { checkListenKeyBinding } from '../../../src/core/ws/url';
import { startSandbox, type Sandbox } from '../../../src/sandbox';

/** A listen key as a hostile or real answer may carry one. */
const KEY = 'c0ffee'.repeat(10) + 'beef';

/** A server standing for another host: records what reaches it, answers with `answer(path)`. */
interface Other {
  readonly origin: string;
  readonly seen: string[];
  close(): Promise<void>;
}

async function otherHost(answer: (path: string) => unknown = () => ({})): Promise<Other> {
  const seen: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push(`${req.method ?? ''} ${req.url ?? ''} ${JSON.stringify(req.headers)} ${body}`);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer(req.url ?? '')));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('listen key routing: a listen key never resolves into a request', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let sender: Sender;
  let other: Other;

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  after(async () => {
    await sandbox.close();
  });
  beforeEach(async () => {
    sender = new NodeHttpSender();
    other = await otherHost((path) => (path.startsWith('/nested') ? { data: { listenKey: KEY } } : { echo: KEY }));
  });
  afterEach(async () => {
    await sender.close();
    await other.close();
  });

  function pipeline(): Omit<PipelineDeps, 'responses'> {
    const store = new MemoryStateStore();
    const origin = new URL(sandbox.baseUrl).origin;
    return {
      sender,
      budget: new Budget(store),
      clock: new ClockSync(store),
      clockSync: false,
      key: sandboxKeys(origin),
      confirm: () => true,
    };
  }

  /** Runs the requests of `text` in order with one responses map, as Send All and the Testing view do. */
  async function sendAll(text: string): Promise<{ ok: boolean; message?: string }[]> {
    const doc = parse(text);
    const deps = { ...pipeline(), responses: new Map<string, unknown>() };
    const out: { ok: boolean; message?: string }[] = [];
    for (const request of doc.requests) {
      const r = await runRequest(doc, request, sandboxEnvironment(sandbox.baseUrl), deps);
      out.push(r.ok ? { ok: true } : { ok: false, message: r.error.message });
    }
    return out;
  }

  const OBTAIN = '### Obtain\n# @name lk\nPOST /api/v3/userDataStream\n\n';

  for (const [what, request] of [
    ['in the query', 'GET {{other}}/c?k={{lk.response.listenKey}}'],
    ['in the path', 'GET {{other}}/c/{{lk.response.listenKey}}'],
    ['in a header', 'GET {{other}}/c\nX-Key: {{lk.response.listenKey}}'],
    ['in a JSON body', 'POST {{other}}/c\n[json]\n{"k": "{{lk.response.listenKey}}"}'],
    ['through a file variable', 'GET {{other}}/c?k={{via}}'],
    ['as the whole answer ({{lk.response..}})', 'GET {{other}}/c?k={{lk.response..}}'],
  ] as const) {
    it(`refused ${what}: nothing reaches the other host, and the message says to use # @listenKey`, async () => {
      const file = `@other = ${other.origin}\n@via = {{lk.response.listenKey}}\n${OBTAIN}### Elsewhere\n# @unsigned\n${request}\n`;
      const [obtain, elsewhere] = await sendAll(file);
      assert.deepEqual(obtain, { ok: true });
      assert.equal(elsewhere?.ok, false);
      assert.match(elsewhere.message ?? '', /is a listen key, a credential that never goes into a request/);
      assert.match(elsewhere.message ?? '', /nothing was sent\. To use one, write # @listenKey on a WS request/);
      assert.doesNotMatch(elsewhere.message ?? '', /Nothing is sent until it resolves/);
      assert.deepEqual(other.seen, []);
    });
  }

  it("refused when another server's answer nests a listenKey field (the catalog's credential, at any depth)", async () => {
    const file = `### Nested\n# @name h\nGET ${other.origin}/nested\n\n### Again\nGET ${other.origin}/c?d={{h.response.data}}\n`;
    const [first, second] = await sendAll(file);
    assert.deepEqual(first, { ok: true });
    assert.match(second?.message ?? '', /\{\{h\.response\.data\}\} is a listen key/);
    assert.equal(other.seen.length, 1, 'only the first request went out');
  });

  it('every result of a run masks the credentials its answers gave, whichever request shows them', async () => {
    // "h" gets a key; the next request's answer repeats it without naming it (a hostile echo).
    const file = `### Nested\n# @name h\nGET ${other.origin}/nested\n\n### Echo\n# @expect json echo == x\nGET ${other.origin}/echo\n`;
    const doc = parse(file);
    const results = await runCases(doc, testCases(doc), {
      pipeline: pipeline(),
      environment: sandboxEnvironment(sandbox.baseUrl),
      responses: new Map(),
    });
    assert.equal(results.length, 2);
    const shown = JSON.stringify(results);
    assert.ok(!shown.includes(KEY), shown);
    assert.match(results[1]!.response ?? '', /"echo": "\*\*\*\*beef"/);
    assert.equal(results[1]!.expectations[0]!.actual.includes('****beef'), true);
  });
});

describe('listen key routing: the listen key calls check the WebSocket origin first (the editor and the command line)', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let sender: Sender;

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  after(async () => {
    await sandbox.close();
  });
  beforeEach(() => {
    sender = new NodeHttpSender();
  });
  afterEach(async () => {
    await sender.close();
  });

  /** Obtains a key for an environment with `wsUrl`; what the shell was told, and what reached the sandbox. */
  async function obtain(wsUrl: string): Promise<{ error: string; offered: string[]; reached: number }> {
    const store = new MemoryStateStore();
    const offered: string[] = [];
    const api = restListenKeyApi({
      environment: { name: 'sandbox', baseUrl: sandbox.baseUrl, wsUrl, key: 'sandbox' },
      key: sandboxKeys(new URL(sandbox.baseUrl).origin),
      sender,
      budget: new Budget(store),
      clock: new ClockSync(store),
      clockSync: true,
      onUnboundOrigin: (_resolved, _choice, _message, origin) => offered.push(origin),
    });
    const error = await api.create().then(
      () => 'obtained',
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    const log = (await (await fetch(`${sandbox.baseUrl}/_sandbox/requests`)).json()) as unknown[];
    return { error, offered, reached: log.length };
  }

  it('a wsUrl the profile does not approve: refused before anything is sent, the shell offered to bind its http(s) origin', async () => {
    const r = await obtain('wss://stream.example.com/ws');
    assert.match(r.error, /^key profile "sandbox" may not be sent to wss:\/\/stream\.example\.com \(/);
    assert.deepEqual(r.offered, ['https://stream.example.com']);
    assert.equal(r.reached, 0, 'not even the clock was asked');
  });

  it('plain ws:// off loopback: refused before anything is sent, and no binding is offered (none would do)', async () => {
    const r = await obtain('ws://stream.example.com/ws');
    assert.match(r.error, /never sent over plain ws:\/\//);
    assert.deepEqual(r.offered, []);
    assert.equal(r.reached, 0);
  });
});

describe('listen key routing: the WebSocket origin is bound to the key profile', () => {
  const binding = (...origins: string[]): KeyBinding => ({ profile: 'main', origins, source: 'the test' });
  const allowed = (url: string, b: KeyBinding): boolean => checkListenKeyBinding(url, b).ok;

  it('wss://h by https://h and ws://h by http://h: same host and port, the secure scheme pair', () => {
    assert.ok(allowed('wss://stream.example.com/ws', binding('https://stream.example.com')));
    assert.ok(allowed('wss://stream.example.com:9443/ws?x=1', binding('https://stream.example.com:9443')));
    assert.ok(allowed('ws://127.0.0.1:8780/ws', binding('http://127.0.0.1:8780')));
    assert.ok(!allowed('wss://stream.example.com/ws', binding('http://stream.example.com')));
    assert.ok(!allowed('wss://stream.example.com/ws', binding('https://api.example.com')));
    assert.ok(!allowed('wss://stream.example.com:444/ws', binding('https://stream.example.com')));
    assert.ok(!allowed('ws://127.0.0.1:8780/ws', binding('https://127.0.0.1:8780')));
    assert.ok(!allowed('ws://127.0.0.1:8781/ws', binding('http://127.0.0.1:8780')));
    assert.ok(!allowed('wss://stream.example.com/ws', binding()));
  });

  it('the refusal is the REST one: the profile, where it is bound, nothing sent, the origin to bind', () => {
    const r = checkListenKeyBinding('wss://evil.example/ws', {
      profile: 'main',
      origins: ['https://api.example.com'],
      source: 'TRADEREQ_MAIN_ORIGINS',
    });
    assert.deepEqual(r, {
      ok: false,
      error: {
        message:
          'key profile "main" may not be sent to wss://evil.example (wss://evil.example needs https://evil.example; it is bound to https://api.example.com, from TRADEREQ_MAIN_ORIGINS). Nothing was sent. Bind the profile to https://evil.example if you trust it.',
        origin: 'https://evil.example',
      },
    });
  });

  it('never plain ws:// off loopback (127.0.0.0/8, ::1 and localhost are loopback), even when the profile approves it', () => {
    for (const host of ['127.0.0.1:1', '127.8.9.10:1', '[::1]:1', 'localhost:1'])
      assert.ok(allowed(`ws://${host}/ws`, binding(`http://${host}`)), host);
    for (const host of ['10.0.0.1:1', 'stream.example.com', 'localhost.example.com', '[::2]:1', '128.0.0.1']) {
      const r = checkListenKeyBinding(`ws://${host}/ws`, binding(`http://${host}`));
      assert.ok(!r.ok, host);
      assert.match(r.error.message, /never sent over plain ws:\/\/ .*Nothing was sent\. Use a wss:\/\/ wsUrl/, host);
      assert.equal(r.error.origin, undefined, 'no approval would allow it: none is offered');
    }
  });

  it('no usable wsUrl: refused, nothing sent', () => {
    for (const url of [undefined, 'https://stream.example.com/ws', 'wss://user:pw@stream.example.com/ws']) {
      const r = checkListenKeyBinding(url, binding('https://stream.example.com'));
      assert.ok(!r.ok);
      assert.match(r.error.message, /not a ws:\/\/ or wss:\/\/ URL.*Nothing was sent/);
    }
  });
});

describe('listen key routing: the check step says so while the file is written', () => {
  it('{{NAME.response.listenKey}} at any depth is an error on the reference, before anything is sent', () => {
    const text = [
      '### lk',
      '# @name lk',
      'POST /api/v3/userDataStream',
      '',
      '### elsewhere',
      'GET http://elsewhere.example.com/c?k={{lk.response.listenKey}}&d={{lk.response.data[0].listenKey}}',
      '',
      '### fine',
      'GET /api/v3/ticker/price?symbol={{lk.response.symbol}}',
    ].join('\n');
    const doc = parse(text);
    const found = checkDocument(doc, { environment: BUILTIN_SANDBOX }).filter(
      (d) => d.rule === 'credential-in-request',
    );
    assert.deepEqual(
      found.map((d) => [d.severity, d.range.startLine]),
      [
        ['error', 5],
        ['error', 5],
      ],
    );
    assert.match(found[0]!.message, /listen key.*# @listenKey/);
  });
});
