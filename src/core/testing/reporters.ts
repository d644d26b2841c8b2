/**
 * Reports of a test run as pure functions of its results: pretty (for people), JUnit XML (GitLab,
 * Jenkins and GitHub test reporters read it), TAP 14, JSON and one HTML page (html-report.ts). Each shows the expectation and what
 * came back for every failure, never a secret or a full API key (the results hold none).
 */
import { caseTitle } from './cases';
import { htmlReport } from './html-report';
import { junitReport } from './junit';
import {
  failureLines,
  summaryLine,
  tally,
  type CaseResult,
  type FileReport,
  type RunReport,
  type Verdict,
} from './verdict';

export const REPORTERS = ['pretty', 'junit', 'tap', 'json', 'html'] as const;
export type ReporterName = (typeof REPORTERS)[number];

export function report(name: ReporterName, run: RunReport): string {
  switch (name) {
    case 'pretty':
      return prettyReport(run);
    case 'junit':
      return junitReport(run);
    case 'tap':
      return tapReport(run);
    case 'json':
      return jsonReport(run);
    case 'html':
      return htmlReport(run);
  }
}

const MARKS: Record<Verdict, string> = { passed: '✔', failed: '✘', unknown: '?', refused: '⊘', skipped: '-' };

/** One line for a finished case, as the progress and the pretty report show it. */
function caseLine(r: CaseResult): string {
  const took = r.verdict === 'skipped' ? '' : ` · ${r.durationMs} ms`;
  return `${MARKS[r.verdict]} ${caseTitle(r.case)}${took}`;
}

export function prettyReport(run: RunReport): string {
  return run.files.map(prettyFile).join('') + summaryLine(run) + '\n';
}

/**
 * A file's block of the pretty report: its cases, and the details of every one that did not pass.
 * Cases skipped for one reason (the rest of a file after a refusal) say it once, under the first.
 */
export function prettyFile(f: FileReport): string {
  const lines = [`${f.path} (${f.environment})`];
  let said: string | undefined;
  for (const r of f.cases) {
    lines.push('  ' + caseLine(r));
    const repeated = r.verdict === 'skipped' && r.summary === said;
    said = r.verdict === 'skipped' ? r.summary : undefined;
    const detail = r.verdict === 'passed' || repeated ? [] : r.verdict === 'skipped' ? [r.summary] : failureLines(r);
    // A detail may run over several lines (a snapshot's diff): each indented under its case.
    for (const l of detail) for (const part of l.split('\n')) lines.push('      ' + part);
  }
  return lines.join('\n') + '\n\n';
}

/** TAP version 14: one test point per request, the details of a failure in its YAML block. */
export function tapReport(run: RunReport): string {
  const all = run.files.flatMap((f) => f.cases.map((r) => ({ path: f.path, r })));
  const lines = ['TAP version 14', `1..${all.length}`];
  all.forEach(({ path, r }, i) => {
    const description = tapText(`${path}: ${caseTitle(r.case)}`);
    const ok = r.verdict === 'passed' || r.verdict === 'skipped';
    const directive = r.verdict === 'skipped' ? ` # SKIP ${tapText(r.summary)}` : '';
    lines.push(`${ok ? 'ok' : 'not ok'} ${i + 1} - ${description}${directive}`);
    if (ok) return;
    const yaml = [
      `verdict: ${r.verdict}`,
      `reason: ${r.reason}`,
      `message: ${yamlString(failureLines(r).join('\n'))}`,
      ...r.expectations.filter((e) => !e.passed).map((e) => `expected: ${yamlString(e.text)}`),
      `got: ${yamlString(r.summary)}`,
      `at: ${yamlString(`${path}:${(r.problemRange ?? r.expectations.find((e) => !e.passed)?.range ?? r.case.range).startLine + 1}`)}`,
      `duration_ms: ${r.durationMs}`,
    ];
    // Pushed one by one: a request may have more unmet expectations than the stack holds arguments.
    lines.push('  ---');
    for (const l of yaml) lines.push('  ' + l);
    lines.push('  ...');
  });
  const t = tally(run);
  lines.push(`# ${summaryLine(run)}`, `# pass ${t.passed}`, `# fail ${t.failed + t.unknown + t.refused}`);
  return lines.join('\n') + '\n';
}

// What YAML 1.2 does not allow in a stream (§5.1: controls, DEL, C1, surrogates, U+FFFE, U+FFFF), and
// what a YAML 1.1 reader such as PyYAML takes for a line break or a byte order mark.
const NOT_YAML = /[^\t\n\r\u0020-\u007e\u00a0-\ud7ff\ue000-\ufefe\uff00-\ufffd\u{10000}-\u{10ffff}]|[\u2028\u2029]/gu;

/**
 * A YAML double-quoted scalar of any text: a JSON string (its escapes are YAML's too), with every
 * character YAML cannot carry as is written as a \uXXXX escape.
 */
function yamlString(s: string): string {
  return JSON.stringify(s).replace(NOT_YAML, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/** A TAP description or directive: one line, `#` and `\` escaped (TAP 14). */
function tapText(s: string): string {
  return s
    .replace(/[\r\n]+/g, ' ')
    .replace(/\\/g, '\\\\')
    .replace(/#/g, '\\#');
}

/** Every result as one JSON document: the summary, then files and their cases. */
export function jsonReport(run: RunReport): string {
  const doc = {
    summary: {
      ...tally(run),
      durationMs: run.durationMs,
      startedAt: run.startedAt,
      text: summaryLine(run),
      ...(run.pace && { pace: run.pace }),
    },
    files: run.files.map((f) => ({
      path: f.path,
      environment: f.environment,
      durationMs: f.durationMs,
      cases: f.cases.map((r) => ({
        id: r.case.id,
        title: caseTitle(r.case),
        name: r.case.name ?? null,
        line: r.case.range.startLine + 1,
        verdict: r.verdict,
        reason: r.reason,
        summary: r.summary,
        outcome: r.outcome ?? null,
        status: r.status ?? null,
        error: r.error ?? null,
        expectations: r.expectations.map((e) => ({
          text: e.text,
          passed: e.passed,
          actual: e.actual,
          line: e.range ? e.range.startLine + 1 : null,
        })),
        durationMs: r.durationMs,
        ...(r.pacedMs !== undefined && { pacedMs: r.pacedMs }),
        request: r.request ?? null,
        response: r.response ?? null,
      })),
    })),
  };
  return JSON.stringify(doc, null, 2) + '\n';
}
