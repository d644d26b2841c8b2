/** From command-line flags to resolved and prepared requests: shared by `sign` and `send`. */
import { demoKeyFor, isLoopbackOrigin } from '../core/env/demo';
import { keysFromEnvironment, profileEnvPrefix, type KeyPair } from '../core/env/keys';
import type { NamedEnvironment } from '../core/env/schema';
import type { RequestBlock } from '../core/format/model';
import type { ResolvedRequest } from '../core/format/resolve';
import { describeOrder, ownerDecision, type Asked, type OwnerDecision } from '../core/request/confirm';
import { normaliseOrigin, type KeyBinding } from '../core/request/origin-binding';
import { answerFile, ChainedResponses, KeptAnswers } from '../core/request/kept-answers';
import type { KeySource, PrepareFailure } from '../core/request/prepare';
import { err, ok, type Result } from '../core/result';
import { readRequestFile, selectEnvironment, selectRequest, type LoadedFile } from './workspace';
import { INPUT, REQUESTS } from './messages';
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
  if (flags.all && flags.request !== undefined) throw new UsageError(REQUESTS.requestOrAll);
  const requests = flags.all ? file.doc.requests : [selectRequest(file, flags.request)];
  if (requests.length === 0) throw new UsageError(INPUT.noRequest(file.displayPath));
  const selected = selectEnvironment(file.path, flags.env, io.env);
  let flagOrigin: string | undefined;
  if (flags.baseUrl !== undefined) {
    flagOrigin = /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(flags.baseUrl) ? normaliseOrigin(flags.baseUrl) : undefined;
    if (!flagOrigin) throw new UsageError(REQUESTS.baseUrl(flags.baseUrl));
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

/** One line for a request that could not be made ready: the file and position of the first problem, when known. */
export function failureMessage(file: LoadedFile, failure: PrepareFailure): string {
  const d = failure.kind === 'bad-input' ? failure.diagnostics[0] : undefined;
  return d ? `${location(file, d.range.startLine, d.range.startChar)}: ${d.message}` : failure.message;
}

/**
 * Why a request that asks before it goes was not sent, and the next step: `asked` when a terminal
 * asked and the answer was no; otherwise there was no terminal to ask (and no --yes): a trade with
 * the user's own key names the profile's setting beside --yes.
 */
export function notConfirmedMessage(
  resolved: ResolvedRequest,
  confirmation: Asked | undefined,
  asked: boolean,
): string {
  const order = describeOrder(resolved);
  if (asked) return REQUESTS.notConfirmedAnswered(order);
  const reason = confirmation?.reason ?? '';
  return confirmation?.optOut !== undefined
    ? REQUESTS.notConfirmedOwner(order, reason, confirmation.optOut)
    : REQUESTS.notConfirmedNoTerminal(order, reason);
}

/**
 * Keys from environment variables, and the origins each may go to: TRADEREQ_<PROFILE>_ORIGINS (or
 * TRADEREQ_ORIGINS for the generic pair); without it only the --base-url origin, never one from a
 * file. The demo key is bound to loopback origins.
 */
export function keySource(target: Pick<Target, 'flagOrigin'>, env: NodeJS.ProcessEnv): KeySource {
  return (resolved) => {
    const profile = resolved.keyProfile ?? 'default';
    const own = resolved.keyProfile
      ? keysFromEnvironment(resolved.keyProfile, {
          ...env,
          TRADEREQ_API_KEY: undefined,
          TRADEREQ_SECRET_KEY: undefined,
        })
      : undefined;
    const key = own ?? keysFromEnvironment(undefined, env);
    if (key) {
      const prefix = own ? profileEnvPrefix(profile) : 'TRADEREQ_';
      const owner = ownerSetting(key, prefix + 'CONFIRM', env);
      if (!owner.ok) return owner;
      const binding = boundOrigins(env[prefix + 'ORIGINS'], prefix + 'ORIGINS', profile, target);
      return ok({ key, binding, owner: owner.value });
    }
    const demo = demoKeyFor(resolved.keyProfile, resolved.origin);
    if (demo) {
      const origins = [resolved.origin].filter(isLoopbackOrigin);
      const binding = { profile, origins, source: REQUESTS.demoKeyOrigins };
      return ok({ key: demo, binding, owner: ownerDecision(demo, '') });
    }
    return err(REQUESTS.noKey(profile, profileEnvPrefix(profile)));
  };
}

/**
 * Whether trades signed with `key` ask first: TRADEREQ_<PROFILE>_CONFIRM (TRADEREQ_CONFIRM for the
 * generic pair), kept where the key is, which no repository writes; `on` (the default) or `off`.
 */
function ownerSetting(key: KeyPair, variable: string, env: NodeJS.ProcessEnv): Result<OwnerDecision, string> {
  const value = env[variable];
  if (value === undefined || /^(on|true|1|yes)$/i.test(value)) return ok(ownerDecision(key, REQUESTS.optOut(variable)));
  if (/^(off|false|0|no)$/i.test(value))
    return ok(ownerDecision(key, REQUESTS.optOut(variable), REQUESTS.ownerSaidOff(variable)));
  return err(REQUESTS.badOwnerSetting(variable, value));
}

function boundOrigins(
  listed: string | undefined,
  variable: string,
  profile: string,
  target: Pick<Target, 'flagOrigin'>,
): KeyBinding {
  if (listed === undefined) {
    return {
      profile,
      origins: target.flagOrigin ? [target.flagOrigin] : [],
      source: target.flagOrigin ? REQUESTS.baseUrlOrigins(variable) : REQUESTS.unsetOrigins(variable),
      variable,
    };
  }
  const origins = listed
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o.length > 0)
    .map((o) => normaliseOrigin(o) ?? o);
  return { profile, origins, source: variable, variable };
}

/** Answers of this run, and of earlier runs for the requests this one does not send (core/request/kept-answers.ts). */
export function chainedResponses(stateDir: string, target: Target): ChainedResponses {
  const { environment } = target;
  const where = {
    file: answerFile(target.file.path),
    environment: environment.name,
    origin: normaliseOrigin(environment.baseUrl) ?? environment.baseUrl,
  };
  const names = new Set(target.requests.flatMap((r) => (r.name ? [r.name.text] : [])));
  return new ChainedResponses(new KeptAnswers(stateDir), where, names);
}
