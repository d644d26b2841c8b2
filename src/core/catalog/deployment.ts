/**
 * Deployments: what differs between the places that run the service (docs/websocket.md,
 * "Deployments"). Each is one data file (`deployment-<id>.ts`) registered in DEPLOYMENTS below;
 * everything else reads these facts from here, never from a deployment's name. Its REST endpoints
 * are registered apart, in endpoint-catalogs.ts: the WebSocket client (dist/ws.js) needs none of them.
 */
import type { StreamDescription } from './stream-types';
import { SPEC_DEPLOYMENT } from './deployment-spec';
import { MEXC_DEPLOYMENT } from './deployment-mexc';

/** How a deployment's stream pushes are framed: JSON text (`{c, s, t, d}`) or Protocol Buffers binary wrappers. */
export type StreamEncoding = 'json' | 'protobuf';

export interface ListenKeyRules {
  /** What a listen key of this deployment looks like (for recognising and masking it). */
  readonly format: RegExp;
  /** Example keys from the deployment's own documentation, for tests of every surface that masks. */
  readonly examples: readonly string[];
  /** A key lapses this long after it was made or last extended. */
  readonly validityMs: number;
  /** How often a client extends the key it uses (PUT), well inside its validity. */
  readonly renewEveryMs: number;
  /** Valid keys an account may hold at once. */
  readonly maxPerAccount: number;
  /** Connections one key may carry at once. */
  readonly maxConnections: number;
}

export interface ConnectionRules {
  /** A connection is closed this long after it opened, whatever it does. */
  readonly lifetimeMs: number;
  /** A connection without a valid subscription is closed after this long. */
  readonly idleUnsubscribedMs: number;
  /** A subscribed connection that receives no data (and sends no PING) this long is closed; undefined: never. */
  readonly idleSubscribedMs?: number;
}

export interface Deployment {
  readonly id: string;
  /** Shown in pickers and messages: "the published spec", "MEXC Spot v3". */
  readonly title: string;
  /** The header that carries the API key. */
  readonly apiKeyHeader: string;
  /** Where the deployment answers REST; undefined when it has no public address (the spec's placeholder). */
  readonly baseUrl?: string;
  /** Its WebSocket endpoint; undefined: next to the REST base URL (ws/url.ts defaultWsUrl). */
  readonly wsUrl?: string;
  /** Hosts that are this deployment's, for `import` to name it. */
  readonly hosts: readonly string[];
  readonly streamEncoding: StreamEncoding;
  /** Its streams: names, parameters, which are private, what each push holds. */
  readonly streams: readonly StreamDescription[];
  readonly listenKey: ListenKeyRules;
  readonly connection: ConnectionRules;
}

/** Every deployment TradeReq knows, the default first. */
export const DEPLOYMENTS = [SPEC_DEPLOYMENT, MEXC_DEPLOYMENT] as const satisfies readonly Deployment[];

export type DeploymentId = (typeof DEPLOYMENTS)[number]['id'];
export const DEPLOYMENT_IDS = DEPLOYMENTS.map((d) => d.id) as [DeploymentId, ...DeploymentId[]];
export const DEFAULT_DEPLOYMENT: Deployment = SPEC_DEPLOYMENT;

export function deploymentById(id: string | undefined): Deployment | undefined {
  if (id === undefined) return DEFAULT_DEPLOYMENT;
  return DEPLOYMENTS.find((d) => d.id === id);
}

/** The deployment an environment names, the default when it names none. */
export function deploymentOf(environment: { readonly deployment?: string }): Deployment {
  return deploymentById(environment.deployment) ?? DEFAULT_DEPLOYMENT;
}

/** The deployment whose host `url` talks to, for `import`; undefined when none. */
export function deploymentOfUrl(url: string): Deployment | undefined {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  return DEPLOYMENTS.find((d) => d.hosts.some((h) => host === h || host.endsWith('.' + h)));
}
