/**
 * A run against the embedded sandbox exchange: the environment is the sandbox's (its base URL,
 * with the variables of the file's own environment), every signed request goes with the public
 * demo key, and nothing goes anywhere else. No account and no secret: what a CI job needs.
 */
import { DEMO_ACCOUNTS, isLoopbackOrigin, SANDBOX_PROFILE } from '../env/demo';
import type { NamedEnvironment } from '../env/constants';
import { ownerDecision } from '../request/confirm';
import type { KeySource } from '../request/prepare';
import { err, ok } from '../result';

/** The sandbox at `baseUrl`, with the variables of `base` (the file's environment), if any. */
export function sandboxEnvironment(baseUrl: string, base?: NamedEnvironment): NamedEnvironment {
  return { name: SANDBOX_PROFILE, baseUrl, key: SANDBOX_PROFILE, variables: base?.variables };
}

/** The demo key of the `trade` account, for the sandbox's origin only (a loopback one). */
export function sandboxKeys(origin: string): KeySource {
  return (resolved) =>
    resolved.origin === origin && isLoopbackOrigin(origin)
      ? ok({
          key: DEMO_ACCOUNTS[0]!,
          binding: { profile: SANDBOX_PROFILE, origins: [origin], source: 'the sandbox demo key (loopback only)' },
          owner: ownerDecision(DEMO_ACCOUNTS[0]!, SANDBOX_PROFILE),
        })
      : err(`the sandbox demo key goes only to the sandbox (${origin}), not to ${resolved.origin}`);
}
