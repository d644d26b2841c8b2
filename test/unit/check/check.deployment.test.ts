/** The check step under an environment's deployment (issue 33): its catalog, and what it says of a path it lacks. */
import assert from 'node:assert/strict';
import { checkDocument } from '../../../src/core/check/check';
import { BUILTIN_SANDBOX, type NamedEnvironment } from '../../../src/core/env/schema';
import { parse } from '../../../src/core/format/parser';

const MEXC: NamedEnvironment = { name: 'live', baseUrl: 'https://api.mexc.com', deployment: 'mexc' };

function findings(text: string, environment: NamedEnvironment): { rule: string; message: string }[] {
  return checkDocument(parse(text), { environment }).map((d) => ({ rule: d.rule, message: d.message }));
}

describe('check: the environment’s deployment', () => {
  it('an endpoint the deployment documents is known, with its parameters checked', () => {
    const text = 'GET /api/v3/capital/deposit/address\n';
    assert.deepEqual(findings(text, BUILTIN_SANDBOX)[0]?.rule, 'unknown-endpoint');
    const under = findings(text, MEXC);
    assert.equal(under.filter((f) => f.rule === 'unknown-endpoint').length, 0);
    assert.ok(
      under.some((f) => f.rule === 'missing-param' && /coin/.test(f.message)),
      JSON.stringify(under),
    );
  });

  it('a path not in its catalog is reported naming the deployment', () => {
    const [f] = findings('GET /api/v3/nothing\n', MEXC);
    assert.equal(f?.rule, 'unknown-endpoint');
    assert.match(
      f.message,
      /^\/api\/v3\/nothing is not in the endpoint catalog of MEXC Spot v3 \("deployment": "mexc"\)/,
    );
  });

  it('a margin or broker path says why the deployment does not document it', () => {
    const [margin] = findings('GET /api/v3/margin/loan\n', MEXC);
    assert.match(margin!.message, /is not documented by MEXC Spot v3 .*withdrawn from its documentation in 2023/);
    const [broker] = findings('POST https://api.mexc.com/api/v3/broker/sub-account/apiKey\n', MEXC);
    assert.match(broker!.message, /is not documented by MEXC Spot v3 .*broker API/);
  });

  it('without a deployment the words are as before', () => {
    const [f] = findings('GET /api/v3/margin/loan\n', BUILTIN_SANDBOX);
    assert.match(
      f!.message,
      /^\/api\/v3\/margin\/loan is not in TradeReq's endpoint catalog: parameters are not checked/,
    );
  });

  it('the deployment’s key header written by hand is reported, as the default one is', () => {
    const out = findings('GET /api/v3/account\nX-MEXC-APIKEY: abc\n', MEXC);
    assert.ok(
      out.some((f) => f.rule === 'api-key-header'),
      JSON.stringify(out),
    );
  });
});
