/** The implementations of the send step, for tests that must hold for each (one since the editor sends with node:http too). */
import { NodeHttpSender } from '../../src/core/net/node-http-sender';
import { DEFAULT_SEND_SETTINGS, type SendSettings, type Sender } from '../../src/core/net/send';

export const SENDERS: readonly (readonly [name: string, make: (settings?: SendSettings) => Sender])[] = [
  ['NodeHttpSender (the command line and the editor)', (s = DEFAULT_SEND_SETTINGS) => new NodeHttpSender(s)],
];
