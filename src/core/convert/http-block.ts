/**
 * One `###` block of a `.http` / `.rest` file (REST Client, httpYac, JetBrains HTTP client) read
 * into a draft request. One small reader per construct; whatever has no counterpart in TradeReq
 * is kept as a comment and noted.
 */
import { addParam, newRequest, sentContentType, type DraftRequest } from './draft';
import {
  credentialNote,
  isApiKeyHeader,
  isCredentialHeader,
  isCredentialName,
  withoutCredentialLines,
} from './credential-like';
import { Notes, REQUEST_NAME, looksLikeForm, requestNameFrom, shown, splitPairs } from './common';
import { httpYacAssert } from './httpyac-asserts';
import { mapVariables } from './foreign-variables';
import { WS_METHOD } from '../format/model';
import { isWebSocketLine, readWsBody, readWsHeaders, readWsUrl, type WsContext } from './http-ws';

export interface BlockContext {
  readonly notes: Notes;
  /** The source file's name, for notes with its line numbers. */
  readonly sourceName: string;
  /** `@name = value` lines, from any block (TradeReq's file variables stand at the top). */
  readonly variables: { name: string; value: string; line: number }[];
  readonly apiKeyHeaders: Set<string>;
}

export interface BlockResult {
  request?: DraftRequest;
  /** The path for the endpoint catalog, when the request line names one. */
  path?: string;
  /** A cURL command standing for the request (REST Client reads them). */
  curl?: string;
  /** Comments of a block without a request (the file's top, usually). */
  readonly comments: string[];
  /** The block is a request TradeReq cannot send; `comments` hold its text. */
  leftOut?: boolean;
}

const HTTP_METHODS = /^(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS|CONNECT|TRACE)$/i;
const OTHER_PROTOCOLS = /^(GRPC|GRAPHQL|SSE|EVENTSOURCE|MQTT|MQTTS|AMQP|AMQPS)$/i;

/**
 * `METHOD URL [HTTP/1.1]` or a bare `URL [HTTP/1.1]`; the URL may hold `{{$processEnv NAME}}`
 * with its space. Scanned, not matched: the line is hostile input.
 */
