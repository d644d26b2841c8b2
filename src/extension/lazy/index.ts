/**
 * What the extension needs only after activation, in its own bundle (dist/lazy.js): validation with
 * zod, undici and the shared rate-limit state. Loading it on first use keeps activation fast.
 */
export { parseEnvironmentFile } from '../../core/env/schema';
export { FileStateStore } from '../../core/budget/state';
export { Budget } from '../../core/budget/budget';
export { ClockSync } from '../../core/clock/sync';
export { Sender } from '../../core/net/send';
export { fetchSymbols } from '../../core/editor/exchange-info';
export { parseSettings } from './settings';
