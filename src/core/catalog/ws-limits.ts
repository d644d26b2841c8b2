/**
 * The rules of the WebSocket side as numbers, apart from the stream names' descriptions
 * (stream-names.ts), so that what needs only these (the env file's constants, `tradereq send`)
 * does not load the descriptions.
 */
import { LIMITS } from './limits';
import type { Source } from './types';

/** The rules of the WebSocket side: the §8 limits (spec) and the family's timings (assumed). */
export const WS_RULES = {
  /** One endpoint next to the REST base URL (docs/websocket.md). */
  path: '/ws',
  /** §8: at most 30 streams per connection. */
  streamsPerConnection: LIMITS.webSocket.streamsPerConnection,
  /** §8: at most 100 messages per second from the client per connection; beyond it, cut. */
  messagesPerSecond: LIMITS.webSocket.messagesPerSecond,
  /** A connection that holds no subscription this long is closed (assumed). */
  idleMs: 30_000,
  /** Every connection is closed after this long (assumed). */
  lifetimeMs: 24 * 60 * 60_000,
  /** A listen key lapses this long after its last keep-alive (assumed). */
  listenKeyValidityMs: 60 * 60_000,
  /** Bound on a stream name's length, for hostile input. */
  maxStreamNameLength: 120,
  /** Bound on the names of one SUBSCRIPTION message, for hostile input (the 30-stream limit is checked apart). */
  maxParamsPerMessage: 100,
  source: 'assumed' as Source,
} as const;
