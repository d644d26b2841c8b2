/**
 * Completion from the document model: what fits at a position, from the catalog, the environment
 * and the file. Pure and fast: it reads the one request around the cursor, never the whole file.
 */
import { DIRECTIVES } from '../format/directives';
import { t } from '../l10n';
import {
  METHODS,
  isWebSocket,
  range,
  requestInBlock,
  type Range,
  type RequestBlock,
  type Token,
  type TradeReqDocument,
} from '../format/model';
import { SYSTEM_VARIABLES } from '../format/variables';
import { findParam, type EndpointCatalog } from '../catalog/endpoints';
import { endpointsOf } from '../catalog/endpoint-catalogs';
import type { EndpointInfo } from '../catalog/types';
import { expectationCompletions, requestPushPaths } from './expectation-help';
import { deploymentOf } from '../catalog/deployment';
import { paramMarkdown, sourceNote } from './markdown';
import { orderListCompletions, streamSymbolAt, wsCompletions } from './stream-completion';
import { requestSnippetCompletions } from './request-snippets';
import { valuesFor, wordRange, wordStart, type CompletionContext, type CompletionEntry } from './completion-values';

export type { AnswerPath, CompletionContext, CompletionEntry, CompletionKind, SymbolEntry } from './completion-values';

export function completionsAt(
  doc: TradeReqDocument,
  lineText: string,
  line: number,
  character: number,
  ctx: CompletionContext,
): CompletionEntry[] {
  const before = lineText.slice(0, character);

  // {{ without its closing braces before the cursor: variables.
  const open = before.lastIndexOf('{{');
  if (open >= 0 && before.indexOf('}}', open) < 0)
    return variableCompletions(doc, lineText, line, open + 2, character, ctx);

  // # @ at the start of a comment: directives.
  const directive = /^\s*(#|\/\/)\s*@([\w-]*)$/.exec(before);
  if (directive) return directiveCompletions(line, lineText, character);
  if (/^\s*(#|\/\/)/.test(before)) return commentCompletions(doc, before, line, character, ctx);

  const request = requestInBlock(doc, line);
  const catalog = endpointsOf(ctx.environment);
  if (!request || line < request.requestLine.range.startLine) {
    // No request line yet in this block: methods and request snippets where a request line fits.
    if (/^\s*[A-Za-z]*$/.test(before))
      return [
        ...methodCompletions(line, lineText, character, catalog),
        ...(request ? [] : requestSnippetCompletions(doc, line, wordRange(line, lineText, character))),
      ];
    // A method and a space: the line is not a request line until its path starts, so offer paths here.
    const method = /^\s*([A-Za-z]+)\s+$/.exec(before)?.[1]?.toUpperCase();
    if (method && (METHODS as readonly string[]).includes(method))
      return pathCompletions(method, range(line, character, line, character), catalog);
    return [];
  }
  if (line === request.requestLine.range.startLine)
    return requestLineCompletions(request, lineText, line, character, catalog);
  if (isWebSocket(request)) return wsCompletions(request, lineText, line, character, ctx);

  const endpoint = catalog.find(request.requestLine.method.text, request.requestLine.path.text.split('?')[0]!);

  if (request.json && line >= request.json.range.startLine && line <= request.json.range.endLine) {
    return jsonCompletions(request, endpoint, lineText, line, character, ctx);
  }

  // [ at the start of a line: sections.
  if (/^\s*\[\w*$/.test(before)) return sectionCompletions(request, line, lineText, character);

  const eq = before.indexOf('=');
  if (eq < 0) {
    if (/^\s*[\w.-]*$/.test(before))
      return [
        ...parameterCompletions(request, endpoint, line, lineText, character),
        ...sectionCompletions(request, line, lineText, character, true),
      ];
    return [];
  }
  const name = before.slice(0, eq).trim();
  if (endpoint && findParam(endpoint, name)?.type === 'orderList')
    return orderListCompletions(endpoint, before.slice(eq + 1), 'line', line, character, ctx) ?? [];
  return valueCompletions(endpoint, name, line, lineText, character, ctx);
}

/** In a comment, only an `# @expect` line is completed: its kinds, paths and operators. */
function commentCompletions(
  doc: TradeReqDocument,
  before: string,
  line: number,
  character: number,
  ctx: CompletionContext,
): CompletionEntry[] {
  const request = requestInBlock(doc, line);
  const ws = request !== undefined && isWebSocket(request);
  const pushes = ws ? requestPushPaths(request, deploymentOf(ctx.environment)) : [];
  return expectationCompletions(before, line, character, ws, request && ctx.answerPaths?.(request), pushes) ?? [];
}

function methodCompletions(
  line: number,
  lineText: string,
  character: number,
  catalog: EndpointCatalog,
): CompletionEntry[] {
  const r = wordRange(line, lineText, character);
  const methods: CompletionEntry[] = METHODS.map((m, i) => ({
    label: m,
    kind: 'method',
    insertText: m + ' ',
    detail: t('request line'),
    range: r,
    sortText: `1${i}`,
  }));
  const endpoints: CompletionEntry[] = catalog.endpoints.map((e, i) => ({
    label: `${e.method} ${e.path}`,
    kind: 'snippet',
    insertText: `${e.method} ${e.path}\n${e.params
      .filter((p) => p.required && !p.addedBySigner)
      .map((p, k) => `${p.name} = \${${k + 1}}`)
      .join('\n')}`,
    snippet: true,
    detail: t(e.title),
    documentation: `${t(e.description)}${e.source === 'assumed' ? `\n\n${sourceNote('assumed')}` : ''}`,
    range: r,
    sortText: `2${String(i).padStart(2, '0')}`,
  }));
  return [...methods, ...endpoints];
}

function requestLineCompletions(
  request: RequestBlock,
  lineText: string,
  line: number,
  character: number,
  catalog: EndpointCatalog,
): CompletionEntry[] {
  const rl = request.requestLine;
  if (character <= rl.method.range.endChar) return methodCompletions(line, lineText, character, catalog);
  if (isWebSocket(request)) {
    const r = range(
      line,
      Math.min(rl.target.range.startChar, character),
      line,
      Math.max(character, rl.path.range.endChar),
    );
    return [{ label: '/ws', kind: 'path', detail: t("the environment's WebSocket endpoint (its wsUrl)"), range: r }];
  }
  const q = lineText.indexOf('?', rl.target.range.startChar);
  if (q >= 0 && character > q) {
    // Inline query: parameter names after ? or &.
    const before = lineText.slice(0, character);
    if (/[?&][\w.-]*$/.test(before)) {
      const endpoint = catalog.find(rl.method.text, rl.path.text);
      return parameterCompletions(request, endpoint, line, lineText, character, '=');
    }
    return [];
  }
  const start = rl.target.range.startChar;
  return pathCompletions(
    rl.method.text.toUpperCase(),
    range(line, Math.min(start, character), line, Math.max(character, rl.path.range.endChar)),
    catalog,
  );
}

/** Known paths, those the method goes with first; each replaces `r`. */
function pathCompletions(method: string, r: Range, catalog: EndpointCatalog): CompletionEntry[] {
  const known = new Set(catalog.endpoints.filter((e) => e.method === method).map((e) => e.path));
  return catalog.paths.map((p) => {
    const e = catalog.find(method, p) ?? catalog.atPath(p)[0]!;
    return {
      label: p,
      kind: 'path',
      detail: known.has(p) ? t(e.title) : t('{0} (not with {1})', t(e.title), method),
      range: r,
      sortText: known.has(p) ? `1${p}` : `2${p}`,
    };
  });
}

function sectionCompletions(
  request: RequestBlock,
  line: number,
  lineText: string,
  character: number,
  bare = false,
): CompletionEntry[] {
  const start = bare ? wordStart(lineText, character) : lineText.lastIndexOf('[', character);
  const r = range(line, start, line, character);
  const hasJson = request.sections.some((s) => s.kind === 'json');
  const hasBody = request.sections.some((s) => s.kind === 'body');
  const sections: [string, string][] = [
    ['[query]', t('the parameters below go in the query string')],
    ['[body]', t('the parameters below go in the form body')],
    ['[json]', t('one JSON object follows, sent as application/json')],
  ];
  return sections
    .filter(([s]) => !(s === '[json]' && (hasJson || hasBody)) && !(s === '[body]' && hasJson))
    .map(([s, d], i) => ({ label: s, kind: 'section', detail: d, range: r, sortText: `9${i}` }));
}

/** Parameter names of the endpoint, required ones first, those already written left out. */
function parameterCompletions(
  request: RequestBlock,
  endpoint: EndpointInfo | undefined,
  line: number,
  lineText: string,
  character: number,
  separator = ' = ',
): CompletionEntry[] {
  if (!endpoint) return [];
  const present = new Set(request.params.filter((p) => p.range.startLine !== line).map((p) => p.name.text));
  const type = request.params.find((p) => p.name.text === 'type')?.value.text;
  const needed = new Set(endpoint.typeRequirements?.find((t) => t.type === type)?.required ?? []);
  const r = wordRange(line, lineText, character);
  return endpoint.params
    .filter((p) => !p.addedBySigner && !present.has(p.name))
    .map((p): CompletionEntry => {
      const required = p.required || needed.has(p.name);
      return {
        label: p.name,
        kind: 'parameter',
        insertText: p.name + separator,
        detail: [required ? t('required') : t('optional'), p.type, ...(p.rule ? [t(p.rule)] : [])].join(' · '),
        documentation: paramMarkdown(p, endpoint),
        sortText: `${required ? 0 : 1}${String(endpoint.params.indexOf(p)).padStart(2, '0')}`,
        range: r,
      };
    });
}

function valueCompletions(
  endpoint: EndpointInfo | undefined,
  name: string,
  line: number,
  lineText: string,
  character: number,
  ctx: CompletionContext,
): CompletionEntry[] {
  const info = endpoint?.params.find((p) => p.name === name);
  const r = wordRange(line, lineText, character);
  return valuesFor(info, name, r, ctx);
}

function directiveCompletions(line: number, lineText: string, character: number): CompletionEntry[] {
  const r = wordRange(line, lineText, character);
  return DIRECTIVES.map((d, i) => ({
    label: d.name,
    kind: 'directive',
    detail: d.usage,
    documentation: t(d.description),
    range: r,
    sortText: String(i).padStart(2, '0'),
  }));
}

function variableCompletions(
  doc: TradeReqDocument,
  lineText: string,
  line: number,
  nameStart: number,
  character: number,
  ctx: CompletionContext,
): CompletionEntry[] {
  let end = character;
  while (end < lineText.length && /[\w.$-]/.test(lineText[end]!)) end++;
  const closing = lineText.startsWith('}}', end) ? '' : '}}';
  const start =
    nameStart + (lineText.slice(nameStart, character).length - lineText.slice(nameStart, character).trimStart().length);
  const r = range(line, start, line, end);
  const out: CompletionEntry[] = [];
  const add = (label: string, detail: string, documentation: string | undefined, sort: string): void => {
    out.push({
      label,
      kind: 'variable',
      insertText: label + closing,
      detail,
      documentation,
      range: r,
      sortText: sort + label,
    });
  };
  const fileNames = new Set<string>();
  for (const v of doc.variables) {
    if (fileNames.has(v.name.text)) continue;
    fileNames.add(v.name.text);
    add(v.name.text, t('file variable = {0}', v.value.text), undefined, '0');
  }
  for (const [name, value] of Object.entries(ctx.environment.variables ?? {})) {
    if (!fileNames.has(name))
      add(name, t('environment {0} = {1}', ctx.environment.name, String(value)), undefined, '1');
  }
  for (const s of SYSTEM_VARIABLES) add(s.name, t('system variable'), t(s.description), '2');
  for (const r2 of doc.requests) {
    if (!r2.name) continue;
    const entry = responseVariable(r2.name);
    out.push({
      label: entry.label,
      kind: 'variable',
      insertText: entry.label + closing,
      detail: t('a field of the last response of "{0}"', r2.name.text),
      documentation: t('e.g. `orderId`, `symbol`; deeper paths with `a.b[0]`'),
      range: r,
      sortText: entry.sortText,
    });
  }
  return out;
}

/** A named request's entry text, made once per name: reparse keeps the requests an edit did not touch. */
const responseVariables = new WeakMap<Token, { label: string; sortText: string }>();

function responseVariable(name: Token): { label: string; sortText: string } {
  let entry = responseVariables.get(name);
  if (!entry) {
    const label = `${name.text}.response.`;
    entry = { label, sortText: '3' + label };
    responseVariables.set(name, entry);
  }
  return entry;
}

/** In a `[json]` body: member names of the endpoint, and values for the member being written. */
function jsonCompletions(
  request: RequestBlock,
  endpoint: EndpointInfo | undefined,
  lineText: string,
  line: number,
  character: number,
  ctx: CompletionContext,
): CompletionEntry[] {
  const before = lineText.slice(0, character);
  const inOrder = orderListCompletions(endpoint, jsonBefore(request, before, line), 'json', line, character, ctx);
  if (inOrder) return inOrder;
  const value = /"([\w.-]+)"\s*:\s*"([\w.-]*)$/.exec(before);
  if (value) {
    const info = endpoint?.params.find((p) => p.name === value[1]);
    return valuesFor(info, value[1]!, range(line, character - value[2]!.length, line, character), ctx);
  }
  const key = /(^|[{,])\s*"([\w.-]*)$/.exec(before);
  if (key && endpoint) {
    const present = new Set(request.params.filter((p) => p.origin === 'json').map((p) => p.name.text));
    const r = range(line, character - key[2]!.length, line, character);
    return endpoint.params
      .filter((p) => !p.addedBySigner && !present.has(p.name))
      .map((p) => ({
        label: p.name,
        kind: 'parameter',
        detail: `${p.required ? t('required') : t('optional')} · ${p.type}`,
        documentation: paramMarkdown(p, endpoint),
        range: r,
        sortText: `${p.required ? 0 : 1}${p.name}`,
      }));
  }
  return [];
}

/** The `[json]` body from its `{` to the cursor: its lines above the cursor's, then the cursor's line up to it. */
function jsonBefore(request: RequestBlock, before: string, line: number): string {
  const json = request.json!;
  const k = line - json.range.startLine;
  const above = json.text.split('\n', k);
  return [...above, k === 0 ? before.slice(json.range.startChar) : before].join('\n');
}

/**
 * Whether symbols are wanted at the cursor: after `symbol =` or `"symbol": "` (also in an order of
 * batchOrders), or where a symbol goes in a stream name. The editor loads them only then.
 */
export function wantsSymbols(doc: TradeReqDocument, lineText: string, line: number, character: number): boolean {
  if (/(^|["\s])symbol"?\s*[=:]\s*"?[\w]*$/.test(lineText.slice(0, character))) return true;
  const request = requestInBlock(doc, line);
  return request !== undefined && isWebSocket(request) && streamSymbolAt(request, lineText, line, character);
}
