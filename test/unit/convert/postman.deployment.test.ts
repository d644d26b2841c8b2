/**
 * A deployment's own published Postman collection, imported and checked (issue 33): MEXC's "MEXC V3"
 * has 71 requests. Its text is not ours, so the repository holds a collection of its shape instead
 * (the same folders and the same 71 method+path pairs, with our own names and values); the real one
 * is checked when TRADEREQ_MEXC_POSTMAN names its path, and the suite is pending otherwise.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { importPostman, type ImportResult } from '../../../src/core/convert';
import { checkDocument } from '../../../src/core/check/check';
import type { NamedEnvironment } from '../../../src/core/env/constants';
import { parse } from '../../../src/core/format/parser';
import { fixture, imported, onlyEnvironment } from '../../fixtures/convert/harness';

const COLLECTION = fixture('postman', 'mexc-shape.postman_collection.json');
const ENVIRONMENT = fixture('postman', 'mexc-shape.postman_environment.json');

const MARGIN = /^\/api\/v3\/margin\//;
const BROKER = /^\/api\/v3\/broker\//;

interface Unknown {
  readonly line: string;
  readonly message: string;
}

/** Every request line of the imported files the check step reports as an unknown endpoint under `environment`. */
function unknownEndpoints(result: ImportResult, environment: NamedEnvironment): Unknown[] {
  const out: Unknown[] = [];
  for (const f of result.files) {
    const doc = parse(f.text);
    for (const d of checkDocument(doc, { environment })) {
      if (d.rule !== 'unknown-endpoint') continue;
      const request = doc.requests.find((r) => r.requestLine.range.startLine === d.range.startLine)!;
      out.push({ line: `${request.requestLine.method.text} ${request.requestLine.path.text}`, message: d.message });
    }
  }
  return out;
}

/** What the collection holds and what check says of it, under the deployment the import named. */
function assertChecksUnderMexc(result: ImportResult, requests: number): void {
  assert.equal(result.requestCount, requests);
  const environment = onlyEnvironment(result.environment);
  assert.equal(environment.deployment, 'mexc', 'the import names the deployment whose host the collection uses');
  const unknown = unknownEndpoints(result, environment);
  const undocumented = unknown.filter(
    (u) => !MARGIN.test(u.line.split(' ')[1]!) && !BROKER.test(u.line.split(' ')[1]!),
  );
  assert.deepEqual(undocumented, [], 'no endpoint the deployment documents is reported unknown');
  assert.equal(unknown.length, 20, unknown.map((u) => u.line).join('\n'));
  for (const u of unknown) {
    const path = u.line.split(' ')[1]!;
    assert.match(u.message, /is not documented by MEXC Spot v3 \("deployment": "mexc"\)/, u.line);
    assert.match(u.message, MARGIN.test(path) ? /withdrawn from its documentation in 2023/ : /its broker API/, u.line);
  }
  assert.equal(unknown.filter((u) => MARGIN.test(u.line.split(' ')[1]!)).length, 19);
}

describe("a deployment's own Postman collection, imported and checked (issue 33)", () => {
  const result = imported(importPostman(COLLECTION, ENVIRONMENT));

  it('holds the 71 method+path pairs of the published collection, in 7 folders', () => {
    const lines = result.files.flatMap((f) =>
      parse(f.text).requests.map((r) => `${r.requestLine.method.text} ${r.requestLine.path.text}`),
    );
    assert.equal(lines.length, 71);
    assert.equal(new Set(lines).size, 71);
    assert.equal(result.files.length, 7);
  });

  it('names "deployment": "mexc" and leaves out the base URL and key header the deployment gives', () => {
    const [env] = Object.values(result.environment ?? {});
    assert.ok(env);
    assert.equal(env.deployment, 'mexc');
    assert.equal(env.baseUrl, undefined);
    assert.equal(env.apiKeyHeader, undefined);
    const first = result.files[0]!.text;
    assert.doesNotMatch(first, /"apiKeyHeader"/);
  });

  it('checks under "deployment": "mexc" with no documented endpoint unknown; the 20 undocumented ones say why', () => {
    assertChecksUnderMexc(result, 71);
  });

  it('without its environment (no host known), its key header names the deployment; the environment points at the sandbox', () => {
    const alone = imported(importPostman(COLLECTION));
    const env = Object.values(alone.environment ?? {})[0];
    assert.equal(env?.deployment, 'mexc');
    assert.equal(env?.baseUrl, 'http://127.0.0.1:8780');
    assert.equal(env?.apiKeyHeader, undefined);
    assert.ok(
      alone.notes.some((n) => n.includes('the key header of MEXC Spot v3') && n.includes('--deployment mexc')),
      alone.notes.join('\n'),
    );
    assertChecksUnderMexc(alone, 71);
  });

  it('under the spec\'s catalog (the "before" of issue 33), 61 are not in the catalog and 1 is known with another method', () => {
    const environment: NamedEnvironment = { name: 'before', baseUrl: 'https://api.mexc.com' };
    const unknown = unknownEndpoints(result, environment);
    const notInCatalog = unknown.filter((u) => /is not in TradeReq's endpoint catalog/.test(u.message));
    const otherMethod = unknown.filter((u) => /this path is known with GET/.test(u.message));
    assert.equal(notInCatalog.length, 61);
    assert.deepEqual(
      otherMethod.map((u) => u.line),
      ['DELETE /api/v3/openOrders'],
    );
  });
});

/** The published collection's path: TRADEREQ_MEXC_POSTMAN, else undefined. */
function publishedPath(): string | undefined {
  const given = process.env['TRADEREQ_MEXC_POSTMAN'];
  return given !== undefined && given !== '' ? given : undefined;
}

describe('the published "MEXC V3" collection itself (TRADEREQ_MEXC_POSTMAN)', function () {
  let text = '';

  before(function () {
    const file = publishedPath();
    if (file === undefined) {
      console.log('    published collection not checked: set TRADEREQ_MEXC_POSTMAN to its path');
      this.skip();
    }
    // Named on purpose: a missing file fails rather than skips.
    assert.ok(existsSync(file), `TRADEREQ_MEXC_POSTMAN names no file: ${file}`);
    text = readFileSync(file, 'utf8');
  });

  it('imports as 71 requests and checks under "deployment": "mexc" with no documented endpoint unknown', () => {
    // The collection's base is {{api_url}}; its published environment gives it the deployment's host.
    const environment = JSON.stringify({ values: [{ key: 'api_url', value: 'https://api.mexc.com' }] });
    assertChecksUnderMexc(imported(importPostman(text, environment)), 71);
  });

  it('imported without its environment, it names the deployment by its key header and checks the same', () => {
    assertChecksUnderMexc(imported(importPostman(text)), 71);
  });
});
