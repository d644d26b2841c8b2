/**
 * A small POSIX-shell word splitter, enough for cURL lines as documentation and browsers write
 * them: '...', "...", $'...', backslash escapes and line continuations. Shell variables become
 * `{{NAME}}`; command substitutions are kept as written. One pass, no backtracking.
 */
import { ConvertError } from './import-result';

export interface ShellWords {
  readonly words: string[];
  /** `$NAME` / `${NAME}` found, now `{{NAME}}`. */
  readonly variables: string[];
  /** `$(...)` and backquoted commands, kept as written. */
  readonly substitutions: string[];
  /** What followed an unquoted `|`, `;`, `&&`, `>` or `<` (or a line break, with `lineEnds`): not part of the command. */
  readonly rest?: string;
  /** An unquoted `&` inside a word, read as part of the word (a shell would end the command there). */
  readonly ampersandInWord: boolean;
}

const C_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** `$'...'` from the character after the opening quote; returns the text and the index after the closing quote. */
function ansiC(s: string, start: number): [string, number] {
  let out = '';
  for (let i = start; i < s.length; i++) {
    const c = s[i]!;
    if (c === "'") return [out, i + 1];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = s[i + 1] ?? '';
    const simple = C_ESCAPES[e];
    if (simple !== undefined) {
      out += simple;
      i++;
      continue;
    }
    const hex = /^(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3})/.exec(s.slice(i + 1, i + 10));
    if (hex) {
      const h = hex[1]!;
      const code = /^[0-7]/.test(h) ? parseInt(h, 8) : parseInt(h.slice(1), 16);
      out += code <= 0x10ffff ? String.fromCodePoint(code) : '';
      i += h.length;
      continue;
    }
    out += '\\';
  }
  throw new ConvertError("the cURL command has an unclosed $'...' quote");
}

/** `$(...)` or `` `...` `` from its first character; returns the text as written and the index after it. */
function substitution(s: string, start: number): [string, number] {
  if (s[start] === '`') {
    const end = s.indexOf('`', start + 1);
    if (end < 0) throw new ConvertError('the cURL command has an unclosed ` quote');
    return [s.slice(start, end + 1), end + 1];
  }
  let depth = 0;
  for (let i = start; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')' && --depth === 0) return [s.slice(start, i + 1), i + 1];
  }
  throw new ConvertError('the cURL command has an unclosed $( command substitution');
}

/** `$NAME` or `${NAME}` at `start`; undefined when the `$` stands for itself. */
function variable(s: string, start: number): [string, number] | undefined {
  const m = /^\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/.exec(s.slice(start, start + 130));
  return m ? [m[1] ?? m[2]!, start + m[0].length] : undefined;
}

const OPERATOR = /[|;<>&]/;

/** One pass over the text; `word` collects the current word. */
class Splitter {
  readonly words: string[] = [];
  readonly variables: string[] = [];
  readonly substitutions: string[] = [];
  ampersandInWord = false;
  private word = '';
  private inWord = false;

  constructor(
    private readonly s: string,
    private readonly lineEnds: boolean,
  ) {}

  run(): ShellWords {
    const s = this.s;
    let i = 0;
    while (i < s.length) {
      const c = s[i]!;
      if (c === '\n' && this.lineEnds) {
        this.end();
        return this.result(s.slice(i).trim());
      } else if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
        this.end();
        i++;
      } else if (c === '#' && !this.inWord) {
        const nl = s.indexOf('\n', i);
        i = nl < 0 ? s.length : nl;
      } else if (c === '&' && this.inWord && s[i + 1] !== '&' && !/\s/.test(s[i + 1] ?? ' ')) {
        this.ampersandInWord = true;
        this.add(c);
        i++;
      } else if (OPERATOR.test(c)) {
        this.end();
        return this.result(s.slice(i).trim());
      } else {
        i = this.quoted(c, i);
      }
    }
    this.end();
    return this.result(undefined);
  }

  private result(rest: string | undefined): ShellWords {
    const { words, variables, substitutions, ampersandInWord } = this;
    return { words, variables, substitutions, ampersandInWord, ...(rest !== undefined ? { rest } : {}) };
  }

  private end(): void {
    if (this.inWord) this.words.push(this.word);
    this.word = '';
    this.inWord = false;
  }

  private add(text: string): void {
    this.word += text;
    this.inWord = true;
  }

  /** A character of a word at `i` (quotes, escapes, `$`); returns the next index. */
  private quoted(c: string, i: number): number {
    const s = this.s;
    if (c === '\\') {
      if (s[i + 1] === '\n') return i + 2;
      if (s[i + 1] === '\r' && s[i + 2] === '\n') return i + 3;
      this.add(s[i + 1] ?? '');
      return i + 2;
    }
    if (c === "'") {
      const close = s.indexOf("'", i + 1);
      if (close < 0) throw new ConvertError("the cURL command has an unclosed ' quote");
      this.add(s.slice(i + 1, close));
      return close + 1;
    }
    if (c === '$' && s[i + 1] === "'") {
      const [text, next] = ansiC(s, i + 2);
      this.add(text);
      return next;
    }
    if (c === '"' || (c === '$' && s[i + 1] === '"')) {
      this.inWord = true;
      return doubleQuoted(
        s,
        c === '$' ? i + 2 : i + 1,
        (t) => this.add(t),
        (at) => this.dollar(at),
      );
    }
    if (c === '$') return this.dollar(i);
    if (c === '`') return this.substitution(i, '');
    this.add(c);
    return i + 1;
  }

  /** `$...` at i (outside single quotes); returns the next index. */
  private dollar(i: number): number {
    if (this.s[i + 1] === '(') return this.substitution(i + 1, '$');
    const v = variable(this.s, i);
    if (!v) {
      this.add('$');
      return i + 1;
    }
    this.variables.push(v[0]);
    this.add(`{{${v[0]}}}`);
    return v[1];
  }

  private substitution(at: number, prefix: string): number {
    const [text, next] = substitution(this.s, at);
    this.substitutions.push(prefix + text);
    this.add(prefix + text);
    return next;
  }
}

/**
 * With `lineEnds`, an unquoted line break ends the command as in a shell (the doctor reads one command
 * out of a log); without it, a paste's line breaks are spaces (the importer).
 */
export function shellWords(s: string, options: { readonly lineEnds?: boolean } = {}): ShellWords {
  return new Splitter(s, options.lineEnds ?? false).run();
}

/** The inside of "..." from `start`; calls `add` with literal text and `dollar` at each `$`; returns the index after the closing quote. */
function doubleQuoted(s: string, start: number, add: (t: string) => void, dollar: (i: number) => number): number {
  let i = start;
  while (i < s.length) {
    const c = s[i]!;
    if (c === '"') return i + 1;
    if (c === '\\') {
      const e = s[i + 1] ?? '';
      if (e === '\n') i += 2;
      else if ('$`"\\'.includes(e)) {
        add(e);
        i += 2;
      } else {
        add('\\');
        i++;
      }
    } else if (c === '$' && s[i + 1] !== '"') {
      i = dollar(i);
    } else {
      add(c);
      i++;
    }
  }
  throw new ConvertError('the cURL command has an unclosed " quote');
}
