/**
 * A diagnosis as text for a terminal or an editor document, and as JSON for scripts. Neither holds
 * a secret: the diagnosis never carries one, and credentials in the messages are hidden already.
 * Control characters are written visibly (a signed newline must show), the shell escapes the rest.
 */
import { CODE_LANGUAGES } from '../codegen/program-model';
import { CAUSES } from './fixes';
import type { Diagnosis, SignedComparison } from './types';

/** Characters of a message shown on either side of the first difference. */
const CONTEXT_CHARS = 60;

function visibleChar(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  if (c === '\t') return '\\t';
  const code = c.charCodeAt(0);
  return code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, '0')}` : c;
}

function visible(text: string): string {
  let out = '';
  for (const c of text) out += visibleChar(c);
  return out;
}

/** `text` cut to the stretch around [from, to), with "…" where it was cut. */
function around(text: string, from: number, to: number): { text: string; offset: number } {
  const a = Math.max(0, from - CONTEXT_CHARS);
  const b = Math.min(text.length, Math.max(to, from) + CONTEXT_CHARS);
  const head = a > 0 ? '…' : '';
  return {
    text: head + visible(text.slice(a, b)) + (b < text.length ? '…' : ''),
    offset: head.length + visible(text.slice(a, from)).length,
  };
}

function comparisonLines(c: SignedComparison): string[] {
  if (c.signed === undefined)
    return [
      'What the service signs (totalParams, §5 rule 4):',
      `  expected: ${around(c.expected, 0, c.expected.length).text}`,
    ];
  if (c.difference === undefined)
    return [
      'What the program signed is what the service signs:',
      `  signed:   ${around(c.signed, 0, c.signed.length).text}`,
    ];
  const d = c.difference;
  const signed = around(c.signed, d.start, d.signedEnd);
  const expected = around(c.expected, d.start, d.expectedEnd);
  const width = Math.max(
    1,
    visible(c.signed.slice(d.start, d.signedEnd)).length,
    visible(c.expected.slice(d.start, d.expectedEnd)).length,
  );
  return [
    'What the program signed, and what the service signs (the first difference marked):',
    `  signed:   ${signed.text}`,
    `  expected: ${expected.text}`,
    `            ${' '.repeat(Math.max(signed.offset, expected.offset))}${'^'.repeat(width)}`,
  ];
}

function snippetLines(d: Diagnosis): string[] {
  const out: string[] = [];
  for (const { id, label } of CODE_LANGUAGES) {
    const code = d.snippets[id];
    if (code === undefined) continue;
    out.push(`  ${label}:`, ...code.split('\n').map((l) => `    ${l}`));
  }
  return out;
}

/** The report a person reads. */
export function reportText(d: Diagnosis): string {
  const title = CAUSES[d.cause].title;
  const lines = [`Cause: ${d.cause} (${title})`, d.summary];
  for (const other of d.causes.slice(1)) lines.push(`Also: ${other} (${CAUSES[other].title})`);
  lines.push('', ...comparisonLines(d.comparison));
  if (d.fix.length > 0) lines.push('', `Fix: ${d.fix}`);
  const snippets = snippetLines(d);
  if (snippets.length > 0) lines.push('', ...snippets);
  // "?": a possibility that what is known cannot decide (no time of the answer), not a finding.
  lines.push('', 'Checked:', ...d.checks.map((c) => `  ${c.ok ? 'ok ' : c.possible ? '?  ' : 'no '} ${c.text}`));
  if (d.codeNote !== undefined) lines.push('', d.codeNote);
  return lines.join('\n');
}

/** The report for scripts (`tradereq doctor --json`): the cause ids are stable. */
export function reportJson(d: Diagnosis): string {
  return JSON.stringify(
    {
      cause: d.cause,
      causes: d.causes,
      title: CAUSES[d.cause].title,
      summary: d.summary,
      signed: d.comparison.signed ?? null,
      expected: d.comparison.expected,
      difference: d.comparison.difference ?? null,
      fix: d.fix,
      snippets: d.snippets,
      checks: d.checks,
      codeNote: d.codeNote ?? null,
    },
    null,
    2,
  );
}
