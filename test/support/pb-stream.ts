/**
 * A STAND-IN for the public deployment's stream server (docs/websocket.md, "Deployments"), used
 * until the sandbox plays it itself (`tradereq sandbox --deployment mexc`): a `ws` server on
 * loopback that answers client messages in JSON as that deployment does (a SUBSCRIPTION or
 * UNSUBSCRIPTION with `{"id", "code": 0, "msg": CHANNELS}`, a PING with `"PONG"`) and then sends, for
 * each subscription, the frames the test gives. Binary frames are encoded by protobufjs from the
 * project's own push.proto: a different implementation from the decoder's (@bufbuild/protobuf).
 */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { WebSocketServer, type WebSocket } from 'ws';

const PROTO = join(__dirname, '../../src/core/ws/proto/push.proto');
let wrapper: protobuf.Type | undefined;

/** One `PushDataV3ApiWrapper` as protobufjs encodes it; int64 values may be given as decimal text. */
export function encodePush(payload: Record<string, unknown>): Uint8Array {
  wrapper ??= protobuf.loadSync(PROTO).lookupType('tradereq.push.PushDataV3ApiWrapper');
  return wrapper.encode(wrapper.fromObject(payload)).finish();
}

/** What the stand-in sends after it replied to a SUBSCRIPTION of `channels`: binary frames, or text. */
export type Script = (channels: readonly string[]) => readonly (Uint8Array | string)[];

export class PbStandIn {
  /** Every client message, as text. */
  readonly received: string[] = [];

  private constructor(
    private readonly wss: WebSocketServer,
    private readonly script: Script,
  ) {
    wss.on('connection', (ws) => ws.on('message', (data: Buffer) => this.answer(ws, data.toString('utf8'))));
  }

  static async start(script: Script): Promise<PbStandIn> {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((resolve) => wss.once('listening', resolve));
    return new PbStandIn(wss, script);
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.wss.address() as AddressInfo).port}/ws`;
  }

  private answer(ws: WebSocket, text: string): void {
    this.received.push(text);
    const m = JSON.parse(text) as { method?: string; params?: string[]; id?: number };
    const id = m.id ?? 0;
    if (m.method === 'PING') return ws.send(JSON.stringify({ id, code: 0, msg: 'PONG' }));
    ws.send(JSON.stringify({ id, code: 0, msg: (m.params ?? []).join(',') }));
    if (m.method !== 'SUBSCRIPTION') return;
    for (const frame of this.script(m.params ?? [])) ws.send(frame, { binary: typeof frame !== 'string' });
  }

  async close(): Promise<void> {
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise((resolve) => this.wss.close(resolve));
  }
}
