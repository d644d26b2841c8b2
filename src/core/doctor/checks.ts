/**
 * The rest of §5 and §4.1, checked whatever the signature: the timestamp's unit, and its window at
 * the time the request was answered (answer-time.ts), recvWindow, the API key header, where parameters were placed.
 */
import { shown } from '../convert/common';
import { API_KEY_FORMAT, isBatchEndpoint } from '../catalog/endpoints';
import { LIMITS, MILLISECOND_TIMESTAMP_MIN } from '../catalog/limits';
import { maskApiKey } from '../env/keys';
import { looseEncoding } from '../signing/total-params';
import { acceptedStatus, answeredWhen, type AnswerWindow } from './answer-time';
import { secretCheck, type SentSecrets } from './secret-sent';
import type { DoctorCheck, DoctorInput } from './types';
import { headerValue, type Wire } from './wire';

const INTEGER = /^\d{1,16}$/;

function pass(id: DoctorCheck['id'], text: string): DoctorCheck {
  return { id, ok: true, text };
}

function fail(id: DoctorCheck['id'], text: string): DoctorCheck {
  return { id, ok: false, text };
}

/** How far apart two times are, in words. */
function span(ms: number): string {
  const a = Math.abs(ms);
  if (a < 2_000) return `${a} ms`;
  if (a < 120_000) return `${Math.round(a / 1000)} s`;
  if (a < 7_200_000) return `${Math.round(a / 60_000)} min`;
  return `${Math.round(a / 3_600_000)} h`;
}

function recvWindowOf(w: Wire, hide: (text: string) => string): number | DoctorCheck {
  const rw = w.values.get('recvWindow');
  if (rw === undefined) return LIMITS.recvWindow.defaultMs;
  if (!INTEGER.test(rw))
    return fail('recv-window', `recvWindow ${shown(hide(rw))} is not a whole number of milliseconds (§5 rule 8).`);
  const n = Number(rw);
  if (n > LIMITS.recvWindow.maxMs || n === 0)
    return fail(
      'recv-window',
      `recvWindow ${rw} is outside 1 to ${LIMITS.recvWindow.maxMs} ms: the service answers 700005 (§5 rule 8).`,
    );
  return n;
}

function clockNote(input: DoctorInput): string {
  if (input.clock === undefined) return " (the server's time could not be measured, so this machine's clock stands in)";
  const offset = -input.clock.offsetMs;
  const way = offset >= 0 ? 'ahead of' : 'behind';
  return `; this machine's clock is ${span(offset)} ${way} the server's`;
}

function possible(text: string): DoctorCheck {
  return { id: 'clock-window', ok: false, text, possible: true };
}

const STALE =
  'If the program signed it just before sending, the clock that made it is behind or the request waited; if it was signed long ago (a request from a log), it cannot be sent again: sign anew.';

/** Who says when the request was answered, in words, with the offset added to a time by this machine's clock. */
function answeredBy(when: AnswerWindow, input: DoctorInput): string {
  if (when.by === 'date') return "by the answer's Date header, the server's clock to the second";
  const who = when.by === 'user' ? 'the time given with --at' : 'the time of the send in the history';
  return `by ${who}${clockNote(input)}`;
}

/** §5 rule 9 against the time the request was answered: asserted only where the whole width of that time agrees. */
function windowAt(t: number, recvWindow: number, when: AnswerWindow, input: DoctorInput): DoctorCheck {
  const by = `when it was answered (${answeredBy(when, input)})`;
  const gap = t - when.from;
  const words = `${span(gap)} ${gap > 0 ? 'ahead of' : 'behind'} the server's time ${by}`;
  if (t - when.to >= LIMITS.timestampAheadMs)
    return fail('clock-window', `timestamp is ${words}; the service refuses 1 s ahead or more (§5 rule 9).`);
  if (when.from - t > recvWindow)
    return fail('clock-window', `timestamp is ${words}, beyond recvWindow ${recvWindow} ms (§5 rule 9). ${STALE}`);
  if (input.code === 700003)
    return fail(
      'clock-window',
      `The service answered 700003 (timestamp outside recvWindow), though timestamp is ${words}: that time is not the answer's, or the clocks differ (§5 rule 9).`,
    );
  // The Date's second (or the width of the time given) spans both sides of a bound: it may be either.
  if (t - when.from >= LIMITS.timestampAheadMs || when.to - t > recvWindow)
    return possible(
      `timestamp is ${words}: within the window or outside it, as that time is known only to within ${span(when.to - when.from + 1)} (§5 rule 9).`,
    );
  return pass(
    'clock-window',
    `timestamp is within the window of the server's time ${by} (${span(gap)} ${gap > 0 ? 'ahead' : 'behind'}).`,
  );
}

