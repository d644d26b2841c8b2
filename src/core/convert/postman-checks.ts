/**
 * The checks of a Postman test script as `# @expect` lines (docs/format.md, Directives): the
 * status (`pm.response.to.have.status(200)`, `pm.expect(pm.response.code).to.eql(200)`) and the
 * value of a JSON field (`pm.expect(jsonData.symbol).to.eql("BTCUSDT")` after
 * `var jsonData = pm.response.json()`, `pm.expect(pm.response.json().x)…`,
 * `pm.response.to.have.jsonBody("x", 1)`). A script is hostile text: it is scanned with bounded
 * patterns and never run; at most IMPORT_LIMITS.maxChecks checks are read from one.
 */
import { IMPORT_LIMITS } from './import-result';
import { Notes, shown } from './common';

export interface ScriptChecks {
  /** `expect status 200`, `expect json symbol == BTCUSDT`, in the script's order. */
  readonly directives: readonly string[];
  /** The checks that have no `# @expect` counterpart, as written. */
  readonly unmapped: readonly string[];
  /** The script holds nothing but checks that became directives: it need not be kept. */
  readonly complete: boolean;
  /** Why none of its checks were read (conditions, loops, length), when so. */
  readonly refused?: string;
  /** More checks than IMPORT_LIMITS.maxChecks: those after are not read. */
  readonly unread: boolean;
}

const NONE: ScriptChecks = { directives: [], unmapped: [], complete: false, unread: false };

