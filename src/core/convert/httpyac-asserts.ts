/**
 * httpYac's assertion lines (`?? status == 200`, `?? body symbol == BTCUSDT`, `?? header
 * content-type includes json`, `?? duration < 1000`) as `# @expect` lines (expect-text.ts), read
 * the way httpYac reads them: `?? TYPE [VALUE] PREDICATE [EXPECTED]`, the predicate the last one
 * on the line, its expected value text that httpYac converts to the type of what it checks.
 */
import { err, ok, type Result } from '../result';
import { expectLine, type CompareOp, type Literal, type Subject, type Test } from './expect-text';

/** httpYac's predicates in the order its pattern tries them (a longer one after its prefix never wins). */
const PREDICATES = [
  'endsWith',
  '==',
  '===',
  'equals',
  'exists',
  'isTrue',
  '>=',
  '>',
  'contains',
  'includes',
  'isArray',
  'isBoolean',
  'isNumber',
  'isString',
  '<=',
  '<',
  'matches',
  '!=',
  '!==',
  'not equals',
  'startsWith',
  'sha256',
  'md5',
  'sha512',
  'isFalse',
] as const;

const MAX_LINE = 1000;

interface Parts {
  readonly type: string;
  readonly value: string;
  readonly predicate: string;
  readonly expected: string;
  /** The predicate runs into what follows it (`==200`, `existsX`). */
  readonly glued: boolean;
}

/** The predicate that starts at `at` (ignoring case, as httpYac's pattern does). */
function predicateAt(text: string, at: number): string | undefined {
  const rest = text.slice(at, at + 12).toLowerCase();
  return PREDICATES.find((p) => rest.startsWith(p.toLowerCase()));
}

/** `?? TYPE [VALUE] PREDICATE [EXPECTED]`, the predicate the last one after a space; undefined when there is none. */
function split(line: string): Parts | undefined {
  const body = /^\?\?\s*(\S+)/.exec(line);
  if (!body) return undefined;
  const start = body[0].length;
  for (let at = line.length - 1; at > start; at--) {
    if (!/\s/.test(line[at - 1]!) || /\s/.test(line[at]!)) continue;
    const predicate = predicateAt(line, at);
    if (predicate === undefined) continue;
    const end = at + predicate.length;
    return {
      type: body[1]!,
      value: line.slice(start, at).trim(),
      predicate: line.slice(at, end),
      expected: line.slice(end).trim(),
      glued: end < line.length && !/\s/.test(line[end]!),
    };
  }
  return undefined;
}

/** `a.b[0]["c"]` as the path `a.b[0].c`; undefined for any other expression. */
function memberPath(text: string): string | undefined {
  const MEMBER = /\.([A-Za-z_$][\w$]*)|\[(\d{1,9})\]|\["([\w$-]+)"\]|\['([\w$-]+)'\]/y;
  let path = '';
  let at = 0;
  while (at < text.length) {
    MEMBER.lastIndex = at;
    const m = MEMBER.exec(text);
    if (!m) return undefined;
    if (m[2] !== undefined) path += `[${m[2]}]`;
    else path += (path.length > 0 ? '.' : '') + (m[1] ?? m[3] ?? m[4]!);
    at = MEMBER.lastIndex;
  }
  return path;
}

interface Read {
  readonly subject: Subject;
  /** The path ended in `.length`: the check is on the array's length (`count`). */
  readonly length?: boolean;
}

function jsonRead(path: string | undefined): Read | undefined {
  if (path === undefined || path.length === 0) return undefined;
  const length = /(?:^|\.)length$/.exec(path);
  return { subject: { kind: 'json', path: length ? path.slice(0, length.index) : path }, length: length !== null };
}

