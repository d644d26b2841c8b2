import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from '../../../src/core/format/parser';
import { resolveRequest, type ResolveContext } from '../../../src/core/format/resolve';
import { buildRequest } from '../../../src/core/request/build';
import type { PreparedRequest } from '../../../src/core/net/send';
import { percentEncode } from '../../../src/core/signing/encode';
import { signatureMatches } from '../../../src/core/signing/hmac';
import { BUILTIN_SANDBOX, type NamedEnvironment } from '../../../src/core/env/schema';
import { signingVectors } from '../../support/docs';

const VECTORS = signingVectors();
const SECRET = VECTORS[0]!.secretKey;
const KEY = { apiKey: 'vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A', secretKey: SECRET };
const TS = 1499827319559;

function context(environment: NamedEnvironment = BUILTIN_SANDBOX, now = TS): ResolveContext {
  return { environment, now: () => now, uuid: () => 'uuid', clientOrderId: () => 'cid' };
}

function sign(
  text: string,
  options: { timestamp?: number; environment?: NamedEnvironment; index?: number } = {},
): PreparedRequest {
  const doc = parse(text);
  const request = doc.requests[options.index ?? 0]!;
  const resolved = resolveRequest(doc, request, context(options.environment));
  if (!resolved.ok) throw new Error(resolved.error.map((d) => d.message).join('; '));
  const prepared = buildRequest(resolved.value, { key: KEY, timestamp: options.timestamp });
  if (!prepared.ok) throw new Error(prepared.error);
  return prepared.value;
}

const withoutSignature = (s: string): string => s.replace(/&?signature=[0-9a-f]{64}$/, '');

