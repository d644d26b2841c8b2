/**
 * State that the command line, the editor and a restart share: rate-limit counters, Retry-After
 * and ban deadlines, clock offsets. Kept as JSON in an OS-appropriate state folder, validated per
 * origin on load, changed under a lock file so that processes sending at once never lose each
 * other's updates, and written atomically. Holds no key: accounts are named by a hash of the API key.
 *
 * The gate fails closed: an origin whose entry cannot be read is marked damaged (and the whole
 * file when it cannot be read at all); the mark is written back and blocks sending until the user
 * resets it, so a lost ban or Retry-After wait is never lifted by accident.
 */
import { createHash } from 'node:crypto';
import { BOUNDS } from '../bounds';
import { LIMITS } from '../catalog/limits';
import { t } from '../l10n';
import * as z from '../zod-mini';
import { ok, type Result } from '../result';
import { LockedFile, type ReadText, type StateUnavailable } from './locked-file';
import { repeatedKeys } from './repeated-keys';
import { defaultStateDir } from './state-dir';

export { defaultStateDir } from './state-dir';

/** How far ahead of this machine's clock a time may lie: a clock set back a little does not damage the state. */
const FUTURE_SLACK_MS = 60 * 60_000;
/** What a reason of damage (shown in messages) may hold. */
const REASON_CHARS = 500;

// The schemas read what TradeReq does not write itself (plainFile, plainOriginState): made on first use.
const DamageSchema = z.onFirstUse(() =>
  z.object({ reason: z.string().check(z.maxLength(REASON_CHARS)), since: z.number() }),
);

/** The latest times of a file read at `now`: a little past `now`, and a block up to the longest ban past it. */
function latestTimes(now: number): { readonly at: number; readonly until: number } {
  return { at: now + FUTURE_SLACK_MS, until: now + LIMITS.ban.maxMs + FUTURE_SLACK_MS };
}

/**
 * An origin's entry, for a file read at `now`: weights are whole numbers of 0 or more and times lie
 * between the epoch and their latest (latestTimes), since a negative weight would open the budget
 * and a far-future time would hold forever.
 */
function originStateSchema(now: number) {
  const latest = latestTimes(now);
  const time = (max: number) => z.number().check(z.nonnegative(), z.lte(max));
  const at = time(latest.at);
  const entry = z.tuple([at, z.int().check(z.nonnegative())]);
  return z.object({
    /** [time ms, weight] of each request counted against the IP (§8: per IP for unsigned endpoints). */
    ip: z._default(z.array(entry), []),
    /** Per account (API key hash): [time ms, weight] (§8: per account for signed endpoints). */
    accounts: z._default(z.record(z.string(), z.array(entry)), {}),
    /** After a 429 or 418: no request to this origin until `until` (§8 rules 1–4). */
    blocked: z.optional(
      z.object({ until: time(latest.until), status: z.union([z.literal(429), z.literal(418)]), since: at }),
    ),
    /** The last measured offset of the server clock (see src/core/clock). */
    clock: z.optional(
      z.object({ offsetMs: z.number(), roundTripMs: z.number().check(z.nonnegative()), measuredAt: at }),
    ),
    /** This origin's entry could not be read: nothing is sent to it until it is reset. */
    damaged: z.optional(DamageSchema()),
  });
}

const StateFileSchema = z.onFirstUse(() =>
  z.object({
    version: z.literal(1),
    origins: z._default(z.record(z.string(), z.unknown()), {}),
    /** The file could not be read at all: nothing is sent anywhere until it is reset. */
    damaged: z.optional(DamageSchema()),
  }),
);

export type OriginState = z.infer<ReturnType<typeof originStateSchema>>;
export interface State {
  version: 1;
  origins: Record<string, OriginState>;
  damaged?: { reason: string; since: number };
}

type Entry = [number, number];
type Latest = ReturnType<typeof latestTimes>;

const isTime = (v: unknown, latest: number): v is number => typeof v === 'number' && v >= 0 && v <= latest;

