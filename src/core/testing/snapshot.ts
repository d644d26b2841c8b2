/**
 * `# @expect snapshot` in a test run: the answer (status, the service's error code, the body) as a
 * snapshot entry, masked (mask.ts: the ids and times the service assigns, `# @mask` paths,
 * credentials always), compared as text with the entry the store keeps for the case, masked the
 * same way; a mismatch says so with a unified diff, bounded. Updating snapshots writes the masked
 * answer of a case whose other expectations pass. docs/format.md, Snapshots.
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { BOUNDS, formatSize } from '../bounds';
import { nestsDeeperThan } from '../format/json-value';
import type { PipelineResult, Sent } from '../request/pipeline';
import { t } from '../l10n';
import { listenKeysOf } from '../request/listen-keys';
import { ok } from '../result';
import { caseTitle, type TestCase } from './cases';
import { apiKeyOf, judge, type Judged } from './judge';
import { maskVolatile, type MaskOptions } from './mask';
import { snapshotJson, type SnapshotEntry, type SnapshotStore } from './snapshot-store';

const SNAPSHOT_TEXT = '@expect snapshot';
/** A stored entry whose text would pass the bound: compared with nothing, written again on update. */
const TOO_LARGE = Symbol('too large');

/** What the comparison of one case gave. */
interface Check {
  readonly passed: boolean;
  readonly actual: string;
  /** Both sides as compared, when they differ. */
  readonly texts?: { readonly expected: string; readonly actual: string };
}

/**
 * Judges `c` as judge() does, its `# @expect snapshot` lines compared with its entry in `store`
 * (undefined: the request file is not on disk). `credentials` are those of the run's other answers
 * (listen keys kept for chaining): never written to a snapshot either.
 */
export async function judgeWithSnapshots(
  c: TestCase,
  result: PipelineResult,
  store: SnapshotStore | undefined,
  credentials: readonly string[],
): Promise<Judged> {
  if (!result.ok) return judge(c, result);
  const sent = result.value;
  const at = new Set(sent.resolved.options.expectations.flatMap((e, i) => (e.kind === 'snapshot' ? [i] : [])));
  // Without an answer, the pipeline's "no response" stands.
  if (at.size === 0 || !sent.report.decoded) return judge(c, result);
  const check = await checkSnapshot(c, sent, store, credentials, at);
  const expectations = sent.expectations.map((e, i) =>
    at.has(i) ? { text: SNAPSHOT_TEXT, passed: check.passed, actual: check.actual } : e,
  );
  const judged = judge(c, ok({ ...sent, expectations }));
  const texts = check.texts;
  if (!texts) return judged;
  return {
    ...judged,
    expectations: judged.expectations.map((e, i) => (at.has(i) ? { ...e, diff: { ...texts, snapshot: true } } : e)),
  };
}

async function checkSnapshot(
  c: TestCase,
  sent: Sent,
  store: SnapshotStore | undefined,
  credentials: readonly string[],
  at: ReadonlySet<number>,
): Promise<Check> {
  if (!store) return { passed: false, actual: 'no snapshot file: the request file is not saved on disk' };
  const answer = answerEntry(sent);
  if (typeof answer === 'string') return { passed: false, actual: answer };
  const rules = maskRules(sent, credentials);
  const masked = maskedEntry(answer, rules);
  const actual = entryText(masked);
  if (actual === undefined)
    return {
      passed: false,
      actual: t(
        'the answer is too large for a snapshot (more than {0} written out): check its parts with # @expect json',
        formatSize(BOUNDS.snapshotFileBytes),
      ),
    };
  const stored = await store.entry(c.id);
  if (stored !== undefined && 'damaged' in stored && !store.update) return { passed: false, actual: stored.damaged };
  const expected =
    stored === undefined || 'damaged' in stored ? undefined : (entryText(maskedEntry(stored, rules)) ?? TOO_LARGE);
  if (expected === actual) return { passed: true, actual: `the answer matches its snapshot in ${store.shown}` };
  // An answer that fails the request's other checks, or whose outcome is unknown, is not written as the snapshot.
  const writable = sent.report.outcome !== 'unknown' && sent.expectations.every((e, i) => at.has(i) || e.passed);
  if (store.update && writable) {
    await store.put(c.id, caseTitle(c), masked);
    return { passed: true, actual: `snapshot ${expected === undefined ? 'written' : 'updated'} in ${store.shown}` };
  }
  if (expected === TOO_LARGE)
    return {
      passed: false,
      actual: t(
        'the snapshot of this request ({0} in {1}) is too large to compare (more than {2} written out): {3} to write it again',
        c.id,
        store.shown,
        formatSize(BOUNDS.snapshotFileBytes),
        store.howToUpdate,
      ),
    };
  const notWritten = store.update ? ' (not written: another expectation of the request failed)' : '';
  if (expected === undefined)
    return {
      passed: false,
      actual: `no snapshot of this request (${c.id}) in ${store.shown}${notWritten}: ${store.howToUpdate} to write it`,
    };
  return {
    passed: false,
    actual: `an answer unlike its snapshot (${c.id} in ${store.shown})${notWritten}; ${store.howToUpdate} if the new answer is right:\n${snapshotDiff(expected, actual)}`,
    texts: { expected, actual },
  };
}

