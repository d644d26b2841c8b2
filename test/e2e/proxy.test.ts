/**
 * The command line behind a company proxy, with real parts: Debian's tinyproxy (test/support/proxy.ts),
 * the sandbox over TLS with a CA of its own, and an origin named `api.live.invalid`, which only the
 * proxy resolves (to the sandbox), as a live deployment reached only through a proxy. Needs Linux
 * as root (a mount namespace for the proxy's hosts file): skipped elsewhere, saying why.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { describeRun, tradereq, type Run } from '../support/cli';
import { needsProxy, startProxy, type Proxy } from '../support/proxy';

const HOST = 'api.live.invalid';
const USER = 'desk';
const PASSWORD = 'pr0xy-S3cret-7f2c';
const BOOK = 'spot@public.bookTicker.v3.api@BTCUSDT';

describe('the command line through a real proxy (tinyproxy), to a TLS origin only the proxy reaches', function () {
  this.timeout(120_000);
  let sandbox: Sandbox & { caPem?: string };
  let dir: string;
  let origin: string;
  let ca: string;
  const proxies: Proxy[] = [];

  before(async function () {
    needsProxy(this);
    sandbox = await startSandbox({ port: 0, tls: { names: [HOST] } });
    origin = `https://${HOST}:${sandbox.port}`;
    dir = mkdtempSync(join(tmpdir(), 'tradereq-proxy-'));
    ca = join(dir, 'sandbox-ca.pem');
    writeFileSync(ca, sandbox.caPem ?? '');
    const env = { live: { baseUrl: origin, wsUrl: `wss://${HOST}:${sandbox.port}/ws`, key: 'live' } };
    writeFileSync(join(dir, 'tradereq.env.json'), JSON.stringify(env));
    writeFileSync(join(dir, 'account.tradereq'), '# @name account\n# @expect status 200\nGET /api/v3/account\n');
    writeFileSync(join(dir, 'book.tradereq'), `WS /ws\n[subscribe]\n${BOOK}\n`);
  });

  after(async () => {
    for (const p of proxies) await p.stop();
    await sandbox?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function proxy(options: Parameters<typeof startProxy>[0] = {}): Promise<Proxy> {
    const p = await startProxy({ hosts: { [HOST]: '127.0.0.1' }, ...options });
    proxies.push(p);
    return p;
  }

  /** The live key is the sandbox's demo key, bound to the origin only the proxy reaches. */
  function run(args: readonly string[], env: Record<string, string>): Promise<Run> {
    const demo = sandbox.keys.find((k) => k.name === 'trade')!;
    return tradereq(args, {
      cwd: dir,
      timeoutMs: 60_000,
      env: {
        TRADEREQ_STATE_DIR: join(dir, 'state'),
        TRADEREQ_ENV: 'live',
        TRADEREQ_LIVE_API_KEY: demo.apiKey,
        TRADEREQ_LIVE_SECRET_KEY: demo.secretKey,
        TRADEREQ_LIVE_ORIGINS: origin,
        HTTPS_PROXY: '',
        HTTP_PROXY: '',
        https_proxy: '',
        http_proxy: '',
        NO_PROXY: '',
        no_proxy: '',
        ...env,
      },
    });
  }

  /** Only tunnels, one per connection, each to the origin: no request line of the API ever reaches the proxy. */
  function onlyTunnels(p: Proxy): void {
    assert.ok(p.connects().length >= 1, 'the proxy carried the connection');
    assert.deepEqual(
      p.requestLines().filter((l) => !l.startsWith('CONNECT ')),
      [],
      'the proxy saw a request line of the API',
    );
    for (const target of p.connects()) assert.equal(target, `${HOST}:${sandbox.port}`);
  }

  it('send: a signed request through HTTPS_PROXY with --cacert reaches the origin; the proxy sees only CONNECT', async () => {
    const p = await proxy();
    const r = await run(['send', 'account.tradereq', '--cacert', ca], { HTTPS_PROXY: p.url });
    assert.equal(r.status, 0, describeRun(r));
    assert.match(r.stdout, /200/);
    onlyTunnels(p);
    // The clock measurement and the request share one kept-alive connection: one tunnel.
    assert.equal(p.connects().length, 1, p.logLines().join('\n'));
  });

  it('--proxy URL does what HTTPS_PROXY does; NODE_EXTRA_CA_CERTS trusts the CA as --cacert does', async () => {
    const p = await proxy();
    const r = await run(['send', 'account.tradereq', '--proxy', p.url], { NODE_EXTRA_CA_CERTS: ca });
    assert.equal(r.status, 0, describeRun(r));
    onlyTunnels(p);
  });

  it('an untrusted certificate: not sent, and the message names NODE_EXTRA_CA_CERTS and --cacert', async () => {
    const p = await proxy();
    const r = await run(['send', 'account.tradereq'], { HTTPS_PROXY: p.url });
    assert.equal(r.status, 1, describeRun(r));
    assert.match(r.stdout + r.stderr, /certificate of https:\/\/api\.live\.invalid:\d+ is not trusted/);
    assert.match(r.stdout + r.stderr, /NODE_EXTRA_CA_CERTS=FILE or --cacert FILE/);
  });

  it('NO_PROXY and --no-proxy go direct: the name does not resolve here, and the proxy sees nothing', async () => {
    const p = await proxy();
    const both: Record<string, string>[] = [
      { HTTPS_PROXY: p.url, NO_PROXY: '.invalid' },
      { HTTPS_PROXY: p.url, no_proxy: HOST },
    ];
    for (const env of both) {
      const r = await run(['send', 'account.tradereq', '--cacert', ca], env);
      assert.equal(r.status, 1, describeRun(r));
      assert.match(r.stdout + r.stderr, /cannot be found/);
    }
    const flag = await run(['send', 'account.tradereq', '--cacert', ca, '--no-proxy'], { HTTPS_PROXY: p.url });
    assert.match(flag.stdout + flag.stderr, /cannot be found/);
    assert.deepEqual(p.requestLines(), []);
  });

  it('loopback goes direct whatever the proxy variables say', async () => {
    const p = await proxy();
    const loopback = new URL(sandbox.baseUrl).origin;
    const r = await run(['send', 'account.tradereq', '--cacert', ca, '--base-url', sandbox.baseUrl], {
      HTTPS_PROXY: p.url,
      http_proxy: p.url,
      ALL_PROXY: p.url,
      TRADEREQ_LIVE_ORIGINS: loopback,
    });
    assert.equal(r.status, 0, describeRun(r));
    assert.deepEqual(p.requestLines(), []);
  });

  it('407 without credentials, nothing sent; with them, through; the password is in no output, report or file', async () => {
    const p = await proxy({ auth: { user: USER, password: PASSWORD } });
    const refused = await run(['send', 'account.tradereq', '--cacert', ca, '--json'], { HTTPS_PROXY: p.url });
    assert.equal(refused.status, 1, describeRun(refused));
    assert.match(refused.stdout + refused.stderr, /wants credentials, or other ones \(407\)/);
    const reports = join(dir, 'reports');
    const outputs: Run[] = [refused];
    outputs.push(await run(['send', 'account.tradereq', '--cacert', ca, '--json'], { HTTPS_PROXY: p.urlWithAuth }));
    assert.equal(outputs[1]!.status, 0, describeRun(outputs[1]!));
    const test = await run(
      [
        'test',
        'account.tradereq',
        '--cacert',
        ca,
        '--reporter',
        `junit:${join(reports, 'junit.xml')}`,
        '--reporter',
        `json:${join(reports, 'r.json')}`,
      ],
      { HTTPS_PROXY: p.urlWithAuth },
    );
    assert.equal(test.status, 0, describeRun(test));
    outputs.push(test, await run(['send', 'account.tradereq', '--proxy', `${p.urlWithAuth}/`, '--cacert', ca], {}));
    onlyTunnels(p);
    const encoded = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
    const files = filesUnder(dir).filter((f) => !f.endsWith('sandbox-ca.pem'));
    assert.ok(files.some((f) => f.endsWith('junit.xml')) && files.some((f) => f.includes('state')));
    for (const text of [
      ...outputs.flatMap((o) => [o.stdout, o.stderr]),
      ...files.map((f) => readFileSync(f, 'utf8')),
    ]) {
      assert.ok(
        !text.includes(PASSWORD) && !text.includes(encoded),
        `the proxy's password in:\n${text.slice(0, 2000)}`,
      );
    }
  });

  it('403: the proxy refuses the tunnel to that port; the message says so and that nothing was sent', async () => {
    const p = await proxy({ connectPorts: [443] });
    const r = await run(['send', 'account.tradereq', '--cacert', ca], { HTTPS_PROXY: p.url });
    assert.equal(r.status, 1, describeRun(r));
    assert.match(r.stdout + r.stderr, /refused the tunnel to https:\/\/api\.live\.invalid:\d+ \(403\)/);
  });

  it('a signed request to plain http off loopback through the proxy: refused, naming why', async () => {
    const p = await proxy();
    const r = await run(['send', 'account.tradereq', '--base-url', `http://${HOST}:${sandbox.port}`], {
      HTTP_PROXY: p.url,
      http_proxy: p.url,
      TRADEREQ_LIVE_ORIGINS: `http://${HOST}:${sandbox.port}`,
    });
    assert.equal(r.status, 1, describeRun(r));
    assert.match(r.stdout + r.stderr, /would cross the network in clear/);
    // The clock measurement, unsigned, may go through the tunnel; nothing goes in the clear.
    assert.deepEqual(
      p.requestLines().filter((l) => !l.startsWith('CONNECT ')),
      [],
    );
  });

  it('listen: a wss stream through the proxy, one CONNECT and nothing else', async () => {
    const p = await proxy();
    const r = await run(['listen', 'book.tradereq', '--count', '1', '--cacert', ca], { HTTPS_PROXY: p.url });
    assert.equal(r.status, 0, describeRun(r));
    assert.match(r.stdout, /bookTicker/);
    onlyTunnels(p);
    assert.equal(p.connects().length, 1);
  });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}
