/**
 * Completion inside WebSocket requests (stream names under `[subscribe]`: the kinds of the
 * environment's deployment, then its parameters in their order: symbols from the same source as
 * REST, depth levels, kline intervals, rates; the sections) and inside a
 * batchOrders list (the parameters of an order and their values). Pure, like completion.ts.
 */
import { findParam } from '../catalog/endpoints';
import { t } from '../l10n';
import { DEPLOYMENTS, deploymentOf } from '../catalog/deployment';
import { streamOfChannel, type StreamCatalog, type StreamDescription } from '../catalog/stream-names';
import type { EndpointInfo, ParamInfo } from '../catalog/types';
import { range, type Range, type RequestBlock } from '../format/model';
import { symbolCompletions, valuesFor, type CompletionContext, type CompletionEntry } from './completion-values';
import { paramMarkdown, streamMarkdown } from './markdown';

const STREAM_CHAR = /[\w.@-]/;

/** Below a WebSocket request line: sections after `[`, stream names under `[subscribe]`. */
export function wsCompletions(
  request: RequestBlock,
  lineText: string,
  line: number,
  character: number,
  ctx: CompletionContext,
): CompletionEntry[] {
  const before = lineText.slice(0, character);
  const section = sectionAt(request, line);
  if (/^\s*\[\w*$/.test(before) || (section === undefined && /^\s*\w*$/.test(before)))
    return wsSections(line, before.search(/\S|$/), character);
  if (section === 'subscribe') return streamCompletions(lineText, line, character, ctx);
  return [];
}

/** The section the line is under: the last section line above it. */
function sectionAt(request: RequestBlock, line: number): string | undefined {
  let kind: string | undefined;
  for (const s of request.sections) if (s.range.startLine < line) kind = s.kind;
  return kind;
}

function wsSections(line: number, start: number, character: number): CompletionEntry[] {
  const r = range(line, start, line, character);
  return [
    ['[subscribe]', t('one stream name a line, subscribed when the connection opens')],
    ['[message]', t('one JSON message, sent as written when the connection opens')],
  ].map(([label, detail], i) => ({ label: label!, kind: 'section', detail, range: r, sortText: `9${i}` }));
}

/** The stream name being written: its text up to the cursor, and where it starts and ends. */
function streamAt(lineText: string, character: number): { typed: string; start: number; end: number } | undefined {
  let start = character;
  while (start > 0 && STREAM_CHAR.test(lineText[start - 1]!)) start--;
  if (lineText.slice(0, start).trim() !== '') return undefined;
  let end = character;
  while (end < lineText.length && STREAM_CHAR.test(lineText[end]!)) end++;
  return { typed: lineText.slice(start, character), start, end };
}

/** The kind (channel) of a stream name being written, and which of its parameters the cursor is in. */
function streamPart(typed: string, catalogs: readonly StreamCatalog[]): { info?: StreamDescription; param: number } {
  const parts = typed.split('@');
  if (parts.length < 3) return { param: -1 };
  const channel = `${parts[0]}@${parts[1]}`;
  const info = catalogs.map((c) => streamOfChannel(channel, c)).find((s) => s !== undefined);
  return { ...(info !== undefined && { info }), param: parts.length - 3 };
}

function streamCompletions(
  lineText: string,
  line: number,
  character: number,
  ctx: CompletionContext,
): CompletionEntry[] {
  const at = streamAt(lineText, character);
  if (!at) return [];
  const deployment = deploymentOf(ctx.environment);
  const { info, param } = streamPart(at.typed, [deployment]);
  if (param < 0) return streamKinds(deployment, range(line, at.start, line, at.end));
  const p = info?.params[param];
  if (!info || !p) return [];
  const from = at.start + at.typed.lastIndexOf('@') + 1;
  const next = lineText.indexOf('@', from);
  const r = range(line, from, line, next >= 0 && next < at.end ? next : at.end);
  const more = param + 1 < info.params.length;
  const entries =
    p.name === 'symbol'
      ? symbolCompletions(r, ctx)
      : (p.values ?? []).map((v, i) => ({
          label: v.value,
          kind: 'value' as const,
          detail: t(v.description),
          range: r,
          sortText: String(i).padStart(2, '0'),
        }));
  return more ? entries.map((e) => ({ ...e, insertText: `${e.label}@`, retrigger: true })) : entries;
}

/** Every kind of stream of the deployment: public ones first; one with parameters leaves the list open for them. */
function streamKinds(deployment: StreamCatalog, r: Range): CompletionEntry[] {
  return deployment.streams.map((s, i) => ({
    label: s.params.length > 0 ? `${s.channel}@` : s.channel,
    kind: 'value',
    detail: [
      t(s.title),
      ...(s.visibility === 'private' ? [t('private'), t('needs # @listenKey')] : [t('public')]),
      s.template,
    ].join(' · '),
    documentation: streamMarkdown(s, undefined, deployment),
    range: r,
    sortText: String(i).padStart(2, '0'),
    ...(s.params.length > 0 && { retrigger: true }),
  }));
}

/**
 * Whether the cursor is where a symbol goes in a stream name (the shell then loads the symbols).
 * The deployments' channels differ, so the channel says where its symbol goes whatever the environment.
 */
export function streamSymbolAt(request: RequestBlock, lineText: string, line: number, character: number): boolean {
  if (sectionAt(request, line) !== 'subscribe') return false;
  const at = streamAt(lineText, character);
  if (!at) return false;
  const { info, param } = streamPart(at.typed, DEPLOYMENTS);
  return info?.params[param]?.name === 'symbol';
}

// ---------------------------------------------------------------------------------------------
// batchOrders: a JSON list of orders

interface Open {
  readonly kind: '{' | '[';
  /** The member name the container is the value of. */
  readonly key?: string;
  /** Offset of its bracket in the text. */
  readonly at: number;
}

/** The containers still open at the end of `text` (JSON, possibly cut anywhere), outermost first. */
export function openContainers(text: string): Open[] {
  const stack: Open[] = [];
  let inString = false;
  let str = '';
  let last: string | undefined;
  let key: string | undefined;
  for (let k = 0; k < text.length; k++) {
    const c = text[k]!;
    if (inString) {
      if (c === '\\') k++;
      else if (c === '"') [inString, last] = [false, str];
      else str += c;
    } else if (c === '"') [inString, str] = [true, ''];
    else if (c === ':') key = last;
    else if (c === '{' || c === '[') {
      stack.push({ kind: c, key, at: k });
      [key, last] = [undefined, undefined];
    } else if (c === '}' || c === ']') {
      stack.pop();
      key = undefined;
    } else if (c === ',') [key, last] = [undefined, undefined];
  }
  return stack;
}

/**
 * Inside an order of a batchOrders list: its parameter names at a key, its values after `"name": "`.
 * `text` is the JSON from where the list is written (a `batchOrders = ` value or a `[json]` body)
 * up to the cursor (`from`). Undefined when the cursor is not in an order of the list.
 */
export function orderListCompletions(
  endpoint: EndpointInfo | undefined,
  text: string,
  from: 'line' | 'json',
  line: number,
  character: number,
  ctx: CompletionContext,
): CompletionEntry[] | undefined {
  const list = endpoint?.params.find((p) => p.type === 'orderList');
  const open = openContainers(text);
  // The order is the innermost container: in the list (`[{`), itself the body's member (`{"batchOrders": [{`).
  const depth = from === 'line' ? 2 : 3;
  const inList =
    open.length === depth && open[depth - 2]!.kind === '[' && (from === 'line' || open[1]!.key === list?.name);
  if (!list?.itemParams || !inList || open[depth - 1]!.kind !== '{') return undefined;
  const order = text.slice(open[open.length - 1]!.at);
  const value = /"([\w.-]+)"\s*:\s*"([\w.-]*)$/.exec(order);
  if (value) {
    const info = list.itemParams.find((p) => p.name === value[1]);
    return valuesFor(info, value[1]!, range(line, character - value[2]!.length, line, character), ctx);
  }
  const key = /(^|[{,])\s*"([\w.-]*)$/.exec(order);
  if (!key) return [];
  const present = new Set([...order.matchAll(/"([\w.-]+)"\s*:/g)].map((m) => m[1]!));
  const r = range(line, character - key[2]!.length, line, character);
  return list.itemParams.filter((p) => !present.has(p.name)).map((p, i) => itemEntry(p, list, endpoint!, r, i));
}

function itemEntry(p: ParamInfo, list: ParamInfo, endpoint: EndpointInfo, r: Range, i: number): CompletionEntry {
  const order = findParam(endpoint, list.name);
  return {
    label: p.name,
    kind: 'parameter',
    detail: [
      p.required ? t('required in each order') : t('optional in each order'),
      p.type,
      ...(p.rule ? [t(p.rule)] : []),
    ].join(' · '),
    documentation: paramMarkdown(p, endpoint, order?.name ?? 'batchOrders'),
    range: r,
    sortText: `${p.required ? 0 : 1}${String(i).padStart(2, '0')}`,
  };
}