/** What the assertion reads: `status`, `duration`, `header NAME`, `body PATH`, `js response.parsedBody.PATH`. */
function subject(type: string, value: string): Read | undefined {
  if ((type === 'status' || type === 'duration') && value === '') return { subject: { kind: type } };
  if (type === 'header' && /^\S+$/.test(value)) return { subject: { kind: 'header', name: value } };
  if (type === 'body' && /^[A-Za-z_$]/.test(value)) return jsonRead(memberPath('.' + value));
  if (type !== 'js') return undefined;
  if (value === 'response.statusCode') return { subject: { kind: 'status' } };
  const parsed = /^response\.parsedBody(?=[.[])(.*)$/.exec(value);
  return parsed ? jsonRead(memberPath(parsed[1]!)) : undefined;
}

const COMPARE: Readonly<Record<string, CompareOp>> = {
  '==': '==',
  equals: '==',
  '!=': '!=',
  'not equals': '!=',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};
const TYPES: Readonly<Record<string, Test>> = {
  exists: { op: 'exists' },
  isTrue: { op: '==', value: { kind: 'json', text: 'true' } },
  isFalse: { op: '==', value: { kind: 'json', text: 'false' } },
  isNumber: { op: 'isNumber' },
  isBoolean: { op: 'isBoolean' },
  isString: { op: 'isString' },
  isArray: { op: 'isArray' },
};
const NUMBER = /^-?\d{1,20}(?:\.\d{1,20})?$/;
/** Predicates the assertion language has no word for. */
const NO_COUNTERPART = new Set(['endsWith', 'sha256', 'sha512', 'md5']);

/** The test of a predicate with its expected text, as httpYac compares them. */
function test(predicate: string, expected: string, length: boolean): Result<Test, string> {
  const known = TYPES[predicate];
  if (known) return expected === '' && !length ? ok(known) : err(`${predicate} takes no value`);
  if (expected === '') return err(`${predicate} without a value`);
  if (expected.includes('{{')) return err('its value uses variables, which # @expect does not read');
  if (/^[=[{]/.test(expected)) return err('its value is not one word, number or text');
  const compare = COMPARE[predicate];
  const literal: Literal = { kind: 'string', value: expected };
  if (length)
    return compare !== undefined && /^\d{1,9}$/.test(expected)
      ? ok({ op: 'count', compare, n: Number(expected) })
      : err(`.length ${predicate} ${expected} has no counterpart`);
  if (compare === '==' || compare === '!=') return ok({ op: compare, value: literal });
  if (compare !== undefined)
    return NUMBER.test(expected)
      ? ok({ op: compare, value: { kind: 'json', text: expected } })
      : err(`${predicate} compares numbers`);
  if (predicate === 'startsWith') return ok({ op: 'startsWith', value: literal });
  if (predicate === 'contains' || predicate === 'includes') return ok({ op: 'contains', value: literal });
  if (predicate === 'matches') return ok({ op: 'matches', source: expected, flags: '' });
  return err(`${predicate} has no counterpart`);
}

/** The `# @expect` line (without `# @`) of one `??` line, or why it has none. */
export function httpYacAssert(line: string): Result<string, string> {
  const t = line.trim();
  if (t.length > MAX_LINE) return err(`it is longer than ${MAX_LINE} characters`);
  const parts = split(t);
  if (!parts) return err('it names no predicate httpYac knows');
  if (!(PREDICATES as readonly string[]).includes(parts.predicate))
    return err(`httpYac does not run ${parts.predicate}, written in other letters than its own`);
  if (parts.expected.startsWith('=')) return err('httpYac reads === and !== as == and != followed by =');
  if (parts.glued && /^[A-Za-z]/.test(parts.predicate)) return err(`${parts.predicate} runs into the word after it`);
  if (NO_COUNTERPART.has(parts.predicate)) return err(`${parts.predicate} has no counterpart`);
  const read = subject(parts.type, parts.value);
  if (!read)
    return err(
      `${`${parts.type} ${parts.value}`.trim()} is not the status, the duration, a header or a field of the body`,
    );
  const checked = test(parts.predicate, parts.expected, read.length === true);
  if (!checked.ok) return checked;
  if (checked.value.op === 'matches') {
    try {
      new RegExp(parts.expected, 'u');
    } catch {
      return err('its regular expression does not compile');
    }
  }
  return expectLine(read.subject, checked.value);
}
