/** From command-line flags to a prepared (built and signed) request: shared by `sign` and `send`. */
import { demoKeyFor } from '../core/env/demo';
import { keysFromEnvironment, maskApiKey, profileEnvPrefix } from '../core/env/keys';
import type { NamedEnvironment } from '../core/env/schema';
import type { RequestBlock } from '../core/format/model';
import { defaultContext, resolveRequest, type ResolveContext } from '../core/format/resolve';
import { prepareRequest, type PreparedRequest } from '../core/request/build';
import { readRequestFile, selectEnvironment, selectRequest, type LoadedFile } from './workspace';
import { UsageError, type Io } from './usage';

export interface PrepareFlags {
  readonly file: string;
  readonly request?: string;
  readonly env?: string;
  readonly baseUrl?: string;
  readonly timestamp?: number;
}

export interface Prepared {
  readonly file: LoadedFile;
  readonly request: RequestBlock;
  readonly environment: NamedEnvironment;
  readonly prepared: PreparedRequest;
  readonly keyProfile?: string;
}

export function location(file: LoadedFile, line: number, char: number): string {
  return `${file.displayPath}:${line + 1}:${char + 1}`;
}

export function prepareFromFlags(io: Io, flags: PrepareFlags, extra: Partial<ResolveContext> = {}): Prepared {
  const file = readRequestFile(flags.file, io.cwd);
  const request = selectRequest(file, flags.request);
  const selected = selectEnvironment(file.path, flags.env, io.env);
  if (flags.baseUrl !== undefined && !/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(flags.baseUrl)) {
    throw new UsageError(`--base-url must be an http:// or https:// URL such as http://127.0.0.1:8780, not "${flags.baseUrl}"`);
  }
  const environment = flags.baseUrl ? { ...selected, baseUrl: flags.baseUrl } : selected;

  // A request the parser could not read whole is not what its author meant: refuse it.
  const parseError = file.doc.diagnostics.find((d) => d.severity === 'error' && d.range.startLine >= request.range.startLine && d.range.startLine <= request.range.endLine);
  if (parseError) throw new UsageError(`${location(file, parseError.range.startLine, parseError.range.startChar)}: ${parseError.message}`);

  const resolved = resolveRequest(file.doc, request, defaultContext(environment, extra));
  if (!resolved.ok) {
    const d = resolved.diagnostics[0]!;
    throw new UsageError(`${location(file, d.range.startLine, d.range.startChar)}: ${d.message}`);
  }
  const keyProfile = resolved.value.keyProfile;
  const key = resolved.value.signed ? keysFromEnvironment(keyProfile, io.env) ?? demoKeyFor(keyProfile, resolved.value.origin) : undefined;
  if (resolved.value.signed && !key) {
    const prefix = profileEnvPrefix(keyProfile ?? 'PROFILE');
    throw new UsageError(`no key for profile "${keyProfile ?? '(none)'}": set ${prefix}API_KEY and ${prefix}SECRET_KEY (or TRADEREQ_API_KEY and TRADEREQ_SECRET_KEY) in the environment`);
  }
  const prepared = prepareRequest(resolved.value, { key, timestamp: flags.timestamp });
  if (!prepared.ok) throw new UsageError(prepared.message);
  return { file, request, environment, prepared: prepared.value, keyProfile };
}

/** Headers for display: the API key masked, nothing else changed. */
export function displayHeaders(p: PreparedRequest): [string, string][] {
  const keyHeader = p.apiKeyHeader?.toLowerCase();
  return p.headers.map(([n, v]) => [n, n.toLowerCase() === keyHeader ? maskApiKey(v) : v]);
}
