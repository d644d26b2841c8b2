/**
 * One check of a Postman test script (`pm.expect(SUBJECT).to.…(VALUE)`, `pm.response.to.have.…(…)`)
 * read as tokens, never run, and turned into a `# @expect` line (expect-text.ts) when it has an
 * exact counterpart. The text is at most IMPORT_LIMITS.maxCheckChars long (postman-checks.ts).
 */
import { err, ok, type Result } from '../result';
import { expectLine, type CompareOp, type Literal, type Subject, type Test } from './expect-text';

type Token =
  | { readonly kind: 'name' | 'punct'; readonly text: string }
  | { readonly kind: 'value'; readonly literal: Literal }
  | { readonly kind: 'regex'; readonly source: string; readonly flags: string };

const NAME = /[A-Za-z_$][\w$]*/y;
const NUMBER = /-?\d{1,20}(?:\.\d{1,20})?(?:[eE][+-]?\d{1,3})?(?![\w.])/y;
const STRING = /"((?:[^"\\\r\n]|\\.)*)"|'((?:[^'\\\r\n]|\\.)*)'/y;
const REGEX = /\/((?:[^/\\[\r\n]|\\.|\[(?:[^\]\\\r\n]|\\.)*\])+)\/([a-z]*)/y;
const SPACE = /\s+/y;

/** A JS string literal's value (escapes of quotes and backslashes only); undefined for any other escape. */
function stringValue(inner: string): string | undefined {
  let ok = true;
  const value = inner.replace(/\\(.)/g, (_m, c: string) => {
    if (c !== '\\' && c !== '"' && c !== "'") ok = false;
    return c;
  });
  return ok ? value : undefined;
}

function sticky(re: RegExp, text: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(text);
}

/** After these a `/` starts a regular expression and a `-` a negative number, not a division or subtraction. */
const OPERAND_START = new Set(['(', ',', '[']);

/** The tokens of a check, or undefined at anything but names, punctuation and plain literals. */
function tokens(text: string): Token[] | undefined {
  const out: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const space = sticky(SPACE, text, at);
    if (space) at += space[0].length;
    if (at >= text.length) break;
    const c = text[at]!;
    const prev = out[out.length - 1];
    const operand = prev !== undefined && prev.kind === 'punct' && OPERAND_START.has(prev.text);
    let m: RegExpExecArray | null = null;
    if ('.()[],'.includes(c)) out.push({ kind: 'punct', text: c });
    else if ((m = sticky(NAME, text, at))) {
      const literal = operand && ['true', 'false', 'null'].includes(m[0]);
      out.push(literal ? { kind: 'value', literal: { kind: 'json', text: m[0] } } : { kind: 'name', text: m[0] });
    } else if (operand && (m = sticky(NUMBER, text, at))) {
      const n = Number(m[0]);
      if (!Number.isFinite(n)) return undefined;
      out.push({ kind: 'value', literal: { kind: 'json', text: JSON.stringify(n) } });
    } else if ((m = sticky(STRING, text, at))) {
      const value = stringValue(m[1] ?? m[2]!);
      if (value === undefined) return undefined;
      out.push({ kind: 'value', literal: { kind: 'string', value } });
    } else if (operand && (m = sticky(REGEX, text, at))) out.push({ kind: 'regex', source: m[1]!, flags: m[2]! });
    else return undefined;
    at += m ? m[0].length : 1;
  }
  return out;
}

/** An argument: a literal, a regular expression, or an array of literals. */
type Arg =
  | { readonly kind: 'value'; readonly literal: Literal }
  | { readonly kind: 'regex'; readonly source: string; readonly flags: string }
  | { readonly kind: 'list'; readonly values: readonly Literal[] };

interface Link {
  readonly name: string;
  /** Present when the link is a call. */
  readonly args?: readonly Arg[];
}

class Reader {
  private i = 0;
  constructor(private readonly list: readonly Token[]) {}

  done(): boolean {
    return this.i >= this.list.length;
  }

  punct(text: string): boolean {
    const t = this.list[this.i];
    if (t?.kind !== 'punct' || t.text !== text) return false;
    this.i++;
    return true;
  }

