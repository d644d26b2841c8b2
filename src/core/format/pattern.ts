/**
 * The regular expressions of `# @expect … matches /re/flags` (docs/format.md, Expectations). A
 * request file is shared, so its patterns are hostile: they are compiled and run by RE2 (the npm
 * package re2js), whose matching is linear in the text, never by a backtracking engine, and both
 * the pattern (its length, its RE2 program) and the text it runs on are bounded. What compiling
 * costs is estimated from the text first, in one pass: a pattern too costly is refused without
 * compiling it, and the patterns of one file are compiled within a budget (PatternBudget).
 */
import type { RE2JS } from 're2js';
import { BOUNDS } from '../bounds';
import { t } from '../l10n';
import { err, ok, type Result } from '../result';

type Re2 = typeof import('re2js');

let re2: Re2 | undefined;

/** re2js loaded when a file first uses `matches`: a check or send without one does not pay for it. */
function engine(): Re2 {
  return (re2 ??= require('re2js') as Re2);
}

export interface Pattern {
  /** As written between the slashes, and the flags after them. */
  readonly source: string;
  readonly flags: string;
  /** Whether the pattern matches somewhere in `text` (as JavaScript's `test`); linear in `text`. */
  test(text: string): boolean;
}

const FLAG_NAMES = ['i', 'm', 's'] as const;

/**
 * Compiled patterns by flags and source, the most recently used kept: the editor checks a file
 * again on each edit, and one file compiles at most BOUNDS.patternsPerFile, so a few files' worth.
 */
const compiled = new Map<string, Result<Pattern, string>>();
const CACHED = 4 * BOUNDS.patternsPerFile;

/**
 * `source` with `flags` (i, m, s) compiled by RE2, or what is wrong, in a sentence that says what to
 * do. A pattern whose estimated cost is too high, or that `budget` (the file's) has no room for, is
 * refused without compiling.
 */
export function compilePattern(source: string, flags: string, budget?: PatternBudget): Result<Pattern, string> {
  const refused = refusedUncompiled(source, flags);
  if (refused !== undefined) return err(refused);
  if (budget !== undefined && !budget.admits(source, flags)) return err(pastBudget());
  const key = patternKey(source, flags);
  let found = compiled.get(key);
  if (found === undefined) {
    if (compiled.size >= CACHED) compiled.delete(compiled.keys().next().value!);
    found = compile(source, flags);
  } else compiled.delete(key);
  compiled.set(key, found);
  return found;
}

function patternKey(source: string, flags: string): string {
  return `${flags}/${source}`;
}

/** An estimate past this is shown as `1000000000+`: repeats of repeats multiply past any number. */
const SHOWN_MOST = 1_000_000_000;

/** Why the text alone refuses the pattern: too long, bad flags, or an estimated program too large; undefined when it may be compiled. */
function refusedUncompiled(source: string, flags: string): string | undefined {
  if (source.length > BOUNDS.patternChars)
    return t(
      'The pattern is {0} characters long: TradeReq takes at most {1}. Write a shorter one.',
      source.length,
      BOUNDS.patternChars,
    );
  const bad = [...flags].find((f) => !(FLAG_NAMES as readonly string[]).includes(f));
  if (bad !== undefined || new Set(flags).size !== flags.length)
    return t('The flags after a pattern are i, m and s, each once: "{0}" is not. Write /re/i, /re/m or /re/s.', flags);
  const { instructions } = patternCost(source);
  if (instructions > BOUNDS.patternProgram)
    return t(
      'This pattern is too costly to match: its repeats make up to {0} RE2 instructions, TradeReq allows {1}. Use smaller repeat counts ({2}, not {3}).',
      instructions > SHOWN_MOST ? `${SHOWN_MOST}+` : instructions,
      BOUNDS.patternProgram,
      '{8}',
      '{1000}',
    );
  return undefined;
}

function pastBudget(): string {
  return t(
    "This file's patterns cost more to compile than TradeReq allows one file ({0} different patterns, a cost of {1} in all), and this one is past it: use the same pattern again, simpler ones, or split the file.",
    BOUNDS.patternsPerFile,
    BOUNDS.patternCostPerFile.toLocaleString('en-US'),
  );
}

