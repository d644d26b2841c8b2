/**
 * `tradereq listen` against a hostile stream server: a real server written here (node:http, and the
 * `ws` package where the handshake is to be correct) that answers the upgrade wrongly, not at all,
 * cuts it, sends garbage, goes silent after its 101, or pushes JSON nested thousands deep. Whatever
 * it does, the run ends within its deadline with a clear line and a non-zero exit (or prints the
 * push as bounded text), and a listen key it obtained is closed (DELETE /api/v3/userDataStream). The
 * REST side is the real sandbox, so the key is a real one and its closing is checked there.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { BOUNDS } from '../../src/core/bounds';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { ensureBuilt } from '../support/build';
import { CLI, cleanEnv, describeRun, tradereq, type Run } from '../support/cli';
import { control, field, signed } from '../support/sandbox-ws';

const DEALS = 'spot@public.deals.v3.api@BTCUSDT';
/** RFC 6455 §1.3: the GUID of Sec-WebSocket-Accept. */
const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
/** A listen key as the sandbox makes them (64 hex characters), or any long run of hex. */
const LONG_HEX = /[0-9a-f]{32,}/i;
/** Nested about 4,500 deep (about 9 KB): JSON.parse takes it, JSON.stringify overflows the stack. */
const DEPTH = 4_500;

type Mode =
  /** A correct handshake; the SUBSCRIPTION answered, then one push with thousands of nested lists in `d`. */
  | 'deep'
  /** 101 with a wrong Sec-WebSocket-Accept, and the socket kept open. */
  | 'bad-accept'
  /** 200 with a body instead of 101, and the socket kept open. */
  | 'no-101'
  /** The upgrade request read, nothing answered, the socket kept open. */
  | 'silent'
  /** Half a 101, then the socket destroyed. */
  | 'cut-mid-handshake'
  /** A correct 101, then bytes that are no WebSocket frame. */
  | 'garbage'
  /** A correct handshake (the `ws` package), then nothing at all: no reply, no push. */
  | 'quiet';

function accept(key: string): string {
  return createHash('sha1')
    .update(key + WS_GUID)
    .digest('base64');
}

function deepPush(): string {
  const d = {
    e: 'spot@public.deals.v3.api',
    deals: [{ S: 1, p: '30000', v: '0.001', t: Date.now() }],
  };
  const nested = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
  return `{"c":"${DEALS}","s":"BTCUSDT","t":${Date.now()},"d":${JSON.stringify(d).slice(0, -1)},"x":${nested}}}`;
}

/** The hostile server: what it saw of each upgrade request, and its sockets, all let go at close. */
class Hostile {
  readonly upgrades: string[] = [];
  readonly sockets = new Set<Duplex>();
  private readonly server = http.createServer((_req, res) => res.writeHead(404).end());
  private readonly wss = new WebSocketServer({ noServer: true });