/** A JSON object, as zod's object and record take it. */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
}

function plainEntries(v: unknown, latest: Latest): Entry[] | undefined {
  const valid =
    Array.isArray(v) &&
    v.every(
      (e) => Array.isArray(e) && e.length === 2 && isTime(e[0], latest.at) && Number.isSafeInteger(e[1]) && e[1] >= 0,
    );
  return valid ? (v as Entry[]) : undefined;
}

function plainAccounts(v: unknown, latest: Latest): Record<string, Entry[]> | undefined {
  if (!isPlainObject(v)) return undefined;
  const accounts: Record<string, Entry[]> = {};
  for (const [id, list] of Object.entries(v)) {
    // zod's record leaves a __proto__ member out: the schema decides.
    const entries = id === '__proto__' ? undefined : plainEntries(list, latest);
    if (!entries) return undefined;
    accounts[id] = entries;
  }
  return accounts;
}

function plainBlock(v: unknown, latest: Latest): OriginState['blocked'] {
  if (!isPlainObject(v) || !isTime(v['until'], latest.until) || !isTime(v['since'], latest.at)) return undefined;
  const status = v['status'];
  return status === 429 || status === 418 ? { until: v['until'], status, since: v['since'] } : undefined;
}

function plainClock(v: unknown, latest: Latest): OriginState['clock'] {
  if (!isPlainObject(v)) return undefined;
  const { offsetMs, roundTripMs, measuredAt } = v;
  const valid =
    typeof offsetMs === 'number' &&
    Number.isFinite(offsetMs) &&
    isTime(roundTripMs, Number.MAX_VALUE) &&
    isTime(measuredAt, latest.at);
  return valid ? { offsetMs, roundTripMs, measuredAt } : undefined;
}

/** The file's top level as TradeReq writes it, read without zod as StateFileSchema reads it; else undefined. */
function plainFile(raw: unknown): { origins: Record<string, unknown>; damaged?: undefined } | undefined {
  if (!isPlainObject(raw) || raw['version'] !== 1 || raw['damaged'] !== undefined) return undefined;
  const origins = raw['origins'] === undefined ? {} : raw['origins'];
  return isPlainObject(origins) ? { origins } : undefined;
}

/**
 * An origin's entry as TradeReq writes it, read without zod: a send reads the state four times,
 * each holding dozens of origins, and zod's parse of them cost every run milliseconds. It
 * takes only what originStateSchema takes and gives what it gives (its fields in its order, unknown
 * ones left out); anything else (damage, a value out of bounds or of another type) is undefined,
 * for the schema to decide and word.
 */
function plainOriginState(value: unknown, now: number): OriginState | undefined {
  if (!isPlainObject(value) || value['damaged'] !== undefined) return undefined;
  const latest = latestTimes(now);
  const { ip, accounts, blocked, clock } = value;
  const state = {
    ip: ip === undefined ? [] : plainEntries(ip, latest),
    accounts: accounts === undefined ? {} : plainAccounts(accounts, latest),
    blocked: blocked === undefined ? undefined : plainBlock(blocked, latest),
    clock: clock === undefined ? undefined : plainClock(clock, latest),
  };
  if (
    !state.ip ||
    !state.accounts ||
    (blocked !== undefined && !state.blocked) ||
    (clock !== undefined && !state.clock)
  )
    return undefined;
  // As zod gives it: an optional field that is absent is not there at all.
  return {
    ip: state.ip,
    accounts: state.accounts,
    ...(state.blocked && { blocked: state.blocked }),
    ...(state.clock && { clock: state.clock }),
  };
}

function emptyState(): State {
  return { version: 1, origins: {} };
}

/**
 * `record[key]` when the record has it as its own: an origin or account named `constructor` or
 * `toString` is not the member every object inherits.
 */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Sets `record[key]` as its own member (`__proto__` too, which assignment would take for the prototype). */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): T {
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  return value;
}

/** The entry of `origin` (a state key), made empty when there is none. */
export function originState(state: State, origin: string): OriginState {
  return own(state.origins, origin) ?? setOwn(state.origins, origin, { ip: [], accounts: {} });
}

