/** A fresh nonce for each panel render (Node only: the extension host side). 128 bits from a CSPRNG. */
import { randomBytes } from 'node:crypto';

export function newNonce(): string {
  return randomBytes(16).toString('base64');
}
