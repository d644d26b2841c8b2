/**
 * MEXC Spot v3's REST endpoints as data (issue 33): the 70 its documentation names (66 published,
 * 4 in blocks the page hides), the spec's shared parameters reused, and what it leaves undocumented.
 */
import assert from 'node:assert/strict';
import { DEFAULT_DEPLOYMENT, deploymentById } from '../../../src/core/catalog/deployment';
import { endpointCatalogOf, endpointsOf } from '../../../src/core/catalog/endpoint-catalogs';
import { ENDPOINTS, SPEC_ENDPOINTS, endpointWeight, findParam } from '../../../src/core/catalog/endpoints';
import { MEXC_ENDPOINTS } from '../../../src/core/catalog/mexc-endpoints';

const mexc = endpointCatalogOf(deploymentById('mexc')!);

describe('catalog: the endpoints of the mexc deployment', () => {
  it('names 70 distinct method+path pairs: 66 published, 4 hidden in the page, one deprecated', () => {
    const keys = MEXC_ENDPOINTS.map((e) => `${e.method} ${e.path}`);
    assert.equal(new Set(keys).size, 70);
    const hidden = MEXC_ENDPOINTS.filter((e) => e.docStatus === 'hidden').map((e) => `${e.method} ${e.path}`);
    assert.deepEqual(hidden.sort(), [
      'GET /api/v3/etf/info',
      'GET /api/v3/historicalTrades',
      'POST /api/v3/sub-account/futures',
      'POST /api/v3/sub-account/margin',
    ]);
    assert.deepEqual(
      MEXC_ENDPOINTS.filter((e) => e.docStatus === 'deprecated').map((e) => e.path),
      ['/api/v3/capital/withdraw/apply'],
    );
  });

  it("holds every endpoint of the spec's catalog, with the same signing and counting", () => {
    for (const spec of ENDPOINTS) {
      const own = mexc.find(spec.method, spec.path);
      assert.ok(own, `${spec.method} ${spec.path}`);
      assert.equal(own.signed, spec.signed);
      assert.equal(own.mode, spec.mode);
    }
  });

  it("signed endpoints take the spec's recvWindow, timestamp and signature (added by the signer), once each", () => {
    for (const e of MEXC_ENDPOINTS) {
      const names = e.params.map((p) => p.name);
      assert.equal(new Set(names).size, names.length, `${e.method} ${e.path}: ${names.join(', ')}`);
      if (!e.signed) continue;
      assert.equal(findParam(e, 'timestamp')?.addedBySigner, true, e.path);
      assert.equal(findParam(e, 'signature')?.addedBySigner, true, e.path);
      assert.equal(findParam(e, 'recvWindow')?.defaultValue, '5000', e.path);
    }
  });

  it('counts signed endpoints per account (§8) and keeps the documentation’s own label beside', () => {
    const order = mexc.find('POST', '/api/v3/order')!;
    assert.equal(order.mode, 'uid');
    assert.equal(order.documentedMode, 'ip+uid');
    const account = mexc.find('GET', '/api/v3/account')!;
    assert.equal(account.mode, 'uid');
    assert.equal(account.documentedMode, 'ip');
    assert.equal(mexc.find('GET', '/api/v3/depth')!.documentedMode, undefined);
    const keepAlive = mexc.find('PUT', '/api/v3/userDataStream')!;
    assert.equal(keepAlive.weightSource, 'assumed', 'the documentation states no weight for the listen key calls');
    assert.equal(keepAlive.documentedMode, undefined);
  });

  it('names permissions as the documentation does; a write asks before sending', () => {
    const withdraw = mexc.find('POST', '/api/v3/capital/withdraw')!;
    assert.equal(withdraw.permissionName, 'SPOT_WITHDRAW_WRITE');
    assert.equal(withdraw.permission, 'trade');
    const fee = mexc.find('GET', '/api/v3/tradeFee')!;
    assert.equal(fee.permissionName, 'SPOT_ACCOUNT_READ');
    assert.equal(fee.permission, 'read');
  });

  it('weighs ticker/24hr 1 with a symbol and 40 without, ticker/price 1 and 2', () => {
    const day = mexc.find('GET', '/api/v3/ticker/24hr')!;
    assert.equal(
      endpointWeight(day, (n) => n === 'symbol'),
      1,
    );
    assert.equal(
      endpointWeight(day, () => false),
      40,
    );
    const price = mexc.find('GET', '/api/v3/ticker/price')!;
    assert.equal(
      endpointWeight(price, () => false),
      2,
    );
  });

  it('says why margin and broker paths are not in it, and nothing of a path merely unknown', () => {
    assert.match(mexc.undocumented('/api/v3/margin/order')!.reason, /2023/);
    assert.match(mexc.undocumented('/api/v3/broker/sub-account/apiKey')!.reason, /broker API/);
    assert.equal(mexc.undocumented('/api/v3/nothing'), undefined);
    assert.equal(mexc.find('GET', '/api/v3/margin/order'), undefined);
  });

  it('is built once per deployment; an environment without a deployment gets the spec’s catalog', () => {
    assert.equal(endpointCatalogOf(deploymentById('mexc')!), mexc);
    assert.equal(endpointsOf({ deployment: 'mexc' }), mexc);
    assert.equal(endpointsOf({}), SPEC_ENDPOINTS);
    assert.equal(endpointCatalogOf(DEFAULT_DEPLOYMENT), SPEC_ENDPOINTS);
    assert.equal(SPEC_ENDPOINTS.undocumented('/api/v3/margin/order'), undefined);
  });
});
