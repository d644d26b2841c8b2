/**
 * The signature doctor's shapes: what a program sent, the keys to check it against, and the
 * diagnosis. Cause ids are stable: scripts and tests read them from `tradereq doctor --json`.
 */
import type { CodeLanguage } from '../codegen/program-model';
import type { Deployment } from '../catalog/deployment';

/** Every cause the doctor can name, in the order it tries them (a secret sent named first); `none` and `unknown` last. */
export const CAUSE_IDS = [
  'secret-sent',
  'signature-missing',
  'signature-uppercase',
  'ampersand-join',
  'body-reserialised',
  'order-differs',
  'encoding-lowercase',
  'encoding-missing',
  'message-newline',
  'signature-included',
  'json-vs-form',
  'secret-whitespace',
  'wrong-secret',
  'timestamp-seconds',
  'clock-window',
  'recv-window',
  'api-key-header',
  'query-overrides-body',
  'none',
  'unknown',
] as const;

export type CauseId = (typeof CAUSE_IDS)[number];

/** One header as the program sent it. */
export interface SentHeader {
  readonly name: string;
  readonly value: string;
}

/** Where the doctor read the request from (`python`: http.client's `send: b'...'` lines). */
type SentForm = 'curl' | 'http' | 'python' | 'url' | 'tradereq';

/** What the text says of the answer the request got, read after the request. */
export interface AnswerSeen {
  /** The HTTP status of its status line: a 2xx means the service accepted the request. */
  readonly status?: number;
  /** Its Date header as written (the server's clock, whole seconds; answer-time.ts reads it). */
  readonly date?: string;
}

/** What a program sent, read from the user's text (or from TradeReq's own send). */
export interface SentRequest {
  /** Upper-case. */
  readonly method: string;
  /** Scheme, host and path, without the query string. */
  readonly url: string;
  /** The query string exactly as sent, without "?": never decoded or re-encoded. */
  readonly query: string;
  /** The body exactly as sent. */
  readonly body: string;
  readonly headers: readonly SentHeader[];
  readonly form: SentForm;
  /** An error code found in the text beside the request (a logged answer), if any. */
  readonly code?: number;
  /** The answer's status line and Date header, when the text holds them after the request. */
  readonly answer?: AnswerSeen;
}

/**
 * When the request was answered, by this machine's clock: the time the user gives (`--at`), or the
 * time of a send in the editor's history. `ms` is the start of a reading `resolutionMs` wide (1000
 * for a time given to the second).
 */
export interface GivenTime {
  readonly ms: number;
  readonly resolutionMs: number;
  readonly from: 'user' | 'history';
}

/** A key profile to check against. The secret is used for HMACs and nothing else. */
export interface DoctorKey {
  readonly profile: string;
  readonly apiKey: string;
  readonly secretKey: string;
}

/** The server's clock as measured now (a clock/clock.ts ClockSample fits). */
export interface ServerClock {
  /** serverTime − this machine's time. Positive: the server is ahead. */
  readonly offsetMs: number;
}

export interface DoctorInput {
  readonly sent: SentRequest;
  readonly key: DoctorKey;
  /** Other profiles known to the shell (other environments' keys, the sandbox's demo keys). */
  readonly otherKeys: readonly DoctorKey[];
  /** Absent when the server time could not be measured; the local clock stands in, and the report says so. */
  readonly clock?: ServerClock;
  /**
   * This machine's clock now (ms): only a bound (the request was answered before now), never the
   * time the timestamp is judged at; that is the answer's (`at`, else `answer.date`).
   */
  readonly now: number;
  /** What is known of the answer: its status (2xx: accepted) and Date header. */
  readonly answer?: AnswerSeen;
  /** When the request was answered by this machine's clock; given by the user, it wins over the Date header. */
  readonly at?: GivenTime;
  /** The error code the program got, from `--code` or the text. */
  readonly code?: number;
  /** The header that carries the API key, when the environment names another than X-SERVICE-APIKEY. */
  readonly apiKeyHeader?: string;
  /** True when TradeReq itself signed the request (the panel's "Why?"). */
  readonly sentByTradeReq?: boolean;
  /** The environment's deployment, when the shell knows it; else the URL's host says (catalog/deployment.ts deploymentOfUrl). */
  readonly deployment?: Deployment;
}

/** One thing the doctor checked, and what it found. */
export interface DoctorCheck {
  readonly id: CauseId;
  readonly ok: boolean;
  readonly text: string;
  /** A finding that cannot be decided from what is known (no time of the answer): said as a possibility, never a cause. */
  readonly possible?: true;
}

/** What the program signed next to what it should have signed, with where they first differ. */
export interface SignedComparison {
  /** What the program signed (credentials masked); absent when no variant reproduced it. */
  readonly signed?: string;
  /** The totalParams the service computes from what was sent (credentials masked). */
  readonly expected: string;
  /** The differing stretch: [start, signedEnd) of `signed` against [start, expectedEnd) of `expected`. */
  readonly difference?: { readonly start: number; readonly signedEnd: number; readonly expectedEnd: number };
}

export interface Diagnosis {
  /** The first cause found; `none` when the request is right, `unknown` when no variant reproduces the signature. */
  readonly cause: CauseId;
  /** Every cause found, `cause` first (a message mistake and a key mistake may come together). */
  readonly causes: readonly CauseId[];
  /** One sentence: what went wrong. */
  readonly summary: string;
  readonly comparison: SignedComparison;
  /** The fix in words. */
  readonly fix: string;
  /** The fix as code in the languages of Copy as Code; empty when nothing is to be fixed. */
  readonly snippets: Partial<Readonly<Record<CodeLanguage, string>>>;
  /** Everything checked, in order: what `unknown` reports as "what was checked". */
  readonly checks: readonly DoctorCheck[];
  /** What the given error code most likely means here, when one was given. */
  readonly codeNote?: string;
}
