/**
 * From what the pipeline answered for a request to a test case's result. A request passes when its
 * outcome is ok, or rejected exactly as its `# @expect` lines say (the rule of `tradereq send`).
 */
import { BOUNDS, clip } from '../bounds';
import { maskApiKey } from '../env/keys';
import { t } from '../l10n';
import { prettyBody } from '../format/json-value';
import type { RoundTripReport } from '../net/round-trip';
import { passed, type PipelineResult, type Sent } from '../request/pipeline';
import { hideListenKeys, listenKeysOf } from '../request/listen-keys';
import { signedRequestText } from '../request/prepare';
import type { TestCase } from './cases';
import { REASONS, type CaseResult, type CheckedExpectation, type Reason } from './verdict';

export type Judged = Omit<CaseResult, 'durationMs'>;

/** The summary of a case a cancelled run did not run. */
export const CANCELLED = 'not run: the run was cancelled';

/** A case that ends before the pipeline: skipped, or refused by the run itself. */
export function without(c: TestCase, reason: Reason, summary: string): Judged {
  return { case: c, verdict: REASONS[reason], reason, summary, expectations: [] };
}

export function judge(c: TestCase, result: PipelineResult): Judged {
  if (result.ok) return judgeSent(c, result.value);
  const failure = result.error;
  switch (failure.kind) {
    case 'bad-input':
      return {
        ...without(c, 'bad-input', t('not sent: {0}', failure.message)),
        problemRange: failure.diagnostics[0]?.range,
      };
    case 'no-key':
      return without(c, 'no-key', t('not sent: {0}', failure.message));
    case 'refused':
      return {
        ...without(c, failure.reason, t('refused: {0}', failure.message)),
        request: `${failure.resolved.method} ${failure.resolved.url}`,
      };
  }
}

function judgeSent(c: TestCase, sent: Sent): Judged {
  const { report } = sent;
  const scrub = scrubber(sent);
  // The text and the expected value too: a `{{NAME.response.PATH}}` may have brought an echoed key into them.
  const expectations: CheckedExpectation[] = sent.expectations.map((e, i) => ({
    text: scrub(e.text),
    passed: e.passed,
    actual: scrub(e.actual),
    range: sent.resolved.options.expectations[i]?.directive.range,
    ...(e.diff && { diff: { expected: scrub(e.diff.expected), actual: scrub(e.diff.actual) } }),
  }));
  const d = report.decoded;
  return {
    case: c,
    ...verdictOf(sent),
    summary: scrub([report.summary, sent.note, report.warning].filter(Boolean).join(' ')),
    expectations,
    outcome: report.outcome,
    status: report.response?.status,
    error: d?.error ? { code: d.error.code, meanings: [...d.error.meanings] } : undefined,
    request: clip(scrub(signedRequestText(report.prepared)), BOUNDS.historyRequestChars),
    response: responseText(report, scrub),
  };
}

function verdictOf(sent: Sent): Pick<Judged, 'verdict' | 'reason'> {
  const reason = ((): Reason => {
    switch (sent.report.outcome) {
      case 'unknown':
        return 'unknown';
      case 'refused':
        return 'gate';
      case 'not-sent':
        return 'not-sent';
      default:
        if (passed(sent)) return sent.report.outcome === 'ok' ? 'ok' : 'expected-rejection';
        return sent.expectations.some((e) => !e.passed) ? 'expectation' : 'rejected';
    }
  })();
  return { verdict: REASONS[reason], reason };
}

/** The answer as reports show it: status, headers and the body (pretty when JSON), bounded. */
function responseText(report: RoundTripReport, scrub: (s: string) => string): string | undefined {
  const r = report.response;
  if (!r) return report.failure ? scrub(`no answer: ${report.failure.code} ${report.failure.message}`) : undefined;
  const head = [`${r.status} ${report.decoded?.statusInfo.meaning ?? ''}`.trim()];
  for (const [n, v] of Object.entries(r.headers)) head.push(`${n}: ${clip(v, BOUNDS.messageChars)}`);
  const body = prettyBody(report.decoded?.json, r.bodyText);
  const cut = r.truncated ? `\n… (${r.bodyBytes} bytes; the rest was not kept)` : '';
  return scrub([...head, '', clip(body, BOUNDS.historyBodyChars) + cut].join('\n'));
}

/**
 * Masks the API key the request carried wherever an answer repeats it: a hostile server may echo
 * it, and reports are written to files and CI logs.
 */
function scrubber(sent: Sent): (s: string) => string {
  const report = sent.report;
  const apiKey = apiKeyOf(report);
  // A listen key sent or received is a credential too (request/listen-keys.ts).
  const listenKeys = listenKeysOf(report, sent.resolved.params);
  const withKey = (s: string): string => (!apiKey || apiKey.length < 4 ? s : s.split(apiKey).join(maskApiKey(apiKey)));
  return (s) => hideListenKeys(withKey(s), listenKeys);
}

/** The API key the request carried in its header, if any. */
export function apiKeyOf(report: RoundTripReport): string | undefined {
  const header = report.prepared.apiKeyHeader?.toLowerCase();
  return report.prepared.headers.find(([n]) => n.toLowerCase() === header)?.[1];
}
