/**
 * The tests' real HTTP proxy (test/support/proxy.ts: Debian's tinyproxy in a mount namespace of its
 * own) with real traffic: tunnels to an origin whose name only the proxy resolves, Basic credentials,
 * a refused port, its log, and its end with stop() and with the test process. The origin is a TCP
 * echo server: a proxy only tunnels, so what passes through it is bytes to the proxy, TLS or not.
 * Linux as root only; elsewhere the suite says why and is skipped.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { ROOT } from '../support/cli';
import { needsProxy, proxyAvailable, startProxy, type Proxy, type ProxyAvailability } from '../support/proxy';

/** A name in the reserved .invalid domain: it resolves nowhere but in the proxy's own hosts file. */
const ORIGIN_NAME = 'api.live.invalid';
const AUTH = { user: 'trader', password: 'proxy-pass-4cd9e1' };
/** What a client sends through a tunnel: the proxy must neither log it nor see it as a request. */
const API_LINE = 'GET /api/v3/account?signature=0f1e2d3c4b5a HTTP/1.1\r\n';

interface Origin {
  readonly server: Server;
  readonly port: number;
  /** Connections the origin accepted so far. */
  accepted(): number;
}

/** A TCP echo server on 127.0.0.1, counting the connections it accepts. */
async function echoOrigin(): Promise<Origin> {
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    socket.on('error', () => socket.destroy());
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, accepted: () => accepted };
}

interface Tunnel {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly socket: Socket;
}

/** One CONNECT to `target` through the proxy at `proxyPort`, on a connection of its own. */
function tunnel(proxyPort: number, target: string, authorization?: string): Promise<Tunnel> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port: proxyPort,
      method: 'CONNECT',
      path: target,
      agent: false,
      headers: { host: target, ...(authorization ? { 'proxy-authorization': authorization } : {}) },
    });
    // Node reports every answer to a CONNECT as 'connect', whatever its status.
    req.once('connect', (res, socket) => resolve({ status: res.statusCode ?? 0, headers: res.headers, socket }));
    req.once('error', reject);
    req.end();
  });
}

/** Sends `text` through an open tunnel and resolves with as many bytes as came back. */
function echo(socket: Socket, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = '';
    socket.on('data', (chunk: Buffer) => {
      got += chunk.toString();
      if (got.length >= text.length) resolve(got);
    });
    socket.once('error', reject);
    socket.once('close', () => resolve(got));
    socket.write(text);
  });
}

const basic = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The folders of proxies on `port` (named by their log file) left in the temp folder. */
function foldersOf(port: number): string[] {
  return readdirSync(tmpdir())
    .filter((name) => name.startsWith('tradereq-proxy-'))
    .map((name) => join(tmpdir(), name))
    .filter((dir) => existsSync(join(dir, `tinyproxy-${port}.log`)));
}

/** Polls until nothing listens on `port` any more; false if something still does after `deadlineMs`. */
async function closedWithin(port: number, deadlineMs: number): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (await accepts(port)) {
    if (Date.now() > end) return false;
    await delay(50);
  }
  return true;
}

/** What proxyAvailable() and needsProxy() say in a test process of their own, with `env` and started by `prefix`. */
interface Verdict {
  readonly availability: ProxyAvailability;
  /** 'runs', 'skipped', or 'failed: MESSAGE'. */
  readonly needs: string;
}

