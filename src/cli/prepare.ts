/** From command-line flags to resolved and prepared requests: shared by `sign` and `send`. */
import { demoKeyFor, isLoopbackOrigin } from '../core/env/demo';
import { keysFromEnvironment, profileEnvPrefix, type KeyPair } from '../core/env/keys';
import type { NamedEnvironment } from '../core/env/schema';
import type { RequestBlock } from '../core/format/model';
import { defaultContext, resolveRequest, type ResolveContext, type ResolvedRequest } from '../core/format/resolve';
import { prepareRequest, type PreparedRequest } from '../core/request/build';
import { normaliseOrigin, type KeyBinding } from '../core/request/gate';
import { readRequestFile, selectEnvironment, selectRequest, type LoadedFile } from './workspace';
import { UsageError, type Io } from './usage';

export interface TargetFlags {
  readonly file: string;
  readonly request?: string;
  readonly all?: boolean;
  readonly env?: string;
  readonly baseUrl?: string;
}

export interface Target {
  readonly file: LoadedFile;
  readonly requests: readonly RequestBlock[];
  readonly environment: NamedEnvironment;
  /** The origin of --base-url: a profile without bound origins may be sent there only. */
  readonly flagOrigin?: string;
}

export function location(file: LoadedFile, line: number, char: number): string {
  return `${file.displayPath}:${line + 1}:${char + 1}`;
}

/** Reads the file, picks the request(s) and the environment; refuses requests the parser could not read whole. */
export function loadTarget(io: Io, flags: TargetFlags): Target {
  const file = readRequestFile(flags.file, io.cwd);
  if (flags.all && flags.request !== undefined) throw new UsageError('give --request or --all, not both');
  const requests = flags.all ? file.doc.requests : [selectRequest(file, flags.request)];
  if (requests.length === 0)
    throw new UsageError(`${file.displayPath} holds no request: add a request line such as POST /api/v3/order`);
  const selected = selectEnvironment(file.path, flags.env, io.env);
  let flagOrigin: string | undefined;
  if (flags.baseUrl !== undefined) {
    flagOrigin = /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(flags.baseUrl) ? normaliseOrigin(flags.baseUrl) : undefined;
    if (!flagOrigin)
      throw new UsageError(
        `--base-url must be an http:// or https:// URL such as http://127.0.0.1:8780, not "${flags.baseUrl}"`,
      );
  }
  const environment = flags.baseUrl ? { ...selected, baseUrl: flags.baseUrl } : selected;
  // A request the parser could not read whole is not what its author meant: refuse it.
  for (const request of requests) {
    const parseError = file.doc.diagnostics.find(
      (d) =>
        d.severity === 'error' &&
        d.range.startLine >= request.range.startLine &&
        d.range.startLine <= request.range.endLine,
    );
    if (parseError)
      throw new UsageError(
        `${location(file, parseError.range.startLine, parseError.range.startChar)}: ${parseError.message}`,
      );
  }
  return { file, requests, environment, flagOrigin };
}

export function resolveOrThrow(
  target: Target,
  request: RequestBlock,
  ctx: Partial<ResolveContext> = {},
): ResolvedRequest {
  const resolved = resolveRequest(target.file.doc, request, defaultContext(target.environment, ctx));
  if (!resolved.ok) {
    const d = resolved.diagnostics[0]!;
    throw new UsageError(`${location(target.file, d.range.startLine, d.range.startChar)}: ${d.message}`);
  }
  return resolved.value;
}

export interface KeyChoice {
  readonly key: KeyPair;
  readonly binding: KeyBinding;
}

/**
 * The key for a signed request and the origins it is bound to: TRADEREQ_<PROFILE>_ORIGINS (or
 * TRADEREQ_ORIGINS for the generic pair); without it only the --base-url origin, never one from a
 * file. The demo key is bound to loopback origins.
 */
export function keyFor(resolved: ResolvedRequest, target: Target, env: NodeJS.ProcessEnv): KeyChoice {
  const profile = resolved.keyProfile ?? 'default';
  const own = resolved.keyProfile
    ? keysFromEnvironment(resolved.keyProfile, { ...env, TRADEREQ_API_KEY: undefined, TRADEREQ_SECRET_KEY: undefined })
    : undefined;
  const generic = own ? undefined : keysFromEnvironment(undefined, env);
  const key = own ?? generic;
  if (key) {
    const variable = own ? profileEnvPrefix(profile) + 'ORIGINS' : 'TRADEREQ_ORIGINS';
    const listed = env[variable];
    if (listed !== undefined) {
      const origins = listed
        .split(',')
        .map((o) => o.trim())
        .filter((o) => o.length > 0)
        .map((o) => normaliseOrigin(o) ?? o);
      return { key, binding: { profile, origins, source: variable } };
    }
    return {
      key,
      binding: {
        profile,
        origins: target.flagOrigin ? [target.flagOrigin] : [],
        source: `--base-url (no ${variable} is set)`,
      },
    };
  }
  const demo = demoKeyFor(resolved.keyProfile, resolved.origin);
  if (demo)
    return {
      key: demo,
      binding: {
        profile,
        origins: [resolved.origin].filter(isLoopbackOrigin),
        source: 'the sandbox demo key (loopback only)',
      },
    };
  const prefix = profileEnvPrefix(profile);
  throw new UsageError(
    `no key for profile "${profile}": set ${prefix}API_KEY and ${prefix}SECRET_KEY (or TRADEREQ_API_KEY and TRADEREQ_SECRET_KEY) in the environment`,
  );
}

export function prepareOrThrow(
  resolved: ResolvedRequest,
  key: KeyPair | undefined,
  timestamp?: number,
): PreparedRequest {
  const prepared = prepareRequest(resolved, { key, timestamp });
  if (!prepared.ok) throw new UsageError(prepared.message);
  return prepared.value;
}
