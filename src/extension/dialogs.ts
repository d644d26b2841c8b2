import * as vscode from 'vscode';
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
    const bind = `Bind to ${origin}…`;
    void vscode.window.showWarningMessage(`TradeReq: ${message}`, bind).then(async (c) => {
      if (c !== bind) return;
      const allow = 'Allow and Send';
      const detail = `It is bound to ${choice.binding.origins.join(', ') || 'no origin'} now. Whoever can edit this request file or tradereq.env.json chooses where a request goes: allow only an origin you trust with this key.`;
      const question = `Allow key profile "${choice.binding.profile}" to be sent to ${origin}?`;
      if ((await vscode.window.showWarningMessage(question, { modal: true, detail }, allow)) !== allow) return;
      // Not bound (storage failed, already told): nothing is sent.
      if (!(await keys.bind(choice.binding.profile, origin))) return;
      log.info(`key profile "${choice.binding.profile}" bound to ${origin} after confirmation`);
      await resend();
    });
  };
}

/** `# @confirm`, or an order to a "confirm" environment: a modal dialog naming the order. */
export function confirmOrder(
  log: vscode.LogOutputChannel,
): (resolved: ResolvedRequest, order: string) => Promise<boolean> {
  return async (resolved, order) => {
    const send = 'Send';
    const why = resolved.options.confirm ? ' · # @confirm' : ' asks before every order';
    try {
      const detail = `Environment "${resolved.environment.name}" (${resolved.origin})${why}.`;
      return (await vscode.window.showWarningMessage(`Send ${order}?`, { modal: true, detail }, send)) === send;
    } catch (e) {
      // A dialog that cannot be shown is no confirmation: nothing is sent.
      log.warn(`the confirmation dialog could not be shown (${e instanceof Error ? e.message : String(e)}); not sent`);
      return false;
    }
  };
}
