/** What the check step says about a request as a whole: its endpoint, signing, headers and placements. */
import { DEFAULT_DEPLOYMENT, deploymentOf, type Deployment } from '../catalog/deployment';
import { endpointCatalogOf } from '../catalog/endpoint-catalogs';
import type { EndpointInfo, UndocumentedPaths } from '../catalog/types';
import { DEFAULT_API_KEY_HEADER, type NamedEnvironment } from '../env/constants';
import type { RequestOptions } from '../format/directives';
import type { Param, RequestBlock, TradeReqDocument, VariableRef } from '../format/model';
import { isCredentialRef, responseRequestName } from '../format/variables';
import { headerNameProblem, headerValueRule, isHeaderValue } from '../format/headers';
import { t } from '../l10n';
import { answer, Findings } from './findings';

/**
 * Response references resolve at send time; here it is enough that the named request exists. `refs`:
 * a request's, or its `# @expect` lines' (format/expect-variables.ts).
 */
export function checkResponseRefs(refs: readonly VariableRef[], names: ReadonlySet<string>, out: Findings): void {
  for (const ref of refs) {
    const name = responseRequestName(ref.name);
    if (name === undefined) continue;
    if (isCredentialRef(ref.name)) {
      // docs/websocket.md, Listen keys: resolve refuses it at send time; say so while the file is written.
      const message = t(
        '{{{0}}} is a listen key, a credential that never goes into a request: the request would be refused. Write # @listenKey on a WS request instead.',
        ref.name,
      );
      out.add('credential-in-request', ref.nameRange, message);
    }
    if (names.has(name)) continue;
    const message = t(
      'No request in this file is named "{0}": add `# @name {0}` to the request whose response this reads.',
      name,
    );
    out.add('undefined-variable', ref.nameRange, message);
  }
}

/** The catalog's endpoint for the request line, when its path is known (not hidden in a variable). */
export function checkEndpoint(request: RequestBlock, deployment: Deployment, out: Findings): EndpointInfo | undefined {
  const method = request.requestLine.method.text.toUpperCase();
  const text = request.requestLine.path.text;
  const path = text.includes('{{') ? undefined : text.startsWith('/') ? text : safePathname(text);
  const catalog = endpointCatalogOf(deployment);
  const endpoint = path ? catalog.find(method, path) : undefined;
  if (path && !endpoint) {
    const others = catalog.atPath(path);
    const message =
      others.length > 0
        ? t(
            '{0} {1} is not a known endpoint: this path is known with {2}.',
            method,
            path,
            others.map((e) => e.method).join(', '),
          )
        : notInCatalog(path, deployment, catalog.undocumented(path));
    out.add('unknown-endpoint', request.requestLine.path.range, message);
  }
  return endpoint;
}

/** Why a path is unknown: not in the default catalog, not in the deployment's, or left out of its documentation. */
function notInCatalog(path: string, deployment: Deployment, undocumented: UndocumentedPaths | undefined): string {
  if (undocumented)
    return t(
      '{0} is not documented by {1} ("deployment": "{2}"): {3}. Its parameters are not checked. Say how to send it with # @signed or # @unsigned, and its rate limit with # @weight N and # @mode ip|uid.',
      path,
      deployment.title,
      deployment.id,
      t(undocumented.reason),
    );
  if (deployment !== DEFAULT_DEPLOYMENT)
    return t(
      '{0} is not in the endpoint catalog of {1} ("deployment": "{2}"): parameters are not checked. Say how to send it with # @signed or # @unsigned, and its rate limit with # @weight N and # @mode ip|uid.',
      path,
      deployment.title,
      deployment.id,
    );
  return t(
    "{0} is not in TradeReq's endpoint catalog: parameters are not checked. Say how to send it with # @signed or # @unsigned, and its rate limit with # @weight N and # @mode ip|uid.",
    path,
  );
}

function safePathname(url: string): string | undefined {
  try {
    return new URL(url).pathname;
  } catch {
    return undefined;
  }
}

