import * as vscode from 'vscode';
import { maskApiKey, PROFILE_NAME_PATTERN } from '../core/env/keys';
import { normaliseOrigin } from '../core/request/origin-binding';
import type { Environments } from './environments';
import type { KeyStore } from './keys';

const TITLE = 'TradeReq: Add API Key';

/**
 * Add API Key: profile name, the origins the key may be sent to, the API key and the secret key (a
 * password field), each in an input box; all four go into SecretStorage and nowhere else.
 */
export async function addApiKey(
  keys: KeyStore,
  environments: Environments,
  profileArg?: unknown,
  originArg?: unknown,
): Promise<void> {
  await environments.ready();
  const env = environments.current();
  const profile = await askProfile(typeof profileArg === 'string' ? profileArg : (env.key ?? 'main'));
  if (!profile) return;
  const origins = await askOrigins(typeof originArg === 'string' ? originArg : (normaliseOrigin(env.baseUrl) ?? ''));
  if (!origins) return;
  const apiKey = await askKey(`API key of "${profile}" (sent in the API key header)`, 3, false);
  if (!apiKey) return;
  const secretKey = await askKey(
    `Secret key of "${profile}": used only to sign, stored only in VS Code's SecretStorage`,
    4,
    true,
  );
  if (!secretKey) return;
  if (!(await keys.store(profile, { apiKey, secretKey, origins }))) return;
  void vscode.window.showInformationMessage(
    `TradeReq: key profile "${profile}" stored in SecretStorage, bound to ${origins.join(', ')} (API key ${maskApiKey(apiKey)}).`,
  );
}

function askProfile(value: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: `${TITLE} (1/4)`,
    prompt: 'Profile name: how request files and environments refer to this key ("key" in tradereq.env.json, # @key)',
    value,
    validateInput: (v) =>
      PROFILE_NAME_PATTERN.test(v) ? undefined : 'Letters, digits, "-" and "_", starting with a letter or digit.',
    ignoreFocusOut: true,
  });
}

async function askOrigins(value: string): Promise<string[] | undefined> {
  const text = await vscode.window.showInputBox({
    title: `${TITLE} (2/4)`,
    prompt:
      'Origins this key may be sent to (scheme://host:port), comma-separated. A signed request to any other origin is refused.',
    value,
    validateInput: (v) => {
      const parts = v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      if (parts.length === 0) return 'Name at least one origin, e.g. https://api.example.com';
      const bad = parts.find((x) => !normaliseOrigin(x));
      return bad ? `"${bad}" is not an http(s) origin such as https://api.example.com` : undefined;
    },
    ignoreFocusOut: true,
  });
  if (!text) return undefined;
  return [
    ...new Set(
      text
        .split(',')
        .map((x) => normaliseOrigin(x.trim()))
        .filter((x): x is string => x !== undefined),
    ),
  ];
}

function askKey(prompt: string, step: number, password: boolean): Thenable<string | undefined> {
  const what = password ? 'The secret key' : 'The API key';
  return vscode.window.showInputBox({
    title: `${TITLE} (${step}/4)`,
    prompt,
    password,
    ignoreFocusOut: true,
    validateInput: (v) => (/^\S+$/.test(v) ? undefined : `${what} has no spaces.`),
  });
}
