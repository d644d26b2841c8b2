import * as vscode from 'vscode';
import { DEMO_ACCOUNTS, isLoopbackOrigin } from '../core/env/demo';
import { maskApiKey, type KeyPair } from '../core/env/keys';
import { ownerDecision, type OwnerDecision } from '../core/request/confirm';
import type { KeySource } from '../core/request/prepare';
import { err, ok } from '../core/result';
import type { KeyStore } from './keys';

/**
 * Keys for the editor: the profile's key from SecretStorage with the origins its owner approved.
 * Without one, nothing is sent and a notification offers to add a key (or, for the sandbox on
 * loopback, to store its public demo key).
 */
export function editorKeySource(keys: KeyStore): KeySource {
  return async (resolved) => {
    // Defence in depth: every surface checks trust first, and no key leaves the store without it.
    if (!vscode.workspace.isTrusted) return err(untrusted());
    const profile = editorProfile(resolved);
    const stored = await keys.get(profile);
    if (stored) {
      const key = { apiKey: stored.apiKey, secretKey: stored.secretKey };
      const binding = { profile, origins: stored.origins, source: 'SecretStorage' };
      return ok({ key, binding, owner: ownerOf(profile, key, stored.confirm) });
    }
    const demo = profile === 'sandbox' && isLoopbackOrigin(resolved.origin);
    const addKey = vscode.l10n.t('Add API Key');
    const action = demo ? vscode.l10n.t('Store the Sandbox Demo Key') : addKey;
    void vscode.window
      .showWarningMessage(vscode.l10n.t('TradeReq: no key for profile "{0}". Nothing was sent.', profile), action)
      .then(async (c) => {
        if (c === addKey) await vscode.commands.executeCommand('tradereq.addApiKey', profile, resolved.origin);
        else if (c) await storeDemoKey(keys, resolved.origin);
      });
    return err(vscode.l10n.t('No key for profile "{0}"; nothing was sent.', profile));
  };
}

function untrusted(): string {
  return vscode.l10n.t('This workspace is not trusted: nothing signed is sent (Manage Workspace Trust).');
}

/** What the key's owner decided, kept with the key in SecretStorage (TradeReq: Ask Before Trades with a Key…). */
function ownerOf(profile: string, key: KeyPair, confirm: boolean | undefined): OwnerDecision {
  const optOut = vscode.l10n.t('choose "Send trades without asking" in TradeReq: Ask Before Trades with a Key…');
  const unasked = vscode.l10n.t('key profile "{0}" sends trades without asking (its own setting)', profile);
  return ownerDecision(key, optOut, confirm === false ? unasked : undefined);
}

/** The key profile a request of the editor signs with: its environment's (or `# @key`), else "default". */
export function editorProfile(resolved: { readonly keyProfile?: string }): string {
  return resolved.keyProfile ?? 'default';
}

/** Stores the sandbox's public demo key as profile "sandbox", bound to `origin`. */
export async function storeDemoKey(keys: KeyStore, origin: string): Promise<void> {
  const demo = DEMO_ACCOUNTS[0]!;
  if (!(await keys.store('sandbox', { apiKey: demo.apiKey, secretKey: demo.secretKey, origins: [origin] }))) return;
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      'TradeReq: stored the sandbox\'s demo key ({0}) as profile "sandbox", bound to {1}.',
      maskApiKey(demo.apiKey),
      origin,
    ),
  );
}
