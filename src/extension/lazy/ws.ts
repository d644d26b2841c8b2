/**
 * The WebSocket client and the stream view's live feed, in a bundle of their own (dist/ws.js)
 * loaded on the first Connect: no send needs them. The client is the `ws` package's (chosen over
 * undici's by the figures of `npm run bench:ws-client`, docs/performance.md).
 */
export { setL10nBundle } from '../../core/l10n';
// From their own modules, not core/ws's index: its other modules' top-level code would come along.
export { WsConnection } from '../../core/ws/connection';
export { WsSession } from '../../core/ws/reconnect';
export { deploymentOf } from '../../core/catalog/deployment';
export { LiveFeed } from '../../core/panel/live';
