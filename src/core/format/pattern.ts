/**
 * The regular expressions of `# @expect … matches /re/flags` (docs/format.md, Expectations). A
 * request file is shared, so its patterns are hostile: they are compiled and run by RE2 (the npm
 * package re2js), whose matching is linear in the text, never by a backtracking engine, and both
 * the pattern (its length, its RE2 program) and the text it runs on are bounded.
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

/** Compiled patterns by flags and source: the editor reads a file's options again on each check. */
const compiled = new Map<string, Result<Pattern, string>>();
const CACHED = 256;

/** `source` with `flags` (i, m, s) compiled by RE2, or what is wrong, in a sentence that says what to do. */
export function compilePattern(source: string, flags: string): Result<Pattern, string> {
  const key = `${flags}/${source}`;
  let found = compiled.get(key);
  if (found === undefined) {
    if (compiled.size >= CACHED) compiled.clear();
    found = compile(source, flags);
    compiled.set(key, found);
  }
  return found;
}

function compile(source: string, flags: string): Result<Pattern, string> {
  if (source.length > BOUNDS.patternChars)
    return err(
      t(
        'The pattern is {0} characters long: TradeReq takes at most {1}. Write a shorter one.',
        source.length,
        BOUNDS.patternChars,
      ),
    );
  const bad = [...flags].find((f) => !(FLAG_NAMES as readonly string[]).includes(f));
  if (bad !== undefined || new Set(flags).size !== flags.length)
    return err(
      t('The flags after a pattern are i, m and s, each once: "{0}" is not. Write /re/i, /re/m or /re/s.', flags),
    );
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
