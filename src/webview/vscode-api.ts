/** The webview's side of the channel to the extension: typed, validated before it leaves. */
import { check, FromPanelShape, type FromPanel } from '../core/panel/protocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

// acquireVsCodeApi may be called once per webview load.
const api: VsCodeApi = acquireVsCodeApi();

/** Posts a message to the extension; one that does not match FromPanelShape (e.g. an id over 100 characters) is not sent. */
export function post(message: FromPanel): boolean {
  const checked = check(FromPanelShape, message);
  if (!checked.ok) return false;
  api.postMessage(checked.value);
  return true;
}

export function getSavedState(): unknown {
  return api.getState();
}

export function saveState(state: unknown): void {
  api.setState(state);
}
