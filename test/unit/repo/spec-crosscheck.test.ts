/**
 * Cross-check against the service's published specification: the catalog and docs/service.md
 * were written from it by hand, and this catches a transcription mistake. The document is not in
 * the repository; it is read from TRADEREQ_SPEC (a path) or, where present, from the folder beside
 * the checkout (../shared/spec/service-api.md). Where neither exists the suite says so in one line
 * and its tests are pending, not passed. This is the only test that reads outside the repository,
 * and the last test here checks that it stays so.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { findEndpoint, findParam } from '../../../src/core/catalog/endpoints';
import { ERROR_CODES, lookupError } from '../../../src/core/catalog/errors';
import { LIMITS } from '../../../src/core/catalog/limits';
import { errorTable, numberedRules, numberedSection, repositoryFiles, serviceDoc, tableRows } from '../../support/docs';
import { ROOT } from '../../support/cli';

/** The published spec's path: TRADEREQ_SPEC, else the checkout's neighbour, else undefined. */
function specPath(): string | undefined {
  const given = process.env['TRADEREQ_SPEC'];
  if (given !== undefined && given !== '') return given; // named on purpose: a missing file fails below
  const beside = join(ROOT, '..', 'shared', 'spec', 'service-api.md');
  return existsSync(beside) ? beside : undefined;
}

/** Every number written in `text`, as written (so 60000 and 60,000 differ: the docs keep facts exact). */
function numbersIn(text: string): Set<string> {
  return new Set(text.match(/-?\d+(?:\.\d+)?/g) ?? []);
}

describe('cross-check with the published specification (TRADEREQ_SPEC)', function () {
  let spec = '';
  const docs = serviceDoc();

  before(function () {
    const file = specPath();
    if (file === undefined) {
      console.log('    spec cross-check not run: no published spec found (set TRADEREQ_SPEC to its path)');
      this.skip();
    }
    assert.ok(existsSync(file), `TRADEREQ_SPEC names ${file}, which does not exist`);
    spec = readFileSync(file, 'utf8');
  });

  it('§7.2: docs/service.md lists every error code of the spec, in its order, each meaning as written', () => {
    const published = errorTable(spec);
    assert.ok(published.length >= 90, `only ${published.length} codes read from the spec`);
    assert.deepEqual(errorTable(docs), published);
  });

  it('§7.2: the catalog holds exactly the codes of the spec, in its order, every meaning among its words', () => {
    const published = errorTable(spec);
    assert.deepEqual(
      ERROR_CODES.map((e) => e.code),
      published.map((r) => r.code),
    );
    for (const { code, meaning } of published) {
      const words = meaning.toLowerCase();
      for (const m of lookupError(code)!.meanings)
        assert.ok(words.includes(m.toLowerCase()), `${code}: "${m}" is not in the spec's "${meaning}"`);
    }
  });

  it('§2.1: the order parameters, their order and types are those of the spec, and the catalog documents each', () => {
    const published = tableRows(numberedSection(spec, '2.1'));
    const ours = tableRows(numberedSection(docs, '2.1'));
    assert.deepEqual(
      ours.map((r) => [r[0], r[1]]),
      published.map((r) => [r[0], r[1]]),
    );
    const order = findEndpoint('POST', '/api/v3/order')!;
    for (const [name] of published) assert.equal(findParam(order, name!)?.source, 'spec', name);
  });

  it('§7.1: the same statuses, in the same order', () => {
    const statuses = (text: string): string[] => tableRows(numberedSection(text, '7.1')).map((r) => r[0]!);
    assert.deepEqual(statuses(docs), statuses(spec));
  });

  it('§8: every limit of the spec, with the same numbers, and the catalog holds them', () => {
    const rows = (text: string): Map<string, Set<string>> =>
      new Map(tableRows(numberedSection(text, '8')).map((r) => [r[0]!, numbersIn(r[1] ?? '')]));
    const published = rows(spec);
    const ours = rows(docs);
    for (const [limit, numbers] of published) assert.deepEqual(ours.get(limit), numbers, limit);
    assert.deepEqual(
      [LIMITS.rate.ip.limit, LIMITS.rate.uid.limit, LIMITS.recvWindow.defaultMs, LIMITS.recvWindow.maxMs],
      [500, 500, 5000, 60_000],
    );
    assert.deepEqual(published.get('Request rate, IP mode'), new Set(['500', '10']));
    assert.equal(LIMITS.timestampAheadMs, 1000);
    assert.deepEqual(published.get('Timestamp ahead of server'), new Set(['1000']));
  });

  for (const [section, count] of [
    ['4.1', 7],
    ['5', 12],
    ['8', 5],
  ] as const) {
    it(`§${section}: the same ${count} numbered rules, each keeping the spec's numbers`, () => {
      const published = numberedRules(numberedSection(spec, section));
      const ours = numberedRules(numberedSection(docs, section));
      assert.deepEqual(
        [...published.keys()],
        Array.from({ length: count }, (_, i) => i + 1),
      );
      assert.deepEqual([...ours.keys()], [...published.keys()]);
      for (const [n, rule] of published)
        for (const number of numbersIn(rule))
          assert.ok(numbersIn(ours.get(n)!).has(number), `§${section} rule ${n} lacks ${number}: ${ours.get(n)}`);
    });
  }
});

describe('the repository reads nothing beside the checkout', () => {
  it('no source, test or script reads the folder beside it, but this optional cross-check', () => {
    const beside = /\.\.\/shared\b|\/work\/shared\b|['"]shared['"]|service-api\.md|service-notes\.md/;
    const readers = repositoryFiles()
      .filter((f) => /^(?:(?:src|test|scripts)\/.*\.(?:ts|js|mjs|cjs)|[^/]+\.(?:js|mjs|json))$/.test(f))
      .filter((f) => f !== 'test/unit/repo/spec-crosscheck.test.ts')
      .filter((f) => beside.test(readFileSync(join(ROOT, f), 'utf8')));
    assert.deepEqual(readers, []);
  });
});
