/**
 * From a request of a `.tradereq` file to the model a program is generated from (CodeRequest):
 * resolved as for sending (the same resolve step, the same environment), except what a program
 * must make when it runs. {{$timestamp}}, {{$uuid}} and {{$clientOrderId}} become run-time pieces,
 * and {{NAME.response.PATH}} a parameter of the program. Resolution runs with markers in their
 * place (digit strings, so a JSON body stays valid JSON), which are then cut back out into pieces.
 */
import { randomInt } from 'node:crypto';
import { DEFAULT_API_KEY_HEADER, type NamedEnvironment } from '../env/constants';
import { profileEnvPrefix } from '../env/keys';
import { isWebSocket, type RequestBlock, type TradeReqDocument } from '../format/model';
import { streamProgramNeeds, streamRequestFrom, type StreamCodeRequest } from './stream-program';
import type { ResolvedRequest } from '../format/resolve';
import { responseRequestName } from '../format/variables';
import { FORM_CONTENT_TYPE, JSON_CONTENT_TYPE } from '../request/build';
import { confirmationReason, describeOrder, fileAsksConfirmation } from '../request/confirm';
import { badInput, resolveIn, type PrepareFailure } from '../request/prepare';
import { err, ok, type Result } from '../result';
import type { CodeRequest, Confirmation, NamedValue, Piece, ProgramParameter, Value } from './program-model';
import { sandboxKeyNote, shownText } from './text';

/** A marker's digits: 16, below 2^53, so the timestamp marker survives String(Number). */
const MARKER_DIGITS = 16;
const PARAMETER_MAX = 64;

/** The pieces markers stand for, by marker text. */
class Markers {
  readonly pieces = new Map<string, Piece>();
  readonly timestamp: number;
  readonly uuid: string;
  readonly clientOrderId: string;
  private readonly parameters = new Map<string, { marker: string; parameter: ProgramParameter }>();

  constructor(private readonly taken: string) {
    this.timestamp = Number(this.fresh({ kind: 'timestamp' }));
    this.uuid = this.fresh({ kind: 'uuid' });
    this.clientOrderId = this.fresh({ kind: 'clientOrderId' });
  }

  /** A marker found nowhere in the file's or the environment's text, nor among the other markers. */
  private fresh(piece: Piece): string {
    for (;;) {
      let marker = String(randomInt(1, 9));
      while (marker.length < MARKER_DIGITS) marker += String(randomInt(0, 10));
      if (!this.taken.includes(marker) && !this.pieces.has(marker)) {
        this.pieces.set(marker, piece);
        return marker;
      }
    }
  }

  /** Any marker (digits only: nothing to escape), leftmost first. */
  pattern(): RegExp {
    return new RegExp([...this.pieces.keys()].join('|'), 'g');
  }

  /** The marker of the response field `ref` ({{NAME.response.PATH}}), declared once. */
  parameter(ref: string, requestName: string, path: string): string {
    const known = this.parameters.get(ref);
    if (known) return known.marker;
    const names = new Set([...this.parameters.values()].map((p) => p.parameter.name));
    const parameter = {
      name: parameterName(requestName, path, names),
      description: `${path} from the response of the request named ${requestName}`,
    };
    const marker = this.fresh({ kind: 'parameter', parameter: parameter.name });
    this.parameters.set(ref, { marker, parameter });
    return marker;
  }

  /** The parameters whose markers `used` holds, in the order they were declared. */
  declared(used: ReadonlySet<string>): ProgramParameter[] {
    return [...this.parameters.values()].filter((p) => used.has(p.parameter.name)).map((p) => p.parameter);
  }
}

/** NAME_PATH with every run of other characters as one `_`, starting with a letter, unique, at most 64 characters. */
function parameterName(requestName: string, path: string, taken: ReadonlySet<string>): string {
  const base =
    `${requestName}_${path}`
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^[^A-Za-z]+/, '')
      .replace(/_+$/, '')
      .slice(0, PARAMETER_MAX - 4) || 'response';
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  return name;
}

/** Every {{name}} of the environment's variables, trimmed as the resolver trims them. */
function environmentRefs(environment: NamedEnvironment): string[] {
  const out: string[] = [];
  for (const value of Object.values(environment.variables ?? {})) {
    for (const m of String(value).matchAll(/\{\{(.*?)\}\}/gs)) out.push(m[1]!.trim());
  }
  return out;
}