/** §5 rule 9 without the time of the answer: now bounds it (the request was answered before), nothing more. */
function windowUnknown(t: number, recvWindow: number, input: DoctorInput): DoctorCheck {
  const server = input.now + (input.clock?.offsetMs ?? 0);
  const note = clockNote(input);
  const ahead = t - server;
  if (ahead >= LIMITS.timestampAheadMs)
    return fail(
      'clock-window',
      `timestamp is ${span(ahead)} ahead of the server's time now, so it was ahead when it was answered too: the service refuses 1 s ahead or more (§5 rule 9)${note}.`,
    );
  if (input.code === 700003)
    return fail(
      'clock-window',
      `The service answered 700003: the timestamp was outside recvWindow ${recvWindow} ms of the server's time when the request arrived (§5 rule 9). ${STALE}`,
    );
  if (-ahead > recvWindow)
    return possible(
      `timestamp is ${span(ahead)} behind the server's time now${note}. No time of the answer is known: if it was sent more than recvWindow (${recvWindow} ms) after its timestamp, the service refused it with 700003 (§5 rule 9); the answer's Date header (curl -v shows it) or tradereq doctor --at would tell.`,
    );
  return pass(
    'clock-window',
    `timestamp is within recvWindow of the server's time now, so it was not too old when it was answered${note}.`,
  );
}

/** §5 rule 9 at the time the request was answered; an answer 2xx says the service took it. */
function windowCheck(t: number, recvWindow: number, input: DoctorInput): DoctorCheck {
  const accepted = acceptedStatus(input);
  if (accepted !== undefined)
    return pass(
      'clock-window',
      `The service accepted the request (HTTP ${accepted}): its timestamp was within the window when it was answered (§5 rule 9).`,
    );
  const when = answeredWhen(input);
  return when === undefined ? windowUnknown(t, recvWindow, input) : windowAt(t, recvWindow, when, input);
}

/** §5 rules 7 and 9: a millisecond timestamp, within the window of the server's time when it was answered. */
function timestampChecks(w: Wire, input: DoctorInput, hide: (text: string) => string): DoctorCheck[] {
  const ts = w.values.get('timestamp');
  const rw = recvWindowOf(w, hide);
  const window =
    typeof rw === 'number' ? [pass('recv-window', `recvWindow ${rw} ms is within bounds (§5 rule 8).`)] : [rw];
  if (ts === undefined)
    return [fail('clock-window', 'No timestamp was sent: a signed request needs one (§5 rule 7).'), ...window];
  if (!INTEGER.test(ts))
    return [
      fail('timestamp-seconds', `timestamp ${shown(hide(ts))} is not a whole number of milliseconds (§5 rule 7).`),
      ...window,
    ];
  const t = Number(ts);
  if (t < MILLISECOND_TIMESTAMP_MIN)
    return [
      fail(
        'timestamp-seconds',
        `timestamp ${ts} is in seconds, not milliseconds (§5 rule 7): the service reads it as 1970.`,
      ),
      ...window,
    ];
  const unit = pass('timestamp-seconds', `timestamp ${ts} is in milliseconds.`);
  const recvWindow = typeof rw === 'number' ? rw : LIMITS.recvWindow.defaultMs;
  return [unit, windowCheck(t, recvWindow, input), ...window];
}

