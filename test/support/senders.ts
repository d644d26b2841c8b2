/** The implementations of the send step, for tests that must hold for each (one since the editor sends with node:http too), and the request they send. */
import { NodeHttpSender } from '../../src/core/net/node-http-sender';
import { DEFAULT_SEND_SETTINGS, type PreparedRequest, type SendSettings, type Sender } from '../../src/core/net/send';

export const SENDERS: readonly (readonly [name: string, make: (settings?: SendSettings) => Sender])[] = [
  ['NodeHttpSender (the command line and the editor)', (s = DEFAULT_SEND_SETTINGS) => new NodeHttpSender(s)],
];

/** A GET of `url` as the pipeline hands it to a sender (unsigned, weight 1), with `extra` over it. */
export function prepared(url: string, extra: Partial<PreparedRequest> = {}): PreparedRequest {
  const u = new URL(url);
  return {
    method: 'GET',
    url,
    origin: u.origin,
    path: u.pathname,
    query: u.search.slice(1),
    body: '',
    headers: [],
    signed: false,
    weight: 1,
    mode: 'ip',
    ...extra,
  };
}
