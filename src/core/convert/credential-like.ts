/**
 * What looks like a credential, for every importer: one rule for the names of parameters,
 * variables, headers and JSON members, and for the lines of a script or comment that set one.
 * Nothing that matches is written into a file or a tradereq.env.json: the notes name it, never its
 * value (request files and tradereq.env.json are shared and hold no secret: docs/format.md, Variables).
 */
import { looksLikeSecret } from '../env/secrets';
import { filterLines, type DraftRequest } from './draft';
import { pruneMembers } from './json-placeholders';
import { Notes, shown } from './common';

/** What separates the words of a name: api_key, API-KEY, api.key, "pass phrase". */
const SEPARATORS = /[-_.\s]+/g;

/** A name that holds a credential: the project's rule (env/secrets.ts), whatever separates its words. */
export function isCredentialName(name: string): boolean {
  const joined = name.replace(SEPARATORS, '');
  // A signature is derived from a secret key and a cookie carries a session: neither is copied either.
  return looksLikeSecret(name) || looksLikeSecret(joined) || /signature|cookie/i.test(joined);
}

/** The API key header of the family: `X-SERVICE-APIKEY`, `X-MBX-APIKEY`, `X-MEXC-APIKEY`, … */
export function isApiKeyHeader(name: string): boolean {
  return /apikey$/i.test(name.trim());
}

/** A header that carries a credential or another scheme's signature (Authorization, Cookie, X-…-Sign). */
export function isCredentialHeader(name: string): boolean {
  const n = name.trim();
  return isCredentialName(n) || /-sign$/i.test(n);
}

/** A name in a script or comment: `apiKey`, `exports.apiSecret`, `X-MBX-APIKEY`. */
const WORD = /[A-Za-z_$][\w$.-]*/g;
/** After a name, past closing quotes and brackets: `=` (not `==`, `=>`), `:` (not `::`), or `,` (group 1). */
const SETS = /['"`\]]*\s*(?:=(?![=>])|:(?!:)|(,))/y;
/** Before a name followed by `,`: the call it is the first argument of, e.g. `pm.environment.set("`. */
const FIRST_ARGUMENT = /\(\s*['"`]?$/;

/**
 * The credential a line of a script or comment sets, if any: `const apiSecret = '…'`,
 * `"secretKey": …`, `?apiKey=…`, `pm.environment.set("secret", …)`, `client.global.set("token", …)`.
 * Found by scanning, not by reading the script: in doubt, the line is taken for one that sets it.
 */
export function credentialSetIn(line: string): string | undefined {
  for (const m of line.matchAll(WORD)) {
    if (!isCredentialName(m[0])) continue;
    SETS.lastIndex = m.index + m[0].length;
    const set = SETS.exec(line);
    if (set && (set[1] === undefined || FIRST_ARGUMENT.test(line.slice(Math.max(0, m.index - 8), m.index))))
      return m[0];
  }
  return undefined;
}

/**
 * The text with every line that sets a credential replaced by a line saying so (its leading `| `
 * and indentation kept), and the names those lines set.
 */
export function withoutCredentialLines(text: string): { text: string; names: string[] } {
  const names: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const name = credentialSetIn(lines[i]!);
    if (name === undefined) continue;
    names.push(name);
    lines[i] = `${/^[|\s]*/.exec(lines[i]!)![0]}(a line that sets ${shown(name, 40)} is not copied)`;
  }
  return { text: names.length > 0 ? lines.join('\n') : text, names };
}

/** The note for credentials left out: what they were and their names (the first ten), never a value. */
export function credentialNote(
  where: string,
  what: string,
  names: readonly string[],
  outcome = 'are not copied',
): string {
  const distinct = [...new Set(names)];
  const list = distinct
    .slice(0, 10)
    .map((n) => shown(n, 40))
    .join(', ');
  const more = distinct.length > 10 ? ` and ${distinct.length - 10} more` : '';
  return `${where}: ${what} ${list}${more} ${outcome}: a shared file holds no credential (TradeReq sends keys from a key profile).`;
}

/** A JSON body without its credential members, at any depth; in doubt, without the body. */
function dropJsonCredentials(request: DraftRequest, where: string, notes: Notes): void {
  const pruned = pruneMembers(request.json!, (name) => isCredentialName(name));
  if (pruned.read && pruned.json !== undefined) {
    if (pruned.dropped.length > 0) {
      request.json = pruned.json;
      notes.add(
        credentialNote(
          where,
          'the JSON members',
          pruned.dropped,
          'are not copied (the body is written again, on one line)',
        ),
      );
    }
    return;
  }
  // A body that cannot be read (or written again) is left out whole when a line of it sets a credential.
  const names = pruned.read ? pruned.dropped : withoutCredentialLines(request.json!).names;
  if (names.length === 0) return;
  request.json = undefined;
  notes.add(credentialNote(where, 'the JSON body sets', names, 'and is left out'));
}

/** Takes the credentials out of a request about to be written: parameters, and members of its JSON body. */
export function dropCredentials(request: DraftRequest, where: string, notes: Notes): void {
  const removed = filterLines(request, (l) => l.kind !== 'param' || !isCredentialName(l.param.name));
  if (removed.length > 0)
    notes.add(
      credentialNote(
        where,
        'the parameters',
        removed.map((l) => (l.kind === 'param' ? l.param.name : '')),
      ),
    );
  if (request.json !== undefined) dropJsonCredentials(request, where, notes);
  if (request.ws) dropMessageCredentials(request.ws.messages, where, notes);
  dropCredentialChecks(request.directives, where, notes);
}

/** The credential an `expect json|message PATH …` directive checks (by the words of its path), or an `expect header NAME …`. */
function credentialPath(directive: string): string | undefined {
  const header = /^expect\s+header\s+(\S+)/.exec(directive)?.[1];
  if (header !== undefined) return isCredentialHeader(header) || isApiKeyHeader(header) ? header : undefined;
  const path = /^expect\s+(?:json|message)\s+(\S+)/.exec(directive)?.[1];
  return path?.split(/[.[\]]+/).find((part) => part.length > 0 && isCredentialName(part));
}

/** Checks of a credential's value are left out: the value would be in the file. */
function dropCredentialChecks(directives: string[], where: string, notes: Notes): void {
  const names = directives.map(credentialPath).filter((n) => n !== undefined);
  if (names.length === 0) return;
  const kept = directives.filter((d) => credentialPath(d) === undefined);
  directives.length = 0;
  for (const d of kept) directives.push(d);
  notes.add(credentialNote(where, 'the checks of', names));
}

/** WebSocket messages without their credential members; a message that cannot be read and sets one is left out. */
function dropMessageCredentials(messages: string[], where: string, notes: Notes): void {
  const kept: string[] = [];
  for (const message of messages) {
    const pruned = pruneMembers(message, (name) => isCredentialName(name));
    if (pruned.read && pruned.json !== undefined) {
      kept.push(pruned.json);
      if (pruned.dropped.length > 0)
        notes.add(credentialNote(where, 'the WebSocket message members', pruned.dropped, 'are not copied'));
      continue;
    }
    const names = pruned.read ? pruned.dropped : withoutCredentialLines(message).names;
    if (names.length === 0) kept.push(message);
    else notes.add(credentialNote(where, 'a WebSocket message sets', names, 'and is left out'));
  }
  messages.length = 0;
  for (const m of kept) messages.push(m);
}
