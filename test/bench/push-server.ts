/**
 * For the stream benchmarks' JSON-beside-Protocol-Buffers figures: a STAND-IN stream server in a
 * process of its own (its CPU is not the client's) that sends the same pushes in either encoding,
 * so that what differs between the two figures is the client's reading of them. JSON pushes follow
 * the spec's convention ({c, s, t, d}); binary ones are the public deployment's wrappers, encoded by
 * protobufjs from the project's push.proto. The mix, by thirds: 5 deals, a 20-level book, a best
 * bid and ask. The connection's URL says what to send: `?encoding=json|protobuf&rate=N` (pushes a
 * second, paced in 10 ms steps, until the client leaves) or `&count=N` (as fast as the socket takes).
 * Replies to SUBSCRIPTION and PING are JSON, as both conventions answer.
 * Run by startPushServer (`node --require tsx/cjs test/bench/push-server.ts`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { WebSocketServer, type WebSocket } from 'ws';
import { encodePush } from '../support/pb-stream';

type Encoding = 'json' | 'protobuf';

/** The streams of each encoding, in the order of the mix. */
export const PUSH_STREAMS: Readonly<Record<Encoding, readonly string[]>> = {
  json: [
    'spot@public.deals.v3.api@BTCUSDT',
    'spot@public.limit.depth.v3.api@BTCUSDT@20',
    'spot@public.bookTicker.v3.api@BTCUSDT',
  ],
  protobuf: [
    'spot@public.aggre.deals.v3.api.pb@100ms@BTCUSDT',
    'spot@public.limit.depth.v3.api.pb@BTCUSDT@20',
    'spot@public.aggre.bookTicker.v3.api.pb@100ms@BTCUSDT',
  ],
};

/** Variants of each push, so that the client does not read the very same bytes over and over. */
const VARIANTS = 32;
/** The server waits while this much is queued on a socket (`count` mode). */
const HIGH_WATER = 1024 * 1024;

function price(i: number, k: number): string {
  return `${30000 + ((i * 7 + k) % 100)}.${String((i * 13 + k) % 100).padStart(2, '0')}000000`;
}

function jsonPush(kind: number, i: number, t: number): string {
  const [deals, depth, book] = PUSH_STREAMS.json;
  const levels = Array.from({ length: 20 }, (_, k) => ({ p: price(i, k), v: `0.${k + 1}0000000` }));
  if (kind === 0) {
    const d = Array.from({ length: 5 }, (_, k) => ({ p: price(i, k), v: '0.00100000', S: 1 + (k % 2), t }));
    return JSON.stringify({ c: deals, s: 'BTCUSDT', t, d: { deals: d, e: 'spot@public.deals.v3.api' } });
  }
  if (kind === 1)
    return JSON.stringify({
      c: depth,
      s: 'BTCUSDT',
      t,
      d: { asks: levels, bids: levels, e: 'spot@public.limit.depth.v3.api', r: String(i) },
    });
  return JSON.stringify({ c: book, s: 'BTCUSDT', t, d: { b: price(i, 0), B: '1.5', a: price(i, 1), A: '2.5' } });
}

function protobufPush(kind: number, i: number, t: number): Uint8Array {
  const [deals, depth, book] = PUSH_STREAMS.protobuf;
  const wrapper = { symbol: 'BTCUSDT', sendTime: String(t) };
  const levels = Array.from({ length: 20 }, (_, k) => ({ price: price(i, k), quantity: `0.${k + 1}0000000` }));
  if (kind === 0) {
    const d = Array.from({ length: 5 }, (_, k) => ({
      price: price(i, k),
      quantity: '0.00100000',
      tradeType: 1 + (k % 2),
      time: String(t),
    }));
    return encodePush({ ...wrapper, channel: deals, publicAggreDeals: { deals: d, eventType: 'deals' } });
  }
  if (kind === 1)
    return encodePush({
      ...wrapper,
      channel: depth,
      publicLimitDepths: { asks: levels, bids: levels, eventType: 'depth', version: String(i) },
    });
  const ticker = { bidPrice: price(i, 0), bidQuantity: '1.5', askPrice: price(i, 1), askQuantity: '2.5' };
  return encodePush({ ...wrapper, channel: book, publicAggreBookTicker: ticker });
}

/** The frames of one encoding, cycled through: VARIANTS of each kind, interleaved. */
function frames(encoding: Encoding): (string | Uint8Array)[] {
  const t = Date.now();
  const out: (string | Uint8Array)[] = [];
  for (let i = 0; i < VARIANTS; i++)
    for (let kind = 0; kind < 3; kind++)
      out.push(encoding === 'json' ? jsonPush(kind, i, t) : protobufPush(kind, i, t));
  return out;
}

const FRAMES = { json: frames('json'), protobuf: frames('protobuf') };

/** Mean size of a frame of each encoding, in bytes. */
export function meanFrameBytes(encoding: Encoding): number {
  const all = FRAMES[encoding];
  return all.reduce((n, f) => n + (typeof f === 'string' ? Buffer.byteLength(f) : f.byteLength), 0) / all.length;
}

function paced(ws: WebSocket, all: readonly (string | Uint8Array)[], rate: number): void {
  let sent = 0;
  const t0 = Date.now();
  const timer = setInterval(() => {
    const due = Math.floor(((Date.now() - t0) / 1000) * rate);
    for (; sent < due; sent++) {
      const f = all[sent % all.length]!;
      ws.send(f, { binary: typeof f !== 'string' });
    }
  }, 10);
  ws.once('close', () => clearInterval(timer));
}

function burst(ws: WebSocket, all: readonly (string | Uint8Array)[], count: number): void {
  let sent = 0;
  const more = (): void => {
    while (sent < count && ws.readyState === ws.OPEN && ws.bufferedAmount < HIGH_WATER) {
      const f = all[sent++ % all.length]!;
      ws.send(f, { binary: typeof f !== 'string' });
    }
    if (sent < count && ws.readyState === ws.OPEN) setTimeout(more, 1);
  };
  more();
}

function serve(): void {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  wss.on('connection', (ws, req) => {
    const q = new URL(req.url ?? '/', 'ws://x').searchParams;
    const encoding: Encoding = q.get('encoding') === 'protobuf' ? 'protobuf' : 'json';
    let started = false;
    ws.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString('utf8')) as { method?: string; params?: string[]; id?: number };
      const msg = m.method === 'PING' ? 'PONG' : (m.params ?? []).join(',');
      ws.send(JSON.stringify({ id: m.id ?? 0, code: 0, msg }));
      if (m.method !== 'SUBSCRIPTION' || started) return;
      started = true;
      const rate = Number(q.get('rate') ?? 0);
      if (rate > 0) paced(ws, FRAMES[encoding], rate);
      else burst(ws, FRAMES[encoding], Number(q.get('count') ?? 0));
    });
  });
  wss.once('listening', () =>
    console.log(JSON.stringify({ wsUrl: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ws` })),
  );
}

/** Starts the stand-in in a child process; resolves with it and its address. */
export async function startPushServer(): Promise<{ child: ChildProcess; wsUrl: string }> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', __filename, '--serve-pushes'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the push server exited (${code}) before printing its address`)));
  });
  child.stdout.resume();
  return { child, wsUrl: (JSON.parse(line) as { wsUrl: string }).wsUrl };
}

if (require.main === module && process.argv.includes('--serve-pushes')) serve();
