/**
 * The WebSocket client core, the stream view's feed and `tradereq listen` (in-process) against
 * hostile stream servers written here: a push nested thousands deep, a 101 with a wrong
 * Sec-WebSocket-Accept on a socket kept open, a 101 followed by silence, a listen key whose DELETE
 * never gets an answer, and an output that fails mid-run. None of them crashes the client, hangs
 * it, or leaves a listen key open.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { listenCommand } from '../../../src/cli/listen';
import type { Io } from '../../../src/cli/usage';
import { BOUNDS } from '../../../src/core/bounds';
import { Budget } from '../../../src/core/budget/budget';
import { MemoryStateStore } from '../../../src/core/budget/state';
import { LiveFeed } from '../../../src/core/panel/live';
import { check, ToPanelShape, type LiveMessage } from '../../../src/core/panel/protocol';
import { WsConnection, type ListenKeyApi, type WsConnectionOptions, type WsEvent } from '../../../src/core/ws';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { control, field } from '../../support/sandbox-ws';

const DEALS = 'spot@public.deals.v3.api@BTCUSDT';
const BOOK = 'spot@public.bookTicker.v3.api@BTCUSDT';
const DEPTH = 4_500;
const LISTEN_KEY = 'HostileTestListenKey0123456789abcdefABCDEF';

/** A deals push with about 4,500 nested lists beside its data: JSON.parse takes it, JSON.stringify overflows. */
function deepPush(): string {
  const nested = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
  const deal = `{"S":1,"p":"30000","v":"0.001","t":${Date.now()}}`;
  return `{"c":"${DEALS}","t":${Date.now()},"d":{"e":"spot@public.deals.v3.api","deals":[${deal}],"x":${nested}}}`;
}

