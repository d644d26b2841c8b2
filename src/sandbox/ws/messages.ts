/**
 * Client messages on /ws (docs/websocket.md): SUBSCRIPTION, UNSUBSCRIPTION and PING, JSON text
 * checked against the catalog's schema, each answered {"id", "code", "msg"}: code 0 when done,
 * otherwise the §7.2 code of the refusal with the catalog's meaning and why. A SUBSCRIPTION is
 * all or nothing: one refused name refuses the message. The names are the deployment's (its
 * StreamReader); the messages and replies are JSON under every deployment.
 */
import type { RawData } from 'ws';
import { ClientMessageSchema, PONG } from '../../core/catalog/streams';
import { WS_RULES } from '../../core/catalog/ws-limits';
import { err, ok, type Result } from '../../core/result';
import type { Refusal } from '../engine';
import { SYMBOLS, SYMBOLS_BY_NAME } from '../market';
import { meaningOf } from '../replies';
import type { PlayedStream, StreamReader } from './names';

/** What a message reads of its connection (hub.ts's Conn): declared here, so that hub.ts imports this file and not the reverse. */
interface Conn {
  readonly account: string | undefined;
  readonly streams: ReadonlyMap<string, string>;
}

/** What a message asks of the hub (hub.ts's WsHub). */
interface WsHub {
  readonly reader: StreamReader;
  listenKeyLive(conn: Conn): boolean;
  alive(conn: Conn): void;
  sendTo(conn: Conn, data: string): void;
  sendSnapshot(conn: Conn, name: string, stream: PlayedStream): void;
  subscribe(conn: Conn, name: string, key: string): void;
  unsubscribe(conn: Conn, name: string): void;
}

/** The index key of a private stream: the same name means a different feed per account. */
export function privateKey(account: string, channel: string): string {
  return `${account}|${channel}`;
}

function text(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return (Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');
}

function reply(hub: WsHub, conn: Conn, id: number, code: number, msg: string): void {
  hub.sendTo(conn, JSON.stringify({ id, code, msg }));
}

function refuse(hub: WsHub, conn: Conn, id: number, code: number, detail: string): void {
  reply(hub, conn, id, code, `${meaningOf(code)} ${detail}`);
}

/** The id of a message that failed the schema, when it has a usable one (else 0). */
function idOf(value: unknown): number {
  const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : 0;
}

function usage(hub: WsHub): string {
  return `send {"method": "SUBSCRIPTION", "params": ["${hub.reader.example}"], "id": 1}`;
}

export function handleMessage(hub: WsHub, conn: Conn, data: RawData, isBinary: boolean): void {
  if (isBinary) return refuse(hub, conn, 0, 33333, `Send JSON text frames, not binary ones: ${usage(hub)}.`);
  let value: unknown;
  try {
    value = JSON.parse(text(data));
  } catch {
    return refuse(hub, conn, 0, 33333, `The message is not valid JSON: ${usage(hub)}.`);
  }
  const parsed = ClientMessageSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue !== undefined && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return refuse(
      hub,
      conn,
      idOf(value),
      33333,
      `${where}${issue?.message ?? 'unexpected message'}. The methods are SUBSCRIPTION, UNSUBSCRIPTION and PING; ${usage(hub)}.`,
    );
  }
  const m = parsed.data;
  const id = m.id ?? 0;
  if (m.method === 'PING') {
    hub.alive(conn);
    reply(hub, conn, id, 0, PONG);
  } else if (m.method === 'SUBSCRIPTION') subscribe(hub, conn, id, m.params);
  else unsubscribe(hub, conn, id, m.params);
}

/** A stream a SUBSCRIPTION message may add, with its key in the hub's index. */
interface Subscription {
  readonly name: string;
  readonly key: string;
  readonly stream: PlayedStream;
}

/** The index key of a stream this connection may subscribe to, or why not. */
function subscriptionKey(hub: WsHub, conn: Conn, name: string, stream: PlayedStream): Result<string, Refusal> {
  if ('symbol' in stream) {
    if (SYMBOLS_BY_NAME.has(stream.symbol)) return ok(name);
    return err({
      code: 10007,
      detail: `${name}: the sandbox lists ${SYMBOLS.map((s) => s.symbol).join(', ')}; ${stream.symbol} is not one of them.`,
    });
  }
  if (conn.account === undefined)
    return err({
      code: 401,
      detail: `${name} is private: connect with a listen key, ${WS_RULES.path}?listenKey=... (POST /api/v3/userDataStream gives one).`,
    });
  if (!hub.listenKeyLive(conn))
    return err({
      code: 401,
      detail: `The listen key of this connection was closed or has lapsed; get another with POST /api/v3/userDataStream and reconnect.`,
    });
  return ok(privateKey(conn.account, name));
}

function subscribe(hub: WsHub, conn: Conn, id: number, params: readonly string[]): void {
  const names = [...new Set(params)];
  const accepted: Subscription[] = [];
  for (const name of names) {
    const r = hub.reader.read(name);
    if (!r.ok) return refuse(hub, conn, id, 33333, `${JSON.stringify(name)}: ${r.error}`);
    const key = subscriptionKey(hub, conn, name, r.value);
    if (!key.ok) return refuse(hub, conn, id, key.error.code, key.error.detail);
    accepted.push({ name, key: key.value, stream: r.value });
  }
  const max = WS_RULES.streamsPerConnection;
  const added = accepted.filter((a) => !conn.streams.has(a.name)).length;
  if (conn.streams.size + added > max) {
    return refuse(
      hub,
      conn,
      id,
      33333,
      `At most ${max} streams per connection (§8): this connection holds ${conn.streams.size} and the message adds ${added}; unsubscribe some or open another connection.`,
    );
  }
  for (const a of accepted) hub.subscribe(conn, a.name, a.key);
  reply(hub, conn, id, 0, names.join(','));
  for (const a of accepted) hub.sendSnapshot(conn, a.name, a.stream);
}

function unsubscribe(hub: WsHub, conn: Conn, id: number, params: readonly string[]): void {
  const names = [...new Set(params)];
  for (const name of names) {
    const r = hub.reader.read(name);
    if (!r.ok) return refuse(hub, conn, id, 33333, `${JSON.stringify(name)}: ${r.error}`);
  }
  // A name this connection does not hold is already unsubscribed: done, as the message asks.
  for (const name of names) hub.unsubscribe(conn, name);
  reply(hub, conn, id, 0, names.join(','));
}