function compile(source: string, flags: string): Result<Pattern, string> {
  const { RE2JS } = engine();
  let re: RE2JS;
  try {
    re = RE2JS.compile(source, flagBits(RE2JS, flags));
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^error parsing regexp: /, '') : String(e);
    return err(
      t(
        'RE2 cannot compile this pattern ({0}). TradeReq matches with RE2, which runs in time linear in the text and so has no backreferences (\\1) and no lookaround ((?=, (?!, (?<=, (?<!): write the pattern without them.',
        why,
      ),
    );
  }
  // The estimate is an upper bound; this is the program itself, should a construct escape it.
  const size = re.programSize();
  if (size > BOUNDS.patternProgram)
    return err(
      t(
        'This pattern is too costly to match: its RE2 program has {0} instructions, TradeReq allows {1}. Use smaller repeat counts ({2}, not {3}).',
        size,
        BOUNDS.patternProgram,
        '{8}',
        '{1000}',
      ),
    );
  return ok({ source, flags, test: (text) => re.test(text) });
}

function flagBits(engine: typeof RE2JS, flags: string): number {
  let bits = 0;
  if (flags.includes('i')) bits |= engine.CASE_INSENSITIVE;
  if (flags.includes('m')) bits |= engine.MULTILINE;
  if (flags.includes('s')) bits |= engine.DOTALL;
  return bits;
}

/**
 * The patterns one file may compile (BOUNDS.patternsPerFile different ones, BOUNDS.patternCostPerFile
 * of cost in all), admitted first come first served; a pattern already admitted costs nothing again.
 * The file's reader offers them in file order before any is compiled (format/expectation.ts), so a
 * pattern is admitted or not whichever request is read or sent.
 */
export class PatternBudget {
  private readonly verdicts = new Map<string, boolean>();
  private admitted = 0;
  private cost = 0;

  /** Whether `source` with `flags` may be compiled for this file. */
  admits(source: string, flags: string): boolean {
    const key = patternKey(source, flags);
    let verdict = this.verdicts.get(key);
    if (verdict === undefined) {
      // A pattern the text refuses is never compiled: it costs nothing.
      const cost = refusedUncompiled(source, flags) === undefined ? compileCost(source) : 0;
      verdict = this.admitted < BOUNDS.patternsPerFile && this.cost + cost <= BOUNDS.patternCostPerFile;
      if (verdict) {
        this.admitted++;
        this.cost += cost;
      }
      this.verdicts.set(key, verdict);
    }
    return verdict;
  }
}

/** The instructions of every program besides the pattern's own: the failure and the match. */
const PROGRAM_OVERHEAD = 2;
/**
 * What RE2 spends building one Unicode class (`\pL`, `\p{Greek}`, `\PN`) from its tables, in
 * instructions compiled in the same time (measured with re2js 2.10: a `\pL` takes what some 50 do).
 */
const UNICODE_CLASS_COST = 64;

/** The cost of compiling `source`, for PatternBudget: its instructions, and its Unicode classes built. */
function compileCost(source: string): number {
  const { instructions, unicodeClasses } = patternCost(source);
  return instructions + UNICODE_CLASS_COST * unicodeClasses;
}

/** A group being read: the instructions of what it holds so far, and of its last item (which a repeat copies). */
interface Group {
  total: number;
  last: number;
  readonly extra: number;
}

/**
 * RE2's program size for `source`, estimated from its text in one pass (an upper bound: a repeat
 * `x{n,m}` is m copies of x and m − n choices, each group's capture two, each `|` `*` `+` `?` two,
 * anything empty one), and how many Unicode classes it names. Infinity when repeats multiply past any number.
 */
export function patternCost(source: string): { instructions: number; unicodeClasses: number } {
  const stack: Group[] = [{ total: 0, last: 0, extra: 0 }];
  const unicode = { classes: 0 };
  let repeated = false;
  for (let i = 0; i < source.length;) {
    const top = stack[stack.length - 1]!;
    const c = source[i]!;
    const repeat = c === '{' ? REPEAT.exec(source.slice(i, i + REPEAT_CHARS)) : null;
    if (repeat || ((c === '*' || c === '+' || c === '?') && !(repeated && c === '?'))) {
      const copies = repeat ? repeatCopies(repeat) : (last: number) => last + 2;
      top.total += copies(top.last) - top.last;
      top.last = copies(top.last);
      i += repeat ? repeat[0].length : 1;
      repeated = true;
      continue;
    }
    repeated = false;
    if (c === '(') i = openGroup(source, i, stack);
    else if (c === ')' && stack.length > 1) i = closeGroup(stack, i);
    else if (c === '|') i = alternative(top, i);
    else i = atom(source, i, top, unicode);
  }
  while (stack.length > 1) closeGroup(stack, 0);
  return { instructions: Math.max(1, stack[0]!.total) + PROGRAM_OVERHEAD, unicodeClasses: unicode.classes };
}