function splitRequestLine(t: string): { method?: string; url: string } | undefined {
  const m = /^[A-Za-z]+(?=\s)/.exec(t);
  let k = m ? m[0].length : 0;
  while (k < t.length && /\s/.test(t[k]!)) k++;
  const start = k;
  while (k < t.length && !/\s/.test(t[k]!)) {
    const close = t.startsWith('{{', k) ? t.indexOf('}}', k + 2) : -1;
    k = close >= 0 ? close + 2 : k + 1;
  }
  const url = t.slice(start, k);
  const rest = t.slice(k).trim();
  if (url.length === 0 || (rest.length > 0 && !/^HTTP\/[\d.]+$/.test(rest))) return undefined;
  if (m) return { method: m[0], url };
  return /^(https?:\/\/|wss?:\/\/|\{\{)/i.test(url) ? { url } : undefined;
}

/** A `# @word args` / `// @word args` line (REST Client, httpYac, JetBrains); only @name and @note have counterparts. */
const DIRECTIVE = /^(?:#|\/\/)\s*@([A-Za-z][\w-]*)\s*(.*)$/;

type Phase = 'pre' | 'headers' | 'body';

export class BlockReader {
  private phase: Phase = 'pre';
  private i = 0;
  private request?: DraftRequest;
  /** The request is a WebSocket request (http-ws.ts), read from this line of the file. */
  private wsLine?: number;
  private url = '';
  private readonly body: string[] = [];
  private lastBlank = false;
  private readonly headers: { name: string; value: string; line: number }[] = [];
  /** `# @name` and the directives that map (`@note`, `??` assertions), for the request when it is read. */
  private pendingName?: string;
  private readonly pendingDirectives: string[] = [];
  /** `??` lines above the request line (by index in `lines`), read once the request's kind is known. */
  private readonly earlyAssertions: number[] = [];
  private readonly result: BlockResult = { comments: [] };

  constructor(
    private readonly lines: readonly string[],
    /** 1-based number of `lines[0]` in the file, for notes. */
    private readonly firstLine: number,
    private readonly title: string | undefined,
    private readonly ctx: BlockContext,
  ) {}

  private where(): string {
    return `${this.ctx.sourceName}:${this.firstLine + this.i}`;
  }

  private note(text: string): void {
    this.ctx.notes.add(`${this.where()}: ${text}`);
  }

  /** Text of the source kept as a comment, without the lines that set a credential (credential-like.ts). */
  private comment(text: string): void {
    const kept = this.withoutCredentials(text);
    if (this.request) (this.phase === 'body' ? this.request.after : this.request.comments).push(kept);
    else this.result.comments.push(kept);
  }

  private withoutCredentials(text: string): string {
    const scrubbed = withoutCredentialLines(text);
    if (scrubbed.names.length > 0)
      this.ctx.notes.add(credentialNote(this.where(), 'the lines that set', scrubbed.names));
    return scrubbed.text;
  }

  private mapped(text: string): string {
    return mapVariables(text, 'the .http file', this.where(), this.ctx.notes).text;
  }

  run(): BlockResult {
    for (this.i = 0; this.i < this.lines.length; this.i++) {
      const line = this.lines[this.i]!;
      if (this.script(line)) continue;
      if (this.phase === 'pre') this.pre(line);
      else if (this.phase === 'headers') this.header(line);
      else this.bodyLine(line);
      if (this.result.curl !== undefined) return this.result;
    }
    this.finish();
    return this.result;
  }

  /** Script blocks: `< {% %}` and `> {% %}` (JetBrains), `{{ }}` (httpYac); kept as comments. */
  private script(line: string): boolean {
    const t = line.trim();
    const jetbrains = /^[<>]\s*\{%/.test(t);
    const httpyac =
      t === '{{' || /^\{\{[@+]/.test(t) || (this.phase === 'pre' && /^\{\{\s/.test(t) && !splitRequestLine(t));
    if (!jetbrains && !httpyac) return false;
    const end = jetbrains ? '%}' : '}}';
    const start = this.i;
    const where = this.where();
    const closesHere = t.indexOf(end, jetbrains ? t.indexOf('{%') + 2 : 2) >= 0;
    while (!closesHere && this.i < this.lines.length - 1 && !this.lines[this.i]!.includes(end)) this.i++;
    if (!closesHere && !this.lines[this.i]!.includes(end)) this.i = this.lines.length - 1;
    const text = this.lines.slice(start, this.i + 1).join('\n');
    const kind = jetbrains
      ? t.startsWith('<')
        ? 'pre-request script'
        : 'response handler script'
      : 'httpYac script block';
    this.comment(
      `${kind} (no counterpart in TradeReq; kept as a comment):\n${text
        .split('\n')
        .map((l) => '| ' + l)
        .join('\n')}`,
    );
    this.ctx.notes.add(`${where}: the ${kind} has no counterpart and is kept as a comment.`);
    return true;
  }

  private pre(line: string): void {
    const t = line.trim();
    if (t.length === 0) return;
    if (t.startsWith('#') || t.startsWith('//')) return this.commentOrDirective(t);
    // httpYac reads an assertion anywhere in its region, above the request line too.
    if (t.startsWith('??')) return void this.earlyAssertions.push(this.i);
    const variable = /^@([^\s=:]+)\s*(:?=)\s*(.*)$/.exec(t);
    if (variable && isCredentialName(variable[1]!)) {
      this.note(`@${variable[1]} looks like a secret and is not copied: TradeReq sends keys from a key profile.`);
      return;
    }
    if (variable) {
      if (variable[2] === ':=')
        this.note(`@${variable[1]} := is evaluated as JavaScript by httpYac; TradeReq keeps the text as the value.`);
      this.ctx.variables.push({ name: variable[1]!, value: this.mapped(variable[3]!), line: this.firstLine + this.i });
      return;
    }
    if (/^curl(\s|$)/.test(t)) {
      this.result.curl = this.lines
        .slice(this.i)
        .filter((l) => !/^\s*(#|\/\/)/.test(l))
        .join('\n');
      return;
    }
    if (this.requestLine(t)) return;
    this.comment(`not understood: ${t}`);
    this.note('a line before the request line is not understood and is kept as a comment.');
  }

  private commentOrDirective(t: string): void {
    const d = DIRECTIVE.exec(t);
    if (!d) return this.comment(t.replace(/^(#+|\/\/)\s?/, ''));
    const [, name, args] = d;
    if (name === 'name' && this.request === undefined) {
      this.pendingName = args!.trim();
      return;
    }
    if (name === 'note') {
      this.pendingDirectives.push('confirm');
      return;
    }
    this.comment(`setting with no counterpart in TradeReq: @${name} ${args}`.trimEnd());
    this.note(`the setting @${name} has no counterpart and is kept as a comment.`);
  }

  /** `METHOD URL [HTTP/1.1]` or a bare URL (GET); WebSocket requests (http-ws.ts); other protocols are kept as comments. */
  private requestLine(t: string): boolean {
    const line = splitRequestLine(t);
    if (!line) return false;
    const method = (line.method ?? 'GET').toUpperCase();
    const ws = isWebSocketLine(method, line.url);
    if (!ws && OTHER_PROTOCOLS.test(method)) {
      this.rest(`${method} requests have no counterpart in a .tradereq file`);
      return true;
    }
    if (!ws && !HTTP_METHODS.test(method)) return false;
    if (!ws && !['GET', 'POST', 'PUT', 'DELETE'].includes(method)) {
      this.rest(`the service accepts GET, POST, PUT and DELETE (spec §4.1), not ${method}`);
      return true;
    }
    this.request = newRequest(ws ? WS_METHOD : method, '');
    if (ws) this.wsLine = this.firstLine + this.i;
    this.url = line.url;
    this.phase = 'headers';
    for (const c of this.result.comments.splice(0)) this.request.comments.push(c);
    this.readEarlyAssertions();
    return true;
  }

  /** The whole block as a comment: a request TradeReq cannot send. */
  private rest(reason: string): void {
    const text = this.lines.join('\n').trimEnd();
    this.result.comments.length = 0;
    this.result.comments.push(
      this.withoutCredentials(
        `left out (${reason}):\n${text
          .split('\n')
          .map((l) => '| ' + l)
          .join('\n')}`,
      ),
    );
    this.result.leftOut = true;
    this.note(`${reason}; the request is kept as a comment.`);
    this.request = undefined;
    this.i = this.lines.length;
  }

  private header(line: string): void {
    const t = line.trim();
    if (t.length === 0) {
      this.phase = 'body';
      this.lastBlank = true;
      return;
    }
    if (/^\s+[?&]/.test(line) && !line.includes(': ')) {
      this.url += t;
      return;
    }
    if (t.startsWith('#') || t.startsWith('//')) return this.commentOrDirective(t);
    const h = /^([A-Za-z0-9][A-Za-z0-9!#$%&'*+.^_`|~-]*)\s*:\s*(.*)$/.exec(t);
    if (h) {
      this.headers.push({ name: h[1]!, value: h[2]!, line: this.firstLine + this.i });
      return;
    }
    this.phase = 'body';
    this.bodyLine(line);
  }

  private bodyLine(line: string): void {
    const t = line.trim();
    if (/^>>!?\s/.test(t) || /^<>\s/.test(t) || /^>\s/.test(t)) {
      this.comment(`no counterpart in TradeReq: ${t}`);
      this.note(
        `${t.split(/\s/)[0]} (response handler, output file or response reference) has no counterpart and is kept as a comment.`,
      );
    } else if (t.startsWith('??')) this.assertion(t);
    else if ((t.startsWith('#') || t.startsWith('//')) && (this.body.length === 0 || this.lastBlank))
      this.commentOrDirective(t);
    else if (this.body.length === 0 && /^<@?\s/.test(t)) this.rest('a body read from a file has no counterpart');
    else if (t.length > 0 || this.body.length > 0) this.body.push(line);
    this.lastBlank = t.length === 0;
  }

  /** The `??` lines above the request line, with their own line numbers in the notes. */
  private readEarlyAssertions(): void {
    const at = this.i;
    for (const i of this.earlyAssertions) {
      this.i = i;
      this.assertion(this.lines[i]!.trim());
    }
    this.i = at;
  }

  /** httpYac's `??` assertions become `# @expect` lines where they have an exact counterpart (httpyac-asserts.ts). */
  private assertion(t: string): void {
    if (this.wsLine !== undefined) {
      this.comment(`assertion with no counterpart for a WebSocket request: ${t}`);
      this.note('an httpYac assertion on a WebSocket request has no counterpart and is kept as a comment.');
      return;
    }
    const mapped = httpYacAssert(t);
    if (mapped.ok) return void this.pendingDirectives.push(mapped.value);
    this.comment(`assertion with no counterpart in TradeReq: ${t}`);
    this.note(
      `the httpYac assertion ${shown(t, 80)} has no # @expect counterpart (${mapped.error}) and is kept as a comment.`,
    );
  }

  private finish(): void {
    const request = this.request;
    if (!request) {
      for (const i of this.earlyAssertions)
        this.result.comments.push(`assertion of no request: ${this.lines[i]!.trim()}`);
      const first = this.earlyAssertions[0];
      if (first !== undefined)
        this.ctx.notes.add(
          `${this.ctx.sourceName}:${this.firstLine + first}: httpYac assertions of no request are kept as comments.`,
        );
      if (this.pendingName !== undefined)
        this.ctx.notes.add(`${this.ctx.sourceName}: @name ${this.pendingName} names no request and is left out.`);
      return;
    }
    request.title = this.title;
    const name =
      this.pendingName ?? (this.title !== undefined && REQUEST_NAME.test(this.title) ? this.title : undefined);
    if (name !== undefined) request.name = REQUEST_NAME.test(name) ? name : requestNameFrom(name);
    if (name !== undefined && !REQUEST_NAME.test(name))
      this.note(`the request name "${name}" is written as ${request.name}.`);
    if (this.wsLine !== undefined) return this.finishWs(request, this.wsLine);
    for (const d of this.pendingDirectives) request.directives.push(d);
    this.readUrl(request);
    this.readBody(request);
    this.readHeaders(request);
    this.result.request = request;
  }

  /** A WebSocket request: its URL, messages and headers (http-ws.ts); `# @note` has no counterpart there. */
  private finishWs(request: DraftRequest, line: number): void {
    const ctx: WsContext = {
      where: `${this.ctx.sourceName}:${line}`,
      notes: this.ctx.notes,
      comment: (text, above) => (above ? request.comments : request.after).push(this.withoutCredentials(text)),
      mapped: (text) => this.mapped(text),
    };
    for (const d of this.pendingDirectives) {
      if (d !== 'confirm') request.directives.push(d);
      else {
        request.comments.push('setting with no counterpart for a WebSocket request: @note');
        this.ctx.notes.add(
          `${ctx.where}: @note (confirm before sending) has no counterpart for a WebSocket request and is kept as a comment.`,
        );
      }
    }
    readWsUrl(request, this.url, ctx);
    request.ws = { subscribe: [], messages: [] };
    readWsBody(request.ws, this.body, ctx);
    readWsHeaders(this.headers, this.ctx.apiKeyHeaders, ctx);
    this.result.request = request;
  }

  private readUrl(request: DraftRequest): void {
    const q = this.url.indexOf('?');
    let target = this.mapped(q < 0 ? this.url : this.url.slice(0, q));
    if (!/^(\/|\{\{|https?:\/\/)/i.test(target)) {
      this.ctx.notes.add(
        `${this.ctx.sourceName}: the URL ${target.slice(0, 60)} has no scheme; it is written with http://.`,
      );
      target = 'http://' + target;
    }
    request.target = target;
    for (const p of splitPairs(q < 0 ? '' : this.url.slice(q + 1)))
      addParam(request, p.name, this.mapped(p.value), 'query');
    const path = target.startsWith('/') ? target : /^https?:\/\/[^/]+(\/[^{]*)?$/i.exec(target)?.[1];
    if (path !== undefined || /^https?:\/\/[^/]+$/i.test(target)) this.result.path = path ?? '/';
  }

  private contentType(): string {
    return this.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value.toLowerCase() ?? '';
  }

  private readBody(request: DraftRequest): void {
    while (this.body.length > 0 && this.body[this.body.length - 1]!.trim() === '') this.body.pop();
    const text = this.body.join('\n').trim();
    if (text.length === 0) return;
    const type = this.contentType();
    const joined = this.body.map((l) => l.trim()).join('');
    if (type.includes('json') || (type === '' && text.startsWith('{'))) request.json = this.mapped(text);
    else if (type.includes('x-www-form-urlencoded') || (type === '' && looksLikeForm(joined)))
      for (const p of splitPairs(joined)) addParam(request, p.name, this.mapped(p.value), 'body');
    else {
      request.after.push(
        this.withoutCredentials(`body left out (${type || 'not a JSON object or form parameters'}):\n${text}`),
      );
      this.ctx.notes.add(
        `${this.ctx.sourceName}: a ${type || 'raw'} body has no counterpart and is kept as a comment.`,
      );
    }
  }

  private readHeaders(request: DraftRequest): void {
    const bodyType = sentContentType(request);
    for (const h of this.headers) {
      const where = `${this.ctx.sourceName}:${h.line}`;
      const lower = h.name.toLowerCase();
      if (isApiKeyHeader(h.name)) this.ctx.apiKeyHeaders.add(h.name);
      else if (isCredentialHeader(h.name))
        this.ctx.notes.add(`${where}: the ${h.name} header is a credential and is not copied.`);
      else if (lower === 'content-type') {
        if (h.value.split(';')[0]!.trim().toLowerCase() !== bodyType)
          this.ctx.notes.add(
            `${where}: Content-Type ${h.value} is not copied: TradeReq sends ${bodyType} for this body (spec §4.1 rule 7).`,
          );
      } else if (lower === 'host')
        this.ctx.notes.add(
          `${where}: the Host header (${h.value}) is not copied: the environment's baseUrl names the host.`,
        );
      else
        request.headers.push({
          name: h.name,
          value: mapVariables(h.value, 'the .http file', where, this.ctx.notes).text,
        });
    }
  }
}
