/**
 * Masks what changes from one answer to the next though nothing went wrong: the ids and times the
 * service assigns (docs/service.md, Answers) and the paths of `# @mask` lines, each replaced by a
 * readable placeholder ("<orderId>"), so that two answers to one request compare equal when only
 * those differ. Credentials (a listen key, the API key) are always replaced, whole or inside a
 * text, member names included. Snapshots and the comparison of two answers use it.
 * Pure; an answer is hostile, so it is walked without recursion.
 */
import { credentialsIn, isCredentialField } from '../format/credentials';
import { readMaskPath } from '../format/directives';

export interface MaskOptions {
  /** `# @mask` paths: `orderId`, `fills[*].tradeId`, `[*].orderId`; `[*]` (or `.*`) is every element of a list. */
  readonly paths?: readonly string[];
  /** The built-in rules for the service's volatile fields (VOLATILE_FIELDS); on unless false. */
  readonly builtIn?: boolean;
  /**
   * What the request sent (its parameters' values, its JSON body): a client order id found there
   * as a whole word is the request's own choice, not the service's, and is kept.
   */
  readonly sent?: readonly string[];
  /** Credentials to hide wherever they occur (the API key): `{ name: 'apiKey', value }` gives "<apiKey>". */
  readonly secrets?: readonly { readonly name: string; readonly value: string }[];
}

export interface Masked {
  /** A copy of the value, every masked value replaced by its placeholder. */
  readonly value: unknown;
  /** The paths masked ("orderId", "fills[0].tradeId", "[2].orderId"), in the order found; at most MAX_PATHS. */
  readonly paths: readonly string[];
}

/** Masked paths listed at most; a list of 20,000 orders masks more, uncounted. */
const MAX_PATHS = 1_000;
/** A credential shorter than this is not looked for inside texts: it would cut up ordinary words. */
const MIN_SECRET_CHARS = 4;

const isTimestamp = (v: unknown): boolean =>
  (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && /^\d{1,20}$/.test(v));
const isId = (v: unknown): boolean => typeof v === 'number' || (typeof v === 'string' && v.length > 0);

/**
 * The built-in rules: member name → whether its value (at any depth) is volatile. Times are Unix
 * milliseconds; ids are given by the service per order, trade or transfer (orderListId only when
 * the order is part of a list: -1 otherwise). A client order id is volatile only when the service
 * made it up, i.e. the request did not send it (see `sent`). Prices and balances are left to
 * `# @mask`: masking them by default would hide the changes a snapshot is for.
 */
const VOLATILE_FIELDS: ReadonlyMap<string, (v: unknown, sent: (v: string) => boolean) => boolean> = new Map([
  ['transactTime', isTimestamp],
  ['time', isTimestamp],
  ['updateTime', isTimestamp],
  ['workingTime', isTimestamp],
  ['serverTime', isTimestamp],
  ['orderId', isId],
  ['tradeId', isId],
  ['tranId', isId],
  ['orderListId', (v: unknown) => isId(v) && String(v) !== '-1'],
  ['clientOrderId', (v: unknown, sent: (v: string) => boolean) => isId(v) && !sent(String(v))],
  ['origClientOrderId', (v: unknown, sent: (v: string) => boolean) => isId(v) && !sent(String(v))],
]);

/** "<orderId>": what a masked value becomes. */
export function placeholder(name: string): string {
  return `<${name}>`;
}

/** A member name (a list's index as its digits), or null: every element of a list. */
type Segment = string | null;

/** `fills[*].tradeId` → ['fills', null, 'tradeId']; undefined when it is not a path. */
function parsePath(path: string): Segment[] | undefined {
  return readMaskPath(path)?.map((step) => (typeof step === 'string' ? step : null));
}

/** Whether one segment of a `# @mask` path takes the member `key` (a list's index, or an object's name). */
function takes(segment: Segment, key: string | number): boolean {
  return segment === null ? typeof key === 'number' : segment === String(key);
}

/** The placeholder of a `# @mask` path: its last member name ("<tradeId>"), else "<masked>". */
function pathPlaceholder(segments: readonly Segment[]): string {
  const names = segments.filter((s): s is string => typeof s === 'string');
  return placeholder(names[names.length - 1] ?? 'masked');
}

/** Where a member stands: its key, under its parent's place (written out only when it is masked). */
interface Place {
  readonly up?: Place;
  readonly key: string | number;
}

const NO_STATES: readonly (readonly [number, number])[] = [];

interface Frame {
  readonly value: unknown;
  readonly put: (value: unknown) => void;
  readonly at?: Place;
  /** Progress along each `# @mask` path that leads here: [path index, segments matched]. */
  readonly states: readonly (readonly [number, number])[];
  /** Its placeholder, when it is masked whole. */
  readonly mask?: string;
}

