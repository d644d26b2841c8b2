/**
 * The page's words in the display language: the bundle panelHtml wrote into the document, read once
 * before anything is drawn. It came through the extension but is checked like any message: a flat
 * record of strings within BOUNDS, or else ignored (the page stays English).
 */
import { setL10nBundle } from '../core/l10n';
import { BOUNDS, check, shape as s } from '../core/panel/protocol';

const BundleShape = s.record(s.string(BOUNDS.panelL10nChars), BOUNDS.panelL10nMessages);

/** Loads the bundle in `holder`'s data-l10n, then drops the attribute. */
export function loadL10n(holder: Element): void {
  const text = holder.getAttribute('data-l10n');
  holder.removeAttribute('data-l10n');
  if (text === null || text.length > BOUNDS.panelL10nChars) return;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return;
  }
  const parsed = check(BundleShape, raw);
  if (parsed.ok) setL10nBundle(parsed.value);
}