  name(): string | undefined {
    const t = this.list[this.i];
    if (t?.kind !== 'name') return undefined;
    this.i++;
    return t.text;
  }

  value(): Literal | undefined {
    const t = this.list[this.i];
    if (t?.kind !== 'value') return undefined;
    this.i++;
    return t.literal;
  }

  arg(): Arg | undefined {
    const t = this.list[this.i];
    if (t?.kind === 'regex') {
      this.i++;
      return t;
    }
    if (!this.punct('[')) {
      const literal = this.value();
      return literal && { kind: 'value', literal };
    }
    const values: Literal[] = [];
    for (let v = this.value(); v; v = this.punct(',') ? this.value() : undefined) values.push(v);
    return this.punct(']') ? { kind: 'list', values } : undefined;
  }

  /** `(a, b)` after a name; the reader stands after `(`. */
  args(): Arg[] | undefined {
    const out: Arg[] = [];
    if (this.punct(')')) return out;
    for (;;) {
      const a = this.arg();
      if (!a) return undefined;
      out.push(a);
      if (this.punct(')')) return out;
      if (!this.punct(',')) return undefined;
    }
  }

  /** `.to.be.above(1)`: links up to the end; a call only last. */
  chain(): Link[] | undefined {
    const out: Link[] = [];
    while (this.punct('.')) {
      const name = this.name();
      if (name === undefined) return undefined;
      if (!this.punct('(')) {
        out.push({ name });
        continue;
      }
      const args = this.args();
      if (args === undefined) return undefined;
      out.push({ name, args });
      if (!this.done()) return undefined;
    }
    return this.done() ? out : undefined;
  }

  /** `.a.b[0]["c"]` as the path `a.b[0].c`; undefined at any other member. */
  members(): string | undefined {
    let path = '';
    for (;;) {
      if (this.punct('.')) {
        const name = this.name();
        if (name === undefined) return undefined;
        path += (path.length > 0 ? '.' : '') + name;
      } else if (this.punct('[')) {
        const key = this.value();
        if (!key || !this.punct(']')) return undefined;
        if (key.kind === 'json' && /^\d+$/.test(key.text)) path += `[${key.text}]`;
        else if (key.kind === 'string' && /^[\w$-]+$/.test(key.value)) path += (path.length > 0 ? '.' : '') + key.value;
        else return undefined;
      } else return path;
    }
  }
}

interface Read {
  readonly subject: Subject;
  /** The subject ended in `.length`: the check is on the array's length (`count`). */
  readonly length: boolean;
}

/** A path of the JSON answer (`$` the whole answer); `x.length` the length of `x`. */
function jsonSubject(path: string | undefined): Read | undefined {
  if (path === undefined) return undefined;
  const length = /(?:^|\.)length$/.exec(path);
  const of = length ? path.slice(0, length.index) : path;
  return { subject: { kind: 'json', path: of.length > 0 ? of : '$' }, length: length !== null };
}

/** The subject of `pm.expect(…)`: the status, the time, a header, or a path of the JSON answer. */
function subject(r: Reader, jsonNames: ReadonlySet<string>): Read | undefined {
  const first = r.name();
  if (first !== undefined && jsonNames.has(first)) return jsonSubject(r.members());
  if (first !== 'pm' || !r.punct('.') || r.name() !== 'response' || !r.punct('.')) return undefined;
  const field = r.name();
  if (field === 'code') return { subject: { kind: 'status' }, length: false };
  if (field === 'responseTime') return { subject: { kind: 'duration' }, length: false };
  if (field === 'json' && r.punct('(') && r.punct(')')) return jsonSubject(r.members());
  if (field === 'headers' && r.punct('.') && r.name() === 'get' && r.punct('(')) {
    const name = r.value();
    return name?.kind === 'string' && r.punct(')')
      ? { subject: { kind: 'header', name: name.value }, length: false }
      : undefined;
  }
  return undefined;
}

