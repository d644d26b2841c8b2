/**
 * Round trips from requests that carry their signature: the family's published signing examples
 * (test/conformance/support.ts, PUBLISHED_VECTORS) written as a cURL line of the documentation, as
 * a Postman collection v2.1 and as a .http file, with the parameters in the query string, in the
 * body and split. Each is imported with the spawned `tradereq import`, then signed with the
 * spawned `tradereq sign --timestamp` (the source's timestamp, the documentation's secret key):
 * the totalParams must be the one the source signed, computed here from the source's own query
 * string and body, and the signature the one the source carries. Then on to code: the program
 * `tradereq code` makes of the imported request sends, when it runs, those bytes and that signature.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PUBLISHED_VECTORS } from '../conformance/support';
import type { SigningVector } from '../support/docs';
import { describeRun as describeProgram, rawQuery, run, startRecorder } from '../fixtures/codegen/support';
import { describeRun, hmac, tempDir, tradereq } from '../fixtures/convert/harness';
import { ensureBuilt } from '../support/build';

// The documentation's example key pair (its API key is public, as its secret key is).
const API_KEY = 'vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A';
const [ALL, SPLIT] = PUBLISHED_VECTORS as readonly [SigningVector, SigningVector];
const KEYS = { TRADEREQ_API_KEY: API_KEY, TRADEREQ_SECRET_KEY: ALL.secretKey };
const URL = 'https://api.binance.com/api/v3/order';

/** A signed request as its source writes it: query string and body, each with the signature where it stands. */
interface Source {
  readonly name: string;
  readonly query: string;
  readonly body: string;
  readonly signature: string;
}

/** The three placements of the documentation, each carrying the published signature. */
const SOURCES: readonly Source[] = [
  {
    name: 'all in the query string',
    query: `${ALL.query}&signature=${ALL.signature}`,
    body: '',
    signature: ALL.signature,
  },
  { name: 'all in the body', query: '', body: `${ALL.query}&signature=${ALL.signature}`, signature: ALL.signature },
  {
    name: 'split between query string and body',
    query: SPLIT.query,
    body: `${SPLIT.body}&signature=${SPLIT.signature}`,
    signature: SPLIT.signature,
  },
];

/** What the source signed (spec §5 rule 4): its query string and body without the signature, concatenated. */
function sourceTotalParams(s: Source): string {
  const unsigned = (text: string): string =>
    text
      .split('&')
      .filter((p) => p.length > 0 && !p.startsWith('signature='))
      .join('&');
  return unsigned(s.query) + unsigned(s.body);
}

/** The timestamp the source signed with. */
function sourceTimestamp(s: Source): string {
  return /(?:^|&)timestamp=(\d+)/.exec(`${s.query}&${s.body}`)![1]!;
}

function pairs(text: string): { key: string; value: string }[] {
  return text
    .split('&')
    .filter((p) => p.length > 0)
    .map((p) => ({ key: p.slice(0, p.indexOf('=')), value: p.slice(p.indexOf('=') + 1) }));
}

function curlLine(s: Source): string {
  const url = s.query ? `${URL}?${s.query}` : URL;
  return `curl -H "X-MBX-APIKEY: ${API_KEY}" -X POST '${url}'${s.body ? ` -d '${s.body}'` : ''}`;
}

