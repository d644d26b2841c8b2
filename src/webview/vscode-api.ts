/** The webview's side of the channel to the extension: typed, validated before it leaves. */
import { FromPanelSchema, type FromPanel } from '../core/panel/protocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

// acquireVsCodeApi may be called once per webview load.
const api: VsCodeApi = acquireVsCodeApi();

/** Posts a message to the extension; one that does not match FromPanelSchema (e.g. an id over 100 characters) is not sent. */
export function post(message: FromPanel): boolean {
  const checked = FromPanelSchema.safeParse(message);
  if (!checked.success) return false;
  api.postMessage(checked.data);
  return true;
}

export function getSavedState(): unknown {
  return api.getState();
}

export function saveState(state: unknown): void {
  api.setState(state);
}
