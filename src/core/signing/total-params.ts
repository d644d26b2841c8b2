/**
 * totalParams as the service builds it from what arrived (spec §5 rule 4, docs/service.md §5 rule 4):
 * the raw query string followed directly by the raw body, the signature pair taken out of
 * whichever holds it. The sandbox checks signatures with it; the signature doctor recomputes with it.
 */

/** `raw` without the `name=value` pair at [start, end) and the "&" that joined it to its neighbour. */
export function withoutPair(raw: string, start: number, end: number): string {
  return start > 0 ? raw.slice(0, start - 1) + raw.slice(end) : raw.slice(0, start) + raw.slice(end + 1);
}

/** Where the `signature` pair of a form text lies, undefined when it has none (the first one wins). */
function signaturePair(raw: string): { start: number; end: number } | undefined {
  let start = 0;
  while (start < raw.length) {
    let end = raw.indexOf('&', start);
    if (end === -1) end = raw.length;
    const eq = raw.indexOf('=', start);
    const name = raw.slice(start, eq !== -1 && eq < end ? eq : end);
    if (name === 'signature') return { start, end };
    start = end + 1;
  }
  return undefined;
}

/** A form text (query string or form body) without its signature pair. */
export function formWithoutSignature(raw: string): string {
  const pair = signaturePair(raw);
  return pair === undefined ? raw : withoutPair(raw, pair.start, pair.end);
}

const JSON_SIGNATURE = /"signature"\s*:\s*"[^"\\]*"/g;

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

/** The JSON text without its one plainly written signature member and the comma that joined it. */
export function jsonWithoutSignature(raw: string): string | undefined {
  const found = [...raw.matchAll(JSON_SIGNATURE)];
  if (found.length !== 1) return undefined;
  const s = found[0]!.index;
  const e = s + found[0]![0].length;
  let i = s - 1;
  while (i >= 0 && isSpace(raw[i])) i--;
  if (raw[i] === ',') return raw.slice(0, i) + raw.slice(e);
  let j = e;
  while (j < raw.length && isSpace(raw[j])) j++;
  if (raw[j] === ',') {
    j++;
    while (j < raw.length && isSpace(raw[j])) j++;
    return raw.slice(0, s) + raw.slice(j);
  }
  return raw.slice(0, s) + raw.slice(e);
}

/** Whether a body is read as JSON: it starts with "{" (docs/service.md §4.1 rule 3). */
export function isJsonBody(body: string): boolean {
  return body.trimStart().startsWith('{');
}

const HEX_UPPER = /^[0-9A-F]{2}$/;
const PLAIN = /[A-Za-z0-9\-_.~=&]/;

/**
 * The first place where `encoded` is not strictly percent-encoded (§5 rule 6: special characters
 * as %XX with upper-case hex), described for a message; undefined when it is strict.
 */
export function looseEncoding(encoded: string): string | undefined {
  for (let i = 0; i < encoded.length; i++) {
    const c = encoded[i]!;
    if (PLAIN.test(c)) continue;
    if (c !== '%') return `${JSON.stringify(c)} at offset ${i} is sent unencoded`;
    const hex = encoded.slice(i + 1, i + 3);
    if (!HEX_UPPER.test(hex)) {
      return /^[0-9a-fA-F]{2}$/.test(hex)
        ? `"%${hex}" at offset ${i} uses lower-case hex`
        : `"%" at offset ${i} starts no %XX escape`;
    }
    i += 2;
  }
  return undefined;
}