function apiKeyCheck(w: Wire, input: DoctorInput, secrets: SentSecrets): DoctorCheck {
  const name = input.apiKeyHeader ?? w.deployment.apiKeyHeader;
  const sent = headerValue(w.sent, name);
  if (sent === undefined)
    return fail('api-key-header', `No ${name} header was sent: the service answers 400 (§5 rule 1, rule 10).`);
  // A secret in the header: named by its profile, never masked as a key is (that shows its last four characters).
  const holder = secrets.holder(sent);
  if (holder !== undefined)
    return fail(
      'api-key-header',
      `${name} carries the secret key of the key profile "${holder.profile}", not its API key ${maskApiKey(holder.apiKey)}.`,
    );
  if (!API_KEY_FORMAT.test(sent))
    return fail(
      'api-key-header',
      `The ${name} header is not a well-formed key (16 to 64 letters and digits, no spaces or quotes): 700001 (§5 rule 10).`,
    );
  if (sent === input.key.apiKey)
    return pass(
      'api-key-header',
      `${name} carries the API key ${maskApiKey(sent)} of the key profile "${input.key.profile}".`,
    );
  const other = input.otherKeys.find((k) => k.apiKey === sent);
  const whose = other ? `the key profile "${other.profile}"'s` : 'another';
  return fail(
    'api-key-header',
    `${name} carries ${whose} API key ${maskApiKey(sent)}, not ${maskApiKey(input.key.apiKey)} of the key profile "${input.key.profile}".`,
  );
}

/** §4.1 rules 2, 3 and 5: where the parameters were put, and whether the service reads them as signed. */
function placementChecks(w: Wire, hide: (text: string) => string): DoctorCheck[] {
  const out: DoctorCheck[] = [];
  const conflicts = w.queryPairs.filter(
    (q) =>
      w.bodyPairs.some((b) => b.name === q.name && b.value !== q.value) ||
      (w.members !== undefined && q.name in w.members && String(w.members[q.name]) !== q.value),
  );
  if (conflicts.length > 0)
    out.push(
      fail(
        'query-overrides-body',
        `${conflicts.map((c) => hide(c.name)).join(', ')} ${conflicts.length > 1 ? 'are' : 'is'} in both the query string and the body with different values: the service uses the query string's (§4.1 rule 5).`,
      ),
    );
  else
    out.push(
      pass(
        'query-overrides-body',
        'No parameter is in both the query string and the body with different values (§4.1 rule 5).',
      ),
    );
  if (w.sent.method === 'GET' && w.sent.body.length > 0)
    out.push(
      fail('query-overrides-body', 'A GET request takes its parameters in the query string only (§4.1 rule 2).'),
    );
  const type = headerValue(w.sent, 'content-type');
  if (w.json && (type === undefined || !/^\s*application\/json\s*(;|$)/i.test(type)))
    out.push(
      fail(
        'json-vs-form',
        `The body is JSON but Content-Type is ${type === undefined ? 'missing' : shown(hide(type))}: send Content-Type: application/json (§4.1 rule 3).`,
      ),
    );
  const loose = w.endpoint && isBatchEndpoint(w.endpoint) ? looseEncoding(w.json ? w.query : w.totalParams) : undefined;
  if (loose !== undefined)
    out.push(
      fail(
        /lower-case/.test(loose) ? 'encoding-lowercase' : 'encoding-missing',
        `A batch operation's values are sent and signed strictly percent-encoded, upper-case hex (§5 rule 6); here ${loose}.`,
      ),
    );
  return out;
}

/** Every check, in the order a report lists them: whether a secret was sent first; values from the request with its secrets hidden. */
export function restOfSection5(w: Wire, input: DoctorInput, secrets: SentSecrets): DoctorCheck[] {
  const { hide } = secrets;
  return [
    secretCheck(secrets),
    ...timestampChecks(w, input, hide),
    apiKeyCheck(w, input, secrets),
    ...placementChecks(w, hide),
  ];
}
