/** What a WebSocket close code means here (RFC 6455 §7.4.1, and the service's §8 cut), for people. */
import { WS_RULES } from '../catalog/ws-limits';
import { t } from '../l10n';
import { bytesText } from './frames';

/**
 * `hardFrameBytes`: the size past which undici stops reading a frame; it then fails the connection,
 * and (as the WHATWG API has it) reports 1006 here while it sends 1009 to the server.
 */
export function closeMessage(code: number, reason: string, byClient: boolean, hardFrameBytes?: number): string {
  const said = reason.length > 0;
  if (byClient && (code === 1000 || code === 1005)) return t('Closed by the client.');
  // Closing, the server's close frame did not come: the client let the socket go.
  if (byClient && code === 1006) return said ? t('Closed by the client: {0}.', reason) : t('Closed by the client.');
  switch (code) {
    case 1000:
      return said ? t('The server closed the connection: {0}.', reason) : t('The server closed the connection.');
    case 1001:
      return said ? t('The server is going away: {0}.', reason) : t('The server is going away.');
    case 1005:
      return t('The server closed the connection without a code.');
    case 1006:
      return dropped(hardFrameBytes);
    case 1008:
      return said
        ? t(
            'The server cut the connection for breaking a rule: {0}. §8: over {1} client messages in a second cuts a connection, and repeatedly cut IPs are banned; wait before connecting again.',
            reason,
            WS_RULES.messagesPerSecond,
          )
        : t(
            'The server cut the connection for breaking a rule. §8: over {0} client messages in a second cuts a connection, and repeatedly cut IPs are banned; wait before connecting again.',
            WS_RULES.messagesPerSecond,
          );
    case 1009:
      return said
        ? t('A message was too large for the other side: {0}.', reason)
        : t('A message was too large for the other side.');
    case 1011:
      return said
        ? t('The server closed the connection on an internal error: {0}.', reason)
        : t('The server closed the connection on an internal error.');
    default:
      return said
        ? t('The connection closed with code {0}: {1}.', code, reason)
        : t('The connection closed with code {0}.', code);
  }
}

/** 1006: no close frame came. */
function dropped(hardFrameBytes: number | undefined): string {
  return hardFrameBytes === undefined
    ? t('The connection dropped with no close frame: the network or the server went away.')
    : t(
        'The connection dropped with no close frame: the network or the server went away, or a frame over {0} came (it is not read).',
        bytesText(hardFrameBytes),
      );
}
