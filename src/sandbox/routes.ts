/**
 * Which requests the sandbox answers, for the deployment it plays: the endpoints trading and the
 * streams need are played (the spec's catalog, and the few of the deployment's own the sandbox has
 * handlers for); any other endpoint of the deployment's catalog is "not played by the sandbox"
 * (501, code 20001), told apart from a path no catalog knows (404, 730003) and from a method a
 * played path does not take (405, 26).
 */
import { DEPLOYMENTS, type Deployment } from '../core/catalog/deployment';
import { ENDPOINTS, isBatchEndpoint } from '../core/catalog/endpoints';
import type { EndpointInfo } from '../core/catalog/types';
import type { Handler } from './api';
import { refusal, value, type Answer } from './replies';

/** The status of an endpoint the deployment documents and the sandbox does not play: HTTP's "not implemented". */
export const NOT_PLAYED_STATUS = 501;
/** Its code: §7.2's "Subsystem not supported". */
export const NOT_PLAYED_CODE = 20001;

export interface Route {
  readonly endpoint: EndpointInfo;
  readonly handler: Handler;
  /** Parameters whose values are JSON text (a batch's list). */
  readonly jsonValued: ReadonlySet<string>;
  /** §5 rule 6 holds: a batch operation's values arrive strictly percent-encoded. */
  readonly strictEncoding: boolean;
}

function normalisePath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function key(e: Pick<EndpointInfo, 'method' | 'path'>): string {
  return `${e.method} ${e.path}`;
}

/** The header names other deployments carry the API key in (a request that sends one of them is told which to use). */
export function otherKeyHeaders(deployment: Deployment): readonly string[] {
  const own = deployment.apiKeyHeader.toLowerCase();
  return [...new Set(DEPLOYMENTS.map((d) => d.apiKeyHeader))].filter((h) => h.toLowerCase() !== own);
}

export class RouteTable {
  /** Played routes by path, then method. */
  private readonly played = new Map<string, Map<string, Route>>();
  /** Endpoints of the deployment's catalog the sandbox does not play, by path, then method. */
  private readonly notPlayed = new Map<string, Set<string>>();

  constructor(
    private readonly deployment: Deployment,
    endpoints: readonly EndpointInfo[],
    handlers: ReadonlyMap<string, Handler>,
  ) {
    const spec = new Set(ENDPOINTS.map(key));
    // The spec's catalog is what the handlers were written to; the deployment's adds what it documents.
    for (const endpoint of [...ENDPOINTS, ...endpoints.filter((e) => !spec.has(key(e))).map(asPlayed)]) {
      const handler = handlers.get(key(endpoint));
      if (handler === undefined) this.entry(this.notPlayed, endpoint.path, () => new Set()).add(endpoint.method);
      else this.entry(this.played, endpoint.path, () => new Map()).set(endpoint.method, routeOf(endpoint, handler));
    }
  }

  private entry<T>(map: Map<string, T>, path: string, make: () => T): T {
    let v = map.get(path);
    if (v === undefined) map.set(path, (v = make()));
    return v;
  }

  /** The route of `method` and `path`, or the answer that refuses it (404, 405 or 501). */
  find(method: string, path: string): Answer<Route> {
    const normal = normalisePath(path);
    const byMethod = this.played.get(normal);
    const route = byMethod?.get(method);
    if (route !== undefined) return value(route);
    if (this.notPlayed.get(normal)?.has(method) === true) {
      return refusal(
        NOT_PLAYED_CODE,
        `${method} ${normal}, an endpoint of ${this.deployment.title}, is not played by the sandbox; it plays ${this.playedList()}.`,
        { status: NOT_PLAYED_STATUS },
      );
    }
    if (byMethod === undefined) {
      const known = [...this.played.keys()].join(', ');
      return refusal(730003, `The sandbox has no endpoint ${path}; it answers ${known}.`, { status: 404 });
    }
    const allow = [...byMethod.keys()].join(', ');
    return refusal(26, `${path} takes ${allow}, not ${method}.`, { status: 405, headers: { Allow: allow } });
  }

  private playedList(): string {
    const all: string[] = [];
    for (const byMethod of this.played.values()) for (const r of byMethod.values()) all.push(key(r.endpoint));
    return all.join(', ');
  }
}

/**
 * An endpoint only the deployment's catalog has, as the sandbox checks it: with the permission the
 * spec's endpoints of its path need (the sandbox's keys hold the spec's read and trade, not the
 * deployment's own permission names).
 */
function asPlayed(endpoint: EndpointInfo): EndpointInfo {
  const samePath = ENDPOINTS.find((e) => e.path === endpoint.path);
  const { permission: _theirs, ...rest } = endpoint;
  return samePath?.permission === undefined ? rest : { ...rest, permission: samePath.permission };
}

function routeOf(endpoint: EndpointInfo, handler: Handler): Route {
  return {
    endpoint,
    handler,
    jsonValued: new Set(endpoint.params.filter((p) => p.type === 'orderList').map((p) => p.name)),
    strictEncoding: isBatchEndpoint(endpoint),
  };
}