/** `# @unsigned` on a signed endpoint, and `# @signature body` without a form body. */
export function checkSigning(
  doc: TradeReqDocument,
  request: RequestBlock,
  endpoint: EndpointInfo | undefined,
  options: RequestOptions,
  out: Findings,
): void {
  if (endpoint?.signed && options.signed === false) {
    const message = t(
      '{0} {1} is a signed endpoint: with # @unsigned it goes without API key and signature (the service answers {2}).',
      endpoint.method,
      endpoint.path,
      answer(400),
    );
    out.add('unsigned-signed-endpoint', request.requestLine.range, message);
  }
  const formBody = request.params.some((p) => p.placement === 'body' && p.origin !== 'json');
  if (options.signaturePlacement !== 'body' || (!request.json && formBody)) return;
  const d = [...request.directives, ...doc.fileDirectives].find((x) => x.name.text === 'signature');
  const message = t(
    '`# @signature body` needs a form body ([body] parameters): the signature is put at the end of the query string otherwise.',
  );
  if (d) out.add('signature-placement', d.range, message);
}

/** A GET sends all parameters in the query string (§4.1 rule 2): the first body parameter is reported. */
export function checkGetBody(request: RequestBlock, out: Findings): void {
  if (request.requestLine.method.text.toUpperCase() !== 'GET') return;
  const p = request.params.find((x) => x.placement === 'body');
  if (!p) return;
  const message = t(
    'GET sends all parameters in the query string (spec §4.1 rule 2): put them under [query] or remove the section line.',
  );
  out.add('get-body', p.origin === 'json' ? request.json!.range : p.range, message);
}

/** Connection headers, header values HTTP cannot carry, and an API key header written by hand. */
export function checkHeaders(request: RequestBlock, environment: NamedEnvironment, out: Findings): void {
  const apiKeyHeaders = new Set([
    (environment.apiKeyHeader ?? DEFAULT_API_KEY_HEADER).toLowerCase(),
    deploymentOf(environment).apiKeyHeader.toLowerCase(),
    DEFAULT_API_KEY_HEADER.toLowerCase(),
  ]);
  for (const h of request.headers) {
    const problem = headerNameProblem(h.name.text);
    if (problem) out.add('forbidden-header', h.range, t('{0}.', problem));
    else if (!isHeaderValue(h.value.text)) {
      const message = t('The value of {0} cannot be sent: {1}.', h.name.text, headerValueRule());
      out.add('header-value', h.value.range, message);
    }
    if (apiKeyHeaders.has(h.name.text.toLowerCase())) {
      const message = t(
        'Do not write the API key header by hand: TradeReq sets {0} from the key profile, and a key written here is shared with the file. Remove this line and use # @key PROFILE or the environment\'s "key".',
        h.name.text,
      );
      out.add('api-key-header', h.range, message);
    }
  }
}

/** A name twice in one place (both are signed), and a name in both the query and the body (§4.1 rule 5). */
export function checkPlacements(request: RequestBlock, out: Findings): void {
  const seen = new Map<string, Param>();
  for (const p of request.params) {
    const key = p.placement + ' ' + p.name.text;
    const previous = seen.get(key);
    if (!previous) seen.set(key, p);
    else {
      const line = previous.range.startLine + 1;
      const message =
        p.placement === 'query'
          ? t('"{0}" is already in the query (line {1}): both are sent and signed; remove one.', p.name.text, line)
          : t('"{0}" is already in the body (line {1}): both are sent and signed; remove one.', p.name.text, line);
      out.add('duplicate-param', p.name.range, message);
    }
  }
  for (const p of request.params) {
    const other = p.placement === 'body' ? seen.get('query ' + p.name.text) : undefined;
    if (!other) continue;
    const message = t(
      '"{0}" is also in the query string (line {1}): the service uses the query value (spec §4.1 rule 5).',
      p.name.text,
      other.range.startLine + 1,
    );
    out.add('query-and-body', p.name.range, message);
  }
}
