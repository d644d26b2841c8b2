/**
 * Request files and tradereq.env.json are shared in repositories, so neither may hold a secret.
 * One rule for both: a variable whose name looks like it holds a key, a password or a token is
 * refused, and the message says where keys belong.
 */
import { t } from '../l10n';

// Secret keys, passwords, tokens, API and access keys, credentials, signing keys, auth headers.
const SECRET_NAME =
  /secret|passw(or)?d|passphrase|pwd|private|token|bearer|credential|auth|api[-_. ]?key|access[-_. ]?key|signing[-_. ]?key|listen[-_. ]?key/i;

export function looksLikeSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Where the variable `name` is written: tradereq.env.json or the request file being checked. */
export function secretNameMessage(name: string, where: 'tradereq.env.json' | 'request file'): string {
  return where === 'request file'
    ? t(
        '"{0}" looks like a secret, but this request file is shared in the repository and holds no secret. Keys belong in a key profile: "TradeReq: Add API Key" in VS Code (SecretStorage), or TRADEREQ_<PROFILE>_API_KEY and TRADEREQ_<PROFILE>_SECRET_KEY for the command line; a request names it with # @key PROFILE.',
        name,
      )
    : t(
        '"{0}" looks like a secret, but tradereq.env.json is shared in the repository and holds no secret. Keys belong in a key profile: "TradeReq: Add API Key" in VS Code (SecretStorage), or TRADEREQ_<PROFILE>_API_KEY and TRADEREQ_<PROFILE>_SECRET_KEY for the command line; a request names it with # @key PROFILE.',
        name,
      );
}
