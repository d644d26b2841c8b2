/**
 * When the request was answered: the time its timestamp is judged at (§5 rule 9), never the moment
 * of diagnosis. From the answer pasted after the request (its status line and Date header), from
 * the time of a send in the history, or from the time the user gives (`tradereq doctor --at`).
 */
import * as z from '../zod-mini';
import { lineFrom } from './input-common';
import type { AnswerSeen, DoctorInput, GivenTime } from './types';

/** An HTTP-date as servers write it (RFC 9110 IMF-fixdate): whole seconds. */
const IMF_FIXDATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** A Date header's width: it says the second, the server's time lay somewhere in it. */
const DATE_RESOLUTION_MS = 1_000;

/** The ms of an HTTP-date, or undefined when it is not one (a hostile header: strictly the one form, and a real day). */
function httpDateMs(value: string): number | undefined {
  const text = value.trim();
  if (!IMF_FIXDATE.test(text)) return undefined;
  const ms = Date.parse(text);
  // Date.parse rolls 31 Feb over into March: the day written must be the day read.
  return Number.isFinite(ms) && new Date(ms).toUTCString() === text ? ms : undefined;
}

/** A status line: `HTTP/1.1 200 OK`, curl -v's `< HTTP/2 200`, http.client's `reply: 'HTTP/1.1 200 OK\r\n'`. */
const STATUS_LINE = /^(?:< |reply: ['"])?HTTP\/\d(?:\.\d)? (\d{3})(?:[ '"\\]|$)/;
/** A header of the answer: as written, after curl -v's `< `, or after http.client's `header: `. */
const ANSWER_HEADER = /^(?:< |header: )?([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*)$/;

/** The header lines after a status line at `from`, up to the first line that is none: the Date's value. */
function dateAfter(text: string, from: number): string | undefined {
  for (let line = lineFrom(text, from); line !== undefined; line = lineFrom(text, line.next)) {
    const m = ANSWER_HEADER.exec(line.text.trimStart());
    if (m === null) return undefined;
    if (m[1]!.toLowerCase() === 'date') return m[2]!.trim();
  }
  return undefined;
}

/**
 * The answer in the text after a request: its first final status line (1xx are interim) and the
 * Date header among the lines right after it; undefined when no status line follows the request.
 */
export function readAnswer(after: string): AnswerSeen | undefined {
  for (let line = lineFrom(after, 0); line !== undefined; line = lineFrom(after, line.next)) {
    const m = STATUS_LINE.exec(line.text.trimStart());
    if (m === null || m[1]!.startsWith('1')) continue;
    const date = dateAfter(after, line.next);
    return { status: Number(m[1]), ...(date !== undefined ? { date } : {}) };
  }
  return undefined;
}

const ISO_8601 = z.iso.datetime({ offset: true, local: true });

/**
 * A time the user gives for when the request was answered: epoch milliseconds, or ISO 8601 with a
 * time of day (an offset or Z; without one, this machine's time zone). Its width is what it writes:
 * a minute, a second, or the fraction given. Undefined when it is neither.
 */
export function givenTime(text: string): GivenTime | undefined {
  if (/^\d{1,15}$/.test(text)) return { ms: Number(text), resolutionMs: 1, from: 'user' };
  if (!z.safeParse(ISO_8601, text).success) return undefined;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) return undefined;
  const clock = /T\d{2}:\d{2}(:\d{2})?(?:\.(\d+))?/.exec(text)!;
  const digits = Math.min(3, clock[2]?.length ?? 0);
  const resolutionMs = clock[1] === undefined ? 60_000 : clock[2] === undefined ? 1_000 : 10 ** (3 - digits);
  return { ms, resolutionMs, from: 'user' };
}

/** When the request was answered, by the server's clock: somewhere in [from, to], and who says so. */
export interface AnswerWindow {
  readonly from: number;
  readonly to: number;
  readonly by: 'user' | 'history' | 'date';
}

/**
 * The time the timestamp is judged at: the time the user gave, else the answer's Date header (the
 * server's own clock), else the history's time of the send; a time by this machine's clock has the
 * measured offset added. Undefined when none is known.
 */
export function answeredWhen(input: DoctorInput): AnswerWindow | undefined {
  const date = input.answer?.date === undefined ? undefined : httpDateMs(input.answer.date);
  const at = input.at;
  if (at !== undefined && (at.from === 'user' || date === undefined)) {
    const from = at.ms + (input.clock?.offsetMs ?? 0);
    return { from, to: from + Math.max(1, at.resolutionMs) - 1, by: at.from };
  }
  if (date !== undefined) return { from: date, to: date + DATE_RESOLUTION_MS - 1, by: 'date' };
  return undefined;
}

/** A 2xx answer: the service accepted the request, signature and timestamp alike. */
export function acceptedStatus(input: DoctorInput): number | undefined {
  const status = input.answer?.status;
  return status !== undefined && status >= 200 && status < 300 ? status : undefined;
}
