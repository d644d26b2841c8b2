/** Resolve under an environment's deployment (issue 33): the endpoint, and a weight that depends on `symbol`. */
import assert from 'node:assert/strict';
import { defaultContext, resolveRequest } from '../../../src/core/format/resolve';
import { BUILTIN_SANDBOX, type NamedEnvironment } from '../../../src/core/env/schema';
import { parse } from '../../../src/core/format/parser';

const MEXC: NamedEnvironment = { name: 'live', baseUrl: 'https://api.mexc.com', deployment: 'mexc' };

function resolved(text: string, environment: NamedEnvironment) {
  const doc = parse(text);
  const r = resolveRequest(doc, doc.requests[0]!, defaultContext(environment));
  assert.ok(r.ok, JSON.stringify(r));
  return r.value;
}

describe('resolve: the endpoint and weight of the environment’s deployment', () => {
  it('GET /api/v3/ticker/24hr weighs 40 without a symbol and 1 with one under mexc; 1 where unknown', () => {
    assert.equal(resolved('GET /api/v3/ticker/24hr\n', MEXC).weight, 40);
    assert.equal(resolved('GET /api/v3/ticker/24hr\nsymbol = BTCUSDT\n', MEXC).weight, 1);
    assert.equal(resolved('GET /api/v3/ticker/24hr\n', BUILTIN_SANDBOX).weight, 1);
  });

  it('a signed endpoint of the deployment is signed and counted per account; # @weight still wins', () => {
    const r = resolved('GET /api/v3/capital/config/getall\n', MEXC);
    assert.equal(r.signed, true);
    assert.equal(r.mode, 'uid');
    assert.equal(r.weight, 10);
    assert.equal(r.endpoint?.permissionName, 'SPOT_WITHDRAW_READ');
    assert.equal(resolved('# @weight 3\nGET /api/v3/ticker/24hr\n', MEXC).weight, 3);
    assert.equal(resolved('GET /api/v3/capital/config/getall\n', BUILTIN_SANDBOX).signed, false);
  });
});
