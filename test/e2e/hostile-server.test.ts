/**
 * A hostile server cannot crash the printer or hold a send past its deadline, and bad header
 * input is refused before anything is sent or counted. The server here is a plain node:http one
 * that answers as an attacker would; the command line is the built one, spawned.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Budget } from '../../src/core/budget/budget';
import { FileStateStore } from '../../src/core/budget/state';
import { describeRun, tradereq, type Run } from '../support/cli';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

describe('a hostile server and bad header input', function () {
  this.timeout(60_000);
  let server: Server;
  let origin: string;
  let handler: Handler;
  let hits: string[];
  let dir: string;

  beforeEach(async () => {
    hits = [];
    dir = mkdtempSync(join(tmpdir(), 'tradereq-hostile-server-'));
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (file: string, text: string, args: string[] = [], env: Record<string, string> = {}): Promise<Run> => {
    writeFileSync(join(dir, file), text);
    return tradereq(['send', file, '--base-url', origin, '--no-clock-sync', ...args], {
      cwd: dir,
      env: { TRADEREQ_STATE_DIR: join(dir, 'state'), ...env },
      timeoutMs: 20_000,
    });
  };

  it('a 200 answer nested 5,000 deep is shown as its raw text, and --all goes on to the next request', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    handler = (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.url?.includes('deep') ? deep : '{"ok":true}');
    };
    const r = await run('deep.tradereq', '### deep\nGET /deep\n\n### next\nGET /next\n', ['--all']);
    assert.equal(r.status, 0, describeRun(r));
    assert.ok(r.stdout.includes(deep), 'the raw text is shown');
    assert.match(r.stdout, /### 2\. next: GET .*\/next[\s\S]*"ok": true/);
    const json = await run('deep.tradereq', '### deep\nGET /deep\n', ['--json']);
    assert.equal(json.status, 0, describeRun(json));
    assert.equal((JSON.parse(json.stdout) as { body: unknown }).body, deep);
  });

  it('a named request answered 10,000 deep: the outcome and the answer (its orderId) are printed, and it is not kept for later runs (issue 31)', async () => {
    const deep = `{"orderId":4242,"x":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(deep);
    };
    const file = '### buy\n# @name buy\nPOST /api/v3/order/test\n\n### again\nGET /again?id={{buy.response.orderId}}\n';
    // The order's parameters do not matter to this server: --no-check sends it without them.
    const r = await run('deep.tradereq', file, ['--request', 'buy', '--no-check']);
    assert.equal(r.status, 0, describeRun(r));
    assert.match(r.stdout, /→ 200 ok\n\{"orderId":4242,/);
    assert.match(r.stderr, /warning: the answer of "buy" nests deeper than 256 levels: not kept for later runs/);
    const json = await run('deep.tradereq', file, ['--request', 'buy', '--json', '--no-check']);
    assert.equal(json.status, 0, describeRun(json));
    assert.equal((JSON.parse(json.stdout) as { body: unknown }).body, deep);
    // A later run of the request that reads {{buy.response.orderId}} finds no answer of buy kept.
    const next = await run('deep.tradereq', file, ['--request', 'again']);
    assert.equal(next.status, 2, describeRun(next));
    assert.match(next.stderr, /buy/);
    assert.deepEqual(
      hits.filter((h) => h.startsWith('/again')),
      [],
      'nothing sent without the answer',
    );
  });

  it('a body that trickles in one byte a second is not waited on past --timeout: the outcome is unknown', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      const timer = setInterval(() => res.write(' '), 1000);
      res.on('close', () => clearInterval(timer));
    };
    const r = await run('slow.tradereq', 'GET /slow\n', ['--timeout', '1500']);
    assert.equal(r.status, 3, describeRun(r));
    assert.match(r.stdout, /outcome unknown: The exchange with .* took longer than the deadline/);
    assert.ok(r.ms < 10_000, describeRun(r));
  });

  it('an API key with CR/LF is bad input: exit 2, nothing sent, nothing counted', async () => {
    handler = (_req, res) => res.end('{}');
    const env = {
      TRADEREQ_DESK_API_KEY: 'abcdefgh\r\nX-Injected: 1',
      TRADEREQ_DESK_SECRET_KEY: 's3cr3t',
      TRADEREQ_DESK_ORIGINS: origin,
    };
    const r = await run('key.tradereq', '# @signed\n# @key desk\nGET /api/v3/account\n', [], env);
    assert.equal(r.status, 2, describeRun(r));
    assert.match(r.stderr, /API key of profile "desk" cannot be sent in a header/);
    assert.doesNotMatch(r.stderr + r.stdout, /abcdefgh|s3cr3t/, 'neither key is printed');
    assert.deepEqual(hits, []);
    assert.equal(new Budget(new FileStateStore(join(dir, 'state'))).view(origin).ip.used, 0);
  });

  it('a header value outside Latin-1 in the file: check reports it, send refuses it before sending', async () => {
    handler = (_req, res) => res.end('{}');
    const text = 'GET /api/v3/ping\nX-Note: 日本\n';
    const r = await run('header.tradereq', text);
    assert.equal(r.status, 2, describeRun(r));
    assert.match(r.stderr, /value of header X-Note cannot be sent/);
    assert.deepEqual(hits, []);
    const check = await tradereq(['check', 'header.tradereq'], { cwd: dir });
    assert.match(check.stdout, /header\.tradereq:2:9: error: The value of X-Note cannot be sent/, describeRun(check));
  });
});
