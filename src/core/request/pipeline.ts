/**
 * One send, the same for the command line and the editor: resolve, check the key's origin binding
 * (before anything at all is sent), sync the clock, resolve again with the corrected clock, ask for
 * confirmation, sign, then gate → send → decode → record, and check the `# @expect` lines.
 * The shells supply what differs: where keys come from, how to ask, what to do with the result.
 */
import type { Budget } from '../budget/budget';
import { accountId } from '../budget/state';
import { explainTimestampError } from '../clock/clock';
import { measureClock } from '../clock/measure';
import type { ClockSync } from '../clock/sync';
import type { KeyPair } from '../env/keys';
import type { NamedEnvironment } from '../env/constants';
import type { Diagnostic, RequestBlock, TradeReqDocument } from '../format/model';
import { defaultContext, resolveRequest, type ResolvedRequest } from '../format/resolve';
import { exchange, type ExchangeReport } from '../net/exchange';
import type { Sender } from '../net/send';
import { prepareRequest } from './build';
import { describeOrder, needsConfirmation } from './confirm';
import { checkBinding, type KeyBinding } from './gate';
import { checkExpectations, type ExpectationResult } from './expect';

export interface KeyChoice {
  readonly key: KeyPair;
  readonly binding: KeyBinding;
}

export interface PipelineDeps {
  readonly sender: Sender;
  readonly budget: Budget;
  readonly clock: ClockSync;
  readonly clockSync: boolean;
  /** Responses of named requests sent earlier, for {{NAME.response.PATH}}. */
  readonly responses: Map<string, unknown>;
  /** The key of a signed request; undefined when there is none (nothing is sent then). */
  key(resolved: ResolvedRequest): Promise<KeyChoice | undefined> | KeyChoice | undefined;
  /** Asked when the key is not bound to the origin; true when the user bound it (explicitly). */
  allowOrigin?(resolved: ResolvedRequest, choice: KeyChoice, message: string): Promise<boolean>;
  /** Asked for `# @confirm` and orders to a `confirm` environment; false sends nothing. */
  confirm(resolved: ResolvedRequest, order: string): Promise<boolean> | boolean;
}

export type PipelineResult =
  | { readonly kind: 'bad-input'; readonly diagnostics: readonly Diagnostic[]; readonly message: string }
  | { readonly kind: 'no-key'; readonly resolved: ResolvedRequest; readonly message: string }
  | {
      readonly kind: 'refused';
      readonly resolved: ResolvedRequest;
      readonly reason: 'origin' | 'confirmation';
      readonly message: string;
    }
  | {
      readonly kind: 'sent';
      readonly resolved: ResolvedRequest;
      readonly report: ExchangeReport;
      readonly expectations: readonly ExpectationResult[];
      /** For 700003: the timing rule and the measured clock offset. */
      readonly note?: string;
    };

export async function runRequest(
  doc: TradeReqDocument,
  request: RequestBlock,
  environment: NamedEnvironment,
  deps: PipelineDeps,
): Promise<PipelineResult> {
  const response = (name: string): unknown => deps.responses.get(name);
  const resolve = (now?: () => number): ResolvedRequest | PipelineResult => {
    const r = resolveRequest(doc, request, defaultContext(environment, now ? { response, now } : { response }));
    return r.ok ? r.value : { kind: 'bad-input', diagnostics: r.diagnostics, message: r.diagnostics[0]!.message };
  };

  // First resolve: where it goes and whether it is signed. Nothing is sent before the binding is checked.
  let resolved = resolve();
  if ('kind' in resolved) return resolved;
  const choice = resolved.signed ? await deps.key(resolved) : undefined;
  if (resolved.signed && !choice)
    return {
      kind: 'no-key',
      resolved,
      message: `No key for profile "${resolved.keyProfile ?? '(none)'}"; nothing was sent.`,
    };
  if (choice) {
    const binding = checkBinding(resolved.origin, choice.binding);
    if (!binding.ok && !(await deps.allowOrigin?.(resolved, choice, binding.message))) {
      return { kind: 'refused', resolved, reason: 'origin', message: binding.message };
    }
  }
  if (resolved.signed && deps.clockSync) {
    const origin = resolved.origin;
    if (deps.clock.stale(origin))
      await measureClock(environment.baseUrl.startsWith(origin) ? environment.baseUrl : origin, deps);
    const again = resolve(() => deps.clock.correctedNow(origin));
    if ('kind' in again) return again;
    resolved = again;
  }
  if (needsConfirmation(resolved)) {
    const order = describeOrder(resolved);
    if (!(await deps.confirm(resolved, order))) {
      const why = resolved.options.confirm
        ? '# @confirm'
        : `environment "${resolved.environment.name}" has "confirm": true`;
      return {
        kind: 'refused',
        resolved,
        reason: 'confirmation',
        message: `Not sent: ${order} needs confirmation (${why}).`,
      };
    }
  }
  const prepared = prepareRequest(resolved, { key: choice?.key });
  if (!prepared.ok) return { kind: 'bad-input', diagnostics: [], message: prepared.message };
  const report = await exchange(prepared.value, {
    sender: deps.sender,
    budget: deps.budget,
    account: choice ? accountId(choice.key.apiKey) : undefined,
  });
  if (resolved.options.name && report.decoded?.json !== undefined)
    deps.responses.set(resolved.options.name, report.decoded.json);
  const expectations = checkExpectations(resolved.options.expectations, report.decoded);
  const recvWindow = Number(resolved.params.find((p) => p.name === 'recvWindow')?.value) || undefined;
  const note =
    report.decoded?.code === 700003 ? explainTimestampError(deps.clock.sample(resolved.origin), recvWindow) : undefined;
  return { kind: 'sent', resolved, report, expectations, note };
}

/** Whether the result counts as what the user wanted: ok, or rejected exactly as `# @expect` said. */
export function passed(result: Extract<PipelineResult, { kind: 'sent' }>): boolean {
  const expected = result.resolved.options.expectations.length > 0;
  const outcomeOk = result.report.outcome === 'ok' || (expected && result.report.outcome === 'rejected');
  return outcomeOk && result.expectations.every((e) => e.passed);
}
