import * as vscode from 'vscode';
import { isDemoKey } from '../core/env/demo';
import { maskApiKey } from '../core/env/keys';
import { lazy } from './lazy';
import type { StoredKey } from './lazy/stored-key-schema';

const INDEX = 'tradereq.keys';
const entry = (profile: string): string => `tradereq.key.${profile}`;

export interface ProfileSummary {
  readonly profile: string;
  readonly origins: readonly string[];
  /** The API key as it is shown everywhere: its last four characters (maskApiKey). */
  readonly maskedApiKey: string;
  /** Whether trades signed with it ask first: its owner's setting (TradeReq: Ask Before Trades with a Key…); never for a demo key. */
  readonly asksBeforeTrades: boolean;
}

/**
 * Key profiles in VS Code SecretStorage and nowhere else: API key, secret key and the origins the
 * owner approved. The list of profiles is kept there too. Values are never logged.
 */
export class KeyStore implements vscode.Disposable {
  /**
   * Profiles read this session, in memory only: each Send would otherwise wait for SecretStorage,
   * a round trip to the window (15-70 ms measured). Forgotten on any change of the storage.
   */
  private readonly read = new Map<string, StoredKey>();
  /** Counts changes, so that a read that a change overtook is not kept. */
  private changes = 0;
  private readonly watch: vscode.Disposable;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.watch = secrets.onDidChange(() => this.forget());
  }

  dispose(): void {
    this.watch.dispose();
    this.read.clear();
  }

  private forget(): void {
    this.changes++;
    this.read.clear();
  }

  private async index(): Promise<string[]> {
    return lazy().parseProfileIndex(await this.secrets.get(INDEX));
  }

  async profiles(): Promise<ProfileSummary[]> {
    const out: ProfileSummary[] = [];
    for (const profile of await this.index()) {
      const k = await this.get(profile);
      if (k)
        out.push({
          profile,
          origins: k.origins,
          maskedApiKey: maskApiKey(k.apiKey),
          asksBeforeTrades: k.confirm !== false && !isDemoKey(k),
        });
    }
    return out;
  }

  async get(profile: string): Promise<StoredKey | undefined> {
    const known = this.read.get(profile);
    if (known) return known;
    const changes = this.changes;
    try {
      const k = lazy().parseStoredKey(await this.secrets.get(entry(profile)));
      if (k && changes === this.changes) this.read.set(profile, k);
      return k;
    } catch (e) {
      this.log.error(
        `could not read key profile "${profile}" from SecretStorage: ${e instanceof Error ? e.name : 'error'}`,
      );
      return undefined;
    }
  }

  /** Stores the profile; false (logged and shown, never the values) when SecretStorage fails. */
  async store(profile: string, key: StoredKey): Promise<boolean> {
    this.forget();
    try {
      await this.secrets.store(entry(profile), JSON.stringify(key));
      const index = await this.index();
      if (!index.includes(profile)) await this.secrets.store(INDEX, JSON.stringify([...index, profile].sort()));
    } catch (e) {
      this.failed('store', profile, e);
      return false;
    }
    this.log.info(`stored key profile "${profile}" bound to ${key.origins.join(', ') || 'no origin'}`);
    return true;
  }

  /** Adds `origin` to the profile's approved origins; false when the profile is gone or storing failed. */
  async bind(profile: string, origin: string): Promise<boolean> {
    const k = await this.get(profile);
    if (!k) return false;
    if (k.origins.includes(origin)) return true;
    return this.store(profile, { ...k, origins: [...k.origins, origin] });
  }

  /** Removes the profile; false (logged and shown) when SecretStorage fails. */
  async remove(profile: string): Promise<boolean> {
    this.forget();
    try {
      await this.secrets.delete(entry(profile));
      await this.secrets.store(INDEX, JSON.stringify((await this.index()).filter((p) => p !== profile)));
    } catch (e) {
      this.failed('remove', profile, e);
      return false;
    }
    this.log.info(`removed key profile "${profile}"`);
    return true;
  }

  /** Only the error's name is told: a storage error's message could quote what was being stored. */
  private failed(action: 'store' | 'remove', profile: string, e: unknown): void {
    const name = e instanceof Error ? e.name : 'error';
    this.log.error(`could not ${action} key profile "${profile}" in SecretStorage: ${name}`);
    void vscode.window.showErrorMessage(
      action === 'store'
        ? vscode.l10n.t(
            'TradeReq: could not store key profile "{0}" in VS Code\'s secret storage ({1}). On Linux it needs a running keyring (such as gnome-keyring); see the TradeReq output for details.',
            profile,
            name,
          )
        : vscode.l10n.t(
            'TradeReq: could not remove key profile "{0}" in VS Code\'s secret storage ({1}). On Linux it needs a running keyring (such as gnome-keyring); see the TradeReq output for details.',
            profile,
            name,
          ),
    );
  }
}
