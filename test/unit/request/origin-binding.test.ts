/**
 * The origin binding on its own (docs/format.md, Environments): normaliseOrigin writes an origin as
 * `new URL().origin` does and refuses what is not http(s); checkBinding lets a key go only to an
 * origin its profile approved, exactly, and says why not and what to do.
 */
import assert from 'node:assert/strict';
import { checkBinding, normaliseOrigin, type KeyBinding } from '../../../src/core/request/origin-binding';
import { ok } from '../../../src/core/result';

const SANDBOX = 'http://127.0.0.1:8780';

const binding = (origins: readonly string[], variable?: string): KeyBinding => ({
  profile: 'main',
  origins,
  source: variable ?? 'SecretStorage',
  variable,
});

/** The refusal's text, failing the test when checkBinding approved. */
function refusal(r: ReturnType<typeof checkBinding>): string {
  assert.equal(r.ok, false, 'refused');
  return r.ok ? '' : r.error;
}

describe('origin binding: normaliseOrigin', () => {
  for (const [url, origin] of [
    ['http://127.0.0.1:8780/api/v3/order?symbol=BTCUSDT#x', SANDBOX],
    ['HTTPS://API.Example.COM:443/api', 'https://api.example.com'],
    ['  http://api.example.com:80/  ', 'http://api.example.com'],
    ['https://api.example.com:8443', 'https://api.example.com:8443'],
    ['http://localhost:8780', 'http://localhost:8780'],
    ['http://[::1]:8780/', 'http://[::1]:8780'],
  ] as const) {
    it(`${JSON.stringify(url)} → ${origin}`, () => {
      assert.equal(normaliseOrigin(url), origin);
    });
  }

  for (const url of [
    'ws://127.0.0.1:8780/ws',
    'wss://api.example.com/ws',
    'ftp://api.example.com',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'api.example.com',
    'not a url',
    'http://',
    '',
  ]) {
    it(`${JSON.stringify(url)} is no origin (undefined)`, () => {
      assert.equal(normaliseOrigin(url), undefined);
    });
  }
});

describe('origin binding: checkBinding', () => {
  it('an approved origin: the key may go', () => {
    assert.deepEqual(checkBinding(SANDBOX, binding(['https://api.example.com', SANDBOX])), ok(undefined));
  });

  it('another port of an approved host: refused, naming the destination, the binding and its source', () => {
    const message = refusal(checkBinding('http://127.0.0.1:8781', binding([SANDBOX])));
    assert.equal(
      message,
      'key profile "main" may not be sent to http://127.0.0.1:8781 (it is bound to http://127.0.0.1:8780, from SecretStorage). Nothing was sent. Bind the profile to http://127.0.0.1:8781 if you trust it.',
    );
  });

  it('another scheme of an approved host: refused', () => {
    assert.match(
      refusal(checkBinding('https://127.0.0.1:8780', binding([SANDBOX]))),
      /may not be sent to https:\/\/127\.0\.0\.1:8780 \(it is bound to http:\/\/127\.0\.0\.1:8780,/,
    );
    assert.equal(checkBinding('http://api.example.com', binding(['https://api.example.com'])).ok, false);
  });

  it('a host that begins with an approved one, or a subdomain of it: refused', () => {
    const approved = binding(['https://api.example.com']);
    assert.equal(checkBinding('https://api.example.com.evil.example', approved).ok, false);
    assert.equal(checkBinding('https://eu.api.example.com', approved).ok, false);
  });

  it('a profile bound to no origin: refused, and it says so', () => {
    assert.match(refusal(checkBinding(SANDBOX, binding([]))), /\(it is bound to no origin, from SecretStorage\)/);
  });

  it('a binding from an environment variable: the refusal names the variable with the origin added', () => {
    const message = refusal(
      checkBinding('https://evil.example', binding(['https://api.example.com'], 'TRADEREQ_MAIN_ORIGINS')),
    );
    assert.match(message, /from TRADEREQ_MAIN_ORIGINS\)\. Nothing was sent\./);
    assert.match(
      message,
      /If you trust it, set TRADEREQ_MAIN_ORIGINS=https:\/\/api\.example\.com,https:\/\/evil\.example and run again\.$/,
    );
  });

  it('a ws:// destination is approved through its http form, and refused with both named otherwise', () => {
    const ws = 'ws://127.0.0.1:8780';
    assert.deepEqual(checkBinding(SANDBOX, binding([SANDBOX]), ws), ok(undefined));
    const message = refusal(checkBinding('http://127.0.0.1:9999', binding([SANDBOX]), 'ws://127.0.0.1:9999'));
    assert.match(
      message,
      /may not be sent to ws:\/\/127\.0\.0\.1:9999 \(ws:\/\/127\.0\.0\.1:9999 needs http:\/\/127\.0\.0\.1:9999; it is bound to http:\/\/127\.0\.0\.1:8780,/,
    );
    assert.match(message, /Bind the profile to http:\/\/127\.0\.0\.1:9999 if you trust it\.$/);
  });

  it('the ws:// form itself in the binding does not approve its http form (only origins as normaliseOrigin writes them count)', () => {
    assert.equal(checkBinding(SANDBOX, binding(['ws://127.0.0.1:8780'])).ok, false);
  });

  for (const origin of ['not a url', '', 'http://127.0.0.1:8780/', 'HTTP://127.0.0.1:8780']) {
    it(`${JSON.stringify(origin)}, not an origin as normaliseOrigin writes it: refused`, () => {
      assert.equal(checkBinding(origin, binding([SANDBOX])).ok, false);
    });
  }
});
