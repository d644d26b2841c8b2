import * as vscode from 'vscode';

/**
 * Sending and key use need a trusted workspace: an untrusted request file or tradereq.env.json
 * could point anywhere. Says so, with the way to trust, when it is not.
 */
export function requireTrust(log: vscode.LogOutputChannel): boolean {
  if (vscode.workspace.isTrusted) return true;
  void vscode.window
    .showWarningMessage(
      vscode.l10n.t('TradeReq: sending requests and using keys needs a trusted workspace. Nothing was sent.'),
      vscode.l10n.t('Manage Workspace Trust'),
    )
    .then((c) => {
      if (c) void vscode.commands.executeCommand('workbench.trust.manage');
    });
  log.warn('send refused: the workspace is not trusted; nothing was sent');
  return false;
}
