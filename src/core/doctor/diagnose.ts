/**
 * The diagnosis: recompute the signature the service expects (§5 rules 3-5), and when the program's
 * differs, find the known mistake that reproduces it exactly; then check the rest of §5 and §4.1.
 */
import { CREDENTIAL_FIELDS } from '../catalog/credential-fields';
import { lookupError } from '../catalog/errors';
import { maskApiKey } from '../env/keys';
import { signTotalParams } from '../signing/hmac';
import { restOfSection5 } from './checks';
import { acceptedStatus } from './answer-time';
import { CAUSES, fixFor, programOf } from './fixes';
import { sentSecrets, type SentSecrets } from './secret-sent';
import type { CauseId, Diagnosis, DoctorCheck, DoctorInput, SignedComparison } from './types';
import { keyVariants, messageVariants, type KeyVariant, type MessageVariant } from './variants';
import { readWire, type Wire } from './wire';

/** Above this many characters of totalParams, message and key mistakes are not tried together. */
const CROSS_MAX_CHARS = 16 * 1024;

interface Match {
  readonly message?: MessageVariant;
  readonly key?: KeyVariant;
}

/** The variant (or pair of variants) whose HMAC is `target`: messages first, then keys, then both. */
function search(w: Wire, input: DoctorInput, target: string): Match | undefined {
  const messages = messageVariants(w);
  const keys = keyVariants(input.key, input.otherKeys);
  for (const message of messages)
    if (signTotalParams(input.key.secretKey, message.message) === target) return { message };
  for (const key of keys) if (signTotalParams(key.secretKey, w.totalParams) === target) return { key };
  if (w.totalParams.length > CROSS_MAX_CHARS) return undefined;
  for (const key of keys)
    for (const message of messages)
      if (signTotalParams(key.secretKey, message.message) === target) return { message, key };
  return undefined;
}

const FORM_CREDENTIAL = new RegExp(`(^|&)(${[...CREDENTIAL_FIELDS].join('|')})=[^&]*`, 'g');
const JSON_CREDENTIAL = new RegExp(`("(?:${[...CREDENTIAL_FIELDS].join('|')})"\\s*:\\s*)"[^"\\\\]*"`, 'g');

/** A message as shown: secret keys and credentials (listen keys) hidden, before it is compared or cut. */
function shown(text: string, hide: (text: string) => string): string {
  return hide(text).replace(FORM_CREDENTIAL, '$1$2=<hidden>').replace(JSON_CREDENTIAL, '$1"<hidden>"');
}

function compare(signed: string | undefined, expectedRaw: string, hide: (text: string) => string): SignedComparison {
  const expected = shown(expectedRaw, hide);
  if (signed === undefined) return { expected };
  const s = shown(signed, hide);
  let start = 0;
  while (start < s.length && start < expected.length && s[start] === expected[start]) start++;
  let tail = 0;
  while (
    tail < s.length - start &&
    tail < expected.length - start &&
    s[s.length - 1 - tail] === expected[expected.length - 1 - tail]
  )
    tail++;
  if (s === expected) return { signed: s, expected };
  return {
    signed: s,
    expected,
    difference: { start, signedEnd: s.length - tail, expectedEnd: expected.length - tail },
  };
}

/** The error codes whose catalog advice is about a .tradereq file's timestamp: for a program, its own words instead. */
const TIMING_CODES: ReadonlySet<number> = new Set([700003, 10073]);

/** What to do after `code`: for a timing code a program got, the fix of the timestamp cause found, in its words. */
function actionFor(input: DoctorInput, causes: readonly CauseId[], action: string | undefined): string | undefined {
  const program = programOf(input.sent, input.sentByTradeReq === true);
  if (input.code === undefined || !TIMING_CODES.has(input.code) || program === 'file') return action;
  const cause = causes.find((c) => c === 'timestamp-seconds' || c === 'clock-window') ?? 'clock-window';
  return fixFor(cause, program);
}

