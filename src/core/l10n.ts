/**
 * The words the editor shows, in the display language when a translation is loaded (issue 23). A
 * message is its English text with `{0}`, `{1}`… for its values, the form `vscode.l10n.t` takes, so
 * one bundle (`l10n/bundle.l10n.<locale>.json`) serves the extension's own strings and the core's.
 * The extension loads VS Code's bundle for the display language (`setL10nBundle(vscode.l10n.bundle)`);
 * the command line loads none and stays English.
 */

/** A translation bundle as VS Code reads it: English message → translated message. */
export type L10nBundle = Readonly<Record<string, string>>;

let bundle: L10nBundle | undefined;

/** Loads the bundle every later `t` reads (undefined: English). */
export function setL10nBundle(next: L10nBundle | undefined): void {
  bundle = next;
}

/** The bundle loaded now, to hand to a worker thread. */
export function l10nBundle(): L10nBundle | undefined {
  return bundle;
}

/** A value put into a message. */
export type L10nValue = string | number | boolean;

/** `message` in the loaded language, each `{N}` replaced by the N-th value (as vscode.l10n.t does). */
export function t(message: string, ...values: readonly L10nValue[]): string {
  const translated = bundle?.[message];
  return fill(typeof translated === 'string' ? translated : message, values);
}

function fill(template: string, values: readonly L10nValue[]): string {
  if (values.length === 0) return template;
  return template.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const value = values[Number(index)];
    return value === undefined ? whole : String(value);
  });
}
