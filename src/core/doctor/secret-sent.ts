/**
 * A secret key in what a program sent: the doctor knows every secret it checks against, so it finds
 * one that went out as the API key, a parameter, in the body or in the URL, says in words which
 * field carried it, and hides it in everything it reports. A secret is never printed, whole or in
 * part (not even the last four characters a masked API key shows).
 */
import { shown } from '../convert/common';
import { percentEncode } from '../signing/encode';
import type { DoctorKey } from './types';
import { memberText, type Wire } from './wire';

/** What stands where a secret key was. */
const HIDDEN = '<secret key>';
/** A secret shorter than this is not looked for: it would be found inside ordinary words. */
const MIN_SECRET_CHARS = 8;

export interface SentSecrets {
  /** One sentence per key profile whose secret was sent, naming each field that carried it; none when no secret was. */
  readonly sentences: readonly string[];
  /** `text` with every spelling of every known secret replaced by `<secret key>`. */
  readonly hide: (text: string) => string;
  /** The key profile whose secret `text` holds, if any. */
  readonly holder: (text: string) => DoctorKey | undefined;
}

/** Each way a secret may stand in what was sent: as it is, percent-encoded (either case of hex, spaces as +), in a JSON string. */
function spellings(secret: string): string[] {
  const strict = percentEncode(secret);
  const forms = [
    secret,
    strict,
    strict.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    strict.replace(/%20/g, '+'),
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
  ];
  // The longest first: one that holds another is replaced whole.
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
}

/** `text` with every spelling of every secret of `secrets` (long enough to look for) replaced by `by`. */
export function hideSecrets(text: string, secrets: readonly string[], by = HIDDEN): string {
  const all = secrets
    .filter((s) => s.length >= MIN_SECRET_CHARS)
    .flatMap(spellings)
    .sort((a, b) => b.length - a.length);
  return all.reduce((t, s) => (t.includes(s) ? t.split(s).join(by) : t), text);
}

/** The secrets of `key` (checked against) and `others` that `w` carried, where, and how to hide them. */
export function sentSecrets(w: Wire, key: DoctorKey, others: readonly DoctorKey[], apiKeyHeader: string): SentSecrets {
  const keys = [key, ...others].filter((k) => k.secretKey.length >= MIN_SECRET_CHARS);
  const forms = keys.map((k) => ({ key: k, spellings: spellings(k.secretKey) }));
  const holder = (text: string): DoctorKey | undefined =>
    forms.find((f) => f.spellings.some((s) => text.includes(s)))?.key;
  const hide = (text: string): string =>
    hideSecrets(
      text,
      keys.map((k) => k.secretKey),
    );
  const sentences: string[] = [];
  for (const f of forms) {
    const places = placesOf(w, (text) => f.spellings.some((s) => text.includes(s)), apiKeyHeader);
    if (places.length === 0) continue;
    const whose = f.key === key ? 'its secret key' : `the secret key of the key profile "${f.key.profile}"`;
    sentences.push(`Your program sent ${whose} ${places.join(', and ')}.`);
  }
  return { sentences, hide, holder };
}

/** The fields of what was sent that hold the secret, in words, in the order a request is read. */
function placesOf(w: Wire, holds: (text: string) => boolean, apiKeyHeader: string): string[] {
  const s = w.sent;
  const places: string[] = [];
  if (holds(s.url)) places.push("in the URL's path");
  for (const h of s.headers) {
    if (!holds(h.value) && !holds(h.name)) continue;
    const name = holds(h.name) ? 'a' : `the ${h.name.slice(0, 60)}`;
    places.push(
      h.name.toLowerCase() === apiKeyHeader.toLowerCase() ? `as the API key (${name} header)` : `in ${name} header`,
    );
  }
  places.push(...pairPlaces(w.queryPairs, 'query string', holds), ...pairPlaces(w.bodyPairs, 'body', holds));
  if (w.members !== undefined)
    for (const [name, value] of Object.entries(w.members))
      if (holds(name)) places.push('as the name of a JSON member of the body');
      else if (holds(memberText(value))) places.push(`in the JSON member ${shown(name, 40)} of the body`);
  // The body as a whole: when it holds the secret where no pair or member was read (not JSON, or the signature member).
  if (places.length === 0 && holds(s.body)) places.push('in the body');
  if (holds(s.query) && !places.some((p) => p.endsWith('query string'))) places.push('in the query string');
  return places;
}

function pairPlaces(
  pairs: readonly { readonly name: string; readonly value: string; readonly raw: string }[],
  where: string,
  holds: (text: string) => boolean,
): string[] {
  const places: string[] = [];
  for (const p of pairs)
    if (holds(p.name) || holds(p.raw.split('=')[0] ?? '')) places.push(`as the name of a parameter in the ${where}`);
    else if (holds(p.value) || holds(p.raw))
      places.push(`as the value of the parameter ${shown(p.name, 40)} in the ${where}`);
  return places;
}

/** The check that says where a secret went, or that none did (listed first: it is what matters most). */
export function secretCheck(secrets: SentSecrets): { id: 'secret-sent'; ok: boolean; text: string } {
  return secrets.sentences.length === 0
    ? { id: 'secret-sent', ok: true, text: 'No secret key was sent: only the signature made with it.' }
    : { id: 'secret-sent', ok: false, text: secrets.sentences.join(' ') };
}