/** Chai's words that only read well. */
const LANGUAGE = new Set([
  'to',
  'be',
  'been',
  'is',
  'that',
  'which',
  'and',
  'has',
  'have',
  'with',
  'at',
  'of',
  'same',
  'but',
  'does',
  'still',
  'also',
  'deep',
]);

const ORDER: Readonly<Record<string, CompareOp>> = {
  above: '>',
  gt: '>',
  greaterThan: '>',
  below: '<',
  lt: '<',
  lessThan: '<',
  least: '>=',
  gte: '>=',
  greaterThanOrEqual: '>=',
  most: '<=',
  lte: '<=',
  lessThanOrEqual: '<=',
};
const EQUAL = new Set(['eql', 'eqls', 'equal', 'equals', 'eq']);
const INCLUDE = new Set(['include', 'includes', 'contain', 'contains']);
const TYPES: Readonly<Record<string, Test['op']>> = {
  string: 'isString',
  number: 'isNumber',
  boolean: 'isBoolean',
  null: 'isNull',
  array: 'isArray',
  object: 'isObject',
};

interface Assertion {
  readonly name: string;
  readonly args: readonly Arg[] | undefined;
  readonly not: boolean;
  /** `.length` or `.lengthOf` came before: the assertion is on the array's length. */
  readonly length: boolean;
}

/** The chain's last link and what the words before it said. */
function assertion(links: readonly Link[]): Result<Assertion, string> {
  const last = links[links.length - 1];
  if (!last) return err('it asserts nothing');
  let not = false;
  let length = false;
  for (const l of links.slice(0, -1)) {
    if (l.name === 'not') not = !not;
    else if (l.name === 'length' || l.name === 'lengthOf') length = true;
    else if (!LANGUAGE.has(l.name)) return err(`.${l.name} has no counterpart`);
  }
  return ok({ name: last.name, args: last.args, not, length });
}

function oneValue(a: Assertion): Literal | undefined {
  const only = a.args?.length === 1 ? a.args[0] : undefined;
  return only?.kind === 'value' ? only.literal : undefined;
}

function countOf(value: Literal | undefined): number | undefined {
  return value?.kind === 'json' && /^\d{1,9}$/.test(value.text) ? Number(value.text) : undefined;
}

/** The test of an assertion with a value: equality, order, length, inclusion, pattern, type, list. */
function valueTest(a: Assertion): Result<Test, string> {
  const value = oneValue(a);
  const order = ORDER[a.name] ?? (EQUAL.has(a.name) ? (a.not ? '!=' : '==') : undefined);
  if (order !== undefined && value !== undefined && (!a.not || EQUAL.has(a.name))) {
    if (!a.length) return ok({ op: order, value });
    const n = countOf(value);
    return n === undefined ? err('a length is a whole number') : ok({ op: 'count', compare: order, n });
  }
  if (a.not || a.length) return err(`.${a.not ? 'not' : 'length'} with .${a.name} has no counterpart`);
  if ((a.name === 'lengthOf' || a.name === 'length') && countOf(value) !== undefined)
    return ok({ op: 'count', compare: '==', n: countOf(value)! });
  if (INCLUDE.has(a.name) && value !== undefined) return ok({ op: 'contains', value });
  const only = a.args?.length === 1 ? a.args[0] : undefined;
  if ((a.name === 'match' || a.name === 'matches') && only?.kind === 'regex')
    return ok({ op: 'matches', source: only.source, flags: only.flags });
  if ((a.name === 'a' || a.name === 'an') && value?.kind === 'string' && TYPES[value.value] !== undefined)
    return ok({ op: TYPES[value.value]! } as Test);
  if (a.name === 'oneOf' && only?.kind === 'list') return ok({ op: 'in', values: only.values });
  return err(`.${a.name}(…) with these values has no counterpart`);
}

/** The test of a chai assertion on a subject. */
function chaiTest(a: Assertion): Result<Test, string> {
  if (a.args === undefined) {
    if (a.name === 'exist' && !a.length) return ok({ op: a.not ? 'not exists' : 'exists' });
    if ((a.name === 'true' || a.name === 'false') && !a.not && !a.length)
      return ok({ op: '==', value: { kind: 'json', text: a.name } });
    if (a.name === 'null' && !a.not && !a.length) return ok({ op: 'isNull' });
    return err(`.${a.name} has no counterpart`);
  }
  return valueTest(a);
}

