/**
 * Top-level members of a `[json]` body, with ranges, so that checks and completion treat JSON
 * parameters like `name = value` lines. Validity is judged by JSON.parse.
 */
import { range, type Diagnostic, type JsonBody, type Range, type Token } from './model';

export interface JsonMember {
  readonly name: Token;
  readonly value: Token;
  readonly range: Range;
  readonly quoted: boolean;
}

/** Replaces each `{{...}}` with a number of the same length, so the text can be validated as JSON. */
function neutraliseVariables(text: string): string {
  return text.replace(/\{\{[^\n]*?\}\}/g, (m) => '1' + '0'.repeat(m.length - 1));
}

export function jsonMembers(json: JsonBody): { members: JsonMember[]; diagnostics: Diagnostic[] } {
  const text = json.text;
  const lineStarts = [0];
  for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) === 10) lineStarts.push(k + 1);
  const at = (offset: number): { line: number; char: number } => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    const char = offset - lineStarts[lo]! + (lo === 0 ? json.range.startChar : 0);
    return { line: json.range.startLine + lo, char };
  };
  const span = (s: number, e: number): Range => {
    const a = at(s);
    const b = at(e);
    return range(a.line, a.char, b.line, b.char);
  };

  const diagnostics: Diagnostic[] = [];
  if (json.closed) {
    try {
      const parsed: unknown = JSON.parse(neutraliseVariables(text));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        diagnostics.push({ range: json.range, severity: 'error', message: 'The [json] body must be one JSON object `{...}`.', rule: 'json-invalid' });
      }
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const pos = /position (\d+)/.exec(message);
      const offset = pos ? Math.min(Number(pos[1]), Math.max(0, text.length - 1)) : 0;
      diagnostics.push({ range: span(offset, offset + 1), severity: 'error', message: `The JSON body is not valid JSON: ${message}.`, rule: 'json-invalid' });
    }
  }

  const members: JsonMember[] = [];
  let depth = 0;
  let k = 0;
  // State at depth 1: 'key' → expecting a key, 'colon', 'value' → expecting a value start, 'after' → in a value.
  let state: 'key' | 'colon' | 'value' | 'after' = 'key';
  let keyStart = -1;
  let keyEnd = -1;
  let valueStart = -1;
  let lastNonSpace = -1;
  const finishMember = (): void => {
    if (keyStart < 0 || valueStart < 0) return;
    const valueEnd = lastNonSpace + 1;
    const raw = text.slice(valueStart, valueEnd);
    const isString = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"');
    const vs = isString ? valueStart + 1 : valueStart;
    const ve = isString ? valueEnd - 1 : valueEnd;
    members.push({
      name: { text: text.slice(keyStart + 1, keyEnd - 1), range: span(keyStart + 1, keyEnd - 1) },
      value: { text: text.slice(vs, ve), range: span(vs, ve) },
      range: span(keyStart, valueEnd),
      quoted: isString,
    });
    keyStart = keyEnd = valueStart = -1;
  };
  while (k < text.length) {
    const ch = text.charCodeAt(k);
    if (ch === 34) {
      const start = k;
      k++;
      while (k < text.length && text.charCodeAt(k) !== 34 && text.charCodeAt(k) !== 10) {
        if (text.charCodeAt(k) === 92) k++;
        k++;
      }
      k++;
      if (depth === 1) {
        if (state === 'key') {
          keyStart = start;
          keyEnd = Math.min(k, text.length);
          state = 'colon';
        } else if (state === 'value') {
          valueStart = start;
          state = 'after';
        }
      }
      lastNonSpace = Math.min(k, text.length) - 1;
      continue;
    }
    if (ch === 123 || ch === 91) {
      if (depth === 1 && state === 'value') {
        valueStart = k;
        state = 'after';
      }
      depth++;
    } else if (ch === 125 || ch === 93) {
      depth--;
      if (depth === 0) {
        finishMember();
        break;
      }
    } else if (depth === 1 && ch === 58 && state === 'colon') {
      state = 'value';
    } else if (depth === 1 && ch === 44) {
      finishMember();
      state = 'key';
    } else if (depth === 1 && state === 'value' && ch !== 32 && ch !== 9 && ch !== 10 && ch !== 13) {
      valueStart = k;
      state = 'after';
    }
    if (ch !== 32 && ch !== 9 && ch !== 10 && ch !== 13 && !(depth === 0 && ch === 125)) lastNonSpace = k;
    k++;
  }
  return { members, diagnostics };
}
