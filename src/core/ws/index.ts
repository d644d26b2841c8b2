/**
 * The WebSocket client core (spec §6, §8; docs/websocket.md), shared by
 * `tradereq listen` and the editor's live stream view. Plain Node, no vscode. The listen key's REST
 * calls (listen-key-api.ts) are not here: they go through the send pipeline, which the editor's
 * WebSocket bundle (dist/ws.js) does not carry.
 */
export { WsConnection, WS_DEFAULTS, groupStreams } from './connection';
export type { ConnectResult, WsConnectionOptions } from './connection';
export { MessageExpectations, checkMessageExpectations, matchesWritten } from './expect';
export { ListenKeyLease, type ListenKeyApi } from './listen-key';
export { MessagePacer, PACING, PacerError, SlidingWindow } from './pacer';
export { FIRST_CLIENT_ID } from './pending-replies';
export { RECONNECT, WsSession, reconnectDelayMs } from './reconnect';
export type { Timers } from './timers';
export { resolveWsRequest, type ResolvedWsRequest } from './resolved-request';
export {
  LISTEN_KEY_FORMAT,
  checkListenKeyDestination,
  defaultWsUrl,
  environmentWsUrl,
  listenKeyOf,
  upgradeOrigin,
} from './url';
export type * from './types';
