/**
 * The checks of a Postman test script as `# @expect` lines
 * (docs/format.md, Checks from other tools): the script is cut into checks (`pm.expect(…)…`,
 * `pm.response.to.…`), each read by postman-assertions.ts. A script is hostile text: it is
 * scanned with bounded patterns and never run; at most IMPORT_LIMITS.maxChecks checks are read from one.
 */
import { IMPORT_LIMITS } from './import-result';
import { Notes, shown } from './common';
import { postmanCheck } from './postman-assertions';

/** A check with no `# @expect` counterpart: as written, and why. */
interface Unmapped {
  readonly text: string;
  readonly reason: string;
}

export interface ScriptChecks {
  /** `expect status 200`, `expect json symbol == BTCUSDT`, in the script's order. */
  readonly directives: readonly string[];
  /** The checks that have no `# @expect` counterpart. */
  readonly unmapped: readonly Unmapped[];
  /** The script holds nothing but checks that became directives: it need not be kept. */
  readonly complete: boolean;
  /** Why none of its checks were read (conditions, loops, length), when so. */
  readonly refused?: string;
  /** More checks than IMPORT_LIMITS.maxChecks: those after are not read. */
  readonly unread: boolean;
}

const NONE: ScriptChecks = { directives: [], unmapped: [], complete: false, unread: false };

/** After these (or at the start) a `/` opens a regular expression literal rather than dividing. */
const BEFORE_REGEX = new Set(['', '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';']);

/** The index after the closing `/` of the regular expression literal opened at `i`; -1 when it does not close on its line. */
function regexEnd(script: string, i: number): number {
  let inClass = false;
  for (let j = i + 1; j < script.length; j++) {
    const c = script[j]!;
    if (c === '\\') j++;
    else if (c === '\n') return -1;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) return j + 1;
  }
  return -1;
}

/** Comments blanked, the inside of strings and regular expressions replaced by `x` (same length); undefined when one does not close. */
function skeleton(script: string): string | undefined {
  let out = '';
  let i = 0;
  // The last character of code before `i` that is not a space (what a `/` follows).
  let prev = '';
  while (i < script.length) {
    const c = script[i]!;
    const next = script[i + 1];
    if (c === '/' && (next === '/' || next === '*')) {
      const close = next === '/' ? script.indexOf('\n', i) : script.indexOf('*/', i + 2);
      if (close < 0 && next === '*') return undefined;
      const end = close < 0 ? script.length : next === '/' ? close : close + 2;
      out += script.slice(i, end).replace(/[^\n]/g, ' ');
      i = end;
    } else if (c === '/' && BEFORE_REGEX.has(prev)) {
      const end = regexEnd(script, i);
      if (end < 0) return undefined;
      out += '/' + 'x'.repeat(end - i - 2) + '/';
      i = end;
      prev = '/';
    } else if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      for (; j < script.length && script[j] !== c; j++) {
        if (script[j] === '\\') j++;
        else if (c !== '`' && script[j] === '\n') return undefined;
      }
      if (j >= script.length) return undefined;
      out += c + 'x'.repeat(j - i - 1) + c;
      i = j + 1;
      prev = c;
    } else {
      out += c;
      i++;
      if (!/\s/.test(c)) prev = c;
    }
  }
  return out;
}

