/**
 * Request files and tradereq.env.json are shared in repositories, so neither may hold a secret.
 * One rule for both: a variable whose name looks like it holds a key, a password or a token is
 * refused, and the message says where keys belong.
 */

// Secret keys, passwords, tokens, API and access keys, credentials, signing keys, auth headers.
const SECRET_NAME =
  /secret|passw(or)?d|passphrase|pwd|private|token|bearer|credential|auth|api[-_. ]?key|access[-_. ]?key|signing[-_. ]?key|listen[-_. ]?key/i;

export function looksLikeSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** `where` is "tradereq.env.json" or "this request file". */
export function secretNameMessage(name: string, where: string): string {
  return `"${name}" looks like a secret, but ${where} is shared in the repository and holds no secret. Keys belong in a key profile: "TradeReq: Add API Key" in VS Code (SecretStorage), or TRADEREQ_<PROFILE>_API_KEY and TRADEREQ_<PROFILE>_SECRET_KEY for the command line; a request names it with # @key PROFILE.`;
}
