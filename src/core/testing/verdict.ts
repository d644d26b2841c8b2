/**
 * What became of a request run as a test: passed, failed, unknown (5xx or no answer after it went
 * out: it may have succeeded), refused (nothing sent), or skipped. The reports and the editor's
 * Testing view show these; nothing in them holds a secret or a full API key.
 */
import type { Range } from '../format/model';
import { t } from '../l10n';
import type { SendOutcome } from '../outcome';
import type { TestCase } from './cases';

export type Verdict = 'passed' | 'failed' | 'unknown' | 'refused' | 'skipped';

/** Why a case ended as it did; each reason belongs to one verdict. */
export const REASONS = {
  ok: 'passed',
  'expected-rejection': 'passed',
  rejected: 'failed',
  expectation: 'failed',
  'not-sent': 'failed',
  'bad-input': 'failed',
  'no-key': 'failed',
  unknown: 'unknown',
  gate: 'refused',
  origin: 'refused',
  confirmation: 'refused',
  clock: 'refused',
  elsewhere: 'refused',
  websocket: 'skipped',
  'after-refusal': 'skipped',
  cancelled: 'skipped',
} as const satisfies Record<string, Verdict>;
export type Reason = keyof typeof REASONS;

/** One `# @expect` line checked against the answer; `range` is the line, for the editor. */
export interface CheckedExpectation {
  readonly text: string;
  readonly passed: boolean;
  readonly actual: string;
  readonly range?: Range;
  /**
   * What was expected and what came, for an editor's side-by-side diff: a failed `==` on one value,
   * or a `# @expect snapshot` not met (the snapshot and the answer as compared, masked).
   */
  readonly diff?: { readonly expected: string; readonly actual: string; readonly snapshot?: true };
}

export interface CaseResult {
  readonly case: TestCase;
  readonly verdict: Verdict;
  readonly reason: Reason;
  /** One line: what came back (status, decoded error code and meaning) or why nothing went. */
  readonly summary: string;
  readonly expectations: readonly CheckedExpectation[];
  readonly outcome?: SendOutcome;
  readonly status?: number;
  /** The service's error code as decoded (§7.2), with every meaning the spec gives. */
  readonly error?: { readonly code: number; readonly meanings: readonly string[] };
  /** Where the problem of a request that could not be made ready is (bad input). */
  readonly problemRange?: Range;
  /** The request as sent (API key masked), or as far as it was resolved. */
  readonly request?: string;
  /** The answer: status line, headers and body, bounded; any echo of the API key masked. */
  readonly response?: string;
  readonly durationMs: number;
  /** How long a paced run waited before sending it (testing/pace.ts); not part of durationMs. */
  readonly pacedMs?: number;
}

export interface FileReport {
  /** As the user named it (relative to where the run started), for reports. */
  readonly path: string;
  /** The environment its requests went to. */
  readonly environment: string;
  readonly cases: readonly CaseResult[];
  readonly durationMs: number;
}

export interface RunReport {
  readonly files: readonly FileReport[];
  readonly durationMs: number;
  /** ISO 8601 start time. */
  readonly startedAt: string;
  /** Present when the run was paced (tradereq test --pace). */
  readonly pace?: PaceSummary;
}

/** A paced run: the fraction of each rate-limit budget, how long it waited in all and for Retry-After, its 429s. */
export interface PaceSummary {
  readonly fraction: number;
  readonly waitedMs: number;
  readonly retryAfterMs: number;
  readonly rateLimited: number;
}

export type Tally = Record<Verdict, number>;

export function tally(report: RunReport): Tally {
  const counts: Tally = { passed: 0, failed: 0, unknown: 0, refused: 0, skipped: 0 };
  for (const f of report.files) for (const c of f.cases) counts[c.verdict]++;
  return counts;
}

/** "12 passed, 1 failed, 0 unknown, 0 refused (2 skipped) in 1.4 s": the last line of a run. */
export function summaryLine(report: RunReport): string {
  const n = tally(report);
  const skipped = n.skipped > 0 ? ` (${n.skipped} skipped)` : '';
  const paced = report.pace ? `; ${paceText(report.pace)}` : '';
  return `${n.passed} passed, ${n.failed} failed, ${n.unknown} unknown, ${n.refused} refused${skipped} in ${seconds(report.durationMs)} s${paced}`;
}

/** "paced to 80 % of each rate-limit budget: waited 12.3 s (2.0 s of it for Retry-After; 1 answer 429)". */
export function paceText(p: PaceSummary): string {
  const retry = p.retryAfterMs > 0 ? `${seconds(p.retryAfterMs)} s of it for Retry-After` : '';
  const limited = p.rateLimited > 0 ? `${p.rateLimited} answer${p.rateLimited === 1 ? '' : 's'} 429` : '';
  const notes = [retry, limited].filter(Boolean).join('; ');
  const percent = Math.round(p.fraction * 1000) / 10;
  return `paced to ${percent} % of each rate-limit budget: waited ${seconds(p.waitedMs)} s${notes ? ` (${notes})` : ''}`;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(ms < 10_000 ? 2 : 1);
}

/**
 * What a failed, unknown or refused case says, line by line: each unmet expectation with what came
 * back instead, then the answer's summary (the decoded error code and its meanings). In the display
 * language: the editor's Testing view shows them (English on the command line, which loads no bundle).
 */
export function failureLines(r: CaseResult): string[] {
  const lines = r.expectations.filter((e) => !e.passed).map((e) => t('expected {0}, got {1}', e.text, e.actual));
  if (r.reason === 'rejected')
    lines.push(t('expected the request to be accepted (or # @expect lines for a rejection)'));
  lines.push(r.summary);
  return lines;
}
