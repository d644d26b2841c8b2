/**
 * Retry-After, read for a 418 or 429 answer (§8 rule 4) by the decode step (decode.ts) and by the
 * WebSocket upgrade (ws/upgrade.ts), which needs no more of decoding: the error codes' catalog stays
 * out of the WebSocket client's bundle (dist/ws.js).
 */
import { MAX_RETRY_AFTER_S } from '../catalog/limits';

/** Whole seconds of a Retry-After header, capped at the longest ban: 400 digits must not block for ever. */
export function parseRetryAfter(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Math.min(Number(value), MAX_RETRY_AFTER_S);
}
