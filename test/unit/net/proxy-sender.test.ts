/**
 * The sender through a proxy, against an in-process CONNECT stand-in (test/support/connect-proxy.ts),
 * so that it runs on every system; the real proxy (tinyproxy) and TLS origins are the end-to-end
 * tests' (test/e2e/proxy.test.ts).
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Network } from '../../../src/core/net/network';
import { NodeHttpSender } from '../../../src/core/net/node-http-sender';
import { describeFailure, type SendResult } from '../../../src/core/net/send';
import { startStandInProxy, type StandInProxy } from '../../support/connect-proxy';
import { prepared } from '../../support/senders';

const FAR = 'http://api.far.invalid';

function failureOf(r: SendResult): Extract<SendResult, { kind: 'failure' }> {
  assert.equal(r.kind, 'failure', JSON.stringify(r));
  return r;
}

describe('the sender through a proxy (a CONNECT stand-in)', function () {
  this.timeout(20_000);
  let origin: Server;
  let port: number;
  let proxy: StandInProxy | undefined;
  let sender: NodeHttpSender | undefined;

  before(async () => {
    origin = createServer((req, res) => res.end(JSON.stringify({ path: req.url })));
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    port = (origin.address() as AddressInfo).port;
  });
  after(() => new Promise((resolve) => origin.close(resolve)));
  afterEach(async () => {
    await sender?.close();
    await proxy?.close();
  });

  function through(p: StandInProxy, extra: { noProxy?: string } = {}): NodeHttpSender {
    sender = new NodeHttpSender(undefined, new Network({ httpProxy: p.url, httpsProxy: p.url, ...extra }));
    return sender;
  }

  it('an unsigned request reaches an origin only the proxy resolves, in a CONNECT tunnel: the proxy sees no request line', async () => {
    proxy = await startStandInProxy({ hosts: { 'api.far.invalid': '127.0.0.1' } });
    const r = await through(proxy).send(prepared(`${FAR}:${port}/api/v3/time?x=1`));
    assert.equal(r.kind, 'response', JSON.stringify(r));
    assert.deepEqual(proxy.lines, [`CONNECT api.far.invalid:${port}`]);
  });

  it('loopback and NO_PROXY go direct: the proxy sees nothing', async () => {
    proxy = await startStandInProxy();
    const s = through(proxy, { noProxy: 'far.invalid' });
    assert.equal((await s.send(prepared(`http://127.0.0.1:${port}/api/v3/time`))).kind, 'response');
    const r = failureOf(await s.send(prepared(`${FAR}:${port}/api/v3/time`)));
    assert.equal(r.code, 'ENOTFOUND');
    assert.deepEqual(proxy.lines, []);
  });

  it('a signed request to plain http off loopback: refused before anything is sent, saying why', async () => {
    proxy = await startStandInProxy({ hosts: { 'api.far.invalid': '127.0.0.1' } });
    const f = failureOf(await through(proxy).send(prepared(`${FAR}:${port}/api/v3/account`, { signed: true })));
    assert.equal(f.phase, 'connect');
    assert.match(describeFailure(f, `${FAR}:${port}`), /in clear/);
    assert.deepEqual(proxy.lines, []);
  });

  it('407: the proxy wants credentials, nothing sent; with them in the URL, through', async () => {
    const auth = `Basic ${Buffer.from('alice:pw').toString('base64')}`;
    proxy = await startStandInProxy({ auth, hosts: { 'api.far.invalid': '127.0.0.1' } });
    const f = failureOf(await through(proxy).send(prepared(`${FAR}:${port}/api/v3/time`)));
    assert.equal(f.code, 'PROXY_407');
    assert.equal(f.phase, 'connect');
    assert.equal(f.via, proxy.url);
    assert.match(describeFailure(f, FAR), /wants credentials, or other ones \(407\)/);
    await sender!.close();
    const withAuth = proxy.url.replace('http://', 'http://alice:pw@');
    sender = new NodeHttpSender(undefined, new Network({ httpProxy: withAuth }));
    const r = await sender.send(prepared(`${FAR}:${port}/api/v3/time`));
    assert.equal(r.kind, 'response', JSON.stringify(r));
    assert.equal(proxy.headers.at(-1)?.['proxy-authorization'], auth);
    assert.doesNotMatch(JSON.stringify(f), /alice|pw@/);
  });

  it('403: the proxy refused the tunnel; other answers: it could not open one; nothing sent', async () => {
    proxy = await startStandInProxy({ status: 403 });
    const f = failureOf(await through(proxy).send(prepared(`${FAR}:${port}/api/v3/time`)));
    assert.equal(f.code, 'PROXY_403');
    assert.match(describeFailure(f, FAR), /refused the tunnel/);
    await sender!.close();
    await proxy.close();
    proxy = await startStandInProxy({ status: 502 });
    const g = failureOf(await through(proxy).send(prepared(`${FAR}:${port}/api/v3/time`)));
    assert.equal(g.code, 'PROXY_502');
    assert.equal(g.phase, 'connect');
    assert.match(describeFailure(g, FAR), /could not open a tunnel/);
  });

  it('nothing answers at the proxy: named as the proxy, not the origin', async () => {
    proxy = await startStandInProxy();
    const url = proxy.url;
    await proxy.close();
    proxy = undefined;
    sender = new NodeHttpSender(undefined, new Network({ httpProxy: url }));
    const f = failureOf(await sender.send(prepared(`${FAR}:${port}/api/v3/time`)));
    assert.equal(f.code, 'PROXY_ECONNREFUSED');
    assert.match(describeFailure(f, FAR), /Nothing answers at the proxy/);
  });
});
