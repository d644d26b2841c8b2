import * as vscode from 'vscode';
import { isDemoKey } from '../core/env/demo';
import { maskApiKey } from '../core/env/keys';
import * as diagnosticsChannel from 'node:diagnostics_channel';
import { monotonicMs } from '../core/node-lazy';
import { KEY_STORE_CHANNEL, SecretReads } from './key-reads';
import { lazy } from './lazy';
import type { StoredKey } from './lazy/stored-key-schema';
import type { Environments } from './environments';

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

const channel = diagnosticsChannel.channel(KEY_STORE_CHANNEL);

/**
 * Key profiles in VS Code SecretStorage and nowhere else: API key, secret key and the origins the
 * owner approved. The list of profiles is kept there too. Values are never logged.
 */
export class KeyStore implements vscode.Disposable {
  /**
   * Profiles read this session, in memory only (each Send would otherwise wait for SecretStorage,
   * a round trip to the window: 15-70 ms measured, 200-500 ms for a session's first): a key or "none",
   * each read once at a time, forgotten on any change of the storage (key-reads.ts).
   */
  private readonly reads: SecretReads<StoredKey>;
  private readonly watch: vscode.Disposable;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when SecretStorage changed (here or in another window): what was read is forgotten. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly log: vscode.LogOutputChannel,
  ) {
    const parse = (text: string): StoredKey | undefined => lazy().parseStoredKey(text);
    const read = async (k: string): Promise<string | undefined> => {
      const start = monotonicMs();
      try {
        return await secrets.get(k);
      } finally {
        if (channel.hasSubscribers) channel.publish({ event: 'answered', entry: k, ms: monotonicMs() - start });
      }
    };
    this.reads = new SecretReads({ get: read }, parse, (k, ahead) => {
      if (channel.hasSubscribers) channel.publish({ event: 'read', entry: k, ahead });
    });
    this.watch = secrets.onDidChange(() => {
      this.reads.forget();
      this.changed.fire();
    });
  }

  dispose(): void {
    this.watch.dispose();
    this.changed.dispose();
    this.reads.forget();
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
    const start = monotonicMs();
    const from = this.reads.state(entry(profile));
    try {
      return await this.reads.get(entry(profile));
    } catch (e) {
      this.log.error(
        `could not read key profile "${profile}" from SecretStorage: ${e instanceof Error ? e.name : 'error'}`,
      );
      return undefined;
    } finally {
      if (channel.hasSubscribers) channel.publish({ event: 'get', profile, from, ms: monotonicMs() - start });
    }
  }

  /**
   * Reads `profile` ahead of a send, so that the Send does not wait for SecretStorage: only in a
   * trusted workspace, as no key leaves SecretStorage for an untrusted one (docs/security.md).
   */
  warm(profile: string): void {
    if (vscode.workspace.isTrusted) this.reads.warm(entry(profile));
  }

  /** Stores the profile; false (logged and shown, never the values) when SecretStorage fails. */
  async store(profile: string, key: StoredKey): Promise<boolean> {
    // Forgotten before and after: a read under way meanwhile may hold either value.
    this.reads.forget();
    try {
      await this.secrets.store(entry(profile), JSON.stringify(key));
      const index = await this.index();
      if (!index.includes(profile)) await this.secrets.store(INDEX, JSON.stringify([...index, profile].sort()));
    } catch (e) {
      this.failed('store', profile, e);
      return false;
    } finally {
      this.reads.forget();
      this.changed.fire();
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
    // Forgotten before and after: a read under way meanwhile may still find the key.
    this.reads.forget();
    try {
      await this.secrets.delete(entry(profile));
      await this.secrets.store(INDEX, JSON.stringify((await this.index()).filter((p) => p !== profile)));
    } catch (e) {
      this.failed('remove', profile, e);
      return false;
    } finally {
      this.reads.forget();
      this.changed.fire();
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

/**
 * Reads the key profile of each open request file's environment ahead of its first Send (the key
 * stays in this process's memory): when the file opens or its environment is known or chosen,
 * when the workspace is trusted, and again after SecretStorage changed.
 */
export function warmKeysOfRequestFiles(keys: KeyStore, environments: Environments): vscode.Disposable {
  const warm = (document: vscode.TextDocument): void => {
    if (document.languageId !== 'tradereq' || !vscode.workspace.isTrusted) return;
    void environments.ready(document.uri).then(
      () => {
        const profile = environments.current(document.uri).key;
        if (profile) keys.warm(profile);
      },
      () => undefined,
    );
  };
  const warmAll = (): void => vscode.workspace.textDocuments.forEach(warm);
  warmAll();
  return vscode.Disposable.from(
    vscode.workspace.onDidOpenTextDocument(warm),
    environments.onDidChange(warmAll),
    keys.onDidChange(warmAll),
    vscode.workspace.onDidGrantWorkspaceTrust(warmAll),
  );
}
