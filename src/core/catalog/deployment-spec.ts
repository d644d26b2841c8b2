/**
 * The published spec (docs/service.md), with the API family's JSON stream convention
 * (docs/websocket.md): TradeReq's behaviour before deployments existed, and the default.
 */
import { DEFAULT_API_KEY_HEADER } from './key-header';
import { STREAM_DESCRIPTIONS } from './stream-names-spec';
import { WS_RULES } from './ws-limits';

export const SPEC_DEPLOYMENT = {
  id: 'spec',
  title: 'the published spec',
  apiKeyHeader: DEFAULT_API_KEY_HEADER,
  hosts: [],
  streamEncoding: 'json',
  streams: STREAM_DESCRIPTIONS,
  listenKey: {
    // The sandbox's keys are 64 hex characters; the family's are 60–65 letters and digits.
    format: /^[A-Za-z0-9]{60,65}$/,
    examples: [],
    validityMs: WS_RULES.listenKeyValidityMs,
    renewEveryMs: WS_RULES.listenKeyValidityMs / 2,
    maxPerAccount: 60,
    maxConnections: 5,
  },
  connection: { lifetimeMs: WS_RULES.lifetimeMs, idleUnsubscribedMs: WS_RULES.idleMs },
} as const;