  constructor(private readonly mode: Mode) {
    this.server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      this.upgrades.push(req.url ?? '');
      this.answer(req, socket, head);
    });
  }

  private answer(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const key = String(req.headers['sec-websocket-key'] ?? '');
    const switching = 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n';
    switch (this.mode) {
      case 'bad-accept':
        return void socket.write(`${switching}Sec-WebSocket-Accept: ${accept(key + 'x')}\r\n\r\n`);
      case 'no-101':
        return void socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello');
      case 'silent':
        return;
      case 'cut-mid-handshake':
        socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgr');
        return void socket.destroy();
      case 'garbage':
        // A final frame of the reserved opcode 0xF, then bytes of nothing.
        return void socket.write(
          Buffer.concat([
            Buffer.from(`${switching}Sec-WebSocket-Accept: ${accept(key)}\r\n\r\n`),
            Buffer.from([0x8f, 0x05, 1, 2, 3, 4, 5]),
          ]),
        );
      case 'quiet':
        return void this.wss.handleUpgrade(req, socket, head, () => undefined);
      case 'deep':
        return void this.wss.handleUpgrade(req, socket, head, (ws) =>
          ws.on('message', (data: Buffer) => {
            const m = JSON.parse(data.toString()) as { id?: number; params?: string[] };
            ws.send(JSON.stringify({ id: m.id ?? 0, code: 0, msg: (m.params ?? []).join(',') }));
            ws.send(deepPush());
          }),
        );
    }
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}/ws`;
  }

  /** The listen key of the last upgrade, as the client sent it in the query. */
  listenKey(): string | undefined {
    const url = this.upgrades.at(-1);
    return url === undefined ? undefined : (new URL(url, 'ws://x').searchParams.get('listenKey') ?? undefined);
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.wss.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Polls `check` until it holds, failing after `deadlineMs` with `what`. */
async function until(check: () => boolean, what: string, deadlineMs = 15_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!check()) {
    assert.ok(Date.now() < end, `not within ${deadlineMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('tradereq listen against a hostile stream server', function () {
  this.timeout(90_000);
  let sandbox: Sandbox;
  let hostile: Hostile | undefined;
  let dir: string;
  let env: Record<string, string>;

  before(() => {
    ensureBuilt();
  });

  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0 });
    dir = mkdtempSync(join(tmpdir(), 'tradereq-stream-hostile-'));
    env = { TRADEREQ_STATE_DIR: join(dir, 'state') };
  });

  afterEach(async () => {
    await hostile?.close();
    hostile = undefined;
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A hostile WebSocket side for the sandbox environment, and a request file for it. */
  async function serve(mode: Mode, listenKey = false): Promise<string> {
    hostile = new Hostile(mode);
    const wsUrl = await hostile.listen();
    writeFileSync(
      join(dir, 'tradereq.env.json'),
      JSON.stringify({ sandbox: { baseUrl: sandbox.baseUrl, wsUrl, key: 'sandbox' } }),
    );
    // A key profile bound to the sandbox (REST) and to the hostile WebSocket origin: the listen key may go there.
    const key = sandbox.keys[0]!;
    env['TRADEREQ_MINE_API_KEY'] = key.apiKey;
    env['TRADEREQ_MINE_SECRET_KEY'] = key.secretKey;
    env['TRADEREQ_MINE_ORIGINS'] = `${sandbox.baseUrl},${wsUrl.replace(/^ws:/, 'http:').replace(/\/ws$/, '')}`;
    const directives = listenKey ? '# @listenKey\n# @key mine\n' : '';
    writeFileSync(join(dir, 'm.tradereq'), `${directives}WS /ws\n[subscribe]\n${DEALS}\n`);
    return 'm.tradereq';
  }

  async function userDataStreamCalls(): Promise<string[]> {
    const log = (await control(sandbox, '/requests')).json;
    assert.ok(Array.isArray(log));
    return log
      .filter((e) => field(e, 'path') === '/api/v3/userDataStream')
      .map((e) => `${String(field(e, 'method'))} ${String(field(e, 'status'))}`);
  }

  /** The listen key the hostile server was given is closed: DELETE reached the sandbox, and PUT no longer keeps it. */
  async function assertKeyClosed(r: Run): Promise<void> {
    assert.deepEqual(await userDataStreamCalls(), ['POST 200', 'DELETE 200'], describeRun(r));
    const key = hostile!.listenKey();
    assert.ok(key !== undefined, 'the key reached the WebSocket side');
    const put = await signed(sandbox, 'PUT', '/api/v3/userDataStream', `listenKey=${key}`);
    assert.notEqual(put.status, 200, 'the key is still live');
    for (const text of [r.stdout, r.stderr]) assert.doesNotMatch(text, LONG_HEX);
  }

  const run = (args: string[], timeoutMs = 60_000): Promise<Run> =>
    tradereq(['listen', ...args], { cwd: dir, env, timeoutMs });

  it('a push nested 4,500 deep is printed as bounded text, plain and --json; the run goes on to its bound (exit 0)', async () => {
    const f = await serve('deep');
    const plain = await run([f, '--count', '1']);
    assert.equal(plain.status, 0, describeRun(plain));
    assert.doesNotMatch(plain.stderr, /RangeError|stack/);
    const line = plain.stdout.split('\n').find((l) => l.includes(` ${DEALS} `));
    assert.ok(line !== undefined, describeRun(plain));
    assert.match(
      line,
      /^\d\d:\d\d:\d\d\.\d{3} spot@public\.deals\.v3\.api@BTCUSDT \{"c":.*\[\[\[\[.*more characters not kept\)$/,
    );
    assert.ok(line.length < BOUNDS.pushTextChars + 200, `${line.length} characters`);
    assert.match(plain.stdout, /→ closed after 1 push in [\d.]+ s: the count of 1 reached/);

    const json = await run([f, '--count', '1', '--json']);
    assert.equal(json.status, 0, describeRun(json));
    const push = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((x) => x['type'] === 'push');
    assert.ok(push !== undefined, describeRun(json));
    assert.equal(push['stream'], DEALS);
    assert.equal(typeof push['push'], 'string', 'the push as text: too deep to write out as JSON');
    assert.ok(String(push['push']).length < BOUNDS.pushTextChars + 100);
  });

  it('# @listenKey and a push nested 4,500 deep: the run ends normally and the key is closed', async () => {
    const f = await serve('deep', true);
    const r = await run([f, '--count', '1', '--json']);
    assert.equal(r.status, 0, describeRun(r));
    await assertKeyClosed(r);
  });

  it('a 101 with a wrong Sec-WebSocket-Accept on a socket kept open: one line, exit 1, at once; the listen key is closed', async () => {
    const f = await serve('bad-accept', true);
    const r = await run([f]);
    assert.equal(r.status, 1, describeRun(r));
    assert.match(r.stderr, /^✘ not connected: .*Sec-WebSocket-Accept.*\n$/);
    assert.ok(r.ms < 20_000, describeRun(r));
    await assertKeyClosed(r);
  });

  // [mode, the line, --connect-timeout]: the silent server waits the deadline out (1 s, not the default
  // 10 s); the others fail at once, well within theirs (2 s, so a busy machine still gets there first).
  const failures: readonly (readonly [Mode, RegExp, number])[] = [
    ['no-101', /^✘ not connected: .*HTTP 200 instead of opening the WebSocket.*\n$/, 2000],
    ['silent', /^✘ not connected: The WebSocket to http:\/\/127\.0\.0\.1:\d+ did not open within 1 s.*\n$/, 1000],
    ['cut-mid-handshake', /^✘ not connected: .*closed before the WebSocket opened.*\n$/, 2000],
  ];
  for (const [mode, line, connectTimeoutMs] of failures)
    it(`a connection that never opens (${mode}) ends within its deadline: one line, exit 1`, async () => {
      const r = await run([await serve(mode), '--count', '1', '--connect-timeout', String(connectTimeoutMs)]);
      assert.equal(r.status, 1, describeRun(r));
      assert.match(r.stderr, line);
      assert.ok(r.ms < 30_000, describeRun(r));
    });

  // --no-reconnect: what these tell is the close of one connection (a reconnect would meet the same server).
  it('garbage frames after a 101 fail the connection: exit 1 with the close explained', async () => {
    const r = await run([await serve('garbage'), '--count', '1', '--no-reconnect']);
    assert.equal(r.status, 1, describeRun(r));
    assert.match(r.stderr, /✘ the connection was closed \(code 1006\)/);
    assert.ok(r.ms < 20_000, describeRun(r));
  });

  it('a 101, then silence (no reply, no push): the run gives the server up after the reply timeout, exit 1, and closes the listen key', async () => {
    // --reply-timeout: the silence waited out, shorter than the default 10 s.
    const r = await run([await serve('quiet', true), '--reply-timeout', '1000', '--no-reconnect']);
    assert.equal(r.status, 1, describeRun(r));
    assert.match(r.stderr, /✘ the connection was closed .*answered nothing within 1 s/);
    assert.ok(r.ms < 40_000, describeRun(r));
    await assertKeyClosed(r);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    it(`${signal} while the upgrade hangs: the run ends at once and closes the listen key it holds`, async () => {
      const f = await serve('silent', true);
      const child = spawn(process.execPath, [CLI, 'listen', f], { cwd: dir, env: cleanEnv(env), stdio: 'pipe' });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const start = Date.now();
      const done = new Promise<Run>((resolve) =>
        child.on('close', (status) => resolve({ status, stdout, stderr, ms: Date.now() - start })),
      );
      await until(() => hostile!.upgrades.length === 1, 'the upgrade reached the server');
      const sent = Date.now();
      child.kill(signal);
      const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const r = await done;
      clearTimeout(kill);
      assert.notEqual(r.status, null, describeRun(r));
      assert.ok(Date.now() - sent < 15_000, describeRun(r));
      await assertKeyClosed(r);
    });
});
