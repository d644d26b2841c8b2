/**
 * Support for the conformance suite: an independent signer and an HTTP helper, and the sandbox
 * exchange started the way a user starts it (`node dist/cli.js sandbox --port 0 --json`).
 *
 * Nothing here comes from the project's own signing, request or format code (src/core/signing,
 * src/core/request, src/core/format): the percent-encoder, totalParams and the HMAC are written
 * again from the spec (§5 rules 3, 4, 6), so a mistake shared by the project and its sandbox cannot
 * hide behind a test that signs with the same code.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { createInterface } from 'node:readline';
import { Agent } from 'undici';
import { WebSocket } from 'ws';
import { signingVectors } from '../support/docs';
import { ensureBuilt } from '../support/build';

// ---------------------------------------------------------------------------------------------
// Independent signer (spec §5)

const UNRESERVED = /[A-Za-z0-9\-_.~]/;

/** Strict percent-encoding: every UTF-8 byte outside A-Z a-z 0-9 - _ . ~ as %XX, upper-case hex (§5 rule 6). */
export function strictEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && UNRESERVED.test(ch) ? ch : '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/** The loose encoding many clients use by mistake: leaves ! ' ( ) * unencoded (docs/service.md, Assumptions). */
export function looseEncode(text: string): string {
  return encodeURIComponent(text);
}

export type Pairs = ReadonlyArray<readonly [string, string]>;

/** name=value pairs joined with &, each side encoded with `encode`. */
export function form(pairs: Pairs, encode: (s: string) => string = strictEncode): string {
  return pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
}

/** §5 rule 4: the query string followed directly by the body, no separator, signature left out. */
export function totalParams(queryWithoutSignature: string, bodyWithoutSignature: string): string {
  return queryWithoutSignature + bodyWithoutSignature;
}

/** §5 rules 3 and 5: HMAC-SHA256, secret key as key, totalParams as message, lower-case hex. */
export function sign(secretKey: string, message: string): string {
  return createHmac('sha256', Buffer.from(secretKey, 'utf8')).update(Buffer.from(message, 'utf8')).digest('hex');
}

/** Wrong signatures, each a plausible mistake (§5 rule 3 says which one is right). */
export const WRONG_SIGNERS: Record<string, (secretKey: string, message: string) => string> = {
  'HMAC with key and message swapped': (s, m) => createHmac('sha256', m).update(s).digest('hex'),
  'plain SHA-256 of secret + message': (s, m) =>
    createHash('sha256')
      .update(s + m)
      .digest('hex'),
  'HMAC-SHA512 cut to 64 hex': (s, m) => createHmac('sha512', s).update(m).digest('hex').slice(0, 64),
  'HMAC-SHA1 padded to 64 hex': (s, m) => createHmac('sha1', s).update(m).digest('hex').padEnd(64, '0'),
};

/** The published vectors of the service family (test/fixtures/vectors/signing.json): the suite checks its own signer on them before trusting it. */
export const PUBLISHED_VECTORS = signingVectors();

function checkOwnSigner(): void {
  for (const v of PUBLISHED_VECTORS) assert.equal(sign(v.secretKey, totalParams(v.query, v.body)), v.signature);
  assert.equal(strictEncode("BEP20(BSC),a b~*!'é"), 'BEP20%28BSC%29%2Ca%20b~%2A%21%27%C3%A9');
}

// ---------------------------------------------------------------------------------------------
// HTTP (undici, to 127.0.0.1 only, raw paths: nothing re-encodes the query string)

/** A member of a JSON object answer; undefined when the answer is no object or lacks the member. */
export function field(json: unknown, name: string): unknown {
  return json !== null && typeof json === 'object' && !Array.isArray(json)
    ? (json as Record<string, unknown>)[name]
    : undefined;
}

/** An entry of GET /_sandbox/requests. */
interface LogEntry {
  method: string;
  path: string;
  status: number;
  code: number | null;
  time: number;
}

export interface Reply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON; read members with field(). */
  readonly json: unknown;
  /** `code` of an error body, or undefined. */
  readonly code: number | undefined;
}

const agents = new Map<string, Agent>();

function agentFor(from: string): Agent {
  let a = agents.get(from);
  if (a === undefined) {
    a = new Agent({ localAddress: from, keepAliveTimeout: 1000 });
    agents.set(from, a);
  }
  return a;
}

