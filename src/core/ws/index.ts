/**
 * The WebSocket client core (spec §6, §8; docs/websocket.md), shared by
 * `tradereq listen` and the editor's live stream view. Plain Node, no vscode.
 */
export { WsConnection, WS_DEFAULTS, groupStreams } from './connection';
export type { ConnectOptions, ConnectResult, WsConnectionOptions } from './connection';
export { WsEmitter, type Unsubscribe } from './emitter';
export { MessageExpectations, checkMessageExpectations, matchesWritten } from './expect';
export type { MessageExpectation, MessageExpectationResult } from './expect';
export { MAX_FRAME_BYTES } from './frames';
export { ListenKeyLease, LISTEN_KEY_KEEP_ALIVE_MS, type ListenKeyApi } from './listen-key';
export { restListenKeyApi, type ListenKeyCallFailure, type ListenKeyDeps } from './listen-key-api';
export { MessagePacer, PACING, PacerError, SlidingWindow } from './pacer';
export { FIRST_CLIENT_ID } from './pending-replies';
export { resolveWsRequest, type ListenBound, type ResolvedWsRequest, type WsResolveResult } from './resolved-request';
export {
  LISTEN_KEY_FORMAT,
  checkListenKeyDestination,
  defaultWsUrl,
  environmentWsUrl,
  listenKeyOf,
  maskListenKey,
  upgradeOrigin,
  wsOrigin,
} from './url';
export type * from './types';
