/**
 * Draft → `.tradereq` text (docs/format.md). Every line is checked against what the parser reads, so
 * a value the format cannot hold becomes a comment and a note instead of a broken file; the text
 * is parsed once more at the end, and whatever the parser still refuses is reported too.
 */
import { jsonParams } from '../format/json';
import { METHODS, lineToken, range } from '../format/model';
import { defaultPlacement, parse } from '../format/parser';
import { isRequest, type DraftFile, type DraftLine, type DraftRequest } from './draft';
import { Notes, REQUEST_NAME, oneLine, shown } from './values';

const VARIABLE_NAME = /^[A-Za-z_$][\w.$-]*$/;
const HEADER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
/** A name the parser would read as a header, comment, directive, variable or section instead. */
const NOT_A_PARAM_NAME = /^(#|\/\/|@|\[)|^[A-Za-z0-9][A-Za-z0-9_-]*[ \t]*:/;

/** `# text` lines; a line that would read as a directive (`@word`) is escaped. */
export function commentLines(text: string, prefix = ''): string[] {
  return text.split(/\r?\n/).map((raw) => {
    const line = prefix + oneLine(raw).trimEnd();
    if (line.length === 0) return '#';
    return /^\s*@[A-Za-z]/.test(line) ? `# \\${line.trimStart()}` : `# ${line}`;
  });
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

function paramLine(l: Extract<DraftLine, { kind: 'param' }>, where: string, notes: Notes): string[] {
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
    return commentLines(`left out (${problem}): ${name} = ${value}`);
  }
  if (value !== value.trim())
    notes.add(`${where}: the spaces around the value of "${name}" are not kept (TradeReq trims a value).`);
  const v = value.trim();
  return [v.length > 0 ? `${name} = ${v}` : `${name} =`];
}

/** Parameter lines grouped by placement, with section lines where the method's default differs. */
function paramSection(request: DraftRequest, where: string, notes: Notes): string[] {
  const fallback = defaultPlacement(request.method);
  const placementOf = (l: DraftLine): string => (l.kind === 'param' ? l.param.placement : l.placement);
  const query = request.lines.filter((l) => placementOf(l) === 'query');
  const body = request.lines.filter((l) => placementOf(l) === 'body');
  const hasParams = (ls: DraftLine[]): boolean => ls.some((l) => l.kind === 'param');
  const out: string[] = [];
  const emit = (ls: DraftLine[]): void => {
    for (const l of ls) out.push(...(l.kind === 'param' ? paramLine(l, where, notes) : commentLines(l.text)));
  };
  if (hasParams(query) && (fallback === 'body' || request.json !== undefined)) out.push('[query]');
  emit(query);
  if (hasParams(body) && (fallback === 'query' || hasParams(query))) out.push('[body]');
  emit(body);
  return out;
}

function jsonSection(json: string, where: string, notes: Notes): string[] {
  const text = json.trim();
  const { diagnostics } = jsonParams({ text, range: range(0, 0, 0, 0), closed: true }, 0, { token: lineToken, range });
  const bad = diagnostics.find((d) => d.severity === 'error');
  if (bad || /^\s*###/m.test(text)) {
    notes.add(
      `${where}: the JSON body is not one JSON object TradeReq can send (${bad?.message ?? 'a line starts with ###'}); kept as a comment.`,
    );
    return commentLines(text, 'body: ');
  }
  return ['[json]', ...text.split(/\r?\n/)];
}

/** A request whose request line the format cannot hold: every line of it as a comment. */
function commentedRequest(request: DraftRequest, where: string, notes: Notes): string[] {
  notes.add(
    `${where}: ${shown(request.method + ' ' + request.target)} cannot be written as a request line; the request is kept as a comment.`,
  );
  const lines = [
    `${request.method} ${request.target}`,
    ...request.headers.map((h) => `${h.name}: ${h.value}`),
    ...request.lines.map((l) => (l.kind === 'param' ? `${l.param.name} = ${l.param.value}` : `# ${l.text}`)),
    ...(request.json !== undefined ? [request.json] : []),
  ];
  return [
    request.title ? `### ${oneLine(request.title).trim()}` : '###',
    ...request.comments.flatMap((c) => commentLines(c)),
    ...commentLines(lines.join('\n'), '| '),
  ];
}

function requestLines(request: DraftRequest, where: string, notes: Notes): string[] {
  const target = request.target;
  if (!(METHODS as readonly string[]).includes(request.method) || /\s/.test(target) || target.length === 0)
    return commentedRequest(request, where, notes);
  const out: string[] = [request.title ? `### ${oneLine(request.title).trim()}` : '###'];
  if (request.name !== undefined) {
    if (REQUEST_NAME.test(request.name)) out.push(`# @name ${request.name}`);
    else notes.add(`${where}: the request name ${shown(request.name)} is not a valid name and is left out.`);
  }
  for (const d of request.directives) out.push(`# @${d}`);
  for (const c of request.comments) out.push(...commentLines(c));
  out.push(`${request.method} ${target}`);
  for (const h of request.headers) {
    const problem = HEADER_NAME.test(h.name) ? lineValueProblem(h.value) : 'the name is not a header name';
    if (problem) {
      notes.add(`${where}: header ${shown(h.name)} left out as a comment: ${problem}.`);
      out.push(...commentLines(`header left out: ${h.name}: ${h.value}`));
    } else out.push(`${h.name}: ${h.value.trim()}`);
  }
  out.push(...paramSection(request, where, notes));
  if (request.json !== undefined) out.push(...jsonSection(request.json, where, notes));
  for (const c of request.after) out.push(...commentLines(c));
  return out;
}

/** The file's text; `where` names it in notes. */
export function renderFile(file: DraftFile, where: string, notes: Notes): string {
  const out: string[] = [];
  for (const c of file.comments) out.push(...commentLines(c));
  const seen = new Set<string>();
  for (const v of file.variables) {
    const problem = !VARIABLE_NAME.test(v.name)
      ? 'the name is not a variable name'
      : seen.has(v.name)
        ? 'it is defined twice'
        : lineValueProblem(v.value);
    if (problem) {
      notes.add(`${where}: variable ${shown(v.name)} left out as a comment: ${problem}.`);
      out.push(...commentLines(`variable left out: @${v.name} = ${v.value}`));
    } else out.push(`@${v.name} = ${v.value.trim()}`.trimEnd());
    seen.add(v.name);
  }
  for (const b of file.blocks) {
    if (out.length > 0) out.push('');
    if (isRequest(b)) out.push(...requestLines(b, where, notes));
    else out.push(b.title ? `### ${oneLine(b.title).trim()}` : '###', ...b.lines.flatMap((l) => commentLines(l)));
  }
  const text = out.join('\n') + '\n';
  for (const d of parse(text).diagnostics) {
    if (d.severity === 'error') notes.add(`${where}:${d.range.startLine + 1}: ${d.message}`);
  }
  return text;
}