/** `.property("name"[, value])` on a JSON subject: a path one name deeper. */
function propertyLine(path: string, a: Assertion): Result<string, string> {
  const [name, value, ...rest] = a.args ?? [];
  if (name?.kind !== 'value' || name.literal.kind !== 'string' || rest.length > 0 || a.length)
    return err('.property takes a name and a value');
  const deeper = {
    kind: 'json',
    path: path !== '$' ? `${path}.${name.literal.value}` : name.literal.value,
  } as const;
  if (value === undefined) return expectLine(deeper, { op: a.not ? 'not exists' : 'exists' });
  if (value.kind !== 'value' || a.not) return err('.not.property with a value has no counterpart');
  return expectLine(deeper, { op: '==', value: value.literal });
}

/** `pm.expect(SUBJECT[, "message"]).…`: the reader stands after `pm.expect`. */
function expectCheck(r: Reader, jsonNames: ReadonlySet<string>): Result<string, string> {
  if (!r.punct('(')) return err('it is not a call of pm.expect');
  const read = subject(r, jsonNames);
  if (!read) return err('its subject is not the status, the response time, a header or a field of pm.response.json()');
  if (r.punct(',') && r.value()?.kind !== 'string') return err('its message is not a plain string');
  const links = r.punct(')') ? r.chain() : undefined;
  if (!links) return err('it is not one chain of assertions on plain values');
  const a = assertion(links);
  if (!a.ok) return a;
  const s = read.subject;
  const length = a.value.length || read.length;
  if (a.value.name === 'property' && s.kind === 'json' && !read.length) return propertyLine(s.path, a.value);
  const test = chaiTest({ ...a.value, length });
  return test.ok ? expectLine(s, test.value) : test;
}

/** `pm.response.to.have.status(200)`, `.header("X"[, "v"])`, `.jsonBody("path"[, value])`. */
function responseCheck(r: Reader): Result<string, string> {
  const links = r.chain();
  const a = links ? assertion(links) : err('it is not one chain of assertions on plain values');
  if (!a.ok) return a;
  const { name, args, not } = a.value;
  const [first, second, ...rest] = args ?? [];
  const key = first?.kind === 'value' ? first.literal : undefined;
  const value = second?.kind === 'value' ? second.literal : undefined;
  if (rest.length > 0 || (second !== undefined && value === undefined) || a.value.length)
    return err(`.${name} with these values has no counterpart`);
  if (name === 'status' && key?.kind === 'json' && second === undefined)
    return expectLine({ kind: 'status' }, { op: not ? '!=' : '==', value: key });
  if (key?.kind !== 'string') return err(`pm.response.to.…${name} has no counterpart`);
  if (name === 'header' && !(not && value))
    return expectLine(
      { kind: 'header', name: key.value },
      value ? { op: '==', value } : { op: not ? 'not exists' : 'exists' },
    );
  if (name === 'jsonBody' && !(not && value))
    return expectLine(
      { kind: 'json', path: key.value },
      value ? { op: '==', value } : { op: not ? 'not exists' : 'exists' },
    );
  return err(`pm.response.to.…${name} has no counterpart`);
}

/** The `# @expect` line of one check (`pm.expect(…)…` or `pm.response.to.…`), or why it has none. */
export function postmanCheck(text: string, jsonNames: ReadonlySet<string>): Result<string, string> {
  const list = tokens(text);
  if (!list) return err('it holds more than names and plain values');
  const r = new Reader(list);
  if (r.name() !== 'pm' || !r.punct('.')) return err('it does not start with pm.');
  const what = r.name();
  if (what === 'expect') return expectCheck(r, jsonNames);
  if (what === 'response' && r.punct('.') && r.name() === 'to') return responseCheck(r);
  return err('it is neither pm.expect(…) nor pm.response.to.…');
}
