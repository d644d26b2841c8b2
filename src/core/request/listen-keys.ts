/**
 * Listen keys that a REST exchange carries: a `listenKey` parameter sent, and the one an answer of
 * /api/v3/userDataStream holds. A listen key is a credential (docs/websocket.md), so every text made
 * from such an exchange for people (the panel, the history, the log, the command line's output)
 * shows it masked. Without zod: the command line's send bundle stays light.
 */
import { maskApiKey } from '../env/keys';
import { credentialsIn, isCredentialField } from '../format/credentials';
import type { RoundTripReport } from '../net/round-trip';

/** The listen keys an exchange carries: parameters sent, and any credential field of the answer (format/credentials.ts). */
export function listenKeysOf(
  report: RoundTripReport | undefined,
  params: readonly { readonly name: string; readonly value: string }[],
): string[] {
  const keys = params.filter((p) => isCredentialField(p.name)).map((p) => p.value);
  keys.push(...credentialsIn(report?.decoded?.json));
  return keys.filter((k) => k.length > 0);
}

/** `text` with each of `keys` masked to its last 4 characters. */
export function hideListenKeys(text: string, keys: readonly string[]): string {
  return keys.reduce((t, k) => t.split(k).join(maskApiKey(k)), text);
}
