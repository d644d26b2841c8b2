import * as vscode from 'vscode';
import { DEMO_ACCOUNTS, isLoopbackOrigin } from '../core/env/demo';
import { maskApiKey } from '../core/env/keys';
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
    const profile = editorProfile(resolved);
    const stored = await keys.get(profile);
    if (stored) {
      const key = { apiKey: stored.apiKey, secretKey: stored.secretKey };
      return ok({ key, binding: { profile, origins: stored.origins, source: 'SecretStorage' } });
    }
    const demo = profile === 'sandbox' && isLoopbackOrigin(resolved.origin);
    const action = demo ? 'Store the Sandbox Demo Key' : 'Add API Key';
    void vscode.window
      .showWarningMessage(`TradeReq: no key for profile "${profile}". Nothing was sent.`, action)
      .then(async (c) => {
        if (c === 'Add API Key') await vscode.commands.executeCommand('tradereq.addApiKey', profile, resolved.origin);
        else if (c) await storeDemoKey(keys, resolved.origin);
      });
    return err(`No key for profile "${profile}"; nothing was sent.`);
  };
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
    `TradeReq: stored the sandbox's demo key (${maskApiKey(demo.apiKey)}) as profile "sandbox", bound to ${origin}.`,
  );
}
