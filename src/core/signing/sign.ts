/**
 * Signing (spec §5, docs/format.md "Signing"): totalParams is the encoded query string followed by the
 * encoded body with no separator, the signature parameter left out; the signature is appended
 * after totalParams is fixed, so what is signed is exactly what is sent.
 */
import { signTotalParams } from './hmac';

export interface SignedParts {
  readonly query: string;
  readonly body: string;
  readonly totalParams: string;
  readonly signature: string;
}

/** `query` and `body` are the wire strings without the signature. */
export function signParts(query: string, body: string, secretKey: string, placement: 'query' | 'body'): SignedParts {
  const totalParams = query + body;
  const signature = signTotalParams(secretKey, totalParams);
  const pair = 'signature=' + signature;
  if (placement === 'body') {
    return { query, body: body.length > 0 ? body + '&' + pair : pair, totalParams, signature };
  }
  return { query: query.length > 0 ? query + '&' + pair : pair, body, totalParams, signature };
}