/** Comments blanked, the inside of strings replaced by `x` (same length); undefined when a string or comment does not close. */
function skeleton(script: string): string | undefined {
  let out = '';
  let i = 0;
  while (i < script.length) {
    const c = script[i]!;
    const next = script[i + 1];
    if (c === '/' && (next === '/' || next === '*')) {
      const close = next === '/' ? script.indexOf('\n', i) : script.indexOf('*/', i + 2);
      if (close < 0 && next === '*') return undefined;
      const end = close < 0 ? script.length : next === '/' ? close : close + 2;
      out += script.slice(i, end).replace(/[^\n]/g, ' ');
      i = end;
    } else if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      for (; j < script.length && script[j] !== c; j++) {
        if (script[j] === '\\') j++;
        else if (c !== '`' && script[j] === '\n') return undefined;
      }
      if (j >= script.length) return undefined;
      out += c + 'x'.repeat(j - i - 1) + c;
      i = j + 1;
    } else {
      out += c;
      i++;
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
  const unmapped: string[] = [];
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
    const directive = mapCheck(text, names);
    if (directive === undefined) unmapped.push(text);
    else {
      directives.push(directive);
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

const EQUALS = String.raw`\.to(?:\.be)?(?:\.deep)?\.(?:eql|equal|eq|equals)`;
const STRING = String.raw`"(?:[^"\\\r\n]|\\.){0,200}"|'(?:[^'\\\r\n]|\\.){0,200}'`;
const LITERAL = String.raw`${STRING}|-?\d{1,20}(?:\.\d{1,20})?(?:[eE][+-]?\d{1,3})?|true|false|null`;
const MEMBERS = String.raw`(?:\.[A-Za-z_$][\w$]*|\[\s*\d{1,9}\s*\]|\[\s*"[\w$-]{1,100}"\s*\]|\[\s*'[\w$-]{1,100}'\s*\]){0,32}`;
/** `pm.expect(SUBJECT[, "message"]).to.eql(LITERAL)`. */
const EXPECT = new RegExp(
  String.raw`^pm\.expect\(\s*(pm\.response\.code|pm\.response\.json\(\s*\)|[A-Za-z_$][\w$]*)(${MEMBERS})\s*(?:,\s*(?:${STRING})\s*)?\)\s*${EQUALS}\(\s*(${LITERAL})\s*\)$`,
);
const STATUS = /^pm\.response\.to\.have\.status\(\s*(\d{3})\s*\)$/;
const JSON_BODY = new RegExp(String.raw`^pm\.response\.to\.have\.jsonBody\(\s*(${STRING})\s*,\s*(${LITERAL})\s*\)$`);
/** A path as Postman's jsonBody takes it and TradeReq reads it: `a.b[0].c`. */
const BODY_PATH = /^[\w$-]{1,100}(?:\.[\w$-]{1,100}|\[\d{1,9}\]){0,32}$/;
const MEMBER = /\.([A-Za-z_$][\w$]*)|\[\s*(\d+)\s*\]|\[\s*["']([\w$-]+)["']\s*\]/y;

/** The directive for one check, or undefined when it has none. */
function mapCheck(text: string, jsonNames: ReadonlySet<string>): string | undefined {
  const status = STATUS.exec(text);
  if (status) return statusDirective(status[1]!);
  const body = JSON_BODY.exec(text);
  if (body) {
    const path = stringValue(body[1]!);
    const value = valueText(body[2]!);
    return path !== undefined && BODY_PATH.test(path) && value !== undefined
      ? `expect json ${path} == ${value}`
      : undefined;
  }
  const e = EXPECT.exec(text);
  if (!e) return undefined;
  const [, subject, members, literal] = e;
  if (subject === 'pm.response.code') return members === '' ? statusDirective(literal!) : undefined;
  if (!subject!.startsWith('pm.response.json') && !jsonNames.has(subject!)) return undefined;
  const path = jsonPath(members!);
  const value = valueText(literal!);
  return path.length > 0 && value !== undefined ? `expect json ${path} == ${value}` : undefined;
}

function statusDirective(text: string): string | undefined {
  const n = Number(text);
  return Number.isInteger(n) && n >= 100 && n <= 599 ? `expect status ${n}` : undefined;
}

/** `.balances[0]["asset"]` → `balances[0].asset`. */
function jsonPath(members: string): string {
  let path = '';
  MEMBER.lastIndex = 0;
  for (let m = MEMBER.exec(members); m; m = MEMBER.exec(members)) {
    if (m[2] !== undefined) path += `[${m[2]}]`;
    else path += (path.length > 0 ? '.' : '') + (m[1] ?? m[3]!);
  }
  return path;
}

/** A JS string literal's value (escapes of quotes and backslashes only); undefined for any other escape. */
function stringValue(literal: string): string | undefined {
  const inner = literal.slice(1, -1);
  let ok = true;
  const value = inner.replace(/\\(.)/g, (_m, c: string) => {
    if (c !== '\\' && c !== '"' && c !== "'") ok = false;
    return c;
  });
  return ok ? value : undefined;
}

/**
 * A literal as `# @expect json` compares it (as text with the field: docs/format.md, Directives):
 * numbers as JSON writes them, strings bare or in double quotes, never across lines.
 */
function valueText(literal: string): string | undefined {
  if (literal.startsWith('"') || literal.startsWith("'")) {
    const s = stringValue(literal);
    // eslint-disable-next-line no-control-regex
    if (s === undefined || /[\u0000-\u001f\u007f\u2028\u2029]/.test(s)) return undefined;
    const bare = s.length > 0 && s === s.trim() && !(s.startsWith('"') && s.endsWith('"'));
    return bare ? s : `"${s}"`;
  }
  if (literal === 'true' || literal === 'false' || literal === 'null') return literal;
  const n = Number(literal);
  return Number.isFinite(n) ? JSON.stringify(n) : undefined;
}

/** The notes for what of a script's checks did not become `# @expect` lines: each check, at most ten. */
export function checkNotes(checks: ScriptChecks, where: string, owner: string, notes: Notes): void {
  const script = `the Postman test script of ${owner}`;
  if (checks.refused !== undefined) {
    notes.add(`${where}: ${script} ${checks.refused}: its checks are not turned into # @expect lines.`);
    return;
  }
  for (const check of checks.unmapped.slice(0, 10))
    notes.add(`${where}: the check ${shown(check, 80)} in ${script} has no # @expect counterpart.`);
  if (checks.unmapped.length > 10)
    notes.add(`${where}: ${checks.unmapped.length - 10} more checks in ${script} have no # @expect counterpart.`);
  if (checks.unread)
    notes.add(
      `${where}: ${script} has more than ${IMPORT_LIMITS.maxChecks} checks: those after the ${IMPORT_LIMITS.maxChecks}th are not read.`,
    );
}
