/**
 * Listen keys: what one looks like, and the ones a REST exchange carries (a `listenKey` parameter
 * sent, the ones an answer of /api/v3/userDataStream holds). A listen key is a credential
 * (docs/websocket.md), so every text made from such an exchange for people (the panel, the
 * history, the log, the command line's output, reports, snapshots, kept answers) shows it masked.
 * One rule for every surface: a listen key is a credential field's text in a parsed answer, as a
 * value or in a list (GET /api/v3/userDataStream lists them), and in text that is not parsed (an
 * answer cut or not JSON) a token of a deployment's listen-key format (`listenKey.format`) in the
 * value of a credential field. Without zod: the command line's send bundle stays light.
 */
import { DEPLOYMENTS } from '../catalog/deployment';
import { CREDENTIAL_FIELDS } from '../catalog/credential-fields';
import { maskApiKey } from '../env/keys';
import { credentialsIn, isCredentialField } from '../format/credentials';
import type { RoundTripReport } from '../net/round-trip';

/** A listen key of any deployment's format, as a whole token of text (the formats are anchored: the anchors go). */
const KEY_TOKEN = new RegExp(
  `(?<![A-Za-z0-9])(?:${DEPLOYMENTS.map((d) => d.listenKey.format.source.replace(/^\^|\$$/g, '')).join('|')})(?![A-Za-z0-9])`,
  'g',
);

/**
 * A credential field named in text and its value: a JSON list (to its end, or the end of a cut text),
 * a JSON string, or a query's value. Bounded: a list holds at most a deployment's 60 keys of ~65 characters.
 */
const NAMED_VALUE = new RegExp(
  `(?:${[...CREDENTIAL_FIELDS].join('|')})"?\\s*[:=]\\s*(\\[[^\\]]{0,16384}|"[^"]{0,1024}|[^&\\s"]{1,1024})`,
  'g',
);

/** Keys looked for in one text: a deployment's most per account (60) and room to spare; each costs nothing more than one pass. */
const MAX_KEYS = 64;

/** Whether `text` names a credential field as written (most answers do not: one search per field name). */
const namesCredential = (text: string): boolean => [...CREDENTIAL_FIELDS].some((name) => text.includes(name));

/** The listen keys `text` names (an answer's text that is not parsed, a URL): see the module's rule. */
export function listenKeysInText(text: string): string[] {
  const found = new Set<string>();
  if (!namesCredential(text)) return [];
  for (const m of text.matchAll(NAMED_VALUE)) {
    for (const k of m[1]!.matchAll(KEY_TOKEN)) found.add(k[0]);
    if (found.size >= MAX_KEYS) break;
  }
  return [...found].slice(0, MAX_KEYS);
}

/**
 * The listen keys an answer holds: its credential fields' texts when it was parsed, and those its
 * text names. `text` is what `json` was parsed from: when it names no credential field and escapes
 * nothing with `\u` (which could spell a field's name), no member of `json` is one, and the walk
 * of a large answer (an exchangeInfo of 8 MiB) is spared.
 */
export function listenKeysInAnswer(json: unknown, text?: string): string[] {
  if (text !== undefined && !namesCredential(text) && !text.includes('\\u')) return [];
  const keys = new Set(credentialsIn(json));
  if (text !== undefined) for (const k of listenKeysInText(text)) keys.add(k);
  return [...keys];
}

/** The listen keys an exchange carries: parameters sent, and those of the answer (parsed or only as text). */
export function listenKeysOf(
  report: RoundTripReport | undefined,
  params: readonly { readonly name: string; readonly value: string }[],
): string[] {
  const keys = params.filter((p) => isCredentialField(p.name)).map((p) => p.value);
  keys.push(...listenKeysInAnswer(report?.decoded?.json, report?.response?.bodyText));
  return [...new Set(keys.filter((k) => k.length > 0))];
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Keys' characters masked in one pass of one regular expression; a hostile answer's longer "keys" go one pass each (V8 refuses a pattern of megabytes). */
const ONE_PASS_CHARS = 16 * 1024;

/** `text` with each of `keys` masked to its last 4 characters (a key that holds another is masked whole). */
export function hideListenKeys(text: string, keys: readonly string[]): string {
  const all = [...new Set(keys.filter((k) => k.length > 0))].sort((a, b) => b.length - a.length);
  if (all.length === 0) return text;
  if (all.reduce((n, k) => n + k.length, 0) > ONE_PASS_CHARS)
    return all.reduce((t, k) => t.split(k).join(maskApiKey(k)), text);
  return text.replace(new RegExp(all.map(escaped).join('|'), 'g'), (k) => maskApiKey(k));
}
