import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature of spec §5 rules 3–5: HMAC-SHA256 keyed with the secret key over totalParams,
 * as 64 lower-case hexadecimal characters. The secret key is used here and nowhere else.
 */
export function signTotalParams(secretKey: string, totalParams: string): string {
  return createHmac('sha256', secretKey).update(totalParams, 'utf8').digest('hex');
}

export const SIGNATURE_FORMAT = /^[0-9a-f]{64}$/;

/** Constant-time comparison of a received signature with the expected one. */
export function signatureMatches(secretKey: string, totalParams: string, signature: string): boolean {
  if (!SIGNATURE_FORMAT.test(signature)) return false;
  const expected = Buffer.from(signTotalParams(secretKey, totalParams), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}
