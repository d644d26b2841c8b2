/**
 * A listen key goes only where the key that obtained it may go (issue 18, section 1), as a user
 * meets it on the command line against the sandbox: a `{{NAME.response.listenKey}}` chained into
 * a request is refused by `send --all` and `test` (a second server here stands for the other host
 * and must receive nothing; no report holds the key), and `tradereq listen` sends a listen key
 * only to a WebSocket origin its key profile approves, never over plain ws:// off loopback.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { ensureBuilt } from '../support/build';
import { describeRun, tradereq, type Run } from '../support/cli';
import { control, field, signed } from '../support/sandbox-ws';

const ORDERS = 'spot@private.orders.v3.api';

/** A server that stands for "elsewhere": it records every request and upgrade it receives, and answers 200. */
interface Elsewhere {
  readonly origin: string;
  readonly port: number;
  /** "METHOD URL" of everything that reached it, upgrades included. */
  readonly seen: string[];
  close(): Promise<void>;
}

async function elsewhere(): Promise<Elsewhere> {
  const seen: string[] = [];
  const note = (req: IncomingMessage): void => void seen.push(`${req.method ?? ''} ${req.url ?? ''}`);
  const server: Server = createServer((req, res) => {
    note(req);
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  });
  server.on('upgrade', (req: IncomingMessage, socket: import('node:stream').Duplex) => {
    note(req);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Every run of 64 hex characters in `text` that the sandbox still knows as a live listen key. */
async function liveListenKeys(sandbox: Sandbox, text: string): Promise<string[]> {
  const live: string[] = [];
  for (const candidate of new Set(text.match(/[0-9a-f]{64}/g) ?? [])) {
    // A keep-alive answers 200 only for a live key of the demo account.
    const r = await signed(sandbox, 'PUT', '/api/v3/userDataStream', `listenKey=${candidate}`);
    if (r.status === 200) live.push(candidate);
  }
  return live;
}

/** What reached the sandbox's API, as "METHOD PATH STATUS". */
async function reached(sandbox: Sandbox): Promise<string[]> {
  const log = (await control(sandbox, '/requests')).json;
  assert.ok(Array.isArray(log));
  return log.map((e) => `${String(field(e, 'method'))} ${String(field(e, 'path'))} ${String(field(e, 'status'))}`);
}

describe('a listen key goes only where the key that obtained it may go', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let other: Elsewhere;
  let dir: string;
  let env: Record<string, string>;

  before(() => {
    ensureBuilt();
  });
  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0 });
    other = await elsewhere();
    dir = mkdtempSync(join(tmpdir(), 'tradereq-lk-routing-'));
    env = { TRADEREQ_STATE_DIR: join(dir, 'state') };
  });
  afterEach(async () => {
    await sandbox.close();
    await other.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function environment(extra: Record<string, string> = {}): void {
    writeFileSync(
      join(dir, 'tradereq.env.json'),
      JSON.stringify({ sandbox: { baseUrl: sandbox.baseUrl, key: 'sandbox', ...extra } }),
    );
  }

  /** Request 1 obtains a listen key (signed, bound origin); request 2, unsigned, names it for another host. */
  function chainingFile(): string {
    writeFileSync(
      join(dir, 'chain.tradereq'),
      `### Obtain a listen key\n# @name lk\nPOST /api/v3/userDataStream\n\n### Elsewhere\n# @unsigned\nGET ${other.origin}/c?k={{lk.response.listenKey}}\n`,
    );
    return 'chain.tradereq';
  }

  function assertRefusedChaining(text: string): void {
    assert.match(text, /\{\{lk\.response\.listenKey\}\} is a listen key/);
    assert.match(text, /nothing was sent/i);
    assert.match(text, /# @listenKey/);
  }

  it('send --all: a listen key chained into a request to another host is refused (exit 2) and that host receives nothing', async () => {
    environment();
    const r = await tradereq(['send', chainingFile(), '--all', '--no-clock-sync'], { cwd: dir, env });
    assert.equal(r.status, 2, describeRun(r));
    assert.deepEqual(other.seen, [], 'the other host received nothing');
    assertRefusedChaining(r.stderr);
    assert.match(r.stdout, /^### 1\. Obtain a listen key \(lk\): POST .*\/api\/v3\/userDataStream/m);
    assert.match(r.stdout, /"listenKey": "\*\*\*\*[0-9a-f]{4}"/, 'the key obtained is shown masked');
    assert.deepEqual(await liveListenKeys(sandbox, r.stdout + r.stderr), []);
  });

  it('test: the chained listen key is refused, the other host receives nothing, and no report (JSON, JUnit, TAP, pretty) holds it', async () => {
    environment();
    const file = chainingFile();
    const r: Run = await tradereq(
      [
        'test',
        file,
        '--no-clock-sync',
        '--reporter',
        'pretty',
        '--reporter',
        'json:out/report.json',
        '--reporter',
        'junit:out/junit.xml',
        '--reporter',
        'tap:out/report.tap',
      ],
      { cwd: dir, env },
    );
    assert.equal(r.status, 2, describeRun(r));
    assert.deepEqual(other.seen, [], 'the other host received nothing');
    const json = readFileSync(join(dir, 'out', 'report.json'), 'utf8');
    const reports = [json, ...['junit.xml', 'report.tap'].map((f) => readFileSync(join(dir, 'out', f), 'utf8'))];
    for (const text of [r.stdout, ...reports]) assertRefusedChaining(text);
    const cases = (JSON.parse(json) as { files: { cases: { verdict: string }[] }[] }).files[0]!.cases;
    assert.deepEqual(
      cases.map((c) => c.verdict),
      ['passed', 'failed'],
    );
    assert.deepEqual(await liveListenKeys(sandbox, [r.stdout, r.stderr, ...reports].join('\n')), []);
    assert.ok(
      (await reached(sandbox)).includes('POST /api/v3/userDataStream 200'),
      'the first request did obtain a key',
    );
  });

  describe('tradereq listen: the WebSocket origin is bound to the key profile', () => {
    const listen = (file: string, origins: string): Promise<Run> => {
      const key = sandbox.keys[0]!;
      writeFileSync(join(dir, file), `# @listenKey\n# @key main\nWS /ws\n[subscribe]\n${ORDERS}\n`);
      return tradereq(['listen', file, '--duration', '1'], {
        cwd: dir,
        env: {
          ...env,
          TRADEREQ_MAIN_API_KEY: key.apiKey,
          TRADEREQ_MAIN_SECRET_KEY: key.secretKey,
          TRADEREQ_MAIN_ORIGINS: origins,
        },
      });
    };

    it('a wsUrl on another origin than the profile approves: exit 4, no listen key obtained, nothing reaches that host', async () => {
      environment({ wsUrl: `ws://127.0.0.1:${other.port}/ws` });
      const r = await listen('mine.tradereq', sandbox.baseUrl);
      assert.equal(r.status, 4, describeRun(r));
      assert.match(r.stderr, new RegExp(`key profile "main" may not be sent to ws://127\\.0\\.0\\.1:${other.port}`));
      assert.match(r.stderr, /Nothing was sent/);
      assert.deepEqual(other.seen, [], 'the other host received nothing');
      assert.deepEqual(await reached(sandbox), [], 'no listen key was even obtained');
    });

    it('ws:// is approved by the http:// origin of the same host and port: the listen key is obtained and used', async () => {
      environment({ wsUrl: sandbox.wsUrl });
      const r = await listen('mine.tradereq', sandbox.baseUrl);
      assert.equal(r.status, 0, describeRun(r));
      assert.deepEqual(
        (await reached(sandbox)).filter((x) => x.includes('userDataStream')),
        ['POST /api/v3/userDataStream 200', 'DELETE /api/v3/userDataStream 200'],
      );
    });

    it('plain ws:// to a host that is not loopback: refused even when the profile approves it (exit 4), nothing sent', async () => {
      // 203.0.113.0/24 is TEST-NET-3: no such host answers; nothing may even try.
      environment({ wsUrl: 'ws://203.0.113.7:9/ws' });
      const r = await listen('mine.tradereq', `${sandbox.baseUrl},http://203.0.113.7:9`);
      assert.equal(r.status, 4, describeRun(r));
      assert.match(r.stderr, /plain ws:\/\//);
      assert.match(r.stderr, /wss:\/\//);
      assert.deepEqual(await reached(sandbox), [], 'no listen key was even obtained');
    });
  });
});