/** `{n}`, `{n,}`, `{n,m}`: RE2 writes nothing longer (its counts stop at 1000). */
const REPEAT = /^\{(\d{1,9})(,(\d{0,9}))?\}/;
const REPEAT_CHARS = 22;

/** What `x{n,m}` makes of x's instructions: m copies and m − n choices; `x{n,}` n copies and a loop. */
function repeatCopies(m: RegExpExecArray): (last: number) => number {
  const n = Number(m[1]);
  // Nothing left (`x{0}`) is still one instruction, an empty one.
  if (m[2] === undefined) return (last) => Math.max(1, last * n);
  if (m[3] === '') return (last) => last * Math.max(n, 1) + 2;
  const most = Math.max(n, Number(m[3]));
  return (last) => Math.max(1, last * most + (most - n));
}

/** `(`, `(?:`, `(?i:`, `(?P<name>`, `(?<name>` open a group; `(?i)` sets flags and holds nothing. */
function openGroup(source: string, i: number, stack: Group[]): number {
  if (source[i + 1] !== '?') {
    stack.push({ total: 0, last: 0, extra: 2 });
    return i + 1;
  }
  const flags = /^\(\?[A-Za-z-]*\)/.exec(source.slice(i, i + 16));
  if (flags) return i + flags[0].length;
  const named = source[i + 2] === 'P' || source[i + 2] === '<';
  const end = source.indexOf(named ? '>' : ':', i);
  stack.push({ total: 0, last: 0, extra: named ? 2 : 0 });
  return end < 0 ? source.length : end + 1;
}

function closeGroup(stack: Group[], i: number): number {
  const group = stack.pop()!;
  const top = stack[stack.length - 1]!;
  // An empty group is one empty instruction, and its capture two more.
  const size = Math.max(1, group.total) + group.extra;
  top.total += size;
  top.last = size;
  return i + 1;
}

/** `|`: a choice, and an empty instruction should the branch before or after it be empty. */
function alternative(top: Group, i: number): number {
  top.total += 2;
  top.last = 0;
  return i + 1;
}

/** One item that matches a character or a place: a literal, `.`, `^`, an escape, a class `[…]`; `\Q…\E` is one per character. */
function atom(source: string, i: number, top: Group, unicode: { classes: number }): number {
  let next = i + 1;
  let size = 1;
  if (source[i] === '\\') {
    next = escapeEnd(source, i, unicode);
    // `\Q…\E`: each character between is a literal (to the end of the pattern without `\E`).
    if (source[i + 1] === 'Q') size = Math.max(1, next - (source.endsWith('\\E', next) ? 2 : 0) - i - 2);
  } else if (source[i] === '[') next = classEnd(source, i, unicode);
  top.total += size;
  top.last = size;
  return next;
}

/** Where the escape at `i` ends: `\pL`, `\p{Greek}`, `\x{10FFFF}`, `\x41`, `\Q…\E`, `\d`… */
function escapeEnd(source: string, i: number, unicode: { classes: number }): number {
  const e = source[i + 1];
  if (e === 'p' || e === 'P') {
    unicode.classes++;
    return source[i + 2] === '{' ? braceEnd(source, i + 2) : i + 3;
  }
  if (e === 'x') return source[i + 2] === '{' ? braceEnd(source, i + 2) : i + 4;
  if (e === 'Q') {
    const end = source.indexOf('\\E', i + 2);
    return end < 0 ? source.length : end + 2;
  }
  return i + 2;
}

function braceEnd(source: string, open: number): number {
  const close = source.indexOf('}', open);
  return close < 0 ? source.length : close + 1;
}

/**
 * Where the class `[…]` at `i` ends (a `]` first in it is a character), counting its Unicode
 * classes; a class of characters past ASCII (`[à-ÿ]`, `[\\x{0}-\\x{10FFFF}]`) counts as one too.
 */
function classEnd(source: string, i: number, unicode: { classes: number }): number {
  let j = i + 1;
  let wide = false;
  if (source[j] === '^') j++;
  if (source[j] === ']') j++;
  while (j < source.length && source[j] !== ']') {
    if (source[j] === '\\') {
      wide ||= source[j + 1] === 'x' && source[j + 2] === '{';
      j = escapeEnd(source, j, unicode);
    } else if (source[j] === '[' && source[j + 1] === ':') {
      const close = source.indexOf(':]', j + 2);
      j = close < 0 ? source.length : close + 2;
    } else {
      wide ||= source.charCodeAt(j) > 0x7f;
      j++;
    }
  }
  if (wide) unicode.classes++;
  return j + 1;
}