function postmanCollection(s: Source): string {
  const request = {
    method: 'POST',
    header: [{ key: 'X-MBX-APIKEY', value: API_KEY, type: 'text' }],
    url: {
      raw: s.query ? `${URL}?${s.query}` : URL,
      protocol: 'https',
      host: ['api', 'binance', 'com'],
      path: ['api', 'v3', 'order'],
      ...(s.query ? { query: pairs(s.query) } : {}),
    },
    ...(s.body ? { body: { mode: 'urlencoded', urlencoded: pairs(s.body).map((p) => ({ ...p, type: 'text' })) } } : {}),
  };
  return JSON.stringify({
    info: {
      name: 'Documentation examples',
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    item: [{ name: 'New order', request }],
  });
}

function httpFile(s: Source): string {
  const lines = [`POST ${s.query ? `${URL}?${s.query}` : URL}`, `X-MBX-APIKEY: {{apiKey}}`];
  if (s.body) lines.push('Content-Type: application/x-www-form-urlencoded', '', s.body);
  return ['@apiKey = ' + API_KEY, '', '### New order', ...lines, ''].join('\n');
}

/** `tradereq sign FILE --timestamp T --json` in `dir`: totalParams and signature. */
function signed(dir: string, file: string, s: Source): { totalParams: string; signature: string } {
  const r = tradereq(['sign', file, '--timestamp', sourceTimestamp(s), '--json'], { cwd: dir, env: KEYS });
  assert.equal(r.status, 0, describeRun(r));
  return JSON.parse(r.stdout) as { totalParams: string; signature: string };
}

/** Imports `s` from `kind` with the spawned CLI into `dir`; the .tradereq file written. */
const IMPORTERS: Record<string, (dir: string, s: Source) => string> = {
  'a cURL line of the documentation': (dir, s) => {
    const r = tradereq(['import', 'curl'], { input: curlLine(s) });
    assert.equal(r.status, 0, describeRun(r));
    fs.writeFileSync(path.join(dir, 'order.tradereq'), r.stdout);
    return 'order.tradereq';
  },
  'a Postman collection v2.1': (dir, s) => {
    fs.writeFileSync(path.join(dir, 'docs.postman_collection.json'), postmanCollection(s));
    const r = tradereq(['import', 'postman', 'docs.postman_collection.json', '--out', 'out'], { cwd: dir });
    assert.equal(r.status, 0, describeRun(r));
    const files = fs.readdirSync(path.join(dir, 'out')).filter((f) => f.endsWith('.tradereq'));
    assert.equal(files.length, 1, files.join(', '));
    return path.join('out', files[0]!);
  },
  'a .http file': (dir, s) => {
    fs.writeFileSync(path.join(dir, 'orders.http'), httpFile(s));
    const r = tradereq(['import', 'http', 'orders.http', '--out', 'orders.tradereq'], { cwd: dir });
    assert.equal(r.status, 0, describeRun(r));
    return 'orders.tradereq';
  },
};

describe('round trips: a signed request imported, then tradereq sign, signs what its source signed', function () {
  this.timeout(60_000);
  before(ensureBuilt);

  it('the published examples hold: HMAC-SHA256 of each source totalParams with the secret key is its signature', () => {
    for (const s of SOURCES) assert.equal(hmac(ALL.secretKey, sourceTotalParams(s)), s.signature, s.name);
  });

  for (const [kind, importer] of Object.entries(IMPORTERS)) {
    for (const s of SOURCES) {
      it(`${kind}, ${s.name}: same totalParams, same signature`, () => {
        const dir = tempDir();
        const file = importer(dir, s);
        const text = fs.readFileSync(path.join(dir, file), 'utf8');
        assert.ok(!text.includes(API_KEY), 'the API key is not copied');
        assert.ok(!text.includes(s.signature), 'the signature is not copied');
        const out = signed(dir, file, s);
        assert.equal(out.totalParams, sourceTotalParams(s));
        assert.equal(out.signature, s.signature);
      });
    }
  }

  for (const s of SOURCES) {
    it(`a cURL line, ${s.name}, imported, then tradereq code: the Node program sends what the source signed, with its signature`, async () => {
      const dir = tempDir();
      const file = IMPORTERS['a cURL line of the documentation']!(dir, s);
      // As the imported file advises: an environment naming the key profile and the key header.
      const advice = /"key": "([\w-]+)", "apiKeyHeader": "([\w-]+)"/.exec(
        fs.readFileSync(path.join(dir, file), 'utf8'),
      )!;
      const environment = { baseUrl: 'https://api.binance.com', key: advice[1], apiKeyHeader: advice[2] };
      fs.writeFileSync(path.join(dir, 'tradereq.env.json'), JSON.stringify({ binance: environment }));
      const recorder = await startRecorder();
      try {
        const code = tradereq(['code', file, '--lang', 'node', '--out', 'order.mjs'], { cwd: dir });
        assert.equal(code.status, 0, describeRun(code));
        const [, apiKeyEnv, secretKeyEnv] = /reads the keys from (\w+) and (\w+) and/.exec(code.stderr)!;
        const program = {
          language: 'node' as const,
          source: fs.readFileSync(path.join(dir, 'order.mjs'), 'utf8'),
          file: path.join(dir, 'order.mjs'),
          command: process.execPath,
          args: [path.join(dir, 'order.mjs')],
        };
        const env = {
          [apiKeyEnv!]: API_KEY,
          [secretKeyEnv!]: ALL.secretKey,
          TRADEREQ_BASE_URL: recorder.baseUrl,
          TRADEREQ_TIMESTAMP: sourceTimestamp(s),
        };
        const r = await run(program, { env });
        assert.equal(r.status, 200, describeProgram(program, r));
        const [sent] = recorder.requests;
        const query = rawQuery(sent!.target);
        const body = sent!.body.toString('utf8');
        assert.equal(sent!.headers['x-mbx-apikey'], API_KEY, 'the key header the source used');
        const signature = /(?:^|&)signature=([0-9a-f]{64})$/.exec(query)?.[1];
        assert.equal(signature, s.signature);
        assert.equal(query.replace(/&?signature=[0-9a-f]{64}$/, '') + body, sourceTotalParams(s));
      } finally {
        await recorder.close();
      }
    });
  }
});
