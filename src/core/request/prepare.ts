/**
 * resolve → key → build and sign, without sending: one function for `tradereq sign`, the editor's
 * Sign only and Copy as cURL, and the send pipeline. And the text of a signed request, the same
 * wherever it is shown (the API key masked, never the secret).
 */
import { profileEnvPrefix, type KeyPair } from '../env/keys';
import type { NamedEnvironment } from '../env/constants';
import type { Diagnostic, RequestBlock, TradeReqDocument } from '../format/model';
import { defaultContext, resolveRequest, type ResolveContext, type ResolvedRequest } from '../format/resolve';
import { err, ok, type Result } from '../result';
import { buildRequest, redactedHeaders } from './build';
import type { PreparedRequest } from '../net/send';
import type { OwnerDecision } from './confirm';
import type { KeyBinding } from './origin-binding';

/** The key that signs a request, the origins its owner approved for it, and whether its trades ask first. */
export interface KeyChoice {
  readonly key: KeyPair;
  readonly binding: KeyBinding;
  /** Decided by the key's owner, never by a file (request/confirm.ts ownerDecision). */
  readonly owner: OwnerDecision;
}

/** Where keys come from is the shell's business: SecretStorage, environment variables, the demo key. */
export type KeySource = (resolved: ResolvedRequest) => Promise<Result<KeyChoice, string>> | Result<KeyChoice, string>;

/** Why a request could not be made ready to send; nothing was sent. */
export type PrepareFailure =
  | { readonly kind: 'bad-input'; readonly diagnostics: readonly Diagnostic[]; readonly message: string }
  | { readonly kind: 'no-key'; readonly resolved: ResolvedRequest; readonly message: string };

export interface Ready {
  readonly resolved: ResolvedRequest;
  readonly prepared: PreparedRequest;
  /** The key that signed it; absent for an unsigned request. */
  readonly choice?: KeyChoice;
}

export interface PrepareDeps {
  /** Asked only for a signed request. */
  readonly key: KeySource;
  /** The clock, responses of earlier requests, randomness: the real ones by default. */
  readonly context?: Partial<ResolveContext>;
  /** A fixed timestamp for the signer (reproducible output). */
  readonly timestamp?: number;
}

export function badInput(diagnostics: readonly Diagnostic[], message = diagnostics[0]?.message ?? ''): PrepareFailure {
  return { kind: 'bad-input', diagnostics, message };
}

/** The request resolved against `environment`, or what is wrong with it. */
export function resolveIn(
  doc: TradeReqDocument,
  request: RequestBlock,
  environment: NamedEnvironment,
  context: Partial<ResolveContext> = {},
): Result<ResolvedRequest, PrepareFailure> {
  const r = resolveRequest(doc, request, defaultContext(environment, context));
  return r.ok ? r : err(badInput(r.error));
}

/** The key of a signed request (none for an unsigned one), or why there is none. */
export async function keyOf(
  resolved: ResolvedRequest,
  key: KeySource,
): Promise<Result<KeyChoice | undefined, PrepareFailure>> {
  if (!resolved.signed) return ok(undefined);
  const choice = await key(resolved);
  return choice.ok ? choice : err({ kind: 'no-key', resolved, message: choice.error });
}

/** Builds and signs `resolved` with `choice` (exact query, body and headers). */
export function prepare(
  resolved: ResolvedRequest,
  choice: KeyChoice | undefined,
  timestamp?: number,
): Result<Ready, PrepareFailure> {
  const prepared = buildRequest(resolved, { key: choice?.key, timestamp });
  return prepared.ok ? ok({ resolved, prepared: prepared.value, choice }) : err(badInput([], prepared.error));
}

/** resolve → key → build and sign, sending nothing. */
export async function resolveAndPrepare(
  doc: TradeReqDocument,
  request: RequestBlock,
  environment: NamedEnvironment,
  deps: PrepareDeps,
): Promise<Result<Ready, PrepareFailure>> {
  const resolved = resolveIn(doc, request, environment, deps.context);
  if (!resolved.ok) return resolved;
  const choice = await keyOf(resolved.value, deps.key);
  if (!choice.ok) return choice;
  return prepare(resolved.value, choice.value, deps.timestamp);
}

/** A request exactly as it goes on the wire, the API key masked: for `tradereq sign` and Sign only. */
export function signedRequestText(p: PreparedRequest): string {
  const lines = [`${p.method} ${p.url}`, ...redactedHeaders(p).map(([n, v]) => `${n}: ${v}`), ''];
  if (p.body.length > 0) lines.push(p.body, '');
  if (!p.signed) lines.push('# not signed');
  else
    lines.push(
      `# query: ${p.query}`,
      `# body: ${p.body}`,
      `# totalParams: ${p.totalParams}`,
      `# signature: ${p.signature}`,
    );
  return lines.join('\n');
}

/** A `curl` command for the request: the API key as a shell variable, never a key or the secret. */
export function curlCommand(p: PreparedRequest, profile: string | undefined): string {
  const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  const lines = [`curl -X ${p.method} ${quote(p.url)}`];
  for (const [n, v] of p.headers) {
    const apiKey = n.toLowerCase() === p.apiKeyHeader?.toLowerCase();
    lines.push(apiKey ? `-H "${n}: $${profileEnvPrefix(profile ?? 'default')}API_KEY"` : `-H ${quote(`${n}: ${v}`)}`);
  }
  if (p.body) lines.push(`--data-raw ${quote(p.body)}`);
  return lines.join(' \\\n  ');
}
