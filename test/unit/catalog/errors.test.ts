import assert from 'node:assert/strict';

import { ERROR_CODES, formatErrorText, lookupError } from '../../../src/core/catalog/errors';
import { HTTP_STATUSES, describeStatus, outcomeOfStatus } from '../../../src/core/catalog/statuses';
import { errorTable, serviceDoc } from '../../support/docs';

interface SpecRow {
  readonly code: number;
  readonly meanings: readonly string[];
}

/** The §7.2 table of docs/service.md (the spec's table, kept exact), with two-meaning rows split. */
function readSpecErrorTable(): SpecRow[] {
  return errorTable(serviceDoc()).map((r) => ({ code: r.code, meanings: splitMeanings(r.meaning) }));
}

// §7.2: "When two meanings are listed for one code, both are given for that code."
function splitMeanings(meaning: string): string[] {
  const alsoUsed = meaning.split('; also used for ');
  if (alsoUsed.length === 2) return alsoUsed;
  const parenthetical = /^(.+?) \(([^()]+)\)$/.exec(meaning);
  if (parenthetical?.[1] !== undefined && parenthetical[2] !== undefined) return [parenthetical[1], parenthetical[2]];
  return [meaning];
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

const REQUIRED_WITH_HELP = [
  400, 401, 403, 429, 500, 503, 504, 602, 10072, 10073, 700001, 700002, 700003, 700004, 700005, 700006, 700007, 700008,
  -2011, 10007, 10101, 33333, 44444,
];

describe('error code catalog (docs/service.md §7.2)', () => {
  const specRows = readSpecErrorTable();

  it('the spec table parses into a plausible number of rows', () => {
    assert.ok(specRows.length >= 90, `only ${specRows.length} rows parsed from docs/service.md §7.2`);
  });

  it('every code in the spec table is in ERROR_CODES', () => {
    const catalog = new Set(ERROR_CODES.map((e) => e.code));
    const missing = specRows.filter((r) => !catalog.has(r.code)).map((r) => r.code);
    assert.deepEqual(missing, []);
  });

  it('every code in ERROR_CODES is in the spec table', () => {
    const spec = new Set(specRows.map((r) => r.code));
    const extra = ERROR_CODES.filter((e) => !spec.has(e.code)).map((e) => e.code);
    assert.deepEqual(extra, []);
  });

  it('ERROR_CODES follows the spec table order with no duplicates', () => {
    assert.deepEqual(
      ERROR_CODES.map((e) => e.code),
      specRows.map((r) => r.code),
    );
  });

  it('each meaning is the spec text, split where the spec gives two, first letter aside', () => {
    for (const row of specRows) {
      const info = lookupError(row.code);
      assert.ok(info, `missing ${row.code}`);
      assert.deepEqual(info.meanings.map(lowerFirst), row.meanings.map(lowerFirst), `meanings of ${row.code}`);
    }
  });

  it('codes with two meanings in the spec have two meanings', () => {
    const twoMeaning = specRows.filter((r) => r.meanings.length === 2).map((r) => r.code);
    assert.deepEqual(twoMeaning, [10007, 10211, 70011, 730001, 730002]);
    for (const code of twoMeaning) assert.equal(lookupError(code)?.meanings.length, 2, `meanings of ${code}`);
  });

  it('meanings start with a capital letter unless they start with a parameter name', () => {
    const parameterNames = ['origClientOrderId', 'recvWindow', 'accessKey'];
    for (const info of ERROR_CODES) {
      for (const m of info.meanings) {
        const ok = /^[A-Z]/.test(m) || parameterNames.some((p) => m.startsWith(p));
        assert.ok(ok, `${info.code}: "${m}"`);
      }
    }
  });

  it('the required codes, and every 300xx code, have a cause and an action', () => {
    const required = [...REQUIRED_WITH_HELP, ...specRows.map((r) => r.code).filter((c) => c >= 30000 && c <= 30099)];
    for (const code of required) {
      const info = lookupError(code);
      assert.ok(info?.cause && info.cause.length > 0, `cause of ${code}`);
      assert.ok(info.action && info.action.length > 0, `action of ${code}`);
    }
  });

  it('700003 states the §5 rule 9 window and names clock skew', () => {
    const cause = lookupError(700003)?.cause ?? '';
    assert.match(cause, /timestamp < serverTime \+ 1000/);
    assert.match(cause, /serverTime - timestamp <= recvWindow/);
    assert.match(cause, /clock skew/i);
  });

  it('700005 notes the maximum is worded both ways and advises 59999 or 5000', () => {
    const info = lookupError(700005);
    const text = `${info?.cause ?? ''} ${info?.action ?? ''}`;
    assert.match(text, /both ways/);
    assert.match(text, /59999/);
    assert.match(text, /5000/);
  });

  it('602 and 700002 name the usual signature pitfalls', () => {
    for (const code of [602, 700002]) {
      const info = lookupError(code);
      const text = `${info?.cause ?? ''} ${info?.action ?? ''}`;
      for (const needle of [
        'encodeURIComponent',
        "! ' ( ) *",
        'hand-written',
        'empty parameters',
        'wrong secret',
        'other than what is sent',
      ]) {
        assert.ok(text.includes(needle), `${code} mentions ${needle}`);
      }
    }
  });

  it('5xx-valued codes say the outcome is unknown and warn against blind order retries', () => {
    for (const code of [500, 503, 504]) {
      const action = lookupError(code)?.action ?? '';
      assert.match(action, /may have succeeded: check before retrying/, `${code}`);
      assert.match(action, /never retry an order blindly/i, `${code}`);
    }
  });

  it('lookupError returns undefined for a code not in the table', () => {
    assert.equal(lookupError(123456789), undefined);
  });

  it('formatErrorText starts with "CODE: meaning", joins two meanings and adds Cause / What to do lines', () => {
    const one = formatErrorText(lookupError(26)!);
    assert.equal(one, '26: Operation not allowed');
    const two = formatErrorText(lookupError(730001)!).split('\n');
    assert.equal(two[0], '730001: Pair not found / User information error');
    const full = formatErrorText(lookupError(700003)!).split('\n');
    assert.equal(full.length, 3);
    assert.match(full[1] ?? '', /^Cause: /);
    assert.match(full[2] ?? '', /^What to do: /);
  });

  it('formatErrorText output is plain text without markdown', () => {
    for (const info of ERROR_CODES) {
      const text = formatErrorText(info);
      assert.doesNotMatch(text, /[`*_]{2}|`|^#|\[[^\]]*\]\(/m, `${info.code}`);
    }
  });
});

describe('HTTP status catalog (§7.1)', () => {
  it('has the §7.1 rows plus an assumed 2XX row', () => {
    assert.deepEqual(
      HTTP_STATUSES.map((s) => s.status),
      ['2XX', '4XX', 401, 403, 418, 429, '5XX'],
    );
    assert.equal(describeStatus(200).source, 'assumed');
    assert.equal(describeStatus(200).outcome, 'ok');
  });

  it('5XX is unknown: 503 may have succeeded and must be checked before retrying', () => {
    const info = describeStatus(503);
    assert.equal(info.outcome, 'unknown');
    assert.equal(info.status, '5XX');
    assert.ok(info.meaning.includes('may have succeeded: check before retrying'));
    assert.equal(outcomeOfStatus(500), 'unknown');
  });

  it('429 and 418 carry Retry-After (§8 rule 4)', () => {
    assert.equal(describeStatus(429).retryAfter, true);
    assert.equal(describeStatus(418).retryAfter, true);
    assert.notEqual(describeStatus(401).retryAfter, true);
  });

  it('401 maps to its own row and 404 to the 4XX row, both rejected', () => {
    assert.equal(describeStatus(401).status, 401);
    assert.equal(describeStatus(404).status, '4XX');
    assert.equal(outcomeOfStatus(404), 'rejected');
    assert.equal(outcomeOfStatus(401), 'rejected');
  });

  it('a 3xx is an assumed rejection pointing at the base URL', () => {
    const info = describeStatus(302);
    assert.equal(info.outcome, 'rejected');
    assert.equal(info.source, 'assumed');
    assert.match(info.meaning, /base URL/);
  });

  it('statuses outside the known classes have an unknown outcome', () => {
    assert.equal(outcomeOfStatus(101), 'unknown');
    assert.equal(outcomeOfStatus(600), 'unknown');
  });
});
