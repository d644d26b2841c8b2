/**
 * One send, the same for the command line and the editor: resolve, check the key's origin binding
 * (before anything at all is sent), sync the clock, resolve again with the corrected clock, ask for
 * confirmation, sign, then gate → send → decode → record, and check the `# @expect` lines.
 * The shells supply what differs: where keys come from, how to ask, what to do with the result.
 */
import type { Budget } from '../budget/budget';
import { t } from '../l10n';
import { accountId } from '../budget/state';
import {
  explainRecheck,
  explainWrittenTimestamp,
  maySendAgain,
  type ClockRecheck,
  type ClockSample,
} from '../clock/clock';
import { measureClock } from '../clock/measure';
import { endpointsOf } from '../catalog/endpoint-catalogs';
import type { EndpointCatalog } from '../catalog/endpoints';
import type { ClockSync } from '../clock/sync';
import type { NamedEnvironment } from '../env/constants';
import type { RequestBlock, TradeReqDocument } from '../format/model';
import type { ResolvedRequest } from '../format/resolve';
import { roundTrip, type RoundTripReport } from '../net/round-trip';
import type { Sender } from '../net/send';
import { err, ok, type Result } from '../result';
import { askedBy, describeOrder, type Asked } from './confirm';
import { checkExpectations, type ExpectationResult } from './expect';
import { checkBinding, type KeyBinding, type Unbound } from './origin-binding';
import { prepare, keyOf, resolveIn, type KeyChoice, type KeySource, type PrepareFailure, type Ready } from './prepare';

export interface PipelineDeps {
  readonly sender: Sender;
  readonly budget: Budget;
  readonly clock: ClockSync;
  readonly clockSync: boolean;
  /** Responses of named requests sent earlier, for {{NAME.response.PATH}}; each answer received is set. */
  readonly responses: { get(name: string): unknown; set(name: string, json: unknown): void };
  /** The key of a signed request, or why there is none (nothing is sent then). */
  readonly key: KeySource;
  /**
   * Told when the key is not bound to `origin` (the request's, or where what it obtains goes). The
   * request is refused and nothing is sent; the shell may offer to bind the profile to `origin`,
   * and send again itself once the user has.
   */
  onUnboundOrigin?(resolved: ResolvedRequest, choice: KeyChoice, message: string, origin: string): void;
  /**
   * Where what this request obtains will go besides its own origin (a listen key's WebSocket
   * endpoint, ws/listen-key-api.ts), checked with the key's binding before anything is sent.
   */
  readonly obtainsFor?: (binding: KeyBinding) => Result<void, Unbound>;
  /**
   * Why this request runs though the user did not select it (a test run's --grep took it for the
   * answer a selected one reads): an order then asks for confirmation too, with this reason.
   */
  readonly notSelected?: string;
  /** A `# @data` row's values (core/testing/data.ts): they win over the file's and the environment's variables. */
  readonly variables?: ReadonlyMap<string, string>;
  /**
   * Asked before a request that asks (request/confirm.ts askedBy: `# @confirm`, a trade
   * with the user's own key, a trade to a "confirm" environment, a trade not selected), with why;
   * false sends nothing.
   */
  confirm(resolved: ResolvedRequest, order: string, reason: string): Promise<boolean> | boolean;
}

/** Why nothing was sent, before the gate: bad input, no key, or a refusal of the shell or the user. */
export type PipelineFailure =
  | PrepareFailure
  | {
      readonly kind: 'refused';
      readonly resolved: ResolvedRequest;
      readonly reason: 'origin' | 'confirmation' | 'clock';
      readonly message: string;
      /** A refused confirmation: why it was asked (request/confirm.ts askedBy). */
      readonly confirmation?: Asked;
    };

/** A request that reached the gate: sent (and answered, or not), or refused by the rate-limit gate. */
export interface Sent {
  readonly resolved: ResolvedRequest;
  readonly report: RoundTripReport;
  readonly expectations: readonly ExpectationResult[];
  /** For 700003: the timing rule and the clock offset, measured again at once. */
  readonly note?: string;
  /**
   * A 700003 after which the clock was measured again with clock sync on: nothing was processed,
   * and sending again now uses the new offset. The shell says how to send again where it shows it.
   */
  readonly sendAgain?: boolean;
}