/** Damage of an origin whose entry cannot be read as it stands. */
function damagedEntry(reason: string, now: number): OriginState {
  return { ip: [], accounts: {}, damaged: { reason, since: now } };
}

/**
 * The keys written twice in the file: any outside an origin's entry damages the whole file, and
 * one of an origin (its name, or a key of its entry) damages that origin (JSON.parse would keep the
 * last silently: a ban followed by an empty entry of the same origin would lift the ban).
 */
function writtenTwice(text: string): { readonly whole?: string; readonly origins: ReadonlyMap<string, string> } {
  const origins = new Map<string, string>();
  for (const path of repeatedKeys(text)) {
    const [top, origin, ...inside] = path;
    if (top !== 'origins' || origin === undefined) return { whole: path.join('.'), origins };
    origins.set(origin, inside.length === 0 ? 'its entry' : inside.join('.'));
  }
  return { origins };
}

/** The file's top level: as TradeReq writes it (plainFile), else as zod reads it, with the origins as written. */
function fileShape(raw: unknown): { origins: Record<string, unknown>; damaged?: State['damaged'] } | undefined {
  const plain = plainFile(raw);
  if (plain) return plain;
  const parsed = StateFileSchema().safeParse(raw).data;
  // zod's record leaves a __proto__ member out: the origins are those of the text.
  const origins = (raw as { origins?: Record<string, unknown> }).origins ?? {};
  return parsed && { origins, damaged: parsed.damaged };
}

/** The state from the file's text: each origin validated on its own, damage marked rather than dropped. */
function parseState(text: string, now: number): State {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ...emptyState(), damaged: { reason: 'the file is not valid JSON (truncated?)', since: now } };
  }
  const shape = fileShape(raw);
  if (!shape) return { ...emptyState(), damaged: { reason: 'the file does not have the expected shape', since: now } };
  // Text JSON.stringify wrote as it reads back (TradeReq's own) names no key twice: the scan is for the rest.
  const twice = JSON.stringify(raw) === text ? { origins: new Map<string, string>() } : writtenTwice(text);
  if (twice.whole !== undefined)
    return { ...emptyState(), damaged: { reason: `a key is written twice in it (${twice.whole})`, since: now } };
  const state: State = { version: 1, origins: {}, damaged: shape.damaged };
  const OriginStateSchema = z.onFirstUse(() => originStateSchema(now));
  for (const [origin, value] of Object.entries(shape.origins)) {
    const repeated = twice.origins.get(origin);
    const entry =
      repeated !== undefined
        ? damagedEntry(`${repeated} is written twice in the file`, now)
        : (plainOriginState(value, now) ?? validOriginState(OriginStateSchema(), value, now));
    // Another spelling of one origin (as an older TradeReq keyed it) joins its entry: a ban is never dropped.
    const key = stateKey(origin);
    const kept = own(state.origins, key);
    setOwn(state.origins, key, kept ? mergeOrigins(kept, entry) : entry);
  }
  return state;
}

/** The entry as originStateSchema reads it; one that does not validate is damaged, with zod's first issue. */
function validOriginState(schema: ReturnType<typeof originStateSchema>, value: unknown, now: number): OriginState {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : damagedEntry(`its entry does not validate (${issueText(parsed.error)})`, now);
}

/** Two entries of one origin as one, in `a`: every counted request, the later block and clock, any damage. */
function mergeOrigins(a: OriginState, b: OriginState): OriginState {
  // Pushed in place: a hostile file may spell one origin many times, and copying each time is quadratic.
  for (const e of b.ip) a.ip.push(e);
  for (const [id, entries] of Object.entries(b.accounts)) {
    const into = own(a.accounts, id) ?? setOwn(a.accounts, id, []);
    for (const e of entries) into.push(e);
  }
  if (b.blocked && (!a.blocked || b.blocked.until > a.blocked.until)) a.blocked = b.blocked;
  if (b.clock && (!a.clock || b.clock.measuredAt > a.clock.measuredAt)) a.clock = b.clock;
  a.damaged ??= b.damaged;
  return a;
}

