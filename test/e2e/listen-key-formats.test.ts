/**
 * Listen keys of every deployment's format are masked on every surface that shows or writes an
 * exchange (issue 33, point 6). A server here plays the documented answers of the public
 * deployment's listen-key calls with its documentation's own example keys
 * (deployment-mexc.ts `listenKey.examples`: 63, 64 and 65 lower-case letters and digits):
 * POST /api/v3/userDataStream gives one as `{"listenKey": KEY}`, GET lists them all as
 * `{"listenKey": [KEY, …]}`, and its WebSocket side echoes the key a connection was opened with.
 * Each key is then looked for, whole or any 16 characters of it, in what every surface made: the
 * command line's `send` (text and `--json`), `test` with every reporter and a snapshot file, the
 * state folder (answers.json), `listen` (text and `--json`), and in-process the panel's entry (the
 * history and the log are made from it), Compare Two Answers' text, the editor's answer store and
 * the stream view's feed of a connection opened with a listen key.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { MEXC_DEPLOYMENT } from '../../src/core/catalog/deployment-mexc';
import { Budget } from '../../src/core/budget/budget';
import { FileStateStore } from '../../src/core/budget/state';
import { ClockSync } from '../../src/core/clock/sync';
import { parse } from '../../src/core/format/parser';
import { NodeHttpSender } from '../../src/core/net/node-http-sender';
import { answerText } from '../../src/core/panel/answer-text';
import { LiveFeed } from '../../src/core/panel/live';
import { WsConnection } from '../../src/core/ws';
import { restListenKeyApi } from '../../src/core/ws/listen-key-api';
import { entryFromResult, historyItem } from '../../src/core/panel/entry';
import { AnswerStore } from '../../src/core/request/answer-store';
import { runRequest } from '../../src/core/request/pipeline';
import { maskVolatile } from '../../src/core/testing/mask';
import { sandboxEnvironment, sandboxKeys } from '../../src/core/testing/sandbox';
import { ensureBuilt } from '../support/build';
import { describeRun, tradereq, type Run } from '../support/cli';

const KEYS = MEXC_DEPLOYMENT.listenKey.examples;
// The JSON convention's channel: what is masked is the key, whatever the pushes' encoding (ws-pb's tests decode .pb ones).
const ORDERS = 'spot@private.orders.v3.api';
const ORDER_PUSH = {
  i: '1000001',
  c: 'sbx1000001',
  o: 1,
  S: 1,
  p: '20000',
  v: '0.001',
  a: '20',
  V: '0.001',
  A: '20',
  cv: '0',
  ca: '0',
  ap: '0',
  s: 1,
  m: 1,
  O: 1,
};

/** The public deployment's listen-key calls and WebSocket side, answering with the documented example keys. */
interface Deployment {
  readonly origin: string;
  close(): Promise<void>;
}