/**
 * Stand-in bodies of the responses the request reads: each field it reads holds the marker of its
 * parameter. Objects without a prototype, so a field named __proto__ is a field like any other.
 */
function responseBodies(
  doc: TradeReqDocument,
  request: RequestBlock,
  environment: NamedEnvironment,
  markers: Markers,
): Result<Map<string, Record<string, unknown>>, string> {
  const bodies = new Map<string, Record<string, unknown>>();
  const refs = [...request.variableRefs, ...doc.variableRefs].map((r) => r.name);
  for (const ref of [...refs, ...environmentRefs(environment)]) {
    const requestName = responseRequestName(ref);
    if (requestName === undefined) continue;
    const path = ref.slice(requestName.length + '.response.'.length);
    // As jsonPath walks it (src/core/format/json-value.ts).
    const parts = path
      .replace(/\[(\d+)\]/g, '.$1')
      .split('.')
      .filter((p) => p.length > 0);
    if (parts.length === 0) continue;
    let node = bodies.get(requestName) ?? (Object.create(null) as Record<string, unknown>);
    bodies.set(requestName, node);
    for (const part of parts.slice(0, -1)) {
      const next = node[part] ?? (Object.create(null) as Record<string, unknown>);
      if (typeof next !== 'object') return err(conflict(requestName));
      node = node[part] = next as Record<string, unknown>;
    }
    const leaf = parts[parts.length - 1]!;
    if (typeof node[leaf] === 'object') return err(conflict(requestName));
    node[leaf] = markers.parameter(ref, requestName, path);
  }
  return ok(bodies);
}

function conflict(requestName: string): string {
  return `the request reads a field of the response of "${requestName}" both as a value and as an object inside it: a program takes values only`;
}

/** The text of everything resolution may copy from: markers must not occur in it. */
function sourceText(doc: TradeReqDocument, request: RequestBlock, environment: NamedEnvironment): string {
  const parts = [
    environment.baseUrl,
    ...Object.values(environment.variables ?? {}).map(String),
    ...doc.variables.map((v) => v.value.text),
    request.requestLine.target.text,
    ...request.params.flatMap((p) => [p.name.text, p.value.text]),
    ...request.headers.flatMap((h) => [h.name.text, h.value.text]),
    request.json?.text ?? '',
  ];
  return parts.join('\n');
}

