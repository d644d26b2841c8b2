/**
 * The JSON object under `[json]` (one, the request's body) or `[message]` (each a WebSocket
 * message): scanned line by line until its braces close, then validated in one strict pass.
 */
import { t } from '../../l10n';
import { unclosedJsonMessage } from '../messages';
import { jsonParams } from '../json';
import type { JsonBody } from '../model';
import { append, type Block, type JsonScan } from './block-state';
import { scanRefs } from './refs';
import { CH_BACKSLASH, CH_LBRACE, CH_LBRACKET, CH_QUOTE, CH_RBRACE, CH_RBRACKET, contentEnd } from './source';

/** Opens the object that starts at `first` and feeds it the rest of the line. */
export function openJson(b: Block, line: string, i: number, first: number, into: JsonScan['into']): void {
  b.jsonOpen = { into, startLine: i, startChar: first, parts: [], depth: 0, inString: false, escaped: false };
  continueJson(b, line, i, first);
}

/** Feeds one line (from `from`) into the open JSON object; closes it at depth 0. */
export function continueJson(b: Block, line: string, lineNo: number, from: number): void {
  const scan = b.jsonOpen!;
  const end = scanToClose(scan, line, from);
  // A JSON string cannot span lines; reset so that one bad quote does not hide the rest.
  scan.inString = false;
  scan.escaped = false;
  scanRefs(b, line, lineNo, from, end < 0 ? line.length : end, b.refs);
  if (end < 0) {
    scan.parts.push(line.slice(from));
    return;
  }
  scan.parts.push(line.slice(from, end));
  const rest = line.slice(end).trim();
  if (rest.length > 0 && !rest.startsWith('#') && !rest.startsWith('//')) {
    const message = t('Text after the end of the JSON object: remove it, or move it to a line of its own.');
    b.error(b.pos.range(lineNo, end, lineNo, contentEnd(line)), message, 'json-trailing');
  }
  closeJson(b, lineNo, true, end);
}

/** Where the object closes on this line (just after its last brace), or -1. */
function scanToClose(scan: JsonScan, line: string, from: number): number {
  for (let k = from; k < line.length; k++) {
    const ch = line.charCodeAt(k);
    if (scan.inString) {
      if (scan.escaped) scan.escaped = false;
      else if (ch === CH_BACKSLASH) scan.escaped = true;
      else if (ch === CH_QUOTE) scan.inString = false;
    } else if (ch === CH_QUOTE) {
      scan.inString = true;
    } else if (ch === CH_LBRACE || ch === CH_LBRACKET) {
      scan.depth++;
    } else if ((ch === CH_RBRACE || ch === CH_RBRACKET) && --scan.depth === 0) {
      return k + 1;
    }
  }
  return -1;
}

/** Ends the object (closed, or cut by the end of the block) and validates it. */
export function closeJson(b: Block, endLine: number, closed: boolean, endChar: number | undefined): void {
  const scan = b.jsonOpen!;
  b.jsonOpen = undefined;
  const lastPart = scan.parts[scan.parts.length - 1] ?? '';
  const bodyEndLine = closed ? endLine : scan.startLine + scan.parts.length - 1;
  const bodyEndChar = endChar ?? (scan.parts.length === 1 ? scan.startChar + lastPart.length : lastPart.length);
  const range = b.pos.range(scan.startLine, scan.startChar, bodyEndLine, bodyEndChar);
  const json: JsonBody = { text: scan.parts.join('\n'), range, closed };
  const { params, diagnostics } = jsonParams(json, scan.startLine, b.pos);
  if (scan.into === 'json') {
    b.json = json;
    for (const p of params) b.params.push(p);
  } else {
    b.messages = append(b.messages, json);
  }
  if (!closed) {
    const at = b.pos.range(scan.startLine, scan.startChar, scan.startLine, scan.startChar + 1);
    b.error(at, unclosedJsonMessage(), 'json-unclosed');
  }
  for (const d of diagnostics) b.report(d);
}
