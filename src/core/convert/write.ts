/**
 * Draft → `.tradereq` text (docs/format.md). Every line is checked against what the parser reads, so
 * a value the format cannot hold becomes a comment and a note instead of a broken file; the text
 * is parsed once more at the end, and whatever the parser still refuses is reported too. It is
 * also the last check of every importer: no credential is written (credential-like.ts), a request
 * holds at most BOUNDS.paramsPerRequest parameters and BOUNDS.headersPerRequest headers, and
 * lines are appended one by one, never spread onto the stack (a list may be long).
 */
import { BOUNDS } from '../bounds';
import { jsonParams } from '../format/json';
import { METHODS, WS_METHOD, lineToken, range } from '../format/model';
import { defaultPlacement, parse } from '../format/parser';
import { credentialNote, dropCredentials, isCredentialName } from './credential-like';
import { isRequest, type DraftFile, type DraftLine, type DraftRequest, type DraftWs } from './draft';
import { ConvertError } from './import-result';
import { Notes, REQUEST_NAME, oneLine, shown } from './common';

const VARIABLE_NAME = /^[A-Za-z_$][\w.$-]*$/;
const HEADER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
/** A name the parser would read as a header, comment, directive, variable or section instead. */
const NOT_A_PARAM_NAME = /^(#|\/\/|@|\[)|^[A-Za-z0-9][A-Za-z0-9_-]*[ \t]*:/;

/** Appends `text` as `# text` lines to `out`; a line that would read as a directive (`@word`) is escaped. */
function comment(out: string[], text: string, prefix = ''): void {
  for (const raw of text.split(/\r?\n/)) {
    const line = prefix + oneLine(raw).trimEnd();
    if (line.length === 0) out.push('#');
    else out.push(/^\s*@[A-Za-z]/.test(line) ? `# \\${line.trimStart()}` : `# ${line}`);
  }
}

function hasUnclosedBraces(text: string): boolean {
  let p = text.indexOf('{{');
  while (p >= 0) {
    const close = text.indexOf('}}', p + 2);
    if (close < 0) return true;
    p = text.indexOf('{{', close + 2);
  }
  return false;
}

/** Why `value` cannot stand as the rest of a line, if it cannot. */
function lineValueProblem(value: string): string | undefined {
  if (/[\r\n]/.test(value)) return 'it spans lines';
  if (hasUnclosedBraces(value)) return 'it holds an unclosed {{';
  return undefined;
}

function paramLine(out: string[], l: Extract<DraftLine, { kind: 'param' }>, where: string, notes: Notes): void {
  const { name, value } = l.param;
  const nameProblem =
    name.length === 0
      ? 'it has no name'
      : name !== name.trim() || name.includes('=') || NOT_A_PARAM_NAME.test(name)
        ? `the name ${shown(name)} cannot be written as a parameter line`
        : lineValueProblem(name);
  const problem = nameProblem ?? lineValueProblem(value);
  if (problem) {
    notes.add(`${where}: parameter ${shown(name)} left out as a comment: ${problem}.`);
    return comment(out, `left out (${problem}): ${name} = ${value}`);
  }
  if (value !== value.trim())
    notes.add(`${where}: the spaces around the value of "${name}" are not kept (TradeReq trims a value).`);
  const v = value.trim();
  out.push(v.length > 0 ? `${name} = ${v}` : `${name} =`);
}

/** Parameter lines grouped by placement, with section lines where the method's default differs. */
function paramSection(out: string[], request: DraftRequest, where: string, notes: Notes): void {
  const fallback = defaultPlacement(request.method);
  const placementOf = (l: DraftLine): string => (l.kind === 'param' ? l.param.placement : l.placement);
  const query = request.lines.filter((l) => placementOf(l) === 'query');
  const body = request.lines.filter((l) => placementOf(l) === 'body');
  const hasParams = (ls: DraftLine[]): boolean => ls.some((l) => l.kind === 'param');
  const emit = (ls: DraftLine[]): void => {
    for (const l of ls) {
      if (l.kind === 'param') paramLine(out, l, where, notes);
      else comment(out, l.text);
    }
  };
  if (hasParams(query) && (fallback === 'body' || request.json !== undefined)) out.push('[query]');
  emit(query);
  if (hasParams(body) && (fallback === 'query' || hasParams(query))) out.push('[body]');
  emit(body);
}

/** One JSON object under `section` (`[json]`, `[message]`), or a comment when the format cannot hold it as one. */
function jsonSection(out: string[], json: string, where: string, notes: Notes, section = '[json]'): void {
  const text = json.trim();
  const { diagnostics } = jsonParams({ text, range: range(0, 0, 0, 0), closed: true }, 0, { token: lineToken, range });
  const bad = diagnostics.find((d) => d.severity === 'error');
  if (bad || /^\s*###/m.test(text)) {
    const what = section === '[json]' ? 'the JSON body' : 'a WebSocket message';
    notes.add(
      `${where}: ${what} is not one JSON object TradeReq can send (${bad?.message ?? 'a line starts with ###'}); kept as a comment.`,
    );
    return comment(out, text, section === '[json]' ? 'body: ' : 'message: ');
  }
  out.push(section);
  for (const line of text.split(/\r?\n/)) out.push(line);
}

/** A stream name the parser reads as one under `[subscribe]`: one word, not a comment, section or directive. */
const STREAM_LINE = /^(?!#|\/\/|\[|@)\S+$/;

/** `[subscribe]` with its stream names, then one `[message]` section per message (docs/format.md, WebSocket requests). */
function wsSections(out: string[], ws: DraftWs, where: string, notes: Notes): void {
  const streams = ws.subscribe.filter((name) => {
    if (STREAM_LINE.test(name) && !hasUnclosedBraces(name)) return true;
    notes.add(`${where}: the stream name ${shown(name)} cannot be written under [subscribe]; kept as a comment.`);
    comment(out, `stream left out: ${name}`);
    return false;
  });
  if (streams.length > 0) out.push('[subscribe]');
  for (const name of streams) out.push(name);
  for (const message of ws.messages) jsonSection(out, message, where, notes, '[message]');
}

function titleLine(title: string | undefined): string {
  return title ? `### ${oneLine(title).trim()}` : '###';
}

/** A request whose request line the format cannot hold: every line of it as a comment. */
function commentedRequest(out: string[], request: DraftRequest, where: string, notes: Notes): void {
  notes.add(
    `${where}: ${shown(request.method + ' ' + request.target)} cannot be written as a request line; the request is kept as a comment.`,
  );
  const lines = [`${request.method} ${request.target}`];
  for (const h of request.headers) lines.push(`${h.name}: ${h.value}`);
  for (const l of request.lines) lines.push(l.kind === 'param' ? `${l.param.name} = ${l.param.value}` : `# ${l.text}`);
  if (request.json !== undefined) lines.push(request.json);
  for (const name of request.ws?.subscribe ?? []) lines.push(name);
  for (const message of request.ws?.messages ?? []) lines.push(message);
  out.push(titleLine(request.title));
  for (const c of request.comments) comment(out, c);
  comment(out, lines.join('\n'), '| ');
}

/** A request holds at most BOUNDS.paramsPerRequest parameters and BOUNDS.headersPerRequest headers: more is refused. */
function checkSize(request: DraftRequest, where: string): void {
  let params = 0;
  for (const l of request.lines) if (l.kind === 'param') params++;
  const what = `${where}: the request ${shown(request.title ?? `${request.method} ${request.target}`)} has`;
  const split = 'import it in parts, or write the request by hand';
  if (params > BOUNDS.paramsPerRequest)
    throw new ConvertError(
      `${what} ${params} parameters, more than the ${BOUNDS.paramsPerRequest} TradeReq writes in one request: ${split}`,
    );
  const wsItems = (request.ws?.subscribe.length ?? 0) + (request.ws?.messages.length ?? 0);
  if (wsItems > BOUNDS.paramsPerRequest)
    throw new ConvertError(
      `${what} ${wsItems} stream names and messages, more than the ${BOUNDS.paramsPerRequest} TradeReq writes in one request: ${split}`,
    );
  if (request.headers.length > BOUNDS.headersPerRequest)
    throw new ConvertError(
      `${what} ${request.headers.length} headers, more than the ${BOUNDS.headersPerRequest} TradeReq writes in one request: ${split}`,
    );
}

function headerLines(out: string[], request: DraftRequest, where: string, notes: Notes): void {
  for (const h of request.headers) {
    const problem = HEADER_NAME.test(h.name) ? lineValueProblem(h.value) : 'the name is not a header name';
    if (problem) {
      notes.add(`${where}: header ${shown(h.name)} left out as a comment: ${problem}.`);
      comment(out, `header left out: ${h.name}: ${h.value}`);
    } else out.push(`${h.name}: ${h.value.trim()}`);
  }
}

function requestLines(out: string[], request: DraftRequest, where: string, notes: Notes): void {
  // Refused before anything else reads a list that may be long.
  checkSize(request, where);
  dropCredentials(request, `${where}: ${shown(request.title ?? request.target)}`, notes);
  const target = request.target;
  const known = (METHODS as readonly string[]).includes(request.method) || request.method === WS_METHOD;
  if (!known || /\s/.test(target) || target.length === 0) return commentedRequest(out, request, where, notes);
  out.push(titleLine(request.title));
  if (request.name !== undefined) {
    if (REQUEST_NAME.test(request.name)) out.push(`# @name ${request.name}`);
    else notes.add(`${where}: the request name ${shown(request.name)} is not a valid name and is left out.`);
  }
  for (const d of request.directives) out.push(`# @${oneLine(d)}`);
  for (const c of request.comments) comment(out, c);
  out.push(`${request.method} ${target}`);
  headerLines(out, request, where, notes);
  paramSection(out, request, where, notes);
  if (request.json !== undefined) jsonSection(out, request.json, where, notes);
  if (request.ws) wsSections(out, request.ws, where, notes);
  for (const c of request.after) comment(out, c);
}

function variableLines(out: string[], file: DraftFile, where: string, notes: Notes): void {
  const seen = new Set<string>();
  const credentials: string[] = [];
  for (const v of file.variables) {
    if (isCredentialName(v.name)) {
      credentials.push(v.name);
      continue;
    }
    const problem = !VARIABLE_NAME.test(v.name)
      ? 'the name is not a variable name'
      : seen.has(v.name)
        ? 'it is defined twice'
        : lineValueProblem(v.value);
    if (problem) {
      notes.add(`${where}: variable ${shown(v.name)} left out as a comment: ${problem}.`);
      comment(out, `variable left out: @${v.name} = ${v.value}`);
    } else out.push(`@${v.name} = ${v.value.trim()}`.trimEnd());
    seen.add(v.name);
  }
  if (credentials.length > 0) notes.add(credentialNote(where, 'the variables', credentials));
}

/** The file's text; `where` names it in notes. */
export function renderFile(file: DraftFile, where: string, notes: Notes): string {
  const out: string[] = [];
  for (const c of file.comments) comment(out, c);
  variableLines(out, file, where, notes);
  for (const b of file.blocks) {
    if (out.length > 0) out.push('');
    if (isRequest(b)) requestLines(out, b, where, notes);
    else {
      out.push(titleLine(b.title));
      for (const l of b.lines) comment(out, l);
    }
  }
  const text = out.join('\n') + '\n';
  for (const d of parse(text).diagnostics) {
    if (d.severity === 'error') notes.add(`${where}:${d.range.startLine + 1}: ${d.message}`);
  }
  return text;
}

/** Names Windows gives to devices, with any extension and in any case (COM¹–COM³ and LPT¹–LPT³ too). */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i;
/** Characters a file name cannot hold on Windows (and `/` nowhere): `<>:"/\|?*` and control characters. */
// eslint-disable-next-line no-control-regex
const NOT_IN_FILE_NAMES = /[<>:"/\\|?*\u0000-\u001f\u007f]+/g;
const FILE_BASE_MAX = 100;

/**
 * `base` + `extension` as a file name every system can write: characters Windows refuses become
 * `-`, trailing dots and spaces go, a device name (con, nul, com1, …) gets a `_`, and the name is
 * at most 100 characters before its extension; `fallback` when nothing is left.
 */
export function portableFileName(base: string, extension: string, fallback = 'imported'): string {
  let name = base
    .normalize('NFC')
    .replace(NOT_IN_FILE_NAMES, '-')
    .slice(0, FILE_BASE_MAX)
    .trim()
    .replace(/[. ]+$/, '');
  if (name.length === 0 || /^[.-]*$/.test(name)) name = fallback;
  // Windows reads the part before the first dot, spaces trimmed, as the device name.
  const dot = name.indexOf('.');
  const head = (dot < 0 ? name : name.slice(0, dot)).trimEnd();
  if (WINDOWS_DEVICE.test(head)) name = head + '_' + (dot < 0 ? '' : name.slice(dot));
  return name + extension;
}
