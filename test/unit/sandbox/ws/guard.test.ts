/**
 * The sandbox's /ws and web pages: a browser sends an Origin header with every WebSocket upgrade, so
 * without a check any page the user opens could connect to the loopback sandbox, flood it and get the
 * loopback IP banned (three cuts), refusing the user's own `listen` and `send`. /ws refuses a foreign
 * Origin before the upgrade, by the control surface's own rule, and a refused attempt is no cut.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import { CUTS_BEFORE_BAN } from '../../../../src/sandbox/ws/guard';
import { startSandbox, type Sandbox } from '../../../../src/sandbox';
import { control, field, WsClient } from '../../../support/sandbox-ws';

/** What became of one upgrade: opened (then closed by the test, or cut by the server), or refused with a status. */
type Attempt =
  | { readonly opened: true; readonly ws: WebSocket }
  | { readonly opened: false; readonly status: number; readonly body: string };

/** An upgrade to `url` with the headers a browser page would send. */
function attempt(url: string, headers: { origin?: string; host?: string }): Promise<Attempt> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, {
      ...(headers.origin !== undefined && { origin: headers.origin }),
      ...(headers.host !== undefined && { headers: { host: headers.host } }),
    });
    ws.once('open', () => resolve({ opened: true, ws }));
    ws.once('unexpected-response', (_req, res: IncomingMessage) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ opened: false, status: res.statusCode ?? 0, body }));
    });
    ws.once('error', reject);
  });
}

/** Over 100 messages at once (§8): the sandbox cuts the connection (1008), one cut towards a ban. */
async function flood(ws: WebSocket): Promise<number> {
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  for (let i = 1; i <= 150; i++) ws.send(JSON.stringify({ method: 'PING', id: i }));
  return closed;
}

describe('sandbox /ws refuses web pages of another origin', function () {
  let sb: Sandbox;
  let hostPort: string;

  before(async () => {
    sb = await startSandbox({ port: 0, banScale: 0.001 });
    hostPort = new URL(sb.baseUrl).host;
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(async () => {
    await control(sb, '/reset');
  });

  it('an upgrade with a foreign Origin is answered 403 before the upgrade, saying why; the request log shows it', async () => {
    for (const origin of ['https://evil.example', 'null', `http://127.0.0.1.evil.example:${sb.port}`]) {
      const a = await attempt(sb.wsUrl, { origin });
      assert.equal(a.opened, false, `${origin} was let in`);
      if (a.opened) continue;
      assert.equal(a.status, 403, origin);
      assert.match(field(JSON.parse(a.body), 'msg') as string, /web pages of another origin/);
    }
    const log = (await control(sb, '/requests')).json;
    assert.ok(Array.isArray(log));
    assert.deepEqual(
      log.map((e) => `${String(field(e, 'path'))} ${String(field(e, 'status'))}`),
      ['/ws 403', '/ws 403', '/ws 403'],
    );
    assert.equal(field((await control(sb, '/ws')).json, 'connections'), 0);
  });

  it('a page served under a rebound DNS name (its Origin matching its Host) is refused too', async () => {
    const a = await attempt(sb.wsUrl, {
      origin: `http://rebound.example:${sb.port}`,
      host: `rebound.example:${sb.port}`,
    });
    assert.equal(a.opened ? 101 : a.status, 403);
  });

  it('no Origin (a program, not a page) and the same loopback origin are let in', async () => {
    const program = await WsClient.connect(sb.wsUrl);
    program.close();
    const same = await attempt(sb.wsUrl, { origin: `http://${hostPort}` });
    assert.ok(same.opened, 'a page of the sandbox itself');
    if (same.opened) same.ws.terminate();
  });

  it('a page of another origin cannot get the loopback IP banned: its refused attempts are no cuts, and the next listen connects', async () => {
    for (let i = 0; i < CUTS_BEFORE_BAN + 1; i++) {
      const a = await attempt(sb.wsUrl, { origin: 'https://evil.example' });
      // Before the check, each attempt opened and was cut for flooding: three cuts banned the IP.
      if (a.opened) assert.equal(await flood(a.ws), 1008);
      else assert.equal(a.status, 403);
    }
    const user = await WsClient.open(sb.wsUrl);
    assert.ok(user instanceof WsClient, `the user's own connection was refused: ${JSON.stringify(user)}`);
    user.close();
  });
});
