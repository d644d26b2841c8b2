/**
 * Listen keys that a REST exchange carries: a `listenKey` parameter sent, and the one an answer of
 * /api/v3/userDataStream holds. A listen key is a credential (docs/websocket.md), so every text made
 * from such an exchange for people (the panel, the history, the log, the command line's output)
 * shows it masked. Without zod: the command line's send bundle stays light.
 */
import { maskApiKey } from '../env/keys';
import type { RoundTripReport } from '../net/round-trip';

export function listenKeysOf(
  report: RoundTripReport | undefined,
  params: readonly { readonly name: string; readonly value: string }[],
): string[] {
  const keys = params.filter((p) => p.name === 'listenKey').map((p) => p.value);
  const json = report?.decoded?.json;
  if (typeof json === 'object' && json !== null && 'listenKey' in json && typeof json.listenKey === 'string')
    keys.push(json.listenKey);
  return keys.filter((k) => k.length > 0);
}

/** `text` with each of `keys` masked to its last 4 characters. */
export function hideListenKeys(text: string, keys: readonly string[]): string {
  return keys.reduce((t, k) => t.split(k).join(maskApiKey(k)), text);
}
