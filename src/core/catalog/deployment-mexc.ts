/**
 * MEXC's Spot API v3, the service's large public deployment, as its documentation describes it
 * today (docs/websocket.md, "Deployments"): its own host and key header, about fifty more REST
 * endpoints than the spec shows (mexc-endpoints.ts), and Protocol Buffers pushes on its own
 * WebSocket host.
 */
import { MEXC_STREAM_DESCRIPTIONS } from './stream-names-mexc';

const MINUTE = 60_000;

export const MEXC_DEPLOYMENT = {
  id: 'mexc',
  title: 'MEXC Spot v3',
  apiKeyHeader: 'X-MEXC-APIKEY',
  baseUrl: 'https://api.mexc.com',
  wsUrl: 'wss://wbs-api.mexc.com/ws',
  hosts: ['mexc.com'],
  streamEncoding: 'protobuf',
  streams: MEXC_STREAM_DESCRIPTIONS,
  listenKey: {
    format: /^[a-z0-9]{63,65}$/,
    // The documentation's own examples: 64, 65 and 63 characters.
    examples: [
      'pqia91ma19a5s61cv6a81va65sdf19v8a65a1a5s61cv6a81va65sdf19v8a65a1',
      'c285bc363cfeac6646576b801a2ed1f9523310fcda9e927e509aaaaaaaaaaaaaa',
      '87cb8da0fb150e36c232c2c060bc3848693312008caf3acae73bbbbbbbbbbbb',
    ],
    validityMs: 60 * MINUTE,
    renewEveryMs: 30 * MINUTE,
    maxPerAccount: 60,
    maxConnections: 5,
  },
  connection: { lifetimeMs: 24 * 60 * MINUTE, idleUnsubscribedMs: 30_000, idleSubscribedMs: 60_000 },
} as const;
