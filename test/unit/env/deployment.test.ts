import { strict as assert } from 'node:assert';
import { parseEnvironmentFile } from '../../../src/core/env/schema';
import { deploymentOf, deploymentOfUrl, DEPLOYMENTS } from '../../../src/core/catalog/deployment';

function parsed(text: string) {
  const r = parseEnvironmentFile(text);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.value;
}

describe('an environment names its deployment (issue 33)', () => {
  it('"deployment": "mexc" gives the base URL, WebSocket URL and key header the environment leaves out', () => {
    const env = parsed('{"live": {"deployment": "mexc", "key": "main"}}')['live']!;
    assert.equal(env.baseUrl, 'https://api.mexc.com');
    assert.equal(env.wsUrl, 'wss://wbs-api.mexc.com/ws');
    assert.equal(env.apiKeyHeader, 'X-MEXC-APIKEY');
  });

  it("the environment's own baseUrl, wsUrl and apiKeyHeader win; its own baseUrl keeps the WebSocket next to it", () => {
    const file = parsed(
      JSON.stringify({
        local: { deployment: 'mexc', baseUrl: 'http://127.0.0.1:8780' },
        mine: { deployment: 'mexc', wsUrl: 'wss://gateway.example/ws', apiKeyHeader: 'X-GATEWAY-KEY' },
      }),
    );
    assert.equal(file['local']!.baseUrl, 'http://127.0.0.1:8780');
    assert.equal(file['local']!.wsUrl, undefined);
    assert.equal(file['local']!.apiKeyHeader, 'X-MEXC-APIKEY');
    assert.equal(file['mine']!.wsUrl, 'wss://gateway.example/ws');
    assert.equal(file['mine']!.apiKeyHeader, 'X-GATEWAY-KEY');
  });

  it('without a deployment nothing changes: the spec has no address, so baseUrl is required', () => {
    assert.deepEqual(parsed('{"a": {"baseUrl": "https://api.example.com"}}')['a'], {
      baseUrl: 'https://api.example.com',
    });
    const r = parseEnvironmentFile('{"a": {"key": "main"}}');
    assert.ok(!r.ok);
    assert.match(r.error, /^a\.baseUrl: baseUrl is required: the deployment "spec" has no address/);
  });

  it('a deployment TradeReq does not know is refused', () => {
    const r = parseEnvironmentFile('{"a": {"deployment": "elsewhere", "baseUrl": "https://x.example"}}');
    assert.ok(!r.ok);
    assert.match(r.error, /^a\.deployment: /);
  });

  it("each deployment is found by its hosts and by its id; the default is the spec's", () => {
    assert.equal(deploymentOfUrl('https://api.mexc.com/api/v3/order')?.id, 'mexc');
    assert.equal(deploymentOfUrl('wss://wbs-api.mexc.com/ws')?.id, 'mexc');
    assert.equal(deploymentOfUrl('https://notmexc.com/api'), undefined);
    assert.equal(deploymentOfUrl('not a url'), undefined);
    assert.equal(deploymentOf({}).id, 'spec');
    for (const d of DEPLOYMENTS) assert.equal(deploymentOf({ deployment: d.id }), d);
  });

  it("each deployment's documented listen keys match its own format", () => {
    for (const d of DEPLOYMENTS) for (const k of d.listenKey.examples) assert.match(k, d.listenKey.format);
  });
});
