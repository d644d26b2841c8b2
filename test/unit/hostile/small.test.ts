/**
 * Nothing re-routes or re-shapes a signed request, and the smaller holes: history entries of
 * bounded size, a sandbox control surface that web pages cannot drive, and one rule for names
 * that look like secrets, in request files and in tradereq.env.json.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { Budget } from '../../../src/core/budget/budget';
import { MemoryStateStore } from '../../../src/core/budget/state';
import { checkDocument } from '../../../src/core/check/check';
import { BUILTIN_SANDBOX } from '../../../src/core/env/constants';
import { parseEnvironmentFile } from '../../../src/core/env/schema';
import { parse } from '../../../src/core/format/parser';
import { defaultContext, resolveRequest } from '../../../src/core/format/resolve';
import { roundTrip } from '../../../src/core/net/round-trip';
import { entryFromResult, historyItem } from '../../../src/core/panel/entry';
import { buildRequest } from '../../../src/core/request/build';
import { orderQueryDocument, validOrderRef } from '../../../src/core/request/order-query';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { SENDERS } from '../../support/senders';

const ENV = BUILTIN_SANDBOX;

function rules(text: string): string[] {
  return checkDocument(parse(text), { environment: ENV }).map(
    (d) => `${d.range.startLine + 1}:${d.rule}:${d.severity}`,
  );
}

describe('nothing re-routes or re-shapes a signed request', () => {
  it('a Host header (and other connection headers) is an error in check and refused when preparing', () => {
    const text =
      'POST /api/v3/order\nHost: internal.example\nConnection: close\nsymbol = BTCUSDT\nside = BUY\ntype = MARKET\nquantity = 1\n';
    assert.deepEqual(
      rules(text).filter((r) => r.includes('forbidden-header')),
      ['2:forbidden-header:error', '3:forbidden-header:error'],
    );
    const doc = parse(text);
    const resolved = resolveRequest(doc, doc.requests[0]!, defaultContext(ENV));
    assert.ok(resolved.ok);
    const prepared = buildRequest(resolved.value, { key: { apiKey: 'k'.repeat(32), secretKey: 's' } });
    assert.equal(prepared.ok, false);
    assert.match(prepared.ok ? '' : prepared.error, /Host is not for request files/);
  });

  it('"Query the order" accepts ids of the documented shape only, and builds the request as data', () => {
    const injected = { symbol: 'BTCUSDT', orderId: '12\n# @key other\n# @weight 400\nquantity = 9' };
    assert.equal(validOrderRef(injected), undefined);
    assert.equal(
      orderQueryDocument('http://127.0.0.1:8780', { symbol: 'BTCUSDT', origClientOrderId: 'a b' }, 't'),
      undefined,
    );
    const doc = orderQueryDocument(
      'http://127.0.0.1:8780/whatever?x',
      { symbol: 'BTCUSDT', orderId: 'C02__4051387' },
      'Query',
    );
    assert.ok(doc);
    const r = doc.requests[0]!;
    assert.deepEqual(r.directives, []);
    assert.deepEqual(
      r.params.map((p) => [p.name.text, p.value.text, p.placement]),
      [
        ['symbol', 'BTCUSDT', 'query'],
        ['orderId', 'C02__4051387', 'query'],
      ],
    );
    const resolved = resolveRequest(doc, r, defaultContext(ENV));
    assert.ok(resolved.ok);
    assert.equal(resolved.value.url, 'http://127.0.0.1:8780/api/v3/order');
    assert.equal(resolved.value.signed, true);
  });
});

describe('history entries are bounded', () => {
  let server: Server;
  let origin: string;
  before(async () => {
    const msg = '<img src=x onerror=alert(1)>'.repeat(30_000);
    server = createServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 500, msg, pad: 'x'.repeat(1024 * 1024 - msg.length) }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });

  for (const [name, make] of SENDERS)
    it(`a hostile 1 MiB answer makes an entry of at most about 100 KB, and a history item of a few hundred bytes (${name})`, async () => {
      const doc = parse(`### hostile\nGET ${origin}/api/v3/ping\n`);
      const resolved = resolveRequest(doc, doc.requests[0]!, defaultContext(ENV));
      assert.ok(resolved.ok);
      const prepared = buildRequest(resolved.value, {});
      assert.ok(prepared.ok);
      const sender = make();
      try {
        const report = await roundTrip(prepared.value, { sender, budget: new Budget(new MemoryStateStore()) });
        assert.equal(report.outcome, 'unknown');
        assert.ok(report.response!.bodyText.length >= 1024 * 1024);
        const entry = entryFromResult(
          { resolved: resolved.value, report, expectations: [] },
          { id: 'e1', at: 0, title: 'hostile' },
        );
        assert.ok(JSON.stringify(entry).length < 100_000, `entry of ${JSON.stringify(entry).length} characters`);
        assert.ok(entry.response!.truncated);
        assert.ok(JSON.stringify(historyItem(entry)).length < 3_000);
      } finally {
        await sender.close();
      }
    });
});

describe('the sandbox control surface cannot be driven by a web page', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  after(() => sandbox.close());

  const post = async (headers: Record<string, string>): Promise<number> => {
    const r = await request(`${sandbox.baseUrl}/_sandbox/latency`, { method: 'POST', headers, body: '{"ms": 7}' });
    await r.body.text();
    return r.statusCode;
  };

  it('refuses a text/plain POST, a foreign Origin and a non-loopback Host; takes a JSON POST from a local tool', async () => {
    assert.equal(await post({ 'content-type': 'text/plain' }), 415);
    assert.equal(await post({ 'content-type': 'application/json', origin: 'https://evil.example' }), 403);
    assert.equal(await post({ 'content-type': 'application/json', host: 'rebound.evil.example' }), 403);
    assert.equal(await post({ 'content-type': 'application/json' }), 200);
  });
});

describe('names that look like secrets: one rule for request files and tradereq.env.json', () => {
  const NAMES = ['secretKey', 'password', 'apiKey', 'token', 'authToken', 'credentials', 'signingKey', 'listenKey'];

  it('check reports such a file variable as an error that says where keys belong', () => {
    for (const name of NAMES) {
      const found = checkDocument(parse(`@${name} = x\nGET /api/v3/ping\n`), { environment: ENV });
      const d = found.find((x) => x.rule === 'secret-in-file');
      assert.ok(d, name);
      assert.equal(d.severity, 'error');
      assert.match(d.message, /holds no secret.*Add API Key.*TRADEREQ_<PROFILE>_SECRET_KEY/);
    }
    assert.equal(rules('@symbol = BTCUSDT\nGET /api/v3/ping\n').length, 0);
  });

  it('tradereq.env.json refuses such a variable with the same message', () => {
    for (const name of NAMES) {
      const r = parseEnvironmentFile(
        JSON.stringify({ live: { baseUrl: 'https://api.example.com', variables: { [name]: 'x' } } }),
      );
      assert.equal(r.ok, false, name);
      assert.match(r.ok ? '' : r.error, /holds no secret.*Add API Key/);
    }
  });
});
