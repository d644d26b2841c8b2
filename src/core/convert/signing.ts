/**
 * What every importer does with a signed request: the source's `timestamp` and `signature` go,
 * since TradeReq adds its own (docs/format.md, Signing), and the notes say what that changes.
 */
import { profileEnvPrefix } from '../env/keys';
import type { Placement } from '../format/model';
import { SPEC_ENDPOINTS, type EndpointCatalog } from '../catalog/endpoints';
import type { Deployment } from '../catalog/deployment';
import { headerGiven } from './deployment-env';
import { filterLines, params, type DraftRequest } from './draft';
import { jsonMembers, pruneMembers } from './json-placeholders';
import { Notes } from './common';

const SIGNING_COMMENT =
  'signature and timestamp are left out: TradeReq adds timestamp and signs the request itself (spec §5).';

const ADDED_BY_SIGNER = new Set(['timestamp', 'signature']);

/** Where the source had `timestamp`, and whether it was the last parameter there. */
function timestampPosition(request: DraftRequest): { placement: Placement | 'json'; last: boolean } | undefined {
  const list = params(request).filter((p) => p.name !== 'signature');
  const i = list.findIndex((p) => p.name === 'timestamp');
  if (i >= 0) {
    const placement = list[i]!.placement;
    return { placement, last: !list.slice(i + 1).some((p) => p.placement === placement) };
  }
  if (request.json !== undefined && jsonMembers(request.json).includes('timestamp'))
    return { placement: 'json', last: false };
  return undefined;
}

/**
 * Drops `timestamp` and `signature` from a request that is signed (it has a signature, or the
 * catalog marks its endpoint signed), adds `# @signed` where the catalog does not know it, and
 * notes what differs from the source. `path` is the request's path when it is known; `catalog` the
 * endpoints of the deployment the source talks to.
 */
export function applySigning(
  request: DraftRequest,
  path: string | undefined,
  where: string,
  notes: Notes,
  catalog: EndpointCatalog = SPEC_ENDPOINTS,
): boolean {
  const all = params(request);
  const jsonNames = request.json !== undefined ? jsonMembers(request.json) : [];
  const hasSignature = all.some((p) => p.name === 'signature') || jsonNames.includes('signature');
  const endpoint = path ? catalog.find(request.method, path) : undefined;
  if (!hasSignature && !endpoint?.signed) return false;
  const hadTimestamp = all.some((p) => p.name === 'timestamp') || jsonNames.includes('timestamp');
  const before = timestampPosition(request);
  const signatureInBody = all.some((p) => p.name === 'signature' && p.placement === 'body');
  filterLines(request, (l) => l.kind !== 'param' || !ADDED_BY_SIGNER.has(l.param.name));
  if (request.json !== undefined && jsonNames.some((n) => ADDED_BY_SIGNER.has(n))) {
    const rewritten = pruneMembers(request.json, (name, top) => top && ADDED_BY_SIGNER.has(name)).json;
    if (rewritten !== undefined) {
      request.json = rewritten;
      notes.add(`${where}: the JSON body is written again without timestamp and signature, on one line.`);
    }
  }
  if (hasSignature || hadTimestamp) request.comments.push(SIGNING_COMMENT);
  if (hasSignature && !endpoint?.signed) request.directives.push('signed');
  if (signatureInBody)
    notes.add(
      `${where}: the signature went in the body; TradeReq appends it to the query string (the safe default, totalParams unchanged). Add "# @signature body" to keep it in the body.`,
    );
  const formBody = request.json === undefined && params(request).some((p) => p.placement === 'body');
  const added: Placement = formBody ? 'body' : 'query';
  if (before && (before.placement !== added || !before.last))
    notes.add(
      `${where}: timestamp stood ${before.last ? 'at the end of' : 'within'} the ${before.placement === 'json' ? 'JSON body' : before.placement}; TradeReq adds it at the end of the ${added === 'body' ? 'form body' : 'query string'}. The service reads parameters in any order (spec §4.1 rule 4), but totalParams is in another order than the source's.`,
    );
  return true;
}

/**
 * Comment lines telling where the API key comes from instead of the header the source wrote
 * (never its value): a key profile, and the environment's apiKeyHeader when neither the default
 * nor the deployment the source talks to gives it.
 */
export function apiKeyAdvice(header: string, profile: string, deployment?: Deployment): string[] {
  const prefix = profileEnvPrefix(profile);
  const envLine = !headerGiven(header, deployment)
    ? `In tradereq.env.json the environment names the profile and the header: "key": "${profile}", "apiKeyHeader": "${header}".`
    : deployment
      ? `In tradereq.env.json the environment names the profile and the deployment, which gives the header: "key": "${profile}", "deployment": "${deployment.id}".`
      : `In tradereq.env.json the environment names the profile: "key": "${profile}".`;
  return [
    `API key: the ${header} header is not copied into this file. TradeReq sets it from a key profile:`,
    `"TradeReq: Add API Key" (profile "${profile}") in VS Code, or ${prefix}API_KEY and ${prefix}SECRET_KEY for the command line.`,
    envLine,
  ];
}
