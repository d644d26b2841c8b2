/**
 * The WebSocket client and the stream view's live feed, in a bundle of their own (dist/ws.js)
 * loaded on the first Connect: undici's WebSocket is most of it, and no send needs it.
 */
export { setL10nBundle } from '../../core/l10n';
export { WsConnection, resolveWsRequest, restListenKeyApi } from '../../core/ws';
export { defaultContext } from '../../core/format/variables';
export { LiveFeed } from '../../core/panel/live';
