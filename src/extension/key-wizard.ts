import * as vscode from 'vscode';
import { maskApiKey, PROFILE_NAME_PATTERN } from '../core/env/keys';
import { normaliseOrigin } from '../core/request/origin-binding';
import type { Environments } from './environments';
import type { KeyStore } from './keys';
import { reach } from './milestones';

/** The title of step `step` of 4. */
const title = (step: number): string => vscode.l10n.t('TradeReq: Add API Key ({0}/4)', step);

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
  const apiKey = await askKey(vscode.l10n.t('API key of "{0}" (sent in the API key header)', profile), 3, false);
  if (!apiKey) return;
  const secretKey = await askKey(
    vscode.l10n.t('Secret key of "{0}": used only to sign, stored only in VS Code\'s SecretStorage', profile),
    4,
    true,
  );
  if (!secretKey) return;
  if (!(await keys.store(profile, { apiKey, secretKey, origins }))) return;
  reach('apiKeyAdded');
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      'TradeReq: key profile "{0}" stored in SecretStorage, bound to {1} (API key {2}).',
      profile,
      origins.join(', '),
      maskApiKey(apiKey),
    ),
  );
}

function askProfile(value: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: title(1),
    prompt: vscode.l10n.t(
      'Profile name: how request files and environments refer to this key ("key" in tradereq.env.json, # @key)',
    ),
    value,
    validateInput: (v) =>
      PROFILE_NAME_PATTERN.test(v)
        ? undefined
        : vscode.l10n.t('Letters, digits, "-" and "_", starting with a letter or digit.'),
    ignoreFocusOut: true,
  });
}

async function askOrigins(value: string): Promise<string[] | undefined> {
  const text = await vscode.window.showInputBox({
    title: title(2),
    prompt: vscode.l10n.t(
      'Origins this key may be sent to (scheme://host:port), comma-separated. A signed request to any other origin is refused.',
    ),
    value,
    validateInput: (v) => {
      const parts = v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      if (parts.length === 0) return vscode.l10n.t('Name at least one origin, e.g. https://api.example.com');
      const bad = parts.find((x) => !normaliseOrigin(x));
      return bad ? vscode.l10n.t('"{0}" is not an http(s) origin such as https://api.example.com', bad) : undefined;
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
  const spaces = password
    ? vscode.l10n.t('The secret key has no spaces.')
    : vscode.l10n.t('The API key has no spaces.');
  return vscode.window.showInputBox({
    title: title(step),
    prompt,
    password,
    ignoreFocusOut: true,
    validateInput: (v) => (/^\S+$/.test(v) ? undefined : spaces),
  });
}

/**
 * Ask Before Trades with a Key…: the key's owner decides, for one stored profile, whether requests
 * that can trade or move funds signed with it ask first. Kept with the key in SecretStorage, where
 * no repository can write; a request file may still ask for more (`# @confirm`, "confirm": true).
 */
export async function askBeforeTrades(keys: KeyStore, profileArg?: unknown): Promise<void> {
  const profile = typeof profileArg === 'string' ? profileArg : await pickProfile(keys);
  if (profile === undefined) return;
  const stored = await keys.get(profile);
  if (!stored)
    return void vscode.window.showWarningMessage(vscode.l10n.t('TradeReq: no key profile "{0}" is stored.', profile));
  const ask = { label: vscode.l10n.t('Ask before each trade (recommended)'), confirm: true };
  const send = { label: vscode.l10n.t('Send trades without asking'), confirm: false };
  const current = stored.confirm === false ? send : ask;
  const picked = await vscode.window.showQuickPick(
    [ask, send].map((o) => ({ ...o, description: o === current ? vscode.l10n.t('current') : undefined })),
    {
      title: vscode.l10n.t('TradeReq: trades signed with key profile "{0}"', profile),
      placeHolder: vscode.l10n.t('Orders, cancels, batches, transfers and withdrawals, whatever their origin'),
    },
  );
  if (!picked || picked.confirm === (stored.confirm !== false)) return;
  if (!(await keys.store(profile, { ...stored, confirm: picked.confirm }))) return;
  void vscode.window.showInformationMessage(
    picked.confirm
      ? vscode.l10n.t('TradeReq: trades signed with key profile "{0}" ask before they are sent.', profile)
      : vscode.l10n.t(
          'TradeReq: trades signed with key profile "{0}" are sent without asking, unless a request file asks (# @confirm).',
          profile,
        ),
  );
}

async function pickProfile(keys: KeyStore): Promise<string | undefined> {
  const list = await keys.profiles();
  if (list.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('TradeReq: no key profiles are stored. Run "TradeReq: Add API Key".'),
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    list.map((k) => ({ label: k.profile, description: k.maskedApiKey })),
    { title: vscode.l10n.t('TradeReq: Ask Before Trades with a Key') },
  );
  return picked?.label;
}
