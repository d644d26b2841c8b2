/** Both implementations of the send step, for tests that must hold for each. */
import { NodeHttpSender } from '../../src/core/net/node-http-sender';
import { DEFAULT_SEND_SETTINGS, type SendSettings, type Sender } from '../../src/core/net/send';
import { UndiciSender } from '../../src/core/net/undici-sender';

export const SENDERS: readonly (readonly [name: string, make: (settings?: SendSettings) => Sender])[] = [
  ['UndiciSender (the extension)', (s = DEFAULT_SEND_SETTINGS) => new UndiciSender(s)],
  ['NodeHttpSender (the command line)', (s = DEFAULT_SEND_SETTINGS) => new NodeHttpSender(s)],
];
