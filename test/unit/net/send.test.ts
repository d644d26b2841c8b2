/**
 * The send step, the same for both senders: undici's (the extension's) and node:http's (the
 * command line's). Each talks HTTP to a real local server that answers as a test needs: kept-alive
 * connections and their timing, the size cap, the deadline and the three timeouts, connections
 * refused or closed half way, and requests that cannot be written, refused before connecting.
 */
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import {
  DEFAULT_SEND_SETTINGS,
  describeFailure,
  FAILURE_CODES,
  type SendResult,
  type SendSettings,
  type Sender,
} from '../../../src/core/net/send';
import { prepared, SENDERS } from '../../support/senders';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const FAST: SendSettings = {
  connectTimeoutMs: 500,
  headersTimeoutMs: 500,
  bodyTimeoutMs: 500,
  maxResponseBytes: 1024,
  deadlineMs: 2_000,
};

function failureOf(r: SendResult): Extract<SendResult, { kind: 'failure' }> {
  assert.equal(r.kind, 'failure', JSON.stringify(r));
  return r;
}

function responseOf(r: SendResult): Extract<SendResult, { kind: 'response' }> {
  assert.equal(r.kind, 'response', JSON.stringify(r));
  return r;
}

async function listen(server: Server | TcpServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

for (const [name, make] of SENDERS) {
  describe(`the sender: ${name}`, function () {
    this.timeout(20_000);
    let server: Server;
    let origin: string;
    let handler: Handler;
    let sockets: Set<Socket>;
    let requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string; port: number }[];
    let sender: Sender;

    beforeEach(async () => {
      sockets = new Set();
      requests = [];
      server = createHttpServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          requests.push({
            method: req.method ?? '',
            url: req.url ?? '',
            headers: req.headers,
            body,
            port: req.socket.remotePort ?? 0,
          });
          handler(req, res, body);
        });
      });
      server.on('connection', (s: Socket) => sockets.add(s));
      origin = `http://127.0.0.1:${await listen(server)}`;
      sender = make(FAST);
    });
    afterEach(async () => {
      await sender.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    it('sends method, path, query, headers and body as prepared, and answers status, headers and body', async () => {
      handler = (_req, res) => {
        res.setHeader('x-seen', ['a', 'b']);
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      };
      const body = 'symbol=BTCUSDT&quantity=1';
      const r = responseOf(
        await sender.send(
          prepared(`${origin}/api/v3/order?signature=ab`, {
            method: 'POST',
            body,
            headers: [
              ['X-SERVICE-APIKEY', 'k'.repeat(32)],
              ['Content-Type', 'application/x-www-form-urlencoded'],
            ],
          }),
        ),
      );
      assert.equal(r.status, 201);
      assert.equal(r.bodyText, '{"ok":true}');
      assert.equal(r.headers['content-type'], 'application/json');
      assert.equal(r.headers['x-seen'], 'a, b', 'repeated headers are joined');
      assert.equal(r.truncated, false);
      assert.deepEqual(
        [requests[0]!.method, requests[0]!.url, requests[0]!.body],
        ['POST', '/api/v3/order?signature=ab', body],
      );
      assert.equal(requests[0]!.headers['x-service-apikey'], 'k'.repeat(32));
      assert.equal(requests[0]!.headers['content-length'], String(body.length));
      assert.equal(requests[0]!.headers['content-type'], 'application/x-www-form-urlencoded');
    });

    it('keeps the connection alive: the second request reuses it, with a connect time of 0', async () => {
      handler = (_req, res) => res.end('{}');
      const first = responseOf(await sender.send(prepared(`${origin}/a`)));
      // undici frees the connection a tick after the body ends; the pipeline always has more between two sends.
      await new Promise((resolve) => setImmediate(resolve));
      const second = responseOf(await sender.send(prepared(`${origin}/b`)));
      assert.equal(sockets.size, 1, 'one connection for both');
      assert.equal(requests[0]!.port, requests[1]!.port);
      assert.ok(first.timings.connectMs >= 0 && first.timings.totalMs >= first.timings.firstByteMs);
      assert.equal(second.timings.connectMs, 0);
    });

    it('keeps at most maxResponseBytes of the body, reads the rest and counts it', async () => {
      handler = (_req, res) => res.end('x'.repeat(5000));
      const r = responseOf(await sender.send(prepared(`${origin}/big`)));
      assert.equal(r.bodyText.length, FAST.maxResponseBytes);
      assert.equal(r.bodyBytes, 5000);
      assert.equal(r.truncated, true);
    });

    it('a body that trickles in is not waited on past the deadline: DEADLINE, after sending', async () => {
      handler = (_req, res) => {
        res.writeHead(200, { 'content-length': '1000' });
        const timer = setInterval(() => res.write(' '), 100);
        res.on('close', () => clearInterval(timer));
      };
      // The deadline at twice the body timeout: the trickle keeps the body timeout off, the deadline ends it.
      const settings = { ...FAST, deadlineMs: 2 * FAST.bodyTimeoutMs };
      await sender.close();
      sender = make(settings);
      const started = Date.now();
      const f = failureOf(await sender.send(prepared(`${origin}/slow`)));
      assert.deepEqual([f.code, f.phase], [FAILURE_CODES.deadline, 'sent']);
      assert.ok(Date.now() - started < settings.deadlineMs + 1000, `${Date.now() - started} ms`);
    });

    it('headers that never come end in the headers timeout, after sending', async () => {
      handler = () => undefined;
      const f = failureOf(await sender.send(prepared(`${origin}/silent`)));
      assert.deepEqual([f.code, f.phase], [FAILURE_CODES.headersTimeout, 'sent']);
    });

    it('a body that stops ends in the body timeout, after sending', async () => {
      handler = (_req, res) => {
        res.writeHead(200, { 'content-length': '100' });
        res.write('{');
      };
      const f = failureOf(await sender.send(prepared(`${origin}/stalled`)));
      assert.deepEqual([f.code, f.phase], [FAILURE_CODES.bodyTimeout, 'sent']);
    });

    it('a connection closed half way through the body: the request was sent, the answer lost', async () => {
      handler = (req, res) => {
        res.writeHead(200, { 'content-length': '100' });
        res.write('{"partial":');
        setImmediate(() => req.socket.destroy());
      };
      const f = failureOf(await sender.send(prepared(`${origin}/cut`)));
      assert.equal(f.phase, 'sent');
      assert.match(describeFailure(f, origin), /was closed before the answer came/, f.code);
    });

    it('a connection closed before any answer: sent (it may have reached the service), closed', async () => {
      handler = (req) => req.socket.destroy();
      const f = failureOf(await sender.send(prepared(`${origin}/drop`)));
      assert.equal(f.phase, 'sent');
      assert.match(describeFailure(f, origin), /was closed before the answer came/, f.code);
    });

    it('nothing listening: ECONNREFUSED, not sent', async () => {
      const closed = createHttpServer();
      const port = await listen(closed);
      await new Promise((resolve) => closed.close(resolve));
      const f = failureOf(await sender.send(prepared(`http://127.0.0.1:${port}/`)));
      assert.deepEqual([f.code, f.phase], ['ECONNREFUSED', 'connect']);
    });

    it('a TLS handshake that never completes ends in the connect timeout, not sent', async () => {
      // It reads what comes (so it sees the client go) and never answers.
      const mute = createTcpServer((socket) => socket.resume());
      const port = await listen(mute);
      try {
        const f = failureOf(await sender.send(prepared(`https://127.0.0.1:${port}/`)));
        assert.deepEqual([f.code, f.phase], [FAILURE_CODES.connectTimeout, 'connect']);
      } finally {
        await new Promise((resolve) => mute.close(resolve));
      }
    });

    it('a header value with a line break is refused before connecting: nothing reaches the server', async () => {
      handler = (_req, res) => res.end('{}');
      const f = failureOf(
        await sender.send(prepared(`${origin}/api/v3/account`, { headers: [['X-Note', 'a\r\nX-Injected: 1']] })),
      );
      assert.deepEqual([f.code, f.phase], [FAILURE_CODES.invalidRequest, 'connect']);
      assert.equal(sockets.size, 0, 'no connection was opened');
      assert.deepEqual(requests, []);
    });

    it('has the settings it was made with', () => {
      assert.deepEqual(make(DEFAULT_SEND_SETTINGS).settings, DEFAULT_SEND_SETTINGS);
    });
  });
}
