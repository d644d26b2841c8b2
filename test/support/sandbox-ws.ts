/**
 * Support for the sandbox's WebSocket tests: a client on the `ws` package that keeps every message
 * it gets and waits for one that matches (with a deadline, never a fixed sleep), and a signed REST
 * call with a signer written here (node:crypto), not the project's.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { request } from 'undici';
import { WebSocket } from 'ws';
import type { Sandbox, SandboxKey } from '../../src/sandbox';

export interface Closed {
  readonly code: number;
  readonly reason: string;
}

/** An upgrade the sandbox answered with an HTTP status instead of 101. */
export interface Refused {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

interface Seen {
  readonly text: string;
  readonly json: unknown;
  taken: boolean;
}

export class WsClient {
  private readonly seen: Seen[] = [];
  private wake: (() => void) | undefined;
  readonly closed: Promise<Closed>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      const text = isBinary ? '<binary>' : data.toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      this.seen.push({ text, json, taken: false });
      this.wake?.();
    });
    this.closed = new Promise((resolve) =>
      ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  /** Opens a connection, or resolves with the HTTP answer when the upgrade is refused. */
  static open(url: string, localAddress?: string): Promise<WsClient | Refused> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, localAddress === undefined ? {} : { localAddress });
      const client = new WsClient(ws);
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res: IncomingMessage) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      ws.once('error', reject);
    });
  }

  static async connect(url: string, localAddress?: string): Promise<WsClient> {
    const c = await WsClient.open(url, localAddress);
    assert.ok(c instanceof WsClient, `the upgrade was refused: ${JSON.stringify(c)}`);
    return c;
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** All texts received so far. */
  texts(): string[] {
    return this.seen.map((s) => s.text);
  }

  /** The first message not yet taken that `match` accepts, waiting for it up to `deadlineMs`. */
  async take(match: (json: unknown, text: string) => boolean, what: string, deadlineMs = 3000): Promise<unknown> {
    const end = Date.now() + deadlineMs;
    for (;;) {
      const s = this.seen.find((x) => !x.taken && match(x.json, x.text));
      if (s !== undefined) {
        s.taken = true;
        return s.json;
      }
      const left = end - Date.now();
      if (left <= 0)
        assert.fail(
          `no ${what} within ${deadlineMs} ms; received: ${this.texts()
            .map((t) => t.slice(0, 160))
            .join('\n')}`,
        );
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  /** The reply with this id. */
  reply(id: number): Promise<unknown> {
    return this.take((j) => field(j, 'id') === id && typeof field(j, 'code') === 'number', `reply ${id}`);
  }

  /** The next push of stream `c` that `match` accepts. */
  push(c: string, match: (d: unknown) => boolean = () => true, deadlineMs?: number): Promise<unknown> {
    return this.take((j) => field(j, 'c') === c && match(field(j, 'd')), `push of ${c}`, deadlineMs);
  }

  /** Sends PING with `id` and waits for its PONG: every push the server sent before it has arrived. */
  async barrier(id: number): Promise<void> {
    this.send({ method: 'PING', id });
    const r = await this.reply(id);
    assert.equal(field(r, 'msg'), 'PONG');
  }

  /** Whether a message `match` accepts has arrived (taken or not). */
  has(match: (json: unknown) => boolean): boolean {
    return this.seen.some((s) => match(s.json));
  }

  close(): void {
    this.ws.terminate();
  }
}

/** A member of a JSON object; undefined when `json` is no object or lacks it. */
export function field(json: unknown, name: string): unknown {
  return json !== null && typeof json === 'object' && !Array.isArray(json)
    ? (json as Record<string, unknown>)[name]
    : undefined;
}

/** A member at a dotted path, with numbers for list items: `d.deals.0.p`. */
export function at(json: unknown, path: string): unknown {
  let v = json;
  for (const part of path.split('.')) v = Array.isArray(v) ? v[Number(part)] : field(v, part);
  return v;
}

const UNRESERVED = /[A-Za-z0-9\-_.~]/;

/** Strict percent-encoding, upper-case hex (§5 rule 6), written here apart from the project's. */
export function strict(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && UNRESERVED.test(ch) ? ch : '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

export interface Answer {
  readonly status: number;
  readonly text: string;
  readonly json: unknown;
}

/**
 * A signed call: `query` (already encoded) with timestamp appended, signed over query + body as
 * sent (§5 rule 4), signature last in the query string.
 */
export async function signed(
  sb: Sandbox,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  query: string,
  options: { key?: SandboxKey; body?: string; json?: boolean; signedAs?: string; timestamp?: number } = {},
): Promise<Answer> {
  const key = options.key ?? sb.keys[0]!;
  const q = (query.length > 0 ? query + '&' : '') + `timestamp=${options.timestamp ?? Date.now()}`;
  const body = options.body ?? '';
  const signature = createHmac('sha256', key.secretKey)
    .update(options.signedAs ?? q + body, 'utf8')
    .digest('hex');
  const headers: Record<string, string> = { 'X-SERVICE-APIKEY': key.apiKey };
  if (body.length > 0)
    headers['Content-Type'] = options.json === true ? 'application/json' : 'application/x-www-form-urlencoded';
  const res = await request(`${sb.baseUrl}${path}?${q}&signature=${signature}`, {
    method,
    headers,
    body: body.length > 0 ? body : undefined,
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, text, json };
}

/** A LIMIT order's query string (encoded). */
export function limitOrder(side: 'BUY' | 'SELL', quantity: string, price: string, symbol = 'BTCUSDT'): string {
  return `symbol=${symbol}&side=${side}&type=LIMIT&quantity=${quantity}&price=${price}`;
}

/** Opens a listen key for `key` (POST /api/v3/userDataStream). */
export async function openListenKey(sb: Sandbox, key?: SandboxKey, timestamp?: number): Promise<string> {
  const r = await signed(sb, 'POST', '/api/v3/userDataStream', '', {
    ...(key && { key }),
    ...(timestamp && { timestamp }),
  });
  assert.equal(r.status, 200, r.text);
  const listenKey = field(r.json, 'listenKey');
  assert.equal(typeof listenKey, 'string');
  return listenKey as string;
}

const CONTROL_GETS = new Set(['/requests', '/ws']);

/** A control call: GET for /requests and /ws, POST with `body` for the others. */
export async function control(sb: Sandbox, path: string, body: unknown = {}): Promise<Answer> {
  const get = CONTROL_GETS.has(path);
  const res = await request(`${sb.baseUrl}/_sandbox${path}`, {
    method: get ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: get ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, text, json: JSON.parse(text) as unknown };
}

/** A control call that must succeed, for a test's set-up (reset, the clock). */
export async function controlOk(sb: Sandbox, path: string, body: unknown = {}): Promise<void> {
  const answer = await control(sb, path, body);
  assert.equal(answer.status, 200, `${path}: ${answer.text}`);
}