async function closeAgents(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.all(all.map((a) => a.close()));
}

interface RawRequest {
  readonly method: string;
  /** Path with its raw query string, sent byte for byte. */
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Local (source) address; a second loopback address is a second client IP. */
  readonly from?: string;
}

async function send(baseUrl: string, r: RawRequest): Promise<Reply> {
  const origin = new URL(baseUrl);
  assert.equal(origin.hostname, '127.0.0.1', 'the suite talks to 127.0.0.1 only');
  const res = await agentFor(r.from ?? '127.0.0.1').request({
    origin: origin.origin,
    path: r.path,
    method: r.method,
    headers: r.headers ?? {},
    body: r.body === undefined || r.body.length === 0 ? undefined : r.body,
  });
  const text = await res.body.text();
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers))
    if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const code = typeof field(json, 'code') === 'number' ? (field(json, 'code') as number) : undefined;
  return { status: res.statusCode, headers, text, json, code };
}

// ---------------------------------------------------------------------------------------------
// The sandbox, started as a user starts it

export interface DemoKey {
  readonly name: string;
  readonly apiKey: string;
  readonly secretKey: string;
  readonly permissions: readonly string[];
}

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
/** The ban scale the suite starts the sandbox with (bans of 2 min become 120 ms). */
export const BAN_SCALE = 0.001;

/** dist/ as `npm run build` writes it, made once for all the tests (test/support/build.ts). */
const build = ensureBuilt;

class SandboxProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
    /** The WebSocket endpoint the --json line names. */
    readonly wsUrl: string,
    readonly keys: readonly DemoKey[],
  ) {}

  static async start(extraArgs: string[] = []): Promise<SandboxProcess> {
    build();
    const child = spawn(
      process.execPath,
      [CLI, 'sandbox', '--port', '0', '--json', '--ban-scale', String(BAN_SCALE), ...extraArgs],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const line = await new Promise<string>((resolve, reject) => {
      const rl = createInterface({ input: child.stdout });
      const timer = setTimeout(
        () => reject(new Error(`the sandbox printed nothing in 15 s; stderr: ${stderr}`)),
        15_000,
      );
      rl.once('line', (l) => {
        clearTimeout(timer);
        rl.close();
        resolve(l);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the sandbox exited with ${code} before printing; stderr: ${stderr}`));
      });
    });
    child.stdout.resume();
    const info = JSON.parse(line) as { baseUrl: string; wsUrl: string; keys: DemoKey[] };
    return new SandboxProcess(child, info.baseUrl, info.wsUrl, info.keys);
  }

  key(name: 'trade' | 'readonly' | 'ipbound'): DemoKey {
    const k = this.keys.find((x) => x.name === name);
    assert.ok(k, `the sandbox prints no demo key "${name}"`);
    return k;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill('SIGTERM');
    });
  }
}

// ---------------------------------------------------------------------------------------------
// The per-file context: one sandbox per test file, reset before every test

type Placement = 'query' | 'body' | 'json';

interface SignedOptions {
  /** Where the parameters go (default: query for GET, body for the others). */
  readonly place?: Placement;
  /** Timestamp to send; null leaves it out. Default: now. */
  readonly timestamp?: number | null;
  readonly recvWindow?: number | string;
  /** Where the signature goes (default query). */
  readonly signatureIn?: 'query' | 'body';
  readonly from?: string;
  /** Overrides the signature (for refusals). */
  readonly signature?: string;
  /** Header with the key; null sends no key header. Default X-SERVICE-APIKEY. */
  readonly apiKeyHeader?: string | null;
  /** Key sent (default the signing key's apiKey). */
  readonly apiKey?: string;
}

export interface Conformance {
  readonly sandbox: SandboxProcess;
  send(r: RawRequest): Promise<Reply>;
  /** An unsigned request with `pairs` in the query string. */
  get(path: string, pairs?: Pairs, from?: string): Promise<Reply>;
  /** A signed request: parameters placed as asked, timestamp added last, signed with the own signer. */
  signed(key: DemoKey, method: string, path: string, pairs: Pairs, options?: SignedOptions): Promise<Reply>;
  control(path: string, body?: unknown): Promise<Reply>;
  /** The API requests the sandbox saw since the last reset. */
  requests(): Promise<LogEntry[]>;
}

export function withSignature(text: string, signature: string): string {
  return text.length === 0 ? `signature=${signature}` : `${text}&signature=${signature}`;
}

/** Registers before/after/beforeEach hooks in the calling describe; the returned object is live. */
export function useSandbox(): Conformance {
  let sandbox: SandboxProcess | undefined;
  const ctx: Conformance = {
    get sandbox(): SandboxProcess {
      assert.ok(sandbox, 'sandbox not started');
      return sandbox;
    },
    send: (r) => send(ctx.sandbox.baseUrl, r),
    get: (path, pairs = [], from) =>
      ctx.send({ method: 'GET', path: pairs.length > 0 ? `${path}?${form(pairs)}` : path, ...(from ? { from } : {}) }),
    async signed(key, method, path, pairs, o = {}) {
      const place = o.place ?? (method === 'GET' ? 'query' : 'body');
      const all: [string, string][] = pairs.map(([k, v]) => [k, v]);
      if (o.recvWindow !== undefined) all.push(['recvWindow', String(o.recvWindow)]);
      if (o.timestamp !== null) all.push(['timestamp', String(o.timestamp ?? Date.now())]);
      let query = '';
      let body = '';
      const headers: Record<string, string> = {};
      if (place === 'query') query = form(all);
      else if (place === 'body') {
        body = form(all);
        headers['Content-Type'] = 'application/x-www-form-urlencoded';
      } else {
        body = JSON.stringify(Object.fromEntries(all));
        headers['Content-Type'] = 'application/json';
      }
      const signature = o.signature ?? sign(key.secretKey, totalParams(query, body));
      if ((o.signatureIn ?? 'query') === 'query' || place === 'json') query = withSignature(query, signature);
      else body = withSignature(body, signature);
      if (o.apiKeyHeader !== null) headers[o.apiKeyHeader ?? 'X-SERVICE-APIKEY'] = o.apiKey ?? key.apiKey;
      return ctx.send({
        method,
        path: query.length > 0 ? `${path}?${query}` : path,
        headers,
        body,
        ...(o.from ? { from: o.from } : {}),
      });
    },
    control: (path, body = {}) =>
      ctx.send({
        method: path === '/_sandbox/requests' ? 'GET' : 'POST',
        path,
        headers: { 'Content-Type': 'application/json' },
        body: path === '/_sandbox/requests' ? '' : JSON.stringify(body),
      }),
    async requests() {
      const r = await ctx.control('/_sandbox/requests');
      assert.equal(r.status, 200);
      assert.ok(Array.isArray(r.json), describeReply(r));
      return r.json as LogEntry[];
    },
  };
  before(async function () {
    this.timeout(60_000);
    checkOwnSigner();
    sandbox = await SandboxProcess.start();
  });
  after(async () => {
    await closeAgents();
    await sandbox?.stop();
  });
  beforeEach(async () => {
    const r = await ctx.control('/_sandbox/reset');
    assert.equal(r.status, 200, `reset failed: ${r.text}`);
  });
  return ctx;
}

// ---------------------------------------------------------------------------------------------
// Small domain helpers (shapes assumed from docs/service.md, Assumptions)

/** A LIMIT BUY that rests on BTCUSDT (the house asks start above 30000). */
export function orderPairs(quantity = '0.001', price = '20000', symbol = 'BTCUSDT'): [string, string][] {
  return [
    ['symbol', symbol],
    ['side', 'BUY'],
    ['type', 'LIMIT'],
    ['quantity', quantity],
    ['price', price],
  ];
}

export function describeReply(r: Reply): string {
  return `${r.status} ${r.text.slice(0, 300)}`;
}

/** Polls `probe` until `done` holds or the deadline passes; no fixed sleep beyond the poll gap. */
export async function pollUntil<T>(
  probe: () => Promise<T>,
  done: (t: T) => boolean,
  deadlineMs: number,
  gapMs = 5,
): Promise<{ value: T; elapsedMs: number }> {
  const start = Date.now();
  for (;;) {
    const value = await probe();
    if (done(value)) return { value, elapsedMs: Date.now() - start };
    if (Date.now() - start > deadlineMs)
      throw new Error(`condition not met within ${deadlineMs} ms; last: ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, gapMs));
  }
}

/** A decimal text without trailing zeros ("0.00200000" → "0.002", "20000.00" → "20000"), to compare amounts. */
export function dec(text: unknown): string {
  const s = String(text);
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/**
 * Sends `request` until it is answered 429 (at most `max` times) and returns the replies: every
 * reply before the last must be 200, the last must be 429.
 */
export async function fillUntil429(request: () => Promise<Reply>, max: number): Promise<Reply[]> {
  const replies: Reply[] = [];
  for (let i = 0; i < max; i++) {
    const r = await request();
    replies.push(r);
    if (r.status === 429) return replies;
    assert.equal(r.status, 200, `request ${i + 1} while filling the window: ${describeReply(r)}`);
  }
  assert.fail(`no 429 after ${max} requests`);
}

export interface TimingCase {
  /** The timestamp sent is the estimated server time at sending plus this (negative: behind). */
  readonly aheadMs: number;
  readonly recvWindow?: number;
}

export interface TimingResult {
  /** As asked (before latency). */
  readonly aheadMs: number;
  readonly timestamp: number;
  readonly recvWindow: number | undefined;
  readonly status: number;
  readonly code: number | undefined;
  /** The server time at which the sandbox received the request (its request log). */
  readonly serverTime: number;
}

/**
 * Sends one signed GET /api/v3/openOrders per case, one after another, each stamped right before
 * it is sent, and pairs each answer with the server time the sandbox logged for it, so a timing
 * rule can be checked exactly, whatever the latency, with no sleep. `clockOffsetMs` is the offset
 * last given to POST /_sandbox/clock.
 */
export async function timingSweep(
  c: Conformance,
  key: DemoKey,
  clockOffsetMs: number,
  cases: readonly TimingCase[],
): Promise<TimingResult[]> {
  const before = (await c.requests()).length;
  const sent: { timestamp: number; reply: Reply }[] = [];
  for (const t of cases) {
    const timestamp = Date.now() + clockOffsetMs + t.aheadMs;
    const reply = await c.signed(key, 'GET', '/api/v3/openOrders', [['symbol', 'BTCUSDT']], {
      timestamp,
      ...(t.recvWindow === undefined ? {} : { recvWindow: t.recvWindow }),
    });
    sent.push({ timestamp, reply });
  }
  const log = (await c.requests()).slice(before);
  assert.equal(log.length, cases.length, 'one log entry per request');
  return cases.map((t, i) => {
    const { timestamp, reply } = sent[i]!;
    assert.equal(log[i]!.status, reply.status, 'log and replies line up');
    return {
      aheadMs: t.aheadMs,
      timestamp,
      recvWindow: t.recvWindow,
      status: reply.status,
      code: reply.code,
      serverTime: log[i]!.time,
    };
  });
}

/** The answer (200 or the error code) of the case asked `aheadMs` ahead with `recvWindow`. */
export function outcome(results: readonly TimingResult[], aheadMs: number, recvWindow?: number): number | undefined {
  const r = results.find((x) => x.aheadMs === aheadMs && x.recvWindow === recvWindow);
  assert.ok(r, `no case ${aheadMs}/${recvWindow}`);
  return r.status === 200 ? 200 : r.code;
}

/** Cases from `from` to `to` ms ahead (inclusive), one per millisecond. */
export function around(from: number, to: number, recvWindow?: number): TimingCase[] {
  const out: TimingCase[] = [];
  for (let d = from; d <= to; d++) out.push(recvWindow === undefined ? { aheadMs: d } : { aheadMs: d, recvWindow });
  return out;
}

/** §5 rule 9: processed only when timestamp < serverTime + 1000 and serverTime - timestamp <= recvWindow (default 5000). */
function processable(t: TimingResult): boolean {
  return t.timestamp < t.serverTime + 1000 && t.serverTime - t.timestamp <= (t.recvWindow ?? 5000);
}

/** Each result is 200 when processable, 700003 otherwise; returns how many of each. */
export function assertTimingRule(results: readonly TimingResult[]): { accepted: number; refused: number } {
  if (process.env.CONF_DEBUG)
    console.log(
      results.map((t) => `${t.timestamp - t.serverTime}/${t.recvWindow ?? '-'}:${t.code ?? t.status}`).join(' '),
    );
  let accepted = 0;
  let refused = 0;
  for (const t of results) {
    const what = `timestamp ${t.timestamp} at serverTime ${t.serverTime} (ahead ${t.timestamp - t.serverTime} ms, recvWindow ${t.recvWindow ?? 'default'})`;
    if (processable(t)) {
      accepted++;
      assert.equal(t.status, 200, `${what} must be processed; got ${t.status} ${t.code}`);
    } else {
      refused++;
      assert.equal(t.code, 700003, `${what} must be refused with 700003; got ${t.status} ${t.code}`);
    }
  }
  return { accepted, refused };
}

// ---------------------------------------------------------------------------------------------
// WebSocket (the `ws` package directly; message shapes assumed from docs/websocket.md)

export interface WsClosed {
  readonly code: number;
  readonly reason: string;
}

/** An upgrade answered with an HTTP status instead of 101. */
export interface WsRefused {
  readonly status: number;
  readonly retryAfter: string | undefined;
  readonly body: string;
}

/** A WebSocket connection that keeps every JSON message it gets. */
export class WsProbe {
  private readonly got: unknown[] = [];
  private waiting: (() => void) | undefined;
  readonly closed: Promise<WsClosed>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      try {
        this.got.push(JSON.parse(data.toString('utf8')));
      } catch {
        this.got.push(undefined);
      }
      this.waiting?.();
    });
    this.closed = new Promise((resolve) =>
      ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  /** Opens `url` (from the local address `from`); a refused upgrade resolves with its HTTP answer. */
  static open(url: string, from = '127.0.0.1'): Promise<WsProbe | WsRefused> {
    assert.ok(url.startsWith('ws://127.0.0.1:'), 'the suite talks to 127.0.0.1 only');
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { localAddress: from });
      const probe = new WsProbe(ws);
      ws.once('open', () => resolve(probe));
      ws.once('unexpected-response', (_req, res: IncomingMessage) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => {
          const h = res.headers['retry-after'];
          resolve({ status: res.statusCode ?? 0, retryAfter: Array.isArray(h) ? h.join(', ') : h, body });
        });
      });
      ws.once('error', reject);
    });
  }

  static async connect(url: string, from?: string): Promise<WsProbe> {
    const p = await WsProbe.open(url, from);
    assert.ok(p instanceof WsProbe, `the upgrade was refused: ${JSON.stringify(p)}`);
    return p;
  }

  send(message: unknown): void {
    this.ws.send(JSON.stringify(message));
  }

  /** The reply `{id, code, msg}` with this id, waited for up to `deadlineMs`. */
  async reply(id: number, deadlineMs = 5000): Promise<{ id: number; code: number; msg: string }> {
    const end = Date.now() + deadlineMs;
    for (;;) {
      const found = this.got.find((m) => field(m, 'id') === id && typeof field(m, 'code') === 'number');
      if (found !== undefined) return found as { id: number; code: number; msg: string };
      const left = end - Date.now();
      if (left <= 0)
        assert.fail(`no reply ${id} within ${deadlineMs} ms; got ${JSON.stringify(this.got).slice(0, 500)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiting = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.waiting = undefined;
    }
  }

  close(): void {
    this.ws.terminate();
  }
}

/** Public stream names of the family (docs/websocket.md), written here from that page, `count` of them. */
export function publicStreamNames(count: number): string[] {
  const names: string[] = [];
  const intervals = ['Min1', 'Min5', 'Min15', 'Min30', 'Min60', 'Hour4', 'Day1', 'Week1', 'Month'];
  for (const symbol of ['BTCUSDT', 'ETHUSDT', 'LTCBTC', 'ETHBTC']) {
    names.push(`spot@public.deals.v3.api@${symbol}`, `spot@public.bookTicker.v3.api@${symbol}`);
    for (const levels of [5, 10, 20]) names.push(`spot@public.limit.depth.v3.api@${symbol}@${levels}`);
    for (const interval of intervals) names.push(`spot@public.kline.v3.api@${symbol}@${interval}`);
  }
  assert.ok(names.length >= count);
  return names.slice(0, count);
}
