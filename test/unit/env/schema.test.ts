import assert from 'node:assert/strict';
import { parseEnvironmentFile } from '../../../src/core/env/schema';
import { keysFromEnvironment, maskApiKey } from '../../../src/core/env/keys';
import { demoKeyFor } from '../../../src/core/env/demo';

describe('environments and keys', () => {
  it('accepts the environment file of docs/format.md', () => {
    const r = parseEnvironmentFile(
      JSON.stringify({
        sandbox: { baseUrl: 'http://127.0.0.1:8780', key: 'sandbox' },
        live: { baseUrl: 'https://api.example.com', key: 'main', confirm: true, variables: { symbol: 'BTCUSDT' } },
      }),
    );
    assert.ok(r.ok);
  });

  it('refuses a variable that looks like a secret, and says where keys belong', () => {
    const r = parseEnvironmentFile(
      JSON.stringify({ live: { baseUrl: 'https://api.example.com', variables: { secretKey: 'x' } } }),
    );
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.error, /variables\.secretKey: .*holds no secret.*Add API Key/);
  });

  it('refuses unknown fields, a base URL that is not http(s), and invalid JSON, naming the field', () => {
    assert.match(
      JSON.stringify(parseEnvironmentFile('{"a": {"baseUrl": "https://x.example", "secret": "s"}}')),
      /secret/,
    );
    assert.match(
      JSON.stringify(parseEnvironmentFile('{"a": {"baseUrl": "ftp://x"}}')),
      /a\.baseUrl: baseUrl must be an http/,
    );
    assert.match(JSON.stringify(parseEnvironmentFile('{')), /not valid JSON/);
  });

  it('reads keys from TRADEREQ_<PROFILE>_* first, then TRADEREQ_*; profile upper-cased with - as _', () => {
    const env = {
      TRADEREQ_MAIN_DESK_API_KEY: 'a1',
      TRADEREQ_MAIN_DESK_SECRET_KEY: 's1',
      TRADEREQ_API_KEY: 'a2',
      TRADEREQ_SECRET_KEY: 's2',
    };
    assert.deepEqual(keysFromEnvironment('main-desk', env), { apiKey: 'a1', secretKey: 's1' });
    assert.deepEqual(keysFromEnvironment('other', env), { apiKey: 'a2', secretKey: 's2' });
    assert.equal(keysFromEnvironment('other', {}), undefined);
  });

  it('masks an API key to its last 4 characters', () => {
    assert.equal(maskApiKey('abcdefgh1234'), '****1234');
    assert.equal(maskApiKey('abc'), '****');
  });

  it('offers the demo key only for the sandbox profile and only to loopback origins', () => {
    assert.ok(demoKeyFor('sandbox', 'http://127.0.0.1:8780'));
    assert.ok(demoKeyFor('sandbox', 'http://localhost:9000'));
    assert.equal(demoKeyFor('sandbox', 'https://api.example.com'), undefined);
    assert.equal(demoKeyFor('main', 'http://127.0.0.1:8780'), undefined);
  });
});
