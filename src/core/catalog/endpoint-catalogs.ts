/**
 * Each deployment's REST endpoints, registered by its id (docs/websocket.md, "Deployments"): apart
 * from the Deployment itself (deployment.ts), which the WebSocket client (dist/ws.js) reads for its
 * streams, listen keys and connection rules, and which therefore carries no endpoint list.
 */
import { deploymentOf, type Deployment, type DeploymentId } from './deployment';
import { EndpointCatalog, SPEC_ENDPOINTS } from './endpoints';
import { MEXC_ENDPOINTS, MEXC_UNDOCUMENTED } from './mexc-endpoints';

/** Every deployment's catalog, made on first use. */
const CATALOGS: Record<DeploymentId, () => EndpointCatalog> = {
  spec: () => SPEC_ENDPOINTS,
  mexc: () => new EndpointCatalog(MEXC_ENDPOINTS, MEXC_UNDOCUMENTED),
};

const built = new Map<string, EndpointCatalog>();

/** A deployment's endpoints to look up, built once per deployment (the spec's for an id none is registered under). */
export function endpointCatalogOf(deployment: Deployment): EndpointCatalog {
  let catalog = built.get(deployment.id);
  if (catalog === undefined) {
    const make = Object.hasOwn(CATALOGS, deployment.id) ? CATALOGS[deployment.id as DeploymentId] : undefined;
    catalog = make?.() ?? SPEC_ENDPOINTS;
    built.set(deployment.id, catalog);
  }
  return catalog;
}

/** The endpoints of the deployment an environment names (the spec's when it names none). */
export function endpointsOf(environment: { readonly deployment?: string }): EndpointCatalog {
  return endpointCatalogOf(deploymentOf(environment));
}
