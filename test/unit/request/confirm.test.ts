/**
 * The key's owner decides, never the repository (src/core/request/confirm.ts): a request that can
 * trade or move funds, signed with the user's own key, asks first unless the key's owner said
 * otherwise; a file may add confirmation, never remove it; the sandbox's demo keys never ask.
 */
import assert from 'node:assert/strict';
import type { NamedEnvironment } from '../../../src/core/env/constants';
import { DEMO_ACCOUNTS, environmentLabel } from '../../../src/core/env/demo';
import { parse } from '../../../src/core/format/parser';
import type { ResolvedRequest } from '../../../src/core/format/resolve';
import { canTrade, confirmationReason, ownerDecision, type OwnerDecision } from '../../../src/core/request/confirm';
import { resolveIn } from '../../../src/core/request/prepare';

const USER_KEY = { apiKey: 'mx0userOwnApiKey0000000001', secretKey: 'userOwnSecret'.padEnd(40, '0') };
const LIVE: NamedEnvironment = { name: 'sandbox', baseUrl: 'https://api.example.com', key: 'main' };

function resolved(text: string, environment: NamedEnvironment = LIVE): ResolvedRequest {
  const doc = parse(text);
  const r = resolveIn(doc, doc.requests[0]!, environment);
  assert.ok(r.ok, JSON.stringify(r));
  return r.value;
}

const signing = (owner: OwnerDecision) => ({ binding: { profile: 'main' }, owner });
const asks = ownerDecision(USER_KEY, 'pass --yes');
const ownerSaidNo = ownerDecision(USER_KEY, 'pass --yes', 'TRADEREQ_MAIN_CONFIRM=off');
const ORDER = 'POST /api/v3/order\nsymbol = BTCUSDT\nside = BUY\ntype = MARKET\nquantity = 1\n';

describe('confirmation: the key decides, not the file, the origin or the environment name', () => {
  it('an order signed with the user\'s own key asks, though its environment is named "sandbox" and sets no "confirm"', () => {
    assert.match(confirmationReason(resolved(ORDER), signing(asks)) ?? '', /your key profile "main"/);
  });

  it('a trade to a loopback origin asks too: a tunnel or a test server can stand on loopback', () => {
    const loopback = { ...LIVE, baseUrl: 'http://127.0.0.1:8780' };
    assert.notEqual(confirmationReason(resolved(ORDER, loopback), signing(asks)), undefined);
  });

  it('every endpoint that trades asks (orders, order tests, cancels, batches), and a signed one the catalog does not know', () => {
    const trades = [
      ORDER,
      'POST /api/v3/order/test\nsymbol = BTCUSDT\nside = BUY\ntype = MARKET\nquantity = 1\n',
      'DELETE /api/v3/order\nsymbol = BTCUSDT\norderId = 1\n',
      'POST /api/v3/batchOrders\nbatchOrders = [{"symbol":"BTCUSDT","side":"BUY","type":"MARKET","quantity":"1"}]\n',
      'POST /api/v3/capital/withdraw\n# @signed\ncoin = USDT\namount = 100\n',
      '# @signed\nGET /api/v3/capital/transfer/unknown\n',
    ];
    for (const text of trades) {
      assert.equal(canTrade(resolved(text)), true, text);
      assert.notEqual(confirmationReason(resolved(text), signing(asks)), undefined, text);
    }
  });

  it('what reads (the account, an order, a listen key) does not ask', () => {
    for (const text of [
      'GET /api/v3/account\n',
      'GET /api/v3/order\nsymbol = BTCUSDT\norderId = 1\n',
      'POST /api/v3/userDataStream\n',
    ])
      assert.equal(confirmationReason(resolved(text), signing(asks)), undefined, text);
  });

  it('the key\'s owner may say no confirmation; the file may still ask for more (# @confirm, "confirm": true)', () => {
    assert.equal(confirmationReason(resolved(ORDER), signing(ownerSaidNo)), undefined);
    assert.equal(confirmationReason(resolved('# @confirm\n' + ORDER), signing(ownerSaidNo)), '# @confirm');
    const careful = { ...LIVE, confirm: true };
    assert.match(confirmationReason(resolved(ORDER, careful), signing(ownerSaidNo)) ?? '', /"confirm": true/);
  });

  it('"confirm": false in a shared file removes nothing', () => {
    const careless = { ...LIVE, confirm: false };
    assert.notEqual(confirmationReason(resolved(ORDER, careless), signing(asks)), undefined);
  });

  it("the sandbox's published demo keys never ask: nothing real is at stake", () => {
    const demo = ownerDecision(DEMO_ACCOUNTS[0]!, 'pass --yes');
    assert.equal(demo.ask, false);
    assert.equal(confirmationReason(resolved(ORDER), signing(demo)), undefined);
  });

  it('an environment is called "sandbox" in reports only where it is on loopback', () => {
    assert.equal(environmentLabel('sandbox', 'http://127.0.0.1:8780'), 'sandbox');
    assert.equal(environmentLabel('sandbox', 'https://api.example.com'), 'https://api.example.com');
    assert.equal(environmentLabel('My-Sandbox', 'https://api.example.com'), 'https://api.example.com');
    assert.equal(environmentLabel('live', 'https://api.example.com'), 'live at https://api.example.com');
  });
});