export type PipelineResult = Result<Sent, PipelineFailure>;

export async function runRequest(
  doc: TradeReqDocument,
  request: RequestBlock,
  environment: NamedEnvironment,
  deps: PipelineDeps,
): Promise<PipelineResult> {
  const response = (name: string): unknown => deps.responses.get(name);
  const variables = deps.variables;
  // First resolve: where it goes and whether it is signed. Nothing is sent before the binding is checked.
  // The `# @expect` lines' variables too: this send judges them (format/expect-variables.ts).
  const first = resolveIn(doc, request, environment, { response, variables, expectations: true });
  if (!first.ok) return first;
  const choice = await boundKey(first.value, deps);
  if (!choice.ok) return choice;
  const resolved = await withSyncedClock(first.value, deps, (sample) =>
    resolveIn(doc, request, environment, {
      response,
      variables,
      expectations: true,
      now: () => deps.clock.correctedBy(sample),
    }),
  );
  if (!resolved.ok) return resolved;
  // The second resolve may read an answer that arrived meanwhile: the key goes only where its binding allows.
  const rebound = choice.value ? checkOrigin(resolved.value, choice.value, deps) : ok(undefined);
  if (!rebound.ok) return rebound;
  const confirmed = await confirmIfAsked(resolved.value, choice.value, deps);
  if (!confirmed.ok) return confirmed;
  const ready = prepare(resolved.value, choice.value);
  return ready.ok ? ok(await send(ready.value, deps)) : ready;
}

/** The key of a signed request, refused when it is not bound to the request's origin. */
async function boundKey(
  resolved: ResolvedRequest,
  deps: PipelineDeps,
): Promise<Result<KeyChoice | undefined, PipelineFailure>> {
  const choice = await keyOf(resolved, deps.key);
  if (!choice.ok || !choice.value) return choice;
  const bound = checkOrigin(resolved, choice.value, deps);
  return bound.ok ? choice : bound;
}

/** Refused when `choice`'s binding does not approve the request's origin (or what the request obtains). */
function checkOrigin(resolved: ResolvedRequest, choice: KeyChoice, deps: PipelineDeps): Result<void, PipelineFailure> {
  const binding = checkBinding(resolved.origin, choice.binding);
  const unbound = binding.ok
    ? (deps.obtainsFor?.(choice.binding) ?? ok(undefined))
    : err({ message: binding.error, origin: resolved.origin });
  if (unbound.ok) return ok(undefined);
  const { message, origin } = unbound.error;
  if (origin !== undefined) deps.onUnboundOrigin?.(resolved, choice, message, origin);
  return err({ kind: 'refused', resolved, reason: 'origin', message });
}

/**
 * Measures the server clock when a signed request needs it (§5 rule 9), then resolves again with
 * it; an offset beyond the bound (clock/clock.ts plausibleOffset) refuses the request instead.
 */
async function withSyncedClock(
  resolved: ResolvedRequest,
  deps: PipelineDeps,
  again: (sample: ClockSample | undefined) => Result<ResolvedRequest, PrepareFailure>,
): Promise<Result<ResolvedRequest, PipelineFailure>> {
  if (!resolved.signed || !deps.clockSync) return ok(resolved);
  // One read of the state (a parse of every origin in it) decides, and gives the offset signed with;
  // it is read again only after a measurement, which changed it.
  const kept = deps.clock.sample(resolved.origin);
  const stale = deps.clock.staleSample(kept);
  if (stale) await measureClock(clockBase(resolved), clockDeps(resolved, deps));
  const offset = deps.clock.usable(resolved.origin, stale ? deps.clock.sample(resolved.origin) : kept);
  if (!offset.ok) return err({ kind: 'refused', resolved, reason: 'clock', message: offset.error });
  return again(offset.value);
}