function issueText(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'entry'}: ${issue.message}` : 'invalid';
}

export type { StateUnavailable } from './locked-file';

export function unavailableMessage(u: StateUnavailable): string {
  return t('the rate-limit state cannot be kept in {0} ({1})', u.location, u.reason);
}

/** Storage of the state; a test or the editor can pass its own. */
export interface StateStore {
  /** Where the state lives, for messages ("/home/u/.local/state/tradereq/state.json"). */
  readonly location: string;
  read(): State;
  /**
   * Reads the latest state, applies `change`, writes it back, and returns what `change` returned,
   * with no other process in between (waiting for another's lock without blocking the thread); or
   * why the state cannot be kept.
   */
  update<T>(change: (state: State) => T): Promise<Result<T, StateUnavailable>>;
}

export class MemoryStateStore implements StateStore {
  readonly location = 'memory';
  private state = emptyState();
  read(): State {
    return structuredClone(this.state);
  }
  update<T>(change: (state: State) => T): Promise<Result<T, StateUnavailable>> {
    return Promise.resolve(ok(change(this.state)));
  }
}

export class FileStateStore implements StateStore {
  private readonly file: LockedFile;

  constructor(
    readonly dir: string = defaultStateDir(),
    private readonly now: () => number = Date.now,
  ) {
    this.file = new LockedFile(dir, 'state.json');
  }

  get path(): string {
    return this.file.path;
  }

  get location(): string {
    return this.file.path;
  }

  read(): State {
    return this.stateOf(this.file.read(BOUNDS.stateFileBytes));
  }

  update<T>(change: (state: State) => T): Promise<Result<T, StateUnavailable>> {
    return this.file.updateAsync(() => this.changed(change));
  }

  /** Under the lock: the latest state, changed, and its new text (none when it is the same again: no write, no rename). */
  private changed<T>(change: (state: State) => T): { text: string | undefined; result: T } {
    const before = this.file.read(BOUNDS.stateFileBytes);
    const state = this.stateOf(before);
    const result = change(state);
    const text = JSON.stringify(state);
    return { text: before.ok && before.value === text ? undefined : text, result };
  }

  private stateOf(text: ReadText): State {
    if (!text.ok) return { ...emptyState(), damaged: { reason: text.error, since: this.now() } };
    return text.value === undefined ? emptyState() : parseState(text.value, this.now());
  }
}

/** Names an account in the state without storing its API key. */
export function accountId(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
}

/**
 * This machine, as WHATWG URL writes a host (it already reads 127.1, 2130706433 and 0x7f.1 as
 * 127.0.0.1, and lower-cases names): localhost and its subdomains (RFC 6761), 127.0.0.0/8,
 * 0.0.0.0, [::1], [::] and IPv4-mapped loopback ([::ffff:127.0.0.1] is written [::ffff:7f00:1]).
 */
const LOOPBACK_HOST =
  /^(?:(?:[^.]+\.)*localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\]|\[::ffff:(?:7f[0-9a-f]{2}:[0-9a-f]{1,4}|0:0)\])$/;

/**
 * The key of an origin in the state: every spelling of this machine on one port is one server
 * (127.0.0.1), so one budget and one ban, and a name with its trailing dot is the name without it.
 * Other aliases (a LAN address, a hosts-file name) are distinct.
 */
export function stateKey(origin: string): string {
  try {
    const u = new URL(origin);
    const host = u.hostname.endsWith('.') ? u.hostname.slice(0, -1) : u.hostname;
    if (!LOOPBACK_HOST.test(host)) {
      if (host !== u.hostname && host.length > 0) u.hostname = host;
      return u.origin;
    }
    const port = u.port || (u.protocol === 'https:' || u.protocol === 'wss:' ? '443' : '80');
    return `${u.protocol}//127.0.0.1:${port}`;
  } catch {
    return origin;
  }
}
