/**
 * A run against the embedded sandbox exchange: the environment is the sandbox's (its base URL,
 * with the variables of the file's own environment), every signed request goes with the public
 * demo key, and nothing goes anywhere else. No account and no secret: what a CI job needs.
 */
import { deploymentOf } from '../catalog/deployment';
import { DEMO_ACCOUNTS, isLoopbackOrigin, SANDBOX_PROFILE } from '../env/demo';
import type { NamedEnvironment } from '../env/constants';
import { ownerDecision } from '../request/confirm';
import type { KeySource } from '../request/prepare';
import { err, ok } from '../result';

/**
 * The sandbox at `baseUrl` (its WebSocket endpoint at `wsUrl`, else next to it), with the variables
 * of `base` (the file's environment), if any, and its deployment: the sandbox plays the one `base`
 * names (sandboxDeployment), so requests go with that deployment's key header and its pushes are
 * read in its encoding.
 */
export function sandboxEnvironment(baseUrl: string, base?: NamedEnvironment, wsUrl?: string): NamedEnvironment {
  const environment: NamedEnvironment = {
    name: SANDBOX_PROFILE,
    baseUrl,
    key: SANDBOX_PROFILE,
    variables: base?.variables,
  };
  if (base?.deployment === undefined) return wsUrl === undefined ? environment : { ...environment, wsUrl };
  const deployment = deploymentOf(base);
  return {
    ...environment,
    ...(wsUrl !== undefined && { wsUrl }),
    deployment: deployment.id,
    apiKeyHeader: deployment.apiKeyHeader,
  };
}

/** The deployment a sandbox run plays for the file's environment `base`: the one it names, else the spec's. */
export function sandboxDeployment(base: NamedEnvironment | undefined): string {
  return deploymentOf(base ?? {}).id;
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
