/** `# @expect` checks on a response (docs/format.md, Directives). */
import type { Expectation } from '../format/directives';
import { jsonPath, jsonValueText } from '../format/json-value';
import type { Decoded } from '../net/decode';

/** Where `# @expect snapshot` is judged: not by a send, which has no snapshot file (docs/format.md, Snapshots). */
const SNAPSHOT_ELSEWHERE = 'compared by tradereq test and the Testing view';

export interface ExpectationResult {
  readonly text: string;
  readonly passed: boolean;
  readonly actual: string;
}

/** `decoded` is undefined when no answer came (refused, not sent, failed exchange): every check fails. */
export function checkExpectations(
  expectations: readonly Expectation[],
  decoded: Decoded | undefined,
): ExpectationResult[] {
  return expectations.map((e) => {
    const text = `@expect ${e.directive.args?.text ?? ''}`.trim();
    if (!decoded) return { text, passed: false, actual: 'no response' };
    switch (e.kind) {
      case 'status':
        return { text, passed: decoded.status === e.status, actual: `status ${decoded.status}` };
      case 'code':
        return {
          text,
          passed: decoded.code === e.code,
          actual: decoded.code === undefined ? 'no error code' : `code ${decoded.code}`,
        };
      case 'json': {
        const found = jsonPath(decoded.json, e.path);
        const actual = found === undefined ? 'missing' : jsonValueText(found);
        // VALUE may be written bare (BTCUSDT, 0.1) or as JSON ("BTCUSDT", 0.1, true).
        const wanted =
          e.value.length >= 2 && e.value.startsWith('"') && e.value.endsWith('"') ? e.value.slice(1, -1) : e.value;
        return { text, passed: found !== undefined && actual === wanted, actual: `${e.path} = ${actual}` };
      }
      case 'message':
        // A check on WebSocket pushes (tradereq listen); an HTTP response has none.
        return { text, passed: false, actual: 'an HTTP response, not WebSocket pushes' };
      case 'snapshot':
        // Compared with its file by a test run (core/testing/snapshot.ts); a send has no snapshot to judge a rejection by.
        return {
          text: `${text} (${SNAPSHOT_ELSEWHERE})`,
          passed: decoded.outcome === 'ok',
          actual: `${decoded.outcome}, status ${decoded.status}`,
        };
    }
  });
}
