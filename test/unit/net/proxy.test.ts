import { strict as assert } from 'node:assert';
import { bypassed, proxyTarget, proxyVariables, routeFor, type NetworkSettings } from '../../../src/core/net/proxy';

const PROXY: NetworkSettings = {
  httpsProxy: 'http://alice:s%40cret@proxy.corp:3128',
  httpProxy: 'http://proxy.corp:3128',
};

function route(url: string, s: NetworkSettings = PROXY, secret = true) {
  return routeFor(new URL(url), s, secret);
}

describe('where traffic goes (core/net/proxy.ts)', () => {
  it('no proxy set: direct', () => {
    assert.equal(route('https://api.example.com', {}).kind, 'direct');
  });

  it('loopback is never proxied: localhost, 127.x, [::1], whatever the settings', () => {
    for (const u of ['http://localhost:8780', 'http://127.0.0.1:8780', 'https://127.9.9.9', 'ws://[::1]:8780/ws'])
      assert.equal(route(u).kind, 'direct', u);
  });

  it('https and wss through the proxy: a tunnel, credentials in a header, never in what is shown', () => {
    for (const u of ['https://api.example.com/api/v3/order', 'wss://stream.example.com/ws']) {
      const r = route(u);
      assert.equal(r.kind, 'tunnel', u);
      if (r.kind !== 'tunnel') return;
      assert.equal(r.proxy.shown, 'http://proxy.corp:3128');
      assert.equal(r.proxy.url.username, '');
      assert.equal(r.proxy.authorization, `Basic ${Buffer.from('alice:s@cret').toString('base64')}`);
    }
  });

  it('a signed request or a listen key to plain http off loopback through a proxy: refused, naming why and what to do', () => {
    for (const u of ['http://api.example.com/api/v3/order', 'ws://stream.example.com/ws?listenKey=x']) {
      const r = route(u);
      assert.equal(r.kind, 'refused', u);
      if (r.kind === 'refused') {
        assert.match(r.message, /in clear/);
        assert.match(r.message, /NO_PROXY/);
        assert.doesNotMatch(r.message, /alice|s%40cret|s@cret/);
      }
    }
  });

  it('an unsigned plain http request goes through the tunnel', () => {
    assert.equal(route('http://api.example.com/api/v3/time', PROXY, false).kind, 'tunnel');
  });

  it('NO_PROXY as curl reads it: names and their subdomains, .suffixes, ports, *', () => {
    const u = (s: string) => new URL(s);
    assert.ok(bypassed(u('https://api.example.com'), 'example.com'));
    assert.ok(bypassed(u('https://example.com'), 'example.com'));
    assert.ok(!bypassed(u('https://badexample.com'), 'example.com'));
    assert.ok(bypassed(u('https://api.example.com'), '.example.com'));
    assert.ok(bypassed(u('https://api.example.com'), '*.example.com'));
    assert.ok(bypassed(u('https://api.example.com'), 'other.org, example.com'));
    assert.ok(bypassed(u('https://api.example.com'), 'other.org example.com'));
    assert.ok(bypassed(u('https://api.example.com'), 'example.com:443'));
    assert.ok(!bypassed(u('https://api.example.com'), 'example.com:8443'));
    assert.ok(bypassed(u('https://api.example.com:8443'), 'example.com:8443'));
    assert.ok(bypassed(u('https://10.0.0.1'), '10.0.0.1'));
    assert.ok(bypassed(u('https://[2001:db8::1]'), '[2001:db8::1]'));
    assert.ok(bypassed(u('https://API.Example.COM'), 'example.com'));
    assert.ok(bypassed(u('https://anything.net'), '*'));
    assert.ok(!bypassed(u('https://anything.net'), ''));
    assert.equal(route('https://api.example.com', { ...PROXY, noProxy: 'example.com' }).kind, 'direct');
  });

  it('a proxy URL as users write it: host:port alone, https proxies; other schemes refused without credentials', () => {
    const bare = proxyTarget('proxy.corp:3128');
    assert.ok(typeof bare !== 'string' && bare.shown === 'http://proxy.corp:3128');
    const socks = proxyTarget('socks5://bob:pw@proxy.corp:1080');
    assert.ok(typeof socks === 'string');
    assert.doesNotMatch(socks, /bob|pw@/);
    const broken = proxyTarget('http://al%zzice:pw@proxy.corp:3128');
    assert.ok(
      typeof broken !== 'string' && broken.authorization === `Basic ${Buffer.from('al%zzice:pw').toString('base64')}`,
    );
    const authorization = proxyTarget('http://proxy.corp:3128', 'Basic Zm9vOmJhcg==');
    assert.ok(typeof authorization !== 'string' && authorization.authorization === 'Basic Zm9vOmJhcg==');
  });

  it('the proxy variables as curl reads them: lower case first, http_proxy in lower case only, ALL_PROXY for both, empty unset', () => {
    assert.deepEqual(
      proxyVariables({ HTTPS_PROXY: 'http://a:1', https_proxy: 'http://b:1', HTTP_PROXY: 'http://c:1' }),
      {
        httpsProxy: 'http://b:1',
        httpProxy: undefined,
        noProxy: undefined,
      },
    );
    assert.deepEqual(proxyVariables({ ALL_PROXY: 'http://d:1', NO_PROXY: 'x.com', https_proxy: ' ' }), {
      httpsProxy: 'http://d:1',
      httpProxy: 'http://d:1',
      noProxy: 'x.com',
    });
  });
});