/** The answer as a snapshot entry, or why it cannot be one. */
function answerEntry(sent: Sent): SnapshotEntry | string {
  const response = sent.report.response;
  const decoded = sent.report.decoded;
  if (!response || !decoded) return 'no answer to compare with the snapshot';
  if (response.truncated)
    return `the answer (${response.bodyBytes} bytes) is larger than TradeReq keeps of one: too large for a snapshot; check its parts with # @expect json`;
  // Deeper than a snapshot's bound: kept as the text received.
  const json = decoded.json !== undefined && !nestsDeeperThan(decoded.json, BOUNDS.snapshotDepth);
  return {
    status: response.status,
    ...(decoded.code !== undefined && { code: decoded.code }),
    ...(json ? { body: decoded.json } : { bodyText: response.bodyText }),
  };
}

/** The request's masks; what it sent (its own client order ids stay); every credential it carried or the run holds. */
function maskRules(sent: Sent, credentials: readonly string[]): MaskOptions {
  const { resolved, report } = sent;
  const apiKey = apiKeyOf(report);
  return {
    paths: resolved.options.masks,
    sent: [...resolved.params.map((p) => p.value), ...(resolved.json !== undefined ? [resolved.json] : [])],
    secrets: [
      ...(apiKey !== undefined ? [{ name: 'apiKey', value: apiKey }] : []),
      ...[...listenKeysOf(report, resolved.params), ...credentials].map((value) => ({ name: 'listenKey', value })),
    ],
  };
}

function maskedEntry(entry: SnapshotEntry, rules: MaskOptions): SnapshotEntry {
  return {
    status: entry.status,
    ...(entry.code !== undefined && { code: entry.code }),
    ...(entry.body !== undefined && { body: maskVolatile(entry.body, rules).value }),
    ...(entry.bodyText !== undefined && { bodyText: maskVolatile(entry.bodyText, rules).value as string }),
  };
}

/**
 * An entry as compared and shown: status, code, body, pretty JSON, a newline at the end; undefined
 * when it would be longer than a snapshot file may be (its text is not made past that).
 */
function entryText(entry: SnapshotEntry): string | undefined {
  const text = snapshotJson(entry, BOUNDS.snapshotFileBytes, BOUNDS.snapshotDepth + 1);
  return text.ok ? text.value + '\n' : undefined;
}

/** A unified diff from the snapshot to the answer, at most BOUNDS.snapshotDiffLines lines, made in bounded time. */
export function snapshotDiff(expected: string, actual: string): string {
  const patch = createTwoFilesPatch('snapshot', 'answer', expected, actual, undefined, undefined, {
    context: 3,
    timeout: BOUNDS.snapshotDiffMs,
    headerOptions: FILE_HEADERS_ONLY,
  });
  if (patch === undefined) return '(the two differ too much for a diff in reasonable time: compare them whole)';
  const lines = patch.replace(/\n$/, '').split('\n');
  const max = BOUNDS.snapshotDiffLines;
  return lines.length <= max
    ? lines.join('\n')
    : [...lines.slice(0, max), `… (${lines.length - max} more lines of the diff)`].join('\n');
}