/** Control flow: a check under it would not mean the same as a `# @expect` line, which always applies. */
const CONTROL = /\b(?:if|else|for|while|do|switch|case|try|catch|finally|return|throw)\b|\?(?!\.)|&&|\|\|/;
const JSON_VARIABLE = /(?:\b(?:const|let|var)\s+)?(?<![\w$.])([A-Za-z_$][\w$]*)\s*=\s*pm\.response\.json\(\s*\)\s*;?/g;
const CHECK_START = /pm\.(?:expect\s*\(|response\.to\.)/g;
const WRAPPER =
  /pm\.test\s*\(\s*(["'`])x*\1\s*,\s*(?:async\s+)?(?:function\s*(?:[A-Za-z_$][\w$]*)?\s*\(\s*\)|\(\s*\))\s*(?:=>)?/g;

interface Span {
  readonly start: number;
  readonly end: number;
}

/** Names assigned `pm.response.json()` and nothing else, with the spans of those assignments. */
function jsonVariables(code: string): { names: Set<string>; spans: Span[] } {
  const found = new Map<string, Span[]>();
  for (const m of code.matchAll(JSON_VARIABLE)) {
    const spans = found.get(m[1]!) ?? [];
    spans.push({ start: m.index, end: m.index + m[0].length });
    found.set(m[1]!, spans);
    if (found.size > 20) break;
  }
  const names = new Set<string>();
  const spans: Span[] = [];
  for (const [name, at] of found) {
    const escaped = name.replace(/\$/g, '\\$');
    const assignments = code.match(new RegExp(`(?<![\\w$.])${escaped}\\s*=(?![=>])`, 'g'))?.length ?? 0;
    if (assignments !== at.length) continue;
    names.add(name);
    for (const s of at) spans.push(s);
  }
  return { names, spans };
}

/** Where the check starting at `start` ends: `;`, `,` or a line break not followed by `.` at its own depth, or a closing bracket of what holds it. */
function checkEnd(code: string, start: number): number {
  let depth = 0;
  const limit = Math.min(code.length, start + IMPORT_LIMITS.maxCheckChars);
  for (let k = start; k < limit; k++) {
    const c = code[k]!;
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (--depth < 0) return k;
    } else if (depth === 0 && (c === ';' || c === ',')) return k;
    else if (depth === 0 && c === '\n' && !/^\s*\./.test(code.slice(k + 1, k + 80))) return k;
  }
  return limit;
}

/** The checks of one test script. */
export function readChecks(script: string): ScriptChecks {
  if (script.length > IMPORT_LIMITS.maxScriptChars)
    return {
      ...NONE,
      refused: `is longer than the ${IMPORT_LIMITS.maxScriptChars} characters an import reads checks from`,
    };
  const code = skeleton(script);
  if (code === undefined) return { ...NONE, refused: 'has a string or comment that does not close' };
  if (CONTROL.test(code)) return { ...NONE, refused: 'has conditions or loops, under which a check may not run' };
  const { names, spans } = jsonVariables(code);
  const directives: string[] = [];
  const unmapped: Unmapped[] = [];
  let unread = false;
  let last = 0;
  for (const m of code.matchAll(CHECK_START)) {
    // `pm.expect(` within a check already read is part of it.
    if (m.index < last) continue;
    if (directives.length + unmapped.length >= IMPORT_LIMITS.maxChecks) {
      unread = true;
      break;
    }
    const end = checkEnd(code, m.index);
    last = end;
    const text = script.slice(m.index, end).trim();
    const directive = postmanCheck(text, names);
    if (!directive.ok) unmapped.push({ text, reason: directive.error });
    else {
      directives.push(directive.value);
      spans.push({ start: m.index, end });
    }
  }
  return { directives, unmapped, complete: !unread && unmapped.length === 0 && onlyWrappers(code, spans), unread };
}

/** Whether the code, without `spans`, holds only `pm.test("…", function () {…})` wrappers and punctuation. */
function onlyWrappers(code: string, spans: readonly Span[]): boolean {
  let rest = '';
  let at = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    if (s.start > at) rest += code.slice(at, s.start);
    at = Math.max(at, s.end);
  }
  rest += code.slice(at);
  return rest.replace(WRAPPER, '').replace(/[\s{}();,]/g, '') === '';
}

/** The notes for what of a script's checks did not become `# @expect` lines: each check, at most ten. */
export function checkNotes(checks: ScriptChecks, where: string, owner: string, notes: Notes): void {
  const script = `the Postman test script of ${owner}`;
  if (checks.refused !== undefined) {
    notes.add(`${where}: ${script} ${checks.refused}: its checks are not turned into # @expect lines.`);
    return;
  }
  for (const check of checks.unmapped.slice(0, 10))
    notes.add(
      `${where}: the check ${shown(check.text, 80)} in ${script} has no # @expect counterpart (${check.reason}).`,
    );
  if (checks.unmapped.length > 10)
    notes.add(`${where}: ${checks.unmapped.length - 10} more checks in ${script} have no # @expect counterpart.`);
  if (checks.unread)
    notes.add(
      `${where}: ${script} has more than ${IMPORT_LIMITS.maxChecks} checks: those after the ${IMPORT_LIMITS.maxChecks}th are not read.`,
    );
}
