/**
 * JUnit XML as GitLab, Jenkins and GitHub test reporters read it: one <testsuite> per file, one
 * <testcase> per request with its time; a <failure> (failed), an <error> (unknown outcome or
 * refused: nothing proves the request wrong) or <skipped>; <system-out> holds the request (API key
 * masked) and the answer. Every text is hostile (titles, answers): escaped, and characters XML 1.0
 * cannot carry written as \uXXXX.
 */
import { caseTitle } from './cases';
import { failureLines, tally, type CaseResult, type FileReport, type RunReport } from './verdict';

export function junitReport(run: RunReport): string {
  const t = tally(run);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="tradereq test"${counts(t.passed + t.failed + t.unknown + t.refused + t.skipped, t.failed, t.unknown + t.refused, t.skipped)} time="${secs(run.durationMs)}" timestamp="${attr(run.startedAt)}">`,
  ];
  for (const f of run.files) lines.push(...suite(f, run.startedAt, run.pace));
  lines.push('</testsuites>');
  return lines.join('\n') + '\n';
}

function suite(f: FileReport, timestamp: string, pace: RunReport['pace']): string[] {
  const n = (v: CaseResult['verdict']): number => f.cases.filter((c) => c.verdict === v).length;
  const lines = [
    `  <testsuite name="${attr(f.path)}"${counts(f.cases.length, n('failed'), n('unknown') + n('refused'), n('skipped'))} time="${secs(f.durationMs)}" timestamp="${attr(timestamp)}" file="${attr(f.path)}">`,
    '    <properties>',
    `      <property name="environment" value="${attr(f.environment)}"/>`,
    ...paceProperties(f, pace),
    '    </properties>',
  ];
  const titles = new Map<string, number>();
  for (const r of f.cases) titles.set(caseTitle(r.case), (titles.get(caseTitle(r.case)) ?? 0) + 1);
  for (const r of f.cases) {
    // Two requests with one title stay two test cases: their position tells them apart.
    const title = caseTitle(r.case) + ((titles.get(caseTitle(r.case)) ?? 0) > 1 ? ` #${r.case.index + 1}` : '');
    lines.push(...testcase(f.path, title, r));
  }
  lines.push('  </testsuite>');
  return lines;
}

function testcase(path: string, title: string, r: CaseResult): string[] {
  const open = `    <testcase name="${attr(title)}" classname="${attr(path)}" file="${attr(path)}" line="${r.case.range.startLine + 1}" time="${secs(r.durationMs)}">`;
  const lines = [open];
  const message = failureLines(r);
  // The attribute holds the first line; the text, everything (a snapshot's diff included).
  const first = (message[0] ?? '').split('\n')[0]!;
  if (r.verdict === 'failed')
    lines.push(`      <failure message="${attr(first)}" type="${r.reason}">${text(message.join('\n'))}</failure>`);
  if (r.verdict === 'unknown' || r.verdict === 'refused')
    lines.push(`      <error message="${attr(first)}" type="${r.reason}">${text(message.join('\n'))}</error>`);
  if (r.verdict === 'skipped') lines.push(`      <skipped message="${attr(r.summary)}"/>`);
  const out = [
    r.pacedMs ? `paced: waited ${r.pacedMs} ms before sending` : undefined,
    r.request ? `request:\n${r.request}` : undefined,
    r.response ? `response:\n${r.response}` : r.verdict === 'skipped' ? undefined : `response: none (${r.summary})`,
  ].filter((s): s is string => s !== undefined);
  if (out.length > 0) lines.push(`      <system-out>${text(out.join('\n\n'))}</system-out>`);
  lines.push('    </testcase>');
  return lines;
}

/** A paced run: its fraction of each budget, and how long it waited before this file's requests. */
function paceProperties(f: FileReport, pace: RunReport['pace']): string[] {
  if (!pace) return [];
  const waited = f.cases.reduce((ms, r) => ms + (r.pacedMs ?? 0), 0);
  return [
    `      <property name="pace" value="${pace.fraction}"/>`,
    `      <property name="pace.waitedMs" value="${waited}"/>`,
  ];
}

function counts(tests: number, failures: number, errors: number, skipped: number): string {
  return ` tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}"`;
}

function secs(ms: number): string {
  return (ms / 1000).toFixed(3);
}

// Characters XML 1.0 allows (§2.2); anything else (controls, lone surrogates, U+FFFE) cannot be sent in it.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function visible(s: string): string {
  return s.replace(NOT_XML, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/** Character data. */
function text(s: string): string {
  return visible(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value in double quotes; line breaks and tabs kept as references (parsers normalise them). */
function attr(s: string): string {
  return text(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
