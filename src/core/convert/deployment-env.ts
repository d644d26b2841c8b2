/**
 * The deployment an import names (docs/websocket.md, "Deployments"): a source that talks to a
 * deployment's host gets `"deployment": "<id>"` in the environment it writes, and leaves out the
 * base URL and key header that deployment already gives (they are written only where they differ).
 */
import {
  DEFAULT_DEPLOYMENT,
  DEPLOYMENTS,
  deploymentOfUrl,
  type Deployment,
  type DeploymentId,
} from '../catalog/deployment';
import { endpointCatalogOf } from '../catalog/endpoint-catalogs';
import type { EndpointCatalog } from '../catalog/endpoints';
import { DEFAULT_API_KEY_HEADER } from '../env/constants';

/** The deployment whose host `baseUrl` names; undefined for the default (the spec) or no URL. */
export function deploymentOfBase(baseUrl: string | undefined): Deployment | undefined {
  const d = baseUrl === undefined ? undefined : deploymentOfUrl(baseUrl);
  return d === DEFAULT_DEPLOYMENT ? undefined : d;
}

/** The deployment whose own key header (not the default's) one of `headers` is; for a source that names no host. */
export function deploymentOfKeyHeader(headers: Iterable<string>): Deployment | undefined {
  const names = new Set([...headers].map((h) => h.toUpperCase()));
  return DEPLOYMENTS.find((d) => d !== DEFAULT_DEPLOYMENT && names.has(d.apiKeyHeader.toUpperCase()));
}

/** The catalog an import looks endpoints up in: the deployment's, else the spec's. */
export function importCatalog(deployment: Deployment | undefined): EndpointCatalog {
  return endpointCatalogOf(deployment ?? DEFAULT_DEPLOYMENT);
}

/** Whether `header` is the key header the environment already gets (the deployment's, or the default). */
export function headerGiven(header: string, deployment: Deployment | undefined): boolean {
  return header.toUpperCase() === (deployment?.apiKeyHeader ?? DEFAULT_API_KEY_HEADER).toUpperCase();
}

interface EnvironmentPlace {
  readonly deployment?: DeploymentId;
  readonly baseUrl?: string;
  readonly apiKeyHeader?: string;
}

/** Where an imported environment points: a deployment by name, with only what differs from it written out. */
export function environmentPlace(
  baseUrl: string,
  key: string,
  apiKeyHeader: string | undefined,
  deployment = deploymentOfBase(baseUrl),
): EnvironmentPlace & { readonly key: string } {
  const own = baseUrl.replace(/\/+$/, '');
  return {
    ...(deployment ? { deployment: deployment.id as DeploymentId } : {}),
    ...(deployment?.baseUrl === own ? {} : { baseUrl }),
    key,
    ...(apiKeyHeader !== undefined && !headerGiven(apiKeyHeader, deployment) ? { apiKeyHeader } : {}),
  };
}