/** A copy of `json` with its volatile fields, `# @mask` paths and credentials masked, and the paths masked. */
export function maskVolatile(json: unknown, options: MaskOptions = {}): Masked {
  const patterns = (options.paths ?? []).map(parsePath).filter((p): p is Segment[] => p !== undefined);
  const rules: Rules = {
    patterns,
    secrets: secretsOf(json, options),
    sent: sentWords(options.sent ?? []),
    builtIn: options.builtIn !== false,
  };
  const paths: string[] = [];
  let result: unknown;
  const stack: Frame[] = [{ value: json, put: (v) => (result = v), states: patterns.map((_, i) => [i, 0] as const) }];
  // Depth first, members in order: the paths masked are listed as they stand in the answer.
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const { value, put, mask } = frame;
    if (mask !== undefined) {
      put(mask);
      if (paths.length < MAX_PATHS) paths.push(pathText(frame.at));
    } else if (value === null || typeof value !== 'object') put(typeof value === 'string' ? hide(value, rules) : value);
    else {
      // One by one, last first: a list may hold more members than the stack holds arguments.
      const members = children(frame, value, rules);
      for (let i = members.length - 1; i >= 0; i--) stack.push(members[i]!);
    }
  }
  return { value: result, paths };
}

interface Rules {
  readonly patterns: readonly Segment[][];
  readonly secrets: readonly { readonly name: string; readonly value: string }[];
  readonly sent: (value: string) => boolean;
  readonly builtIn: boolean;
}

/** The members of a list or an object as frames, in order, each with its placeholder when masked; their copy made. */
function children({ put, at, states }: Frame, value: object, rules: Rules): Frame[] {
  const list = Array.isArray(value);
  const target = (list ? [] : {}) as Record<string | number, unknown>;
  put(target);
  const entries: [string | number, unknown][] = list ? value.map((v, i) => [i, v]) : Object.entries(value);
  const frames: Frame[] = [];
  for (const [key, child] of entries) {
    const name = typeof key === 'number' ? key : hide(key, rules);
    const next =
      states.length === 0
        ? NO_STATES
        : states.filter(([i, n]) => takes(rules.patterns[i]![n]!, key)).map(([i, n]) => [i, n + 1] as const);
    const mask = maskOf(key, child, next, rules);
    // Set now, in order, so the copy keeps the members' order whatever order the frames are taken in.
    setMember(target, name, typeof child === 'string' ? hide(child, rules) : child);
    if (mask === undefined && (child === null || typeof child !== 'object')) continue;
    frames.push({
      value: child,
      put: (v: unknown) => setMember(target, name, v),
      at: { up: at, key: name },
      states: next,
      mask,
    });
  }
  return frames;
}

/** Sets a member; one named "__proto__" (JSON.parse makes it an own member) stays a member instead of setting the prototype. */
function setMember(target: Record<string | number, unknown>, name: string | number, value: unknown): void {
  if (name === '__proto__')
    Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  else target[name] = value;
}

/** "fills[0].tradeId": a place as a path. */
function pathText(at: Place | undefined): string {
  const keys: (string | number)[] = [];
  for (let p = at; p !== undefined; p = p.up) keys.push(p.key);
  let text = '';
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i]!;
    text += typeof key === 'number' ? `[${key}]` : text === '' ? key : `.${key}`;
  }
  return text;
}

/** The placeholder of a member masked whole: by a `# @mask` path, as a credential, or by a built-in rule. */
function maskOf(
  key: string | number,
  value: unknown,
  states: readonly (readonly [number, number])[],
  rules: Rules,
): string | undefined {
  const whole = states.find(([i, at]) => at === rules.patterns[i]!.length);
  if (whole) return pathPlaceholder(rules.patterns[whole[0]]!);
  if (typeof key === 'number' || (value !== null && typeof value === 'object')) return undefined;
  if (isCredentialField(key)) return placeholder(key);
  return rules.builtIn && VOLATILE_FIELDS.get(key)?.(value, rules.sent) ? placeholder(key) : undefined;
}

/** The credentials to hide: those given, and those the answer itself holds (a listen key). */
function secretsOf(json: unknown, options: MaskOptions): { readonly name: string; readonly value: string }[] {
  const found = credentialsIn(json).map((value) => ({ name: 'listenKey', value }));
  // The longest first: a credential that holds another is replaced whole.
  return [...(options.secrets ?? []), ...found]
    .filter((s) => s.value.length >= MIN_SECRET_CHARS)
    .sort((a, b) => b.value.length - a.value.length);
}

/** `text` with every credential replaced by its placeholder. */
function hide(text: string, { secrets }: Rules): string {
  let out = text;
  for (const s of secrets) if (out.includes(s.value)) out = out.split(s.value).join(placeholder(s.name));
  return out;
}

/** Whether a value occurs in what the request sent as a whole word (not inside a longer id). */
function sentWords(sent: readonly string[]): (value: string) => boolean {
  const word = /[A-Za-z0-9_-]/;
  return (value) =>
    value.length > 0 &&
    sent.some((text) => {
      for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) {
        const before = text[at - 1];
        const after = text[at + value.length];
        if ((before === undefined || !word.test(before)) && (after === undefined || !word.test(after))) return true;
      }
      return false;
    });
}
