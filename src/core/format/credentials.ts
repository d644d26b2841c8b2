/**
 * Credentials in an answer: the values of the fields the catalog names as credentials
 * (CREDENTIAL_FIELDS: a listen key, docs/websocket.md, Listen keys), at any depth. Chaining refuses
 * them (variables.ts) and everything shown masks them (request/listen-keys.ts, testing/run.ts).
 * Walked without recursion: an answer is hostile and may nest deeply.
 */
import { CREDENTIAL_FIELDS } from '../catalog/credential-fields';
import { jsonValueText } from './json-value';

/** Distinct credentials kept of one answer: a list of listen keys holds up to a deployment's 60 an account, with room to spare. */
const MAX_CREDENTIALS = 64;

/** Whether a member name (of a `{{NAME.response.PATH}}` path or an answer) names a credential. */
export function isCredentialField(name: string): boolean {
  return CREDENTIAL_FIELDS.has(name);
}

/** The credentials `json` holds (non-empty texts, at most MAX_CREDENTIALS of them, first found first). */
export function credentialsIn(json: unknown): string[] {
  const found = new Set<string>();
  const stack: unknown[] = [json];
  while (stack.length > 0 && found.size < MAX_CREDENTIALS) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    for (const [name, child] of Object.entries(v) as [string, unknown][]) {
      if (isCredentialField(name) && child !== null && child !== undefined) {
        // A list of them (GET /api/v3/userDataStream: {"listenKey": [KEY, …]}): each text in it is one.
        for (const text of typeof child === 'object' ? textsIn(child) : [jsonValueText(child)])
          if (text.length > 0) found.add(text);
      }
      if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
  return [...found].slice(0, MAX_CREDENTIALS);
}

/** The texts a list or object holds at any depth, at most MAX_CREDENTIALS of them. */
function textsIn(value: object): string[] {
  const texts: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0 && texts.length < MAX_CREDENTIALS) {
    const v = stack.pop();
    if (typeof v === 'string') texts.push(v);
    else if (v !== null && typeof v === 'object') {
      // One by one, last first: a list may hold more members than the stack holds arguments.
      const members = Object.values(v);
      for (let i = members.length - 1; i >= 0; i--) stack.push(members[i]);
    }
  }
  return texts;
}
