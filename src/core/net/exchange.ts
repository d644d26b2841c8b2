/**
 * gate → send → decode → record, for one prepared request. Every exchange ends in one outcome:
 * ok, rejected, unknown (5xx, or a failure after the request went out), not-sent (nothing left
 * this machine) or refused (the gate kept it back).
 */
import type { Answer, Budget, BudgetView, Charge, Reservation } from '../budget/budget';
import { StateUnavailable } from '../budget/state';
import type { PreparedRequest } from '../request/build';
import { decodeResponse, UNKNOWN_OUTCOME_TEXT, type Decoded } from '../spec/decode';
import type { Outcome } from '../spec/types';
import { describeFailure, type Sender, type SendResult } from './send';

export type ExchangeOutcome = Outcome | 'not-sent' | 'refused';

export interface ExchangeReport {
  readonly outcome: ExchangeOutcome;
  readonly prepared: PreparedRequest;
  readonly response?: Extract<SendResult, { kind: 'response' }>;
  readonly decoded?: Decoded;
  readonly failure?: Extract<SendResult, { kind: 'failure' }>;
  /** Why the gate refused, when it did. */
  readonly refusal?: { readonly reason: string; readonly message: string; readonly retryAtMs?: number };
  readonly budget: BudgetView;
  /** One line for a status bar or a terminal. */
  readonly summary: string;
  /** Something the user must know besides the outcome (the state could not record the answer). */
  readonly warning?: string;
}

export interface ExchangeDeps {
  readonly sender: Sender;
  readonly budget: Budget;
  /** accountId() of the key that signed the request, if any. */
  readonly account?: string;
}

export function chargeOf(prepared: PreparedRequest, account: string | undefined): Charge {
  return { origin: prepared.origin, mode: prepared.mode, weight: prepared.weight, account };
}

export async function exchange(prepared: PreparedRequest, deps: ExchangeDeps): Promise<ExchangeReport> {
  const charge = chargeOf(prepared, deps.account);
  const viewNow = (): BudgetView => deps.budget.view(prepared.origin, deps.account);
  let reserved: Reservation;
  try {
    const r = deps.budget.reserve(charge);
    if (!r.ok) return refused(prepared, r, viewNow());
    reserved = r.reservation;
  } catch (e) {
    if (!(e instanceof StateUnavailable)) throw e;
    // A ban or Retry-After the answer may carry could not be remembered: send nothing.
    const message = `The rate-limit state cannot be kept in ${e.location} (${e.reason}): nothing was sent, since a ban or a Retry-After wait could not be remembered. Make that folder writable, or set TRADEREQ_STATE_DIR to one that is.`;
    return refused(prepared, { reason: 'state', message }, viewNow());
  }
  const result = await deps.sender.send(prepared);
  const decoded =
    result.kind === 'response'
      ? decodeResponse(result.status, result.bodyText, result.headers['retry-after'])
      : undefined;
  const sent = result.kind === 'response' || result.phase === 'exchange';
  const { budget, warning } = settle(
    deps.budget,
    reserved,
    { sent, status: decoded?.status, retryAfterSeconds: decoded?.retryAfterSeconds },
    viewNow,
  );
  if (result.kind === 'failure') {
    const failure = describeFailure(result.code, prepared.origin);
    // Connect failures are before a byte went out; anything later may have reached the service (§7.1).
    return sent
      ? {
          outcome: 'unknown',
          prepared,
          failure: result,
          budget,
          warning,
          summary: `outcome unknown: ${failure} ${capitalise(UNKNOWN_OUTCOME_TEXT)}.`,
        }
      : { outcome: 'not-sent', prepared, failure: result, budget, warning, summary: `not sent: ${failure}` };
  }
  return {
    outcome: decoded!.outcome,
    prepared,
    response: result,
    decoded,
    budget,
    warning,
    summary: summarise(decoded!),
  };
}

function refused(
  prepared: PreparedRequest,
  refusal: { reason: string; message: string; retryAtMs?: number },
  budget: BudgetView,
): ExchangeReport {
  return { outcome: 'refused', prepared, refusal, budget, summary: `refused: ${refusal.message}` };
}

/** Settles the reservation; the answer is never lost to a state that cannot be written after sending. */
function settle(
  budget: Budget,
  reserved: Reservation,
  answer: Answer,
  viewNow: () => BudgetView,
): { budget: BudgetView; warning?: string } {
  try {
    return { budget: budget.settle(reserved, answer) };
  } catch (e) {
    if (!(e instanceof StateUnavailable)) throw e;
    return {
      budget: viewNow(),
      warning: `This answer could not be recorded in the rate-limit state (${e.message}): a Retry-After or ban in it is not remembered.`,
    };
  }
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function summarise(d: Decoded): string {
  const codeText =
    d.code !== undefined ? ` ${d.code}${d.error ? ' ' + d.error.meanings.join(' / ') : d.msg ? ' ' + d.msg : ''}` : '';
  switch (d.outcome) {
    case 'ok':
      return `${d.status} ok`;
    case 'rejected':
      return `${d.status} rejected:${codeText || ' ' + d.statusInfo.meaning}${d.retryAfterSeconds !== undefined ? ` (Retry-After ${d.retryAfterSeconds} s)` : ''}`;
    case 'unknown':
      return `${d.status} outcome unknown: ${UNKNOWN_OUTCOME_TEXT}${codeText ? ` (${codeText.trim()})` : ''}`;
  }
}
