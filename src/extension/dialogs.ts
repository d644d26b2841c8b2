import * as vscode from 'vscode';
import { SHOWN_BEFORE_SEND } from '../core/check/before-send';
import type { Diagnostic } from '../core/format/model';
import type { ResolvedRequest } from '../core/format/resolve';
import type { KeyChoice } from '../core/request/prepare';
import type { KeyStore } from './keys';

/**
 * A key not bound to the origin: the request was refused and nothing sent. Offers to bind the
 * profile, after an explicit confirmation in a modal dialog; once bound, `resend` sends it again.
 */
export function offerBinding(
  keys: KeyStore,
  log: vscode.LogOutputChannel,
  resend: () => unknown,
): (resolved: ResolvedRequest, choice: KeyChoice, message: string, origin: string) => void {
  // `origin` is where the key was refused: the request's, or a listen key's WebSocket origin in http(s) form.
  return (_resolved, choice, message, origin) => {
    const bind = vscode.l10n.t('Bind to {0}…', origin);
    void vscode.window.showWarningMessage(vscode.l10n.t('TradeReq: {0}', message), bind).then(async (c) => {
      if (c !== bind) return;
      const allow = vscode.l10n.t('Allow and Send');
      const detail = vscode.l10n.t(
        'It is bound to {0} now. Whoever can edit this request file or tradereq.env.json chooses where a request goes: allow only an origin you trust with this key.',
        choice.binding.origins.join(', ') || vscode.l10n.t('no origin'),
      );
      const question = vscode.l10n.t('Allow key profile "{0}" to be sent to {1}?', choice.binding.profile, origin);
      if ((await vscode.window.showWarningMessage(question, { modal: true, detail }, allow)) !== allow) return;
      // Not bound (storage failed, already told): nothing is sent.
      if (!(await keys.bind(choice.binding.profile, origin))) return;
      log.info(`key profile "${choice.binding.profile}" bound to ${origin} after confirmation`);
      await resend();
    });
  };
}

/**
 * A request that asks before it goes (`# @confirm`, a trade with the user's own key, a trade to a
 * "confirm" environment): a modal dialog naming the order, where it goes and why it asks.
 */
export function confirmOrder(
  log: vscode.LogOutputChannel,
): (resolved: ResolvedRequest, order: string, reason: string) => Promise<boolean> {
  return async (resolved, order, reason) => {
    const send = vscode.l10n.t('Send');
    try {
      const detail = vscode.l10n.t(
        'To {0} (environment "{1}"). Why you are asked: {2}.',
        resolved.origin,
        resolved.environment.name,
        reason,
      );
      const question = vscode.l10n.t('Send {0}?', order);
      return (await vscode.window.showWarningMessage(question, { modal: true, detail }, send)) === send;
    } catch (e) {
      // A dialog that cannot be shown is no confirmation: nothing is sent.
      log.warn(`the confirmation dialog could not be shown (${e instanceof Error ? e.message : String(e)}); not sent`);
      return false;
    }
  };
}

/** The errors that check found, one a line as the Problems view words them, SHOWN_BEFORE_SEND at most. */
export function checkErrorLines(errors: readonly Diagnostic[]): string {
  const lines = errors
    .slice(0, SHOWN_BEFORE_SEND)
    .map((d) => vscode.l10n.t('Line {0}: {1} ({2})', d.range.startLine + 1, d.message, d.rule));
  if (errors.length > SHOWN_BEFORE_SEND)
    lines.push(vscode.l10n.t('… and {0} more in the Problems view.', errors.length - SHOWN_BEFORE_SEND));
  return lines.join('\n');
}

/**
 * A request with errors that check finds (docs/editor.md, Sending from the editor): a modal question
 * listing them, as the Problems view words them. "Send anyway" sends; Cancel, or a dialog that
 * cannot be shown, does not.
 */
export async function sendDespiteErrors(
  log: vscode.LogOutputChannel,
  title: string,
  errors: readonly Diagnostic[],
): Promise<boolean> {
  const anyway = vscode.l10n.t('Send anyway');
  const question =
    errors.length === 1
      ? vscode.l10n.t('"{0}" has an error that check found: the service would refuse it. Send it anyway?', title)
      : vscode.l10n.t(
          '"{0}" has {1} errors that check found: the service would refuse it. Send it anyway?',
          title,
          errors.length,
        );
  try {
    return (
      (await vscode.window.showWarningMessage(question, { modal: true, detail: checkErrorLines(errors) }, anyway)) ===
      anyway
    );
  } catch (e) {
    // A dialog that cannot be shown is no decision: nothing is sent.
    log.warn(
      `the question before sending despite errors could not be shown (${e instanceof Error ? e.message : String(e)}); not sent`,
    );
    return false;
  }
}