/** `text` cut at every marker into text and run-time pieces; `used` collects the parameters met. */
function piecesOf(text: string, markers: Markers, used: Set<string>): Value {
  const out: Piece[] = [];
  let last = 0;
  for (const m of text.matchAll(markers.pattern())) {
    const piece = markers.pieces.get(m[0])!;
    if (m.index > last) out.push({ kind: 'text', text: text.slice(last, m.index) });
    out.push(piece);
    if (piece.kind === 'parameter') used.add(piece.parameter);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

/** Whether any marker is in `text` (where a program can only hold fixed text). */
function holdsMarker(text: string, markers: Markers): boolean {
  return piecesOf(text, markers, new Set()).some((p) => p.kind !== 'text');
}

/** The key variables the program reads: the profile's pair (docs/format.md), else the generic pair. */
function keyEnvironment(profile: string | undefined): CodeRequest['keyEnv'] {
  const prefix = profile ? profileEnvPrefix(profile) : 'TRADEREQ_';
  return { apiKey: prefix + 'API_KEY', secretKey: prefix + 'SECRET_KEY' };
}

/** What a program needs when it runs, in a sentence: its key variables and its arguments; and whether it asks. */
export function programNeeds(model: CodeRequest | StreamCodeRequest): string {
  if ('kind' in model) return streamProgramNeeds(model);
  const demo = sandboxKeyNote(model);
  const keys = model.signed
    ? `It reads the keys from ${model.keyEnv.apiKey} and ${model.keyEnv.secretKey} and signs when it runs${demo ? ` (${demo})` : ''}`
    : 'It is not signed and needs no key';
  const args = model.parameters.length > 0 ? `; arguments: ${model.parameters.map((p) => p.name).join(' ')}` : '';
  const asks = model.confirm
    ? ` It asks before sending (${model.confirm.reason}): y/N in a terminal; without one it sends only with --yes.`
    : '';
  return `${keys}${args}.${asks}`;
}

/** The base URL and path: the environment's base URL (a base path included) and the request's path. */
function splitUrl(resolved: ResolvedRequest): { baseUrl: string; path: string } {
  const { url, path } = resolved;
  if (path.length > 0 && url.endsWith(path)) return { baseUrl: url.slice(0, url.length - path.length), path };
  return { baseUrl: resolved.origin, path: new URL(url).pathname };
}

/**
 * The request as a program must build it, or why it cannot be one (the first problem, located when
 * it is in the file). Nothing is sent and no key is read: the program reads its keys when it runs.
 */
export function codeRequestFrom(
  doc: TradeReqDocument,
  request: RequestBlock,
  environment: NamedEnvironment,
): Result<CodeRequest | StreamCodeRequest, PrepareFailure> {
  if (isWebSocket(request))
    return (
      streamRequestFrom(doc, request, environment) ??
      err(
        badInput(
          [],
          "with JSON pushes (the environment's deployment), a WebSocket request cannot become a program: Copy as code makes REST requests, and programs of WebSocket requests whose deployment pushes binary frames (mexc)",
        ),
      )
    );
  const markers = new Markers(sourceText(doc, request, environment));
  const bodies = responseBodies(doc, request, environment, markers);
  if (!bodies.ok) return err(badInput([], bodies.error));
  const resolved = resolveIn(doc, request, environment, {
    now: () => markers.timestamp,
    uuid: () => markers.uuid,
    clientOrderId: () => markers.clientOrderId,
    response: (name) => bodies.value.get(name),
  });
  if (!resolved.ok) return resolved;
  return assemble(resolved.value, markers);
}

function assemble(resolved: ResolvedRequest, markers: Markers): Result<CodeRequest, PrepareFailure> {
  const { baseUrl, path } = splitUrl(resolved);
  const fixed = [resolved.url, ...resolved.params.map((p) => p.name), ...resolved.headers.map((h) => h.name)];
  if (fixed.some((t) => holdsMarker(t, markers)))
    return err(
      badInput(
        [],
        'a program sends a fixed path and fixed names: {{$timestamp}}, {{$uuid}}, {{$clientOrderId}} and response fields may stand in values only',
      ),
    );
  const used = new Set<string>();
  const named = (list: readonly { name: string; value: string }[]): NamedValue[] =>
    list.map((p) => ({ name: p.name, value: piecesOf(p.value, markers, used) }));
  const query = named(resolved.params.filter((p) => p.placement === 'query'));
  const form = named(resolved.params.filter((p) => p.placement === 'body'));
  const json = resolved.json === undefined ? undefined : piecesOf(resolved.json, markers, used);
  const headers = named(resolved.headers);
  const request = resolved.request;
  return ok({
    title: request.title?.text || request.name?.text || `${resolved.method} ${path}`,
    method: resolved.method,
    baseUrl,
    path,
    query,
    form,
    ...(json === undefined ? {} : { json }),
    headers,
    // As src/core/request/build.ts chooses it.
    contentType: json !== undefined ? JSON_CONTENT_TYPE : form.length > 0 ? FORM_CONTENT_TYPE : JSON_CONTENT_TYPE,
    signed: resolved.signed,
    signaturePlacement: resolved.options.signaturePlacement,
    // As build.ts decides whether to add one: a parameter named timestamp as written.
    timestampWritten: request.params.some((p) => p.name.text === 'timestamp'),
    apiKeyHeader: resolved.environment.apiKeyHeader ?? DEFAULT_API_KEY_HEADER,
    keyEnv: keyEnvironment(resolved.keyProfile),
    parameters: markers.declared(used),
    ...(fileAsksConfirmation(resolved) ? { confirm: confirmation(resolved, markers) } : {}),
  });
}

/**
 * What the program shows before it asks: the order as `tradereq send` describes it, its text made
 * visible. The timestamp is read after the answer (a slow answer must not age it), so it shows as text.
 */
function confirmation(resolved: ResolvedRequest, markers: Markers): Confirmation {
  // Its fields are the request's own values: the parameters it meets are already declared.
  const order = piecesOf(describeOrder(resolved), markers, new Set()).map((p): Piece =>
    p.kind === 'text'
      ? { kind: 'text', text: shownText(p.text) }
      : p.kind === 'timestamp'
        ? { kind: 'text', text: '(the time of sending)' }
        : p,
  );
  // The program asks where the file asks; it cannot read the key's setting of the editor.
  return { reason: confirmationReason(resolved, undefined) ?? '', order };
}
