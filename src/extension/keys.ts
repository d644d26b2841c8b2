import * as vscode from 'vscode';
import { lazy } from './lazy';
import type { StoredKey } from './lazy/keys';

const INDEX = 'tradereq.keys';
const entry = (profile: string): string => `tradereq.key.${profile}`;

export interface ProfileSummary {
  readonly profile: string;
  readonly origins: readonly string[];
}

/**
 * Key profiles in VS Code SecretStorage and nowhere else: API key, secret key and the origins the
 * owner approved. The list of profiles is kept there too. Values are never logged.
 */
export class KeyStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  private async index(): Promise<string[]> {
    return lazy().parseProfileIndex(await this.secrets.get(INDEX));
  }

  async profiles(): Promise<ProfileSummary[]> {
    const out: ProfileSummary[] = [];
    for (const profile of await this.index()) {
      const k = await this.get(profile);
      if (k) out.push({ profile, origins: k.origins });
    }
    return out;
  }

  async get(profile: string): Promise<StoredKey | undefined> {
    try {
      return lazy().parseStoredKey(await this.secrets.get(entry(profile)));
    } catch (e) {
      this.log.error(
        `could not read key profile "${profile}" from SecretStorage: ${e instanceof Error ? e.name : 'error'}`,
      );
      return undefined;
    }
  }

  async store(profile: string, key: StoredKey): Promise<void> {
    await this.secrets.store(entry(profile), JSON.stringify(key));
    const index = await this.index();
    if (!index.includes(profile)) await this.secrets.store(INDEX, JSON.stringify([...index, profile].sort()));
    this.log.info(`stored key profile "${profile}" bound to ${key.origins.join(', ') || 'no origin'}`);
  }

  async bind(profile: string, origin: string): Promise<void> {
    const k = await this.get(profile);
    if (!k) return;
    if (!k.origins.includes(origin)) await this.store(profile, { ...k, origins: [...k.origins, origin] });
  }

  async remove(profile: string): Promise<void> {
    await this.secrets.delete(entry(profile));
    await this.secrets.store(INDEX, JSON.stringify((await this.index()).filter((p) => p !== profile)));
    this.log.info(`removed key profile "${profile}"`);
  }
}