async function deploymentDouble(): Promise<Deployment> {
  let next = 0;
  const answer = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://x');
    const json = (body: unknown): void =>
      void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname !== '/api/v3/userDataStream') return json({});
    if (req.method === 'POST') return json({ listenKey: KEYS[next++ % KEYS.length] });
    if (req.method === 'GET') return json({ listenKey: KEYS });
    // PUT and DELETE answer with the key they were given, as the deployment documents.
    return json({ listenKey: url.searchParams.get('listenKey') ?? '' });
  };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(req, res));
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
    wss.handleUpgrade(req, socket, head, (ws) => {
      const key = new URL(req.url ?? '/', 'http://x').searchParams.get('listenKey') ?? '';
      ws.on('message', (data: Buffer) => {
        const id = (JSON.parse(data.toString()) as { id?: number }).id ?? 0;
        ws.send(JSON.stringify({ id, code: 0, msg: ORDERS }));
        // Not a push: shown as a dropped frame, a sample of its text cut in the middle of the key.
        ws.send(JSON.stringify({ note: `${'x'.repeat(160)} opened with ${key}` }));
        ws.send(JSON.stringify({ c: ORDERS, t: Date.now(), d: ORDER_PUSH }));
      });
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Every file under `dir`, as text. */
function filesUnder(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    // V8's code cache of the command line's bundles is the program (its catalog holds the examples), not what it wrote of an exchange.
    if (name.split(/[\\/]/).includes('code-cache')) continue;
    const path = join(dir, name);
    if (statSync(path).isFile()) out.set(name, readFileSync(path, 'utf8'));
  }
  return out;
}

/** Fails naming the surface and the key when `text` holds any example key, whole or 16 characters of it. */
function assertNoKey(surface: string, text: string): void {
  for (const key of KEYS)
    for (let at = 0; at + 16 <= key.length; at++)
      assert.ok(
        !text.includes(key.slice(at, at + 16)),
        `${surface} shows the listen key ${key.slice(0, 4)}… (${key.length} characters) unmasked:\n${text.slice(0, 3000)}`,
      );
}

const FILE = `### Create a listen key
# @name created
# @expect snapshot
POST /api/v3/userDataStream

### List the listen keys
# @name listed
# @expect snapshot
GET /api/v3/userDataStream
`;

describe('listen keys of the public deployment, its documented examples, are masked on every surface', function () {
  this.timeout(120_000);
  let deployment: Deployment;
  let dir: string;
  let env: Record<string, string>;

  before(async () => {
    ensureBuilt();
    deployment = await deploymentDouble();
    dir = mkdtempSync(join(tmpdir(), 'tradereq-lk-formats-'));
    env = {
      TRADEREQ_STATE_DIR: join(dir, 'state'),
      TRADEREQ_MAIN_API_KEY: 'mx0vglDemoAccessKey0123456789',
      TRADEREQ_MAIN_SECRET_KEY: '45d0b3c26f2644f19bfb98b07741b2f5',
      TRADEREQ_MAIN_ORIGINS: deployment.origin,
    };
    const wsUrl = deployment.origin.replace('http:', 'ws:') + '/ws';
    writeFileSync(
      join(dir, 'tradereq.env.json'),
      JSON.stringify({
        live: { deployment: 'mexc', baseUrl: deployment.origin, wsUrl, key: 'main' },
        streams: { baseUrl: deployment.origin, wsUrl, key: 'main' },
      }),
    );
    writeFileSync(join(dir, 'keys.tradereq'), FILE);
    writeFileSync(join(dir, 'listen.tradereq'), `# @listenKey\nWS /ws\n[subscribe]\n${ORDERS}\n`);
  });
  after(async () => {
    await deployment.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (args: string[]): Promise<Run> => tradereq(args, { cwd: dir, env, timeoutMs: 60_000 });

  it('tradereq send, as text and as --json', async () => {
    for (const args of [[], ['--json']]) {
      const r = await run(['send', 'keys.tradereq', '--env', 'live', '--all', '--no-clock-sync', ...args]);
      assert.equal(r.status, 0, describeRun(r));
      assert.match(r.stdout, /\*\*\*\*[a-z0-9]{4}/, 'the keys are there, masked');
      assertNoKey(`send ${args.join(' ')}`, r.stdout + r.stderr);
    }
  });

  it('tradereq test: every reporter, and the snapshot file it writes', async () => {
    const reporters = ['pretty', 'json:out/report.json', 'junit:out/junit.xml', 'tap:out/report.tap'];
    const r = await run([
      'test',
      'keys.tradereq',
      '--env',
      'live',
      '--no-clock-sync',
      '--update-snapshots',
      ...reporters.flatMap((x) => ['--reporter', x]),
    ]);
    assert.equal(r.status, 0, describeRun(r));
    assertNoKey('test output', r.stdout + r.stderr);
    const written = filesUnder(dir);
    assert.ok(written.has(join('__snapshots__', 'keys.tradereq.snap.json')), [...written.keys()].join(', '));
    for (const report of ['report.json', 'junit.xml', 'report.tap']) assert.ok(written.has(join('out', report)));
    for (const [name, text] of written) assertNoKey(name, text);
  });

  it('tradereq listen, as text and as --json, with a listen key of the deployment', async () => {
    for (const args of [[], ['--json']]) {
      const r = await run(['listen', 'listen.tradereq', '--env', 'streams', '--count', '1', ...args]);
      assert.equal(r.status, 0, describeRun(r));
      assert.match(
        r.stdout + r.stderr,
        /(listen key |"listenKey":")\*\*\*\*[a-z0-9]{4}/,
        'connected with the key, masked',
      );
      assert.match(
        r.stdout + r.stderr,
        /opened with \*\*\*\*/,
        'the frame that is no push is shown, the key at its cut masked',
      );
      assertNoKey(`listen ${args.join(' ')}`, r.stdout + r.stderr);
    }
  });

  it('the state folder: answers.json and everything else written', () => {
    const state = filesUnder(join(dir, 'state'));
    assert.ok(
      [...state.keys()].some((n) => n.endsWith('answers.json')),
      [...state.keys()].join(', '),
    );
    for (const [name, text] of state) assertNoKey(name, text);
  });

  it("in the editor: the stream view of a connection opened with the deployment's listen key", async () => {
    const sender = new NodeHttpSender();
    const store = new FileStateStore(join(dir, 'stream-state'));
    const budget = new Budget(store);
    const wsUrl = deployment.origin.replace('http:', 'ws:') + '/ws';
    const environment = { ...sandboxEnvironment(deployment.origin), wsUrl };
    const conn = new WsConnection({ budget, restBaseUrl: deployment.origin });
    const posted: string[] = [];
    const feed = new LiveFeed({
      id: 'lk',
      title: 'private',
      environment: environment.name,
      source: conn,
      post: (m) => posted.push(JSON.stringify(m)),
    });
    try {
      const listenKey = restListenKeyApi({
        environment,
        key: sandboxKeys(deployment.origin),
        sender,
        budget,
        clock: new ClockSync(store),
        clockSync: false,
      });
      const opened = await conn.connect(wsUrl, { listenKey, envWsUrl: wsUrl });
      assert.ok(opened.ok, opened.ok ? '' : opened.error.message);
      feed.select();
      await conn.subscribe([ORDERS]);
      while (conn.snapshot().counts.pushes === 0) await new Promise((resolve) => setImmediate(resolve));
      feed.flush();
      const shown = [...posted, JSON.stringify(conn.snapshot())].join('\n');
      assert.match(shown, /opened with \*\*\*\*/, 'the frame that is no push is noted, the key at its cut masked');
      assertNoKey('the stream view', shown);
    } finally {
      feed.dispose();
      await conn.close();
      await sender.close();
    }
  });

  it("in the editor: the panel's entry, its history line, Compare Two Answers' text and the answer store", async () => {
    const sender = new NodeHttpSender();
    const store = new FileStateStore(join(dir, 'editor-state'));
    const answers = new AnswerStore();
    const environment = sandboxEnvironment(deployment.origin);
    const place = { file: join(dir, 'keys.tradereq'), environment: environment.name, origin: deployment.origin };
    try {
      const doc = parse(FILE);
      for (const request of doc.requests) {
        const r = await runRequest(doc, request, environment, {
          sender,
          budget: new Budget(store),
          clock: new ClockSync(store),
          clockSync: false,
          responses: answers.at(place),
          key: sandboxKeys(deployment.origin),
          confirm: () => assert.fail('not asked'),
        });
        assert.ok(r.ok, r.ok ? '' : r.error.message);
        const entry = entryFromResult(r.value, { id: '1', at: 0, title: request.name?.text ?? '' });
        assert.equal(entry.response?.isJson, true);
        assertNoKey('the panel entry', JSON.stringify(entry));
        assertNoKey('the history line', JSON.stringify(historyItem(entry)));
        assertNoKey('Compare Two Answers', answerText(entry) + answerText(entry, (j) => maskVolatile(j).value));
        assertNoKey(
          'the answer store',
          JSON.stringify(answers.get({ ...place, name: request.name?.text ?? '' }) ?? null),
        );
      }
    } finally {
      await sender.close();
    }
  });
});