function codeNote(input: DoctorInput, signatureRight: boolean, causes: readonly CauseId[] = []): string | undefined {
  if (input.code === undefined) return undefined;
  const info = lookupError(input.code);
  const said = info ? `${input.code} (${info.meanings[0]})` : `${input.code}`;
  if (!signatureRight) return `The service answered ${said}.`;
  if (input.code !== 700002 && input.code !== 602) {
    // The signature is not the reason: what the code itself says is the likely cause (§7.2).
    const action = actionFor(input, causes, info?.action);
    const likely = [info?.cause && `Likely cause: ${info.cause}`, action && `What to do: ${action}`];
    return [`The service answered ${said}.`, ...likely.filter(Boolean)].join(' ');
  }
  const key = `the key profile "${input.key.profile}" (${maskApiKey(input.key.apiKey)})`;
  if (input.sentByTradeReq)
    return `The service answered ${said}, but TradeReq signed this request correctly with the secret of ${key}: the cause is on the server's side or in the key (the secret saved in that profile is not the one the service holds for its API key).`;
  return `The service answered ${said}, yet the signature is right for the secret of ${key}: the service holds another secret for the API key sent (the key of another environment, or a key renewed since).`;
}

function distinct(ids: readonly CauseId[]): CauseId[] {
  return [...new Set(ids)];
}

function matchedSummary(match: Match, upper: boolean): string {
  const parts = [match.message?.what, match.key?.what, upper ? 'upper-cased the signature' : undefined].filter(
    (p) => p !== undefined,
  );
  return `The program ${parts.join(', and ')}.`;
}

/** The diagnosis of what was sent, against `input.key`: a secret key sent is named first, and no secret is ever shown. */
export function diagnose(input: DoctorInput): Diagnosis {
  const w = readWire(input.sent, input.deployment);
  const secrets = sentSecrets(w, input.key, input.otherKeys, input.apiKeyHeader ?? w.deployment.apiKeyHeader);
  return withSecrets(signatureDiagnosis(w, input, secrets), secrets);
}

/** A diagnosis that names the secret keys sent, first, and hides every secret in its words (its comparison hid them already). */
function withSecrets(d: Diagnosis, secrets: SentSecrets): Diagnosis {
  const { hide } = secrets;
  const hidden: Diagnosis = {
    ...d,
    summary: hide(d.summary),
    checks: d.checks.map((c) => ({ ...c, text: hide(c.text) })),
    ...(d.codeNote !== undefined ? { codeNote: hide(d.codeNote) } : {}),
  };
  if (secrets.sentences.length === 0) return hidden;
  return {
    ...hidden,
    cause: 'secret-sent',
    causes: ['secret-sent', ...d.causes.filter((c) => c !== 'none')],
    summary: `${secrets.sentences.join(' ')} Replace that key pair: a secret key only signs, and this one has left your machine. ${hidden.summary}`,
    fix: CAUSES['secret-sent'].fix,
    snippets: {},
  };
}

/** What the signature and the rest of §5 say; a secret sent is left to withSecrets. */
function signatureDiagnosis(w: Wire, input: DoctorInput, secrets: SentSecrets): Diagnosis {
  const checks = restOfSection5(w, input, secrets);
  // A possibility (no time of the answer) is shown among the checks, never named a cause.
  const failed = checks.filter((c) => !c.ok && !c.possible && c.id !== 'secret-sent').map((c) => c.id);
  const hide = secrets.hide;
  if (acceptedStatus(input) !== undefined) return accepted(w, input, checks, failed, hide);
  if (w.signature === undefined || w.signature.length === 0) return missing(w, input, checks, failed, hide);
  const target = w.signature.toLowerCase();
  const upper = target !== w.signature;
  const right = signTotalParams(input.key.secretKey, w.totalParams) === target;
  if (right) return correct(w, input, checks, failed, upper, hide);
  const match = search(w, input, target);
  if (match === undefined) return unknown(w, input, checks, failed, hide);
  const causes = distinct([
    ...(match.message ? [match.message.cause] : []),
    ...(match.key ? [match.key.cause] : []),
    ...(upper ? (['signature-uppercase'] as const) : []),
    ...failed,
  ]);
  const signatureCheck: DoctorCheck = {
    id: causes[0]!,
    ok: false,
    text: `The signature is reproduced exactly when the program ${[match.message?.what, match.key?.what].filter(Boolean).join(', and ')}.`,
  };
  return result(
    input,
    causes,
    matchedSummary(match, upper),
    compare(match.message?.message ?? w.totalParams, w.totalParams, hide),
    [signatureCheck, ...checks],
    codeNote(input, false),
  );
}

function result(
  input: DoctorInput,
  causes: CauseId[],
  summary: string,
  comparison: SignedComparison,
  checks: DoctorCheck[],
  note: string | undefined,
): Diagnosis {
  const cause = causes[0] ?? 'none';
  const text = CAUSES[cause];
  return {
    cause,
    causes: causes.length > 0 ? causes : ['none'],
    summary,
    comparison,
    fix: fixFor(cause, programOf(input.sent, input.sentByTradeReq === true)),
    snippets: text.snippets ?? {},
    checks,
    ...(note !== undefined ? { codeNote: note } : {}),
  };
}

