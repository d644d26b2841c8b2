/**
 * What a send needs, in its own bundle (dist/lazy.js) loaded on first use, which keeps activation
 * fast: validation with zod/mini, node:http's sender, the shared rate-limit state, the send pipeline
 * (and a listen key's REST calls, which go through it) and the Testing view's runner. The WebSocket
 * client (ws) is in ws.ts, what no send needs in tools.ts.
 */
export { setL10nBundle } from '../../core/l10n';
export { parseEnvironmentFile } from '../../core/env/schema';
export { FileStateStore } from '../../core/budget/state';
export { Budget } from '../../core/budget/budget';
export { ClockSync } from '../../core/clock/sync';
export { measureClock } from '../../core/clock/measure';
export { DEFAULT_SEND_SETTINGS } from '../../core/net/send';
export { NodeHttpSender } from '../../core/net/node-http-sender';
export { Network } from '../../core/net/network';
export { fetchSymbols } from '../../core/editor/symbols';
export { runRequest } from '../../core/request/pipeline';
export { restListenKeyApi } from '../../core/ws/listen-key-api';
// A WS request resolved as a send's is (the variables, the environment): the Connect loads this bundle anyway.
export { resolveWsRequest } from '../../core/ws/resolved-request';
export { defaultContext } from '../../core/format/variables';
export { resolveAndPrepare, signedRequestText, curlCommand } from '../../core/request/prepare';
export { entryFromResult, budgetState, historyItem } from '../../core/panel/entry';
export { orderQueryDocument } from '../../core/request/order-query';
export { FromPanelSchema } from '../../core/panel/protocol';
export { runCases } from '../../core/testing/run';
export { dataDiagnostics, loadData } from '../../core/testing/data';
export { SnapshotStore } from '../../core/testing/snapshot-store';
export { Pacer } from '../../core/testing/pace';
export { sandboxEnvironment, sandboxKeys } from '../../core/testing/sandbox';
export { parseSettings } from './settings-schema';
export { parseStoredKey, parseProfileIndex } from './stored-key-schema';
export { parseHistory } from './history-schema';
