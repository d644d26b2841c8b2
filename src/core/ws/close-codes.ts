/** What a WebSocket close code means here (RFC 6455 §7.4.1, and the service's §8 cut), for people. */
import { WS_RULES } from '../catalog/ws-limits';
import { bytesText } from './frames';

/**
 * `hardFrameBytes`: the size past which undici stops reading a frame; it then fails the connection,
 * and (as the WHATWG API has it) reports 1006 here while it sends 1009 to the server.
 */
export function closeMessage(code: number, reason: string, byClient: boolean, hardFrameBytes?: number): string {
  const why = reason.length > 0 ? `: ${reason}` : '';
  if (byClient && (code === 1000 || code === 1005)) return 'Closed by the client.';
  // Closing, the server's close frame did not come: the client let the socket go.
  if (byClient && code === 1006) return `Closed by the client${why}.`;
  switch (code) {
    case 1000:
      return `The server closed the connection${why}.`;
    case 1001:
      return `The server is going away${why}.`;
    case 1005:
      return 'The server closed the connection without a code.';
    case 1006:
      return `The connection dropped with no close frame: the network or the server went away${hardFrameBytes !== undefined ? `, or a frame over ${bytesText(hardFrameBytes)} came (it is not read)` : ''}. Connect again when you are ready; the client does not reconnect by itself.`;
    case 1008:
      return `The server cut the connection for breaking a rule${why}. §8: over ${WS_RULES.messagesPerSecond} client messages in a second cuts a connection, and repeatedly cut IPs are banned; wait before connecting again.`;
    case 1009:
      return `A message was too large for the other side${why}.`;
    case 1011:
      return `The server closed the connection on an internal error${why}.`;
    default:
      return `The connection closed with code ${code}${why}.`;
  }
}
