/**
 * Key profiles as the core sees them. Where a key comes from (SecretStorage, environment
 * variables, the sandbox's demo keys) is the shell's business; the core gets a KeyPair.
 */
export interface KeyPair {
  readonly apiKey: string;
  /** Used for the HMAC and nothing else: never logged, printed or written. */
  readonly secretKey: string;
}

/** A key profile's name: letters, digits, `-` and `_` (tradereq.env.json "key", `# @key`). */
export const PROFILE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** The last 4 characters, for showing which key was used without showing the key. */
export function maskApiKey(apiKey: string): string {
  return apiKey.length <= 4 ? '****' : '****' + apiKey.slice(-4);
}

/** `TRADEREQ_<PROFILE>_API_KEY`: profile upper-cased, `-` as `_` (docs/format.md). */
export function profileEnvPrefix(profile: string): string {
  return 'TRADEREQ_' + profile.toUpperCase().replace(/-/g, '_') + '_';
}

/**
 * Keys from environment variables: the profile's own pair, else the generic
 * TRADEREQ_API_KEY / TRADEREQ_SECRET_KEY pair.
 */
export function keysFromEnvironment(profile: string | undefined, env: NodeJS.ProcessEnv): KeyPair | undefined {
  if (profile) {
    const prefix = profileEnvPrefix(profile);
    const apiKey = env[prefix + 'API_KEY'];
    const secretKey = env[prefix + 'SECRET_KEY'];
    if (apiKey && secretKey) return { apiKey, secretKey };
  }
  const apiKey = env['TRADEREQ_API_KEY'];
  const secretKey = env['TRADEREQ_SECRET_KEY'];
  if (apiKey && secretKey) return { apiKey, secretKey };
  return undefined;
}