function missing(
  w: Wire,
  input: DoctorInput,
  checks: DoctorCheck[],
  failed: CauseId[],
  hide: (text: string) => string,
): Diagnosis {
  const check: DoctorCheck = {
    id: 'signature-missing',
    ok: false,
    text: 'No signature parameter was found in the query string or the body.',
  };
  return result(
    input,
    distinct(['signature-missing', ...failed]),
    'The request carries no signature (§5 rule 2).',
    compare(undefined, w.totalParams, hide),
    [check, ...checks],
    codeNote(input, false),
  );
}

function correct(
  w: Wire,
  input: DoctorInput,
  checks: DoctorCheck[],
  failed: CauseId[],
  upper: boolean,
  hide: (text: string) => string,
): Diagnosis {
  const whose = `the secret of the key profile "${input.key.profile}"`;
  const check: DoctorCheck = upper
    ? {
        id: 'signature-uppercase',
        ok: false,
        text: `The signature is right for ${whose} but written in upper case (§5 rule 5).`,
      }
    : { id: 'none', ok: true, text: `The signature is the HMAC-SHA256 of totalParams with ${whose} (§5 rules 3-5).` };
  const causes = distinct([...(upper ? (['signature-uppercase'] as const) : []), ...failed]);
  const summary =
    causes.length === 0
      ? 'The signature is correct, and so is the rest of §5 and §4.1 that can be checked here; the rejection is not about signing.'
      : upper
        ? 'The signature is right but in upper case.'
        : `The signature is correct; the rejection is not about signing: ${CAUSES[causes[0]!].title}.`;
  return result(
    input,
    causes,
    causes.length === 0 && checks.some((c) => c.possible) ? `${summary} ${UNDECIDED}` : summary,
    compare(w.totalParams, w.totalParams, hide),
    [check, ...checks],
    codeNote(input, !upper, causes),
  );
}

function unknown(
  w: Wire,
  input: DoctorInput,
  checks: DoctorCheck[],
  failed: CauseId[],
  hide: (text: string) => string,
): Diagnosis {
  const tried = distinct([
    ...messageVariants(w).map((m) => m.cause),
    ...keyVariants(input.key, input.otherKeys).map((k) => k.cause),
  ]);
  const check: DoctorCheck = {
    id: 'unknown',
    ok: false,
    text: `The signature is not the HMAC of totalParams with the secret of the key profile "${input.key.profile}", and none of these mistakes reproduces it: ${tried.join(', ')} (with ${input.otherKeys.length} other key profile${input.otherKeys.length === 1 ? '' : 's'} tried).`,
  };
  return result(
    input,
    distinct(['unknown', ...failed]),
    'The signature does not match, and no known mistake reproduces it.',
    compare(undefined, w.totalParams, hide),
    [check, ...checks],
    codeNote(input, false),
  );
}

/** What a summary adds when only a possibility is left (no time of the answer). */
const UNDECIDED =
  'Whether its timestamp was still within the window when it arrived cannot be told without the time it was answered: see the check marked "?".';

/** What the service accepted (an answer 2xx): no signature or timestamp cause; only what it read otherwise than meant. */
function accepted(
  w: Wire,
  input: DoctorInput,
  checks: DoctorCheck[],
  failed: CauseId[],
  hide: (text: string) => string,
): Diagnosis {
  const status = acceptedStatus(input)!;
  const whose = `the secret of the key profile "${input.key.profile}"`;
  const right = w.signature !== undefined && signTotalParams(input.key.secretKey, w.totalParams) === w.signature;
  const check: DoctorCheck = {
    id: 'none',
    ok: true,
    text: right
      ? `The signature is the HMAC-SHA256 of totalParams with ${whose} (§5 rules 3-5).`
      : `The service accepted the request, though its signature is not the HMAC of totalParams with ${whose}: the service holds another key for the API key sent, or the endpoint is not signed.`,
  };
  // Accepted: the signature and the timestamp were right; the service may still have read a parameter otherwise than meant.
  const causes = failed.filter((c) => c === 'query-overrides-body');
  const summary =
    causes.length === 0
      ? `The service accepted the request (HTTP ${status}): nothing is wrong with its signature or its timestamp.`
      : `The service accepted the request (HTTP ${status}), but ${CAUSES[causes[0]!].title}.`;
  return result(input, causes, summary, compare(w.totalParams, w.totalParams, hide), [check, ...checks], undefined);
}
