/**
 * The shape every importer fills and the writer turns into `.tradereq` text (docs/format.md): one
 * request as the format holds it, with the comments that say what changed on the way.
 */
import type { Placement } from '../format/model';
import { FORM_CONTENT_TYPE, JSON_CONTENT_TYPE } from '../request/build';

export interface DraftParam {
  readonly name: string;
  /** Raw, not percent-encoded: TradeReq encodes strictly itself (docs/format.md). */
  readonly value: string;
  readonly placement: Placement;
}

/** A parameter line, or a comment standing where a parameter was left out. */
export type DraftLine =
  | { readonly kind: 'param'; readonly param: DraftParam }
  | { readonly kind: 'comment'; readonly placement: Placement; readonly text: string };

interface DraftHeader {
  readonly name: string;
  readonly value: string;
}

export interface DraftRequest {
  title?: string;
  /** For `# @name`; the writer leaves it out when it is not a valid name. */
  name?: string;
  /** Directives without `# @`, e.g. `signed`, `expect status 200`. */
  readonly directives: string[];
  /** Comment lines above the request line (text only; the writer adds `# `). */
  readonly comments: string[];
  readonly method: string;
  /** A path starting with `/`, a full `http(s)://` URL, or `{{variable}}/path`. */
  target: string;
  readonly headers: DraftHeader[];
  readonly lines: DraftLine[];
  /** A `[json]` body, sent byte for byte as written. */
  json?: string;
  /** A WebSocket request's `[subscribe]` stream names and `[message]` objects (docs/format.md, WebSocket requests). */
  ws?: DraftWs;
  /** Comment lines below the request (response scripts and the like). */
  readonly after: string[];
}

export interface DraftWs {
  readonly subscribe: string[];
  readonly messages: string[];
}

/** A `###` block of comments only: a request the format cannot hold, kept as its source text. */
interface DraftNote {
  readonly title?: string;
  readonly lines: string[];
}

export type DraftBlock = DraftRequest | DraftNote;

export function isRequest(block: DraftBlock): block is DraftRequest {
  return 'method' in block;
}

export interface DraftFile {
  /** Comment lines at the top of the file. */
  readonly comments: string[];
  readonly variables: { readonly name: string; readonly value: string }[];
  readonly blocks: DraftBlock[];
}

export function newRequest(method: string, target: string): DraftRequest {
  return { directives: [], comments: [], method, target, headers: [], lines: [], after: [] };
}

export function params(request: DraftRequest): DraftParam[] {
  const out: DraftParam[] = [];
  for (const l of request.lines) if (l.kind === 'param') out.push(l.param);
  return out;
}

export function addParam(request: DraftRequest, name: string, value: string, placement: Placement): void {
  request.lines.push({ kind: 'param', param: { name, value, placement } });
}

/** Keeps the lines `keep` accepts, in order, and returns those taken out (a loop: the list may be long). */
export function filterLines(request: DraftRequest, keep: (l: DraftLine) => boolean): DraftLine[] {
  const kept: DraftLine[] = [];
  const removed: DraftLine[] = [];
  for (const l of request.lines) (keep(l) ? kept : removed).push(l);
  request.lines.length = 0;
  for (const l of kept) request.lines.push(l);
  return removed;
}

export function addLeftOut(request: DraftRequest, placement: Placement, text: string): void {
  request.lines.push({ kind: 'comment', placement, text });
}

/** The Content-Type TradeReq sends for this request's body (timestamp and signature aside: TradeReq places its own). */
export function sentContentType(request: DraftRequest): string {
  const form = params(request).some((p) => p.placement === 'body' && p.name !== 'timestamp' && p.name !== 'signature');
  return request.json === undefined && form ? FORM_CONTENT_TYPE : JSON_CONTENT_TYPE;
}