/** What measuring the clock needs, with the catalog of the environment's deployment (its GET /api/v3/time). */
function clockDeps(resolved: ResolvedRequest, deps: PipelineDeps): PipelineDeps & { endpoints: EndpointCatalog } {
  return { ...deps, endpoints: endpointsOf(resolved.environment) };
}

/** Where GET /api/v3/time is asked: the environment's base URL when the request goes there, else its origin. */
function clockBase(resolved: ResolvedRequest): string {
  const baseUrl = resolved.environment.baseUrl;
  return baseUrl.startsWith(resolved.origin) ? baseUrl : resolved.origin;
}

/**
 * After a 700003 (a known rejection: nothing was processed), the offset is measured again at once,
 * whatever its age, so that the next send uses it instead of one from before the clock moved. When
 * it cannot be measured, the old one is dropped and the next signed send measures first.
 */
async function recheckClock(resolved: ResolvedRequest, deps: PipelineDeps): Promise<ClockRecheck> {
  const before = deps.clock.sample(resolved.origin);
  const after = await measureClock(clockBase(resolved), clockDeps(resolved, deps));
  if (!after) await deps.clock.forget(resolved.origin);
  return { before, after, clockSync: deps.clockSync };
}

/** Asks when the file, the key's owner or a run's selection wants it (request/confirm.ts); a no sends nothing. */
async function confirmIfAsked(
  resolved: ResolvedRequest,
  choice: KeyChoice | undefined,
  deps: PipelineDeps,
): Promise<Result<void, PipelineFailure>> {
  const asked = askedBy(resolved, choice, deps.notSelected);
  if (asked === undefined) return ok(undefined);
  const order = describeOrder(resolved);
  if (await deps.confirm(resolved, order, asked.reason)) return ok(undefined);
  return err({
    kind: 'refused',
    resolved,
    reason: 'confirmation',
    message:
      asked.optOut === undefined
        ? t('{0} needs confirmation ({1}): nothing was sent.', order, asked.reason)
        : t(
            '{0} needs confirmation ({1}): nothing was sent. To send it unasked: {2}.',
            order,
            asked.reason,
            asked.optOut,
          ),
    confirmation: asked,
  });
}

/** gate → send → decode → record, then the response kept for chaining and the `# @expect` lines checked. */
async function send({ resolved, prepared, choice }: Ready, deps: PipelineDeps): Promise<Sent> {
  const account = choice ? accountId(choice.key.apiKey) : undefined;
  const report = await roundTrip(prepared, { sender: deps.sender, budget: deps.budget, account });
  if (resolved.options.name && report.decoded?.json !== undefined)
    deps.responses.set(resolved.options.name, report.decoded.json);
  const expectations = checkExpectations(resolved.options.expectations, report.decoded, {
    headers: report.response?.headers,
    durationMs: report.response?.timings.totalMs,
  });
  if (report.decoded?.code !== 700003) return { resolved, report, expectations };
  const recvWindow = Number(resolved.params.find((p) => p.name === 'recvWindow')?.value) || undefined;
  // A timestamp written in the request (not {{$timestamp}}), signed or not, is not the clock's: measuring again cannot help it.
  if (prepared.timestamp !== String(resolved.now))
    return { resolved, report, expectations, note: explainWrittenTimestamp(recvWindow) };
  const check = await recheckClock(resolved, deps);
  const sendAgain = maySendAgain(check);
  return { resolved, report, expectations, note: explainRecheck(check, recvWindow), sendAgain };
}

/** Whether the result counts as what the user wanted: ok, or rejected exactly as `# @expect` said. */
export function passed(result: Sent): boolean {
  // A header or a duration says nothing of a rejection: `duration < 500` alone does not expect one.
  const expected = result.resolved.options.expectations.some((e) => e.kind !== 'header' && e.kind !== 'duration');
  const outcomeOk = result.report.outcome === 'ok' || (expected && result.report.outcome === 'rejected');
  return outcomeOk && result.expectations.every((e) => e.passed);
}
