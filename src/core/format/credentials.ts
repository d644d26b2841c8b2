/**
 * Credentials in an answer: the values of the fields the catalog names as credentials
 * (CREDENTIAL_FIELDS: a listen key, docs/websocket.md, Listen keys), at any depth. Chaining refuses
 * them (variables.ts) and everything shown masks them (request/listen-keys.ts, testing/run.ts).
 * Walked without recursion: an answer is hostile and may nest deeply.
 */
import { CREDENTIAL_FIELDS } from '../catalog/endpoints';
import { jsonValueText } from './json-value';

/** Distinct credentials kept of one answer; a real one holds one, and masking costs a pass per value. */
const MAX_CREDENTIALS = 16;

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
    for (const [name, child] of Object.entries(v)) {
      if (isCredentialField(name) && child !== null && child !== undefined) {
        const text = jsonValueText(child);
        if (text.length > 0) found.add(text);
      }
      if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
  return [...found].slice(0, MAX_CREDENTIALS);
}
