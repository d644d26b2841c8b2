import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { plainEnvironmentFile } from '../../../src/core/env/plain-file';
import { parseEnvironmentFile } from '../../../src/core/env/schema';

const REPO = join(__dirname, '..', '..', '..');

/** The files of the repository and the starters, and variants of them: each field's forms, valid and not. */
function texts(): string[] {
  const files = [
    'examples/tradereq.env.json',
    'media/starter/tradereq.env.json',
    'media/starter/mexc/tradereq.env.json',
  ];
  const out = files.map((f) => readFileSync(join(REPO, f), 'utf8'));
  const base = { baseUrl: 'https://api.example.com', key: 'main' };
  const variants: unknown[] = [
    { live: base },
    { live: { ...base, confirm: true, variables: { symbol: 'BTCUSDT', qty: 0.001, on: false } } },
    { live: { variables: { a: 1 }, apiKeyHeader: 'X-KEY', key: 'desk_1', baseUrl: 'http://127.0.0.1:8780/v1' } },
    { m: { deployment: 'mexc' } },
    { m: { deployment: 'mexc', key: 'm' } },
    { m: { deployment: 'mexc', baseUrl: 'https://api.example.com' } },
    { m: { deployment: 'spec' } },
    { m: { deployment: 'nowhere', baseUrl: 'https://x.example' } },
    { m: { deployment: 1 } },
    { w: { ...base, wsUrl: 'wss://stream.example.com/ws' } },
    { w: { ...base, wsUrl: 'wss://user@stream.example.com/ws' } },
    { w: { ...base, wsUrl: 'https://stream.example.com/ws' } },
    { a: {} },
    { a: { key: 'main' } },
    { a: { ...base, baseUrl: 'ftp://x' } },
    { a: { ...base, baseUrl: 'https://x.example?q=1' } },
    { a: { ...base, key: 'has space' } },
    { a: { ...base, key: '' } },
    { a: { ...base, confirm: 'yes' } },
    { a: { ...base, confirm: null } },
    { a: { ...base, apiKeyHeader: 'X KEY' } },
    { a: { ...base, secret: 's' } },
    { a: { ...base, variables: { secretKey: 'x' } } },
    { a: { ...base, variables: { apiKey: 'x' } } },
    { a: { ...base, variables: { '1st': 'x' } } },
    { a: { ...base, variables: { ok: null } } },
    { a: { ...base, variables: { ok: { nested: 1 } } } },
    { a: { ...base, variables: { ok: [1] } } },
    { a: { ...base, variables: [] } },
    { a: { ...base, variables: { constructor: 'c', toString: 1 } } },
    { constructor: base, toString: base, hasOwnProperty: base },
    { '-a': base },
    { 'a.b-c_d': base },
    { '1': base, '0': base },
    { a: base, b: 'x' },
    { a: [base] },
    { a: null },
    [base],
    'text',
    42,
    null,
    {},
  ];
  out.push(...variants.map((v) => JSON.stringify(v)));
  // A __proto__ member is one JSON.parse keeps as its own: at the top, in an environment and among variables.
  out.push(`{"__proto__": ${JSON.stringify(base)}}`);
  out.push(`{"a": {"baseUrl": "https://x.example", "__proto__": {"key": "k"}}}`);
  out.push(`{"a": {"baseUrl": "https://x.example", "variables": {"__proto__": "p", "b": 1}}}`);
  out.push('{', '', '[]', '{"a": {"baseUrl": "https://x.example"}, "a": {"baseUrl": "ftp://y"}}');
  return out;
}

describe('tradereq.env.json read without zod (plain-file.ts)', () => {
  it('gives what the schema gives, field order included, for every file it reads; leaves the rest to the schema', () => {
    let read = 0;
    for (const text of texts()) {
      const plain = plainEnvironmentFile(text);
      if (plain === undefined) continue;
      read++;
      const parsed = parseEnvironmentFile(text);
      assert.ok(parsed.ok, `the plain reader took what the schema refuses: ${text}`);
      assert.deepEqual(plain, parsed.value, text);
      assert.equal(JSON.stringify(plain), JSON.stringify(parsed.value), text);
    }
    // The files people write are read without zod (each starter, the example, the valid variants).
    assert.ok(read >= 13, `only ${read} files were read without zod`);
  });

  it('reads the starters and the example without the schema', () => {
    for (const f of [
      'examples/tradereq.env.json',
      'media/starter/tradereq.env.json',
      'media/starter/mexc/tradereq.env.json',
    ])
      assert.notEqual(plainEnvironmentFile(readFileSync(join(REPO, f), 'utf8')), undefined, f);
  });

  it('does not share the objects of the text with the result', () => {
    const text = '{"a": {"baseUrl": "https://x.example", "variables": {"v": 1}}}';
    const one = plainEnvironmentFile(text)!;
    const two = plainEnvironmentFile(text)!;
    assert.notEqual(one['a']!.variables, two['a']!.variables);
  });
});