async function until(check: () => boolean, what: string, deadlineMs = 10_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!check()) {
    assert.ok(Date.now() < end, `not within ${deadlineMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function connection(options: Partial<WsConnectionOptions> = {}): WsConnection {
  return new WsConnection({ budget: new Budget(new MemoryStateStore()), pingAfterMs: 0, ...options });
}

/** A `ws` server on loopback that answers each connection with `onConnection`. */
async function wsServer(onConnection: (ws: import('ws').WebSocket) => void): Promise<WebSocketServer> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  wss.on('connection', onConnection);
  await new Promise<void>((r) => wss.once('listening', r));
  return wss;
}

const urlOf = (server: { address(): unknown }): string => `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;

async function closeWss(wss: WebSocketServer): Promise<void> {
  for (const ws of wss.clients) ws.terminate();
  await new Promise((r) => wss.close(r));
}

describe('stream client against hostile servers', function () {
  this.timeout(60_000);

  it('a push nested 4,500 deep reaches listeners with its text clipped, and the stream view shows it as bounded text', async () => {
    const wss = await wsServer((ws) => ws.send(deepPush()));
    const c = connection();
    const posted: LiveMessage[] = [];
    const feed = new LiveFeed({ id: 'c1', title: 't', environment: 'e', source: c, post: (m) => posted.push(m) });
    const pushes: Extract<WsEvent, { type: 'push' }>[] = [];
    c.on('push', (e) => pushes.push(e));
    try {
      assert.ok((await c.connect(urlOf(wss))).ok);
      await until(() => pushes.length === 1, 'the push');
      assert.ok(pushes[0]!.text !== undefined, 'a push too deep to write out comes with its text');
      assert.ok(pushes[0]!.text.length < BOUNDS.pushTextChars + 100);
      assert.match(
        pushes[0]!.text,
        /^\{"c":"spot@public\.deals\.v3\.api@BTCUSDT".*\[\[\[.*more characters not kept\)$/,
      );
      feed.flush();
      const line = posted.flatMap((m) => m.pushes).find((l) => l.stream === DEALS);
      assert.ok(line?.text !== undefined, 'the stream view has a line for it');
      assert.ok(line.text.length <= BOUNDS.pushTextChars + 100);
      assert.match(line.summary ?? '', /^BUY 0\.001 @ 30000$/);
      // The message as the panel gets it: it survives JSON and passes the panel's own check.
      assert.ok(check(ToPanelShape, JSON.parse(JSON.stringify(posted.at(-1)))).ok);
    } finally {
      feed.dispose();
      await c.close();
      await closeWss(wss);
    }
  });

  it('a 101 with a wrong Sec-WebSocket-Accept on a socket kept open: the connect fails saying so, and the socket is let go', async () => {
    const sockets: Socket[] = [];
    const closed: Socket[] = [];
    const server: Server = createServer((s) => {
      sockets.push(s);
      s.on('close', () => closed.push(s));
      s.on('error', () => undefined);
      s.once('data', () =>
        s.write(
          'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: d3JvbmcgYWNjZXB0IHZhbHVlIQ==\r\n\r\n',
        ),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const c = connection();
      const r = await c.connect(urlOf(server));
      assert.ok(!r.ok);
      assert.match(r.error.message, /answered 101 Switching Protocols with a wrong Sec-WebSocket-Accept header/);
      await c.finished;
      await until(() => closed.length === 1, 'the client let the socket go');
    } finally {
      for (const s of sockets) s.destroy();
      server.close();
    }
  });

  it('a 101, then nothing: the connection is given up once a message has no reply and nothing else came (1006, said why)', async () => {
    const wss = await wsServer(() => undefined);
    try {
      const c = connection({ replyTimeoutMs: 300 });
      const errors: string[] = [];
      c.on('error', (e) => errors.push(e.failure.message));
      assert.ok((await c.connect(urlOf(wss))).ok);
      const [outcome] = await c.subscribe([DEALS]);
      assert.equal(outcome?.ok, false);
      assert.match(outcome?.msg ?? '', /^Unknown: the server answered nothing within 0\.3 s of SUBSCRIPTION/);
      await c.finished;
      assert.equal(c.state.code, 1006);
      assert.match(
        c.state.message ?? '',
        /^The server answered nothing within 0\.3 s of SUBSCRIPTION .*: the client gave the connection up/,
      );
    } finally {
      await closeWss(wss);
    }
  });

  it('a server that replies is not given up, even when a message of its own gets no reply', async () => {
    // It answers PING only: the SUBSCRIPTION times out, but the server is alive.
    const wss = await wsServer((ws) =>
      ws.on('message', (data: Buffer) => {
        const m = JSON.parse(data.toString()) as { method: string; id?: number };
        if (m.method === 'PING') ws.send(JSON.stringify({ id: m.id ?? 0, code: 0, msg: 'PONG' }));
      }),
    );
    const c = connection({ replyTimeoutMs: 300 });
    try {
      assert.ok((await c.connect(urlOf(wss))).ok);
      const subscribed = c.subscribe([DEALS]);
      // Heard from within the timeout: a PONG.
      assert.ok((await c.send('{"method": "PING", "id": 7}')).ok);
      const [outcome] = await subscribed;
      assert.match(outcome?.msg ?? '', /^Unknown: no reply within 0\.3 s/);
      assert.equal(c.state.status, 'open');
    } finally {
      await c.close();
      await closeWss(wss);
    }
  });

  it('a reply timeout ends at its message deadline, not at a sweep once a second, also for a message sent after one that was answered', async () => {
    // It answers the first SUBSCRIPTION only.
    let answered = false;
    const wss = await wsServer((ws) =>
      ws.on('message', (data: Buffer) => {
        const m = JSON.parse(data.toString()) as { method: string; id?: number };
        if (m.method !== 'SUBSCRIPTION' || answered) return;
        answered = true;
        ws.send(JSON.stringify({ id: m.id ?? 0, code: 0, msg: DEALS }));
      }),
    );
    const c = connection({ replyTimeoutMs: 50 });
    try {
      const start = Date.now();
      assert.ok((await c.connect(urlOf(wss))).ok);
      assert.equal((await c.subscribe([DEALS]))[0]?.ok, true);
      const [outcome] = await c.subscribe([BOOK]);
      // Sent in the millisecond of the first reply, it counts as heard from: then the connection stays.
      assert.match(outcome?.msg ?? '', /^Unknown: (no reply|the server answered nothing) within 0\.05 s/);
      // A sweep once a second from the open would have given it up no sooner than 1 s after connecting.
      const elapsed = Date.now() - start;
      assert.ok(elapsed < 1000, `given up ${elapsed} ms after connecting, with a reply timeout of 50 ms`);
    } finally {
      await c.close();
      await closeWss(wss);
    }
  });

  it('a listen key whose DELETE never gets an answer holds the end for releaseTimeoutMs at most, and says the key lapses', async () => {
    const wss = await wsServer(() => undefined);
    // An HTTP server that takes the DELETE and never answers it.
    const silent = http.createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const api: ListenKeyApi = {
      create: () => Promise.resolve(LISTEN_KEY),
      keepAlive: () => Promise.resolve(),
      close: async () => {
        const res = await fetch(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/api/v3/userDataStream`, {
          method: 'DELETE',
        });
        await res.text();
      },
    };
    const c = connection({ releaseTimeoutMs: 300 });
    const errors: string[] = [];
    c.on('error', (e) => errors.push(e.failure.message));
    try {
      assert.ok((await c.connect(urlOf(wss), { listenKey: api, envWsUrl: urlOf(wss) })).ok);
      const started = Date.now();
      await c.close();
      assert.ok(Date.now() - started < 5_000, 'the end was not held');
      assert.equal(errors.length, 1, errors.join('\n'));
      assert.match(
        errors[0]!,
        /^The listen key \*+[A-Za-z0-9]{4} could not be closed within 0\.3 s .*lapses by itself/,
      );
      assert.ok(!errors[0]!.includes(LISTEN_KEY));
    } finally {
      silent.closeAllConnections();
      silent.close();
      await closeWss(wss);
    }
  });
});

describe('tradereq listen (in-process): an output that fails mid-run', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let dir: string;

  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0 });
    dir = mkdtempSync(join(tmpdir(), 'tradereq-stream-hostile-'));
    writeFileSync(
      join(dir, 'tradereq.env.json'),
      JSON.stringify({ sandbox: { baseUrl: sandbox.baseUrl, key: 'sandbox' } }),
    );
  });

  afterEach(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a write that throws on the first push ends the run with one line (exit 1), and the listen key is closed', async () => {
    writeFileSync(join(dir, 'm.tradereq'), `# @listenKey\nWS /ws\n[subscribe]\n${BOOK}\n`);
    const out: string[] = [];
    const err: string[] = [];
    const io: Io = {
      out: (t) => {
        // The first push (bookTicker sends its state when subscribed): as a closed or full terminal would.
        if (t.includes(` ${BOOK} `)) throw new Error('write EIO');
        out.push(t);
      },
      err: (t) => err.push(t),
      env: { TRADEREQ_STATE_DIR: join(dir, 'state') },
      cwd: dir,
    };
    const exit = await listenCommand(['m.tradereq'], io);
    assert.equal(exit, 1, [...out, ...err].join('\n'));
    assert.deepEqual(err, [
      '✘ unexpected failure: write EIO; the run ends, closing the connection and any listen key it holds',
    ]);
    assert.match(out.at(-1) ?? '', /^→ closed after 1 push in [\d.]+ s: an unexpected failure$/);
    const log = (await control(sandbox, '/requests')).json;
    assert.ok(Array.isArray(log));
    assert.deepEqual(
      log
        .filter((e) => field(e, 'path') === '/api/v3/userDataStream')
        .map((e) => `${String(field(e, 'method'))} ${String(field(e, 'status'))}`),
      ['POST 200', 'DELETE 200'],
    );
  });
});
