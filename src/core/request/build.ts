/**
 * The build and sign steps: from a resolved request, the exact query string, body bytes and
 * headers that go on the wire. Query and body are encoded once and used both for totalParams
 * and for sending.
 */
import { DEFAULT_API_KEY_HEADER } from '../env/constants';
import { maskApiKey, type KeyPair } from '../env/keys';
import type { ResolvedRequest } from '../format/resolve';
import { t } from '../l10n';
import { err, ok, type Result } from '../result';
import { encodeParams, type NameValue } from '../signing/encode';
import { headerValueRule, headerNameProblem, isHeaderValue } from '../format/headers';
import { signParts } from '../signing/sign';
import type { PreparedRequest } from '../net/send';

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
export const JSON_CONTENT_TYPE = 'application/json';

/** The headers for showing: the API key masked to its last 4 characters, nothing else changed. */
export function redactedHeaders(p: PreparedRequest): [string, string][] {
  const key = p.apiKeyHeader?.toLowerCase();
  return p.headers.map(([n, v]) => [n, n.toLowerCase() === key ? maskApiKey(v) : v]);
}

export type BuildResult = Result<PreparedRequest, string>;

export interface BuildOptions {
  /** Required for a signed request. */
  readonly key?: KeyPair;
  /** Overrides the timestamp the signer adds (reproducible output). */
  readonly timestamp?: number;
}

function setHeader(headers: [string, string][], name: string, value: string): void {
  const lower = name.toLowerCase();
  const i = headers.findIndex(([n]) => n.toLowerCase() === lower);
  if (i >= 0) headers[i] = [headers[i]![0], value];
  else headers.push([name, value]);
}

/** Why the request's headers (or the key that goes in one) cannot be sent, if they cannot. */
function headersProblem(resolved: ResolvedRequest, key: KeyPair | undefined): string | undefined {
  for (const h of resolved.headers) {
    const problem = headerNameProblem(h.name);
    if (problem) return problem;
    if (!isHeaderValue(h.value)) return t('the value of header {0} cannot be sent: {1}', h.name, headerValueRule());
  }
  if (resolved.signed && key && !isHeaderValue(key.apiKey)) {
    return t(
      'the API key of profile "{0}" cannot be sent in a header ({1}): check where the key is stored',
      resolved.keyProfile ?? 'default',
      headerValueRule(),
    );
  }
  return undefined;
}

/** The parameters split by where they go; timestamp and signature not yet added. */
interface Parts {
  readonly query: NameValue[];
  readonly form: NameValue[];
  readonly json?: string;
  readonly headers: [string, string][];
}

function partsOf(resolved: ResolvedRequest): Parts {
  const query: NameValue[] = [];
  const form: NameValue[] = [];
  for (const p of resolved.params) (p.placement === 'query' ? query : form).push(p);
  const json = resolved.json;
  const headers: [string, string][] = [];
  for (const h of resolved.headers) setHeader(headers, h.name, h.value);
  const contentType = json !== undefined ? JSON_CONTENT_TYPE : form.length > 0 ? FORM_CONTENT_TYPE : JSON_CONTENT_TYPE;
  // §4.1 rule 7 names application/json; a form body says what it is.
  if (!headers.some(([n]) => n.toLowerCase() === 'content-type')) headers.push(['Content-Type', contentType]);
  return { query, form, json, headers };
}

export function buildRequest(resolved: ResolvedRequest, options: BuildOptions): BuildResult {
  const problem = headersProblem(resolved, options.key);
  if (problem) return err(problem);
  const parts = partsOf(resolved);
  const base = {
    method: resolved.method,
    origin: resolved.origin,
    path: resolved.path,
    weight: resolved.weight,
    mode: resolved.mode,
  };
  if (!resolved.signed) {
    const q = encodeParams(parts.query);
    const body = parts.json ?? encodeParams(parts.form);
    return ok({
      ...base,
      url: q ? `${resolved.url}?${q}` : resolved.url,
      query: q,
      body,
      headers: parts.headers,
      signed: false,
    });
  }
  if (!options.key)
    return err(t('a key is needed to sign this request (profile "{0}")', resolved.keyProfile ?? 'none'));
  const placement = resolved.options.signaturePlacement;
  if (placement === 'body' && (parts.json !== undefined || parts.form.length === 0)) {
    return err(
      t('`# @signature body` needs a form body: add a [body] section with parameters, or remove the directive'),
    );
  }
  const timestamp = addTimestamp(resolved, parts, options.timestamp);
  const signed = signParts(
    encodeParams(parts.query),
    parts.json ?? encodeParams(parts.form),
    options.key.secretKey,
    placement,
  );
  const apiKeyHeader = resolved.environment.apiKeyHeader ?? DEFAULT_API_KEY_HEADER;
  setHeader(parts.headers, apiKeyHeader, options.key.apiKey);
  return ok({
    ...base,
    url: `${resolved.url}?${signed.query}`,
    query: signed.query,
    body: signed.body,
    headers: parts.headers,
    signed: true,
    apiKeyHeader,
    totalParams: signed.totalParams,
    signature: signed.signature,
    timestamp,
  });
}

/**
 * The request's own timestamp when it writes one; else now, added at the end of the form body when
 * it holds form parameters, else at the end of the query string (docs/format.md, Signing).
 */
function addTimestamp(resolved: ResolvedRequest, parts: Parts, fixed: number | undefined): string | undefined {
  if (resolved.request.params.some((p) => p.name.text === 'timestamp')) {
    return (
      resolved.params.find((p) => p.name === 'timestamp')?.value ??
      resolved.request.params.find((p) => p.name.text === 'timestamp')?.value.text
    );
  }
  const timestamp = String(fixed ?? resolved.now);
  (parts.form.length > 0 ? parts.form : parts.query).push({ name: 'timestamp', value: timestamp });
  return timestamp;
}
