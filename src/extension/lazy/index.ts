/**
 * What the extension needs only after activation, in its own bundle (dist/lazy.js): validation with
 * zod, undici, the shared rate-limit state, the send pipeline, the Testing view's runner and the
 * WebSocket client. Loading it on first use keeps activation fast; what no send needs is in tools.ts.
 */
export { parseEnvironmentFile } from '../../core/env/schema';
export { FileStateStore } from '../../core/budget/state';
export { Budget } from '../../core/budget/budget';
export { ClockSync } from '../../core/clock/sync';
export { DEFAULT_SEND_SETTINGS } from '../../core/net/send';
export { UndiciSender } from '../../core/net/undici-sender';
export { fetchSymbols } from '../../core/editor/symbols';
export { runRequest } from '../../core/request/pipeline';
export { resolveAndPrepare, signedRequestText, curlCommand } from '../../core/request/prepare';
export { entryFromResult, budgetState, historyItem } from '../../core/panel/entry';
export { orderQueryDocument } from '../../core/request/order-query';
export { FromPanelSchema } from '../../core/panel/protocol';
export { runCases } from '../../core/testing/run';
export { sandboxEnvironment, sandboxKeys } from '../../core/testing/sandbox';
export { parseSettings } from './settings-schema';
export { parseStoredKey, parseProfileIndex } from './stored-key-schema';
export { parseHistory } from './history-schema';
export { WsConnection, resolveWsRequest, restListenKeyApi } from '../../core/ws';
export { defaultContext } from '../../core/format/variables';
export { LiveFeed } from '../../core/panel/live';
