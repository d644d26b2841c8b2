/** The limits of spec §8 (and §5 rules 8–9) as data. */
import type { RateLimitMode } from './types';

export interface RateLimit {
  readonly mode: RateLimitMode;
  readonly limit: number;
  readonly intervalMs: number;
  readonly description: string;
}

export const LIMITS = {
  rate: {
    ip: {
      mode: 'ip',
      limit: 500,
      intervalMs: 10_000,
      description: '500 per 10 seconds per IP address (endpoints without access key)',
    },
    uid: {
      mode: 'uid',
      limit: 500,
      intervalMs: 10_000,
      description: '500 per 10 seconds per account (endpoints with access key)',
    },
  } satisfies Record<RateLimitMode, RateLimit>,
  /**
   * §8 describes the counter both per endpoint and shared by all endpoints of a mode; the
   * sandbox and the budget use the shared counter, the stricter reading (docs/service.md, Assumptions: Two readings).
   */
  sharedCounterPerMode: true,
  recvWindow: { defaultMs: 5000, recommendedMaxMs: 5000, maxMs: 60_000 },
  /** A request is processed only when timestamp < serverTime + 1000 (§5 rule 9). */
  timestampAheadMs: 1000,
  ban: { minMs: 2 * 60_000, maxMs: 3 * 24 * 60 * 60_000 },
  webSocket: { messagesPerSecond: 100, streamsPerConnection: 30 },
  apiKeyGroups: 30,
  ipsPerKey: 10,
  subAccountName: { minLength: 8, maxLength: 32, pattern: /^[A-Za-z0-9]+$/ },
  signatureHexLength: 64,
} as const;

/** The longest wait the service can ask for is its longest ban (§8 rule 3): a longer Retry-After is capped. */
export const MAX_RETRY_AFTER_S = LIMITS.ban.maxMs / 1000;

/**
 * The header in which the sandbox reports the weight used in the request's counter over the last
 * 10 s (the spec names none: docs/service.md, Usage headers). A paced test run reads it.
 */
export const USED_WEIGHT_HEADER = 'X-SERVICE-USED-WEIGHT-10S';

/** Timestamps below this are seconds, not milliseconds (a 10-digit Unix time). */
export const MILLISECOND_TIMESTAMP_MIN = 100_000_000_000;