function verdict(env: NodeJS.ProcessEnv, prefix: readonly string[] = []): Verdict {
  const code = `const { needsProxy, proxyAvailable } = require('./test/support/proxy');
    let needs = 'runs';
    try { needsProxy({ skip: () => { needs = 'skipped'; } }); } catch (e) { needs = 'failed: ' + e.message; }
    console.log(JSON.stringify({ availability: proxyAvailable(), needs }));`;
  const [command, ...args] = [...prefix, process.execPath, '--require', 'tsx/cjs', '-e', code];
  const r = spawnSync(command, args, { cwd: ROOT, env, encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Verdict;
}

/** process.env with CI set to `ci`, or without CI. */
function withCi(ci: string | undefined, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { CI: _ci, ...env } = process.env;
  return { ...env, ...extra, ...(ci === undefined ? {} : { CI: ci }) };
}

describe("the tests' real HTTP proxy (Debian's tinyproxy, test/support/proxy.ts)", function () {
  this.timeout(60_000);
  let origin: Origin;
  const proxies: Proxy[] = [];
  const started = async (...args: Parameters<typeof startProxy>): Promise<Proxy> => {
    const proxy = await startProxy(...args);
    proxies.push(proxy);
    return proxy;
  };

  before(async function () {
    needsProxy(this);
    origin = await echoOrigin();
  });
  afterEach(async () => {
    await Promise.all(proxies.splice(0).map((p) => p.stop()));
  });
  after(() => origin?.server.close());

  it('tunnels CONNECT api.live.invalid:PORT to an origin whose name only the proxy resolves, and logs one CONNECT per connection and nothing of what the tunnel carries', async () => {
    await assert.rejects(lookup(ORIGIN_NAME), { code: 'ENOTFOUND' }, 'the machine itself cannot resolve the name');
    const proxy = await started({ hosts: { [ORIGIN_NAME]: '127.0.0.1' } });
    const target = `${ORIGIN_NAME}:${origin.port}`;
    const before = origin.accepted();
    for (let i = 0; i < 3; i++) {
      const t = await tunnel(proxy.port, target);
      assert.equal(t.status, 200, JSON.stringify(proxy.logLines()));
      assert.equal(await echo(t.socket, API_LINE), API_LINE, 'the bytes went to the origin and back');
      t.socket.destroy();
    }
    assert.equal(origin.accepted() - before, 3, 'the origin got one connection per tunnel');
    assert.deepEqual(proxy.connects(), [target, target, target]);
    assert.deepEqual(proxy.requestLines(), Array(3).fill(`CONNECT ${target} HTTP/1.1`));
    const log = proxy.logLines().join('\n');
    for (const carried of ['/api/v3', 'signature', '0f1e2d3c4b5a'])
      assert.ok(!log.includes(carried), `the log holds "${carried}":\n${log}`);
    await assert.rejects(lookup(ORIGIN_NAME), { code: 'ENOTFOUND' }, 'the name still resolves only in the proxy');
  });

  it('with Basic credentials: 407 without them, 401 with a wrong password, a tunnel with them; the log holds none of them', async () => {
    const proxy = await started({ auth: AUTH, hosts: { [ORIGIN_NAME]: '127.0.0.1' } });
    assert.equal(proxy.urlWithAuth, `http://${AUTH.user}:${AUTH.password}@127.0.0.1:${proxy.port}`);
    assert.equal(proxy.url, `http://127.0.0.1:${proxy.port}`);
    const target = `${ORIGIN_NAME}:${origin.port}`;
    const before = origin.accepted();

    const none = await tunnel(proxy.port, target);
    assert.equal(none.status, 407);
    assert.match(String(none.headers['proxy-authenticate']), /^Basic /);
    none.socket.destroy();
    const wrong = await tunnel(proxy.port, target, basic(AUTH.user, 'not-the-password'));
    assert.equal(wrong.status, 401, "tinyproxy's answer to wrong credentials");
    wrong.socket.destroy();
    assert.equal(origin.accepted(), before, 'no tunnel was opened without the right credentials');

    const right = await tunnel(proxy.port, target, basic(AUTH.user, AUTH.password));
    assert.equal(right.status, 200);
    assert.equal(await echo(right.socket, 'ping\n'), 'ping\n');
    right.socket.destroy();

    assert.deepEqual(proxy.connects(), [target, target, target], 'one CONNECT per connection');
    const log = proxy.logLines().join('\n');
    const secrets = [AUTH.password, basic(AUTH.user, AUTH.password).slice('Basic '.length), AUTH.user];
    for (const secret of secrets) assert.ok(!log.includes(secret), `the log holds "${secret}":\n${log}`);
  });

  it('refuses a CONNECT to a port outside connectPorts with 403 and opens no tunnel', async () => {
    const other = await echoOrigin();
    try {
      const proxy = await started({ hosts: { [ORIGIN_NAME]: '127.0.0.1' }, connectPorts: [origin.port] });
      const refused = await tunnel(proxy.port, `${ORIGIN_NAME}:${other.port}`);
      assert.equal(refused.status, 403);
      refused.socket.destroy();
      assert.equal(other.accepted(), 0, 'the refused port was never reached');
      const allowed = await tunnel(proxy.port, `${ORIGIN_NAME}:${origin.port}`);
      assert.equal(allowed.status, 200);
      allowed.socket.destroy();
      assert.deepEqual(proxy.connects(), [`${ORIGIN_NAME}:${other.port}`, `${ORIGIN_NAME}:${origin.port}`]);
    } finally {
      other.server.close();
    }
  });

  it('refuses options its config cannot hold, without repeating the password', async () => {
    const password = 'has space';
    await assert.rejects(startProxy({ auth: { user: 'u', password } }), (e: Error) => {
      assert.match(e.message, /BasicAuth/);
      assert.ok(!e.message.includes(password));
      return true;
    });
    await assert.rejects(startProxy({ hosts: { 'not a name': '127.0.0.1' } }), /not a host name/);
    await assert.rejects(startProxy({ connectPorts: [] }), /non-empty list of ports/);
  });

  it('stop() ends the proxy: its port refuses connections, its folder is removed, and a second stop() does nothing', async () => {
    const proxy = await started();
    assert.ok(await accepts(proxy.port));
    assert.equal(foldersOf(proxy.port).length, 1, 'its folder, while it runs');
    await proxy.stop();
    assert.equal(await accepts(proxy.port), false);
    assert.deepEqual(foldersOf(proxy.port), [], 'its folder is removed');
    await proxy.stop();
  });

  it('says why a proxy cannot start: skipped where unshare cannot run, also on CI; a missing tinyproxy skips, and fails on CI, where setup installs it', () => {
    assert.deepEqual(proxyAvailable(), { ok: true }, 'here it can');
    const noUnshare = verdict(withCi('true', { PATH: '/nonexistent' }));
    assert.equal(noUnshare.needs, 'skipped');
    assert.equal(noUnshare.availability.ok || noUnshare.availability.cause, 'namespace');
    assert.match(
      JSON.stringify(noUnshare.availability),
      /needs Debian's tinyproxy and a mount namespace: Linux as root/,
    );
    // tinyproxy hidden from a test process of its own: /dev/null, which nothing can run, mounted over it.
    const dirs = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin'];
    const found = dirs.map((d) => join(d, 'tinyproxy')).filter((f) => existsSync(f));
    const hide = [
      'unshare',
      '-m',
      'sh',
      '-c',
      'for f in $HIDE; do mount --bind /dev/null "$f" || exit 1; done; exec "$@"',
      'sh',
    ];
    const path = { PATH: [...dirs, '/sbin', '/bin'].join(':'), HIDE: found.join(' ') };
    for (const [ci, needs] of [
      [undefined, 'skipped'],
      ['true', /^failed: on CI, where setup installs it: .*tinyproxy is not installed/],
    ] as const) {
      const missing = verdict(withCi(ci, path), hide);
      assert.equal(missing.availability.ok || missing.availability.cause, 'tinyproxy', `CI=${ci}`);
      if (typeof needs === 'string') assert.equal(missing.needs, needs);
      else assert.match(missing.needs, needs);
    }
  });

  for (const [how, end] of [
    ['exits without stopping it', 'exit'],
    ['is killed with SIGKILL', 'kill'],
  ] as const) {
    it(`ends with the test process when that ${how}`, async () => {
      // A test process of its own that starts a proxy, prints its port and then ends as told.
      const code = `require('./test/support/proxy').startProxy().then((p) => {
        console.log(p.port);
        if (process.argv[1] === 'exit') process.exit(0); else setInterval(() => {}, 1000);
      }, (e) => { console.error(e); process.exit(1); });`;
      const child = spawn(process.execPath, ['--require', 'tsx/cjs', '-e', code, end], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        const line = await new Promise<string>((resolve, reject) => {
          createInterface({ input: child.stdout }).once('line', resolve);
          child.once('exit', () => reject(new Error('the test process ended before it printed the port')));
        });
        const port = Number(line);
        if (end === 'kill') {
          assert.ok(await accepts(port), 'the proxy listens while the process lives');
          child.kill('SIGKILL');
        }
        await exited;
        assert.ok(await closedWithin(port, 10_000), `port ${port} still accepts connections 10 s after the exit`);
        // An exit removes the proxy's folder; after a SIGKILL nothing can, so the test does.
        const left = foldersOf(port);
        if (end === 'exit') assert.deepEqual(left, [], 'the folder is removed at the exit');
        for (const dir of left) rmSync(dir, { recursive: true, force: true });
      } finally {
        child.kill('SIGKILL');
      }
    });
  }
});