describe('signer', () => {
  it('reproduces the published vector with every parameter in the query string', () => {
    const p = sign(readFileSync(join(__dirname, '..', '../fixtures/vectors/all-in-query.tradereq'), 'utf8'), {
      timestamp: TS,
    });
    const v = VECTORS[0]!;
    assert.equal(withoutSignature(p.query), v.query);
    assert.equal(p.body, v.body);
    assert.equal(p.signature, v.signature);
  });

  it('reproduces the published vector with parameters split between query string and body', () => {
    const p = sign(readFileSync(join(__dirname, '..', '../fixtures/vectors/split.tradereq'), 'utf8'), {
      timestamp: TS,
    });
    const v = VECTORS[1]!;
    assert.equal(withoutSignature(p.query), v.query);
    assert.equal(p.body, v.body);
    assert.equal(p.signature, v.signature);
  });

  it('§5 rule 11: the same parameters all in the body or all in the query sign the same totalParams', () => {
    const body = sign(readFileSync(join(__dirname, '..', '../fixtures/vectors/all-in-body.tradereq'), 'utf8'), {
      timestamp: TS,
    });
    const query = sign(readFileSync(join(__dirname, '..', '../fixtures/vectors/all-in-query.tradereq'), 'utf8'), {
      timestamp: TS,
    });
    assert.equal(body.totalParams, query.totalParams);
    assert.equal(body.signature, query.signature);
    assert.equal(body.body, VECTORS[0]!.query, 'all parameters go in the form body');
  });

  it('§5 rule 4: totalParams is the query string followed by the body with no separator', () => {
    const p = sign('POST /api/v3/order\n[query]\na = 1\n[body]\nb = 2\n', { timestamp: 5 });
    assert.equal(p.totalParams, 'a=1' + 'b=2&timestamp=5');
    assert.ok(!p.totalParams.includes('1&b'), 'no & between query and body');
  });

  it('§5 rule 4: the signature parameter itself is left out of totalParams, and appended after it', () => {
    const p = sign('POST /api/v3/order\n[query]\nsymbol = BTCUSDT\n', { timestamp: 7 });
    assert.equal(p.totalParams, 'symbol=BTCUSDT&timestamp=7');
    assert.equal(p.query, `symbol=BTCUSDT&timestamp=7&signature=${p.signature}`);
  });

  it('§5 rules 3 and 5: the signature is 64 lower-case hex characters of HMAC-SHA256(secret, totalParams)', () => {
    const p = sign('POST /api/v3/order\nsymbol = BTCUSDT\n', { timestamp: 9 });
    assert.match(p.signature!, /^[0-9a-f]{64}$/);
    assert.equal(p.signature, createHmac('sha256', SECRET).update(p.totalParams!).digest('hex'));
    assert.ok(signatureMatches(SECRET, p.totalParams!, p.signature));
    assert.ok(
      !signatureMatches(SECRET, p.totalParams!, p.signature.toUpperCase()),
      'upper-case hex is not a valid signature',
    );
  });

  it('§5 rule 6: values are percent-encoded strictly with upper-case hex, and what is signed is what is sent', () => {
    assert.equal(percentEncode("BEP20(BSC)!'*,~-_."), 'BEP20%28BSC%29%21%27%2A%2C~-_.');
    assert.equal(percentEncode('a b/é'), 'a%20b%2F%C3%A9');
    const p = sign('POST /api/v3/order\n[query]\nnetwork = BEP20(BSC)\nsymbols = A,B\n', { timestamp: 1 });
    assert.ok(p.query.startsWith('network=BEP20%28BSC%29&symbols=A%2CB&timestamp=1&signature='));
    assert.equal(p.url, `http://127.0.0.1:8780/api/v3/order?${p.query}`);
    assert.equal(p.totalParams, withoutSignature(p.query) + p.body);
  });

  it('§5 rule 7: timestamp is added in milliseconds at the end of the form body when it holds parameters', () => {
    const p = sign('POST /api/v3/order\na = 1\n', { timestamp: TS });
    assert.equal(p.body, `a=1&timestamp=${TS}`);
    assert.equal(p.timestamp, String(TS));
  });

  it('§5 rule 7: timestamp goes at the end of the query string when there is no form body (GET, JSON body)', () => {
    assert.ok(sign('GET /api/v3/account\n', { timestamp: TS }).query.startsWith(`timestamp=${TS}&signature=`));
    const json = sign('POST /api/v3/order\n[json]\n{"symbol": "BTCUSDT"}\n', { timestamp: TS });
    assert.equal(json.body, '{"symbol": "BTCUSDT"}');
    assert.equal(json.totalParams, `timestamp=${TS}{"symbol": "BTCUSDT"}`);
    assert.deepEqual(
      json.headers.find(([n]) => n === 'Content-Type'),
      ['Content-Type', 'application/json'],
    );
  });

  it('§5 rule 7: without --timestamp the signer uses the clock of the resolve context (clock-corrected now)', () => {
    const doc = parse('GET /api/v3/account\n');
    const resolved = resolveRequest(doc, doc.requests[0]!, context(BUILTIN_SANDBOX, 1_700_000_000_123));
    assert.ok(resolved.ok);
    const p = buildRequest(resolved.value, { key: KEY });
    assert.ok(p.ok);
    assert.equal(p.value.timestamp, '1700000000123');
  });

  it('keeps a timestamp the request writes and adds none', () => {
    const p = sign('POST /api/v3/order\na = 1\ntimestamp = 1700000000000\n', { timestamp: TS });
    assert.equal(p.body, 'a=1&timestamp=1700000000000');
  });

  it('# @signature body puts the signature at the end of the form body, outside totalParams', () => {
    const p = sign('# @signature body\nPOST /api/v3/order\n[query]\na = 1\n[body]\nb = 2\n', { timestamp: 3 });
    assert.equal(p.query, 'a=1');
    assert.equal(p.body, `b=2&timestamp=3&signature=${p.signature}`);
    assert.equal(p.totalParams, 'a=1b=2&timestamp=3');
  });

  it('sets the API key header (X-SERVICE-APIKEY unless the environment names another), never the secret', () => {
    const p = sign('GET /api/v3/account\n', { timestamp: 1 });
    assert.deepEqual(
      p.headers.find(([n]) => n === 'X-SERVICE-APIKEY'),
      ['X-SERVICE-APIKEY', KEY.apiKey],
    );
    const other = sign('GET /api/v3/account\n', {
      timestamp: 1,
      environment: { name: 'x', baseUrl: 'https://h.example', apiKeyHeader: 'X-MBX-APIKEY' },
    });
    assert.equal(other.apiKeyHeader, 'X-MBX-APIKEY');
    assert.ok(!JSON.stringify(p).includes(SECRET));
  });

  it('substitutes file, environment and system variables, file variables first', () => {
    const env: NamedEnvironment = {
      name: 'e',
      baseUrl: 'https://api.example.com',
      variables: { symbol: 'ETHUSDT', side: 'SELL' },
    };
    const p = sign(
      '@symbol = BTCUSDT\nPOST /api/v3/order\nsymbol = {{symbol}}\nside = {{side}}\nt = {{$timestamp}}\n',
      { environment: env, timestamp: 42 },
    );
    assert.ok(p.body.startsWith(`symbol=BTCUSDT&side=SELL&t=${TS}&timestamp=42`));
    assert.equal(p.origin, 'https://api.example.com');
  });

  it('does not sign an unsigned request and adds no timestamp or key', () => {
    const p = sign('GET /api/v3/time\n');
    assert.equal(p.signed, false);
    assert.equal(p.query, '');
    assert.ok(!p.headers.some(([n]) => n === 'X-SERVICE-APIKEY'));
  });

  it('refuses to sign without a key, and names the profile', () => {
    const doc = parse('GET /api/v3/account\n');
    const resolved = resolveRequest(doc, doc.requests[0]!, context());
    assert.ok(resolved.ok);
    const p = buildRequest(resolved.value, {});
    assert.equal(p.ok, false);
    assert.match(p.ok ? '' : p.error, /profile "sandbox"/);
  });

  it('reports an undefined variable with its range instead of sending', () => {
    const doc = parse('POST /api/v3/order\nsymbol = {{nope}}\n');
    const resolved = resolveRequest(doc, doc.requests[0]!, context());
    assert.equal(resolved.ok, false);
    if (!resolved.ok) {
      assert.equal(resolved.error[0]!.rule, 'undefined-variable');
      assert.deepEqual(resolved.error[0]!.range, { startLine: 1, startChar: 11, endLine: 1, endChar: 15 });
    }
  });

  it('reports a variable that refers to itself instead of looping', () => {
    const doc = parse('@a = {{b}}\n@b = {{a}}\nPOST /api/v3/order\nx = {{a}}\n');
    const resolved = resolveRequest(doc, doc.requests[0]!, context());
    assert.equal(resolved.ok, false);
  });
});
