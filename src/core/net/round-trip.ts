/**
 * gate → send → decode → record, for one prepared request. Every exchange ends in one outcome:
 * ok, rejected, unknown (5xx, or a failure after the request went out), not-sent (nothing left
 * this machine) or refused (the gate kept it back).
 */
import type { Budget, BudgetView, Charge, GateRefusal } from '../budget/budget';
import type { PreparedRequest } from './send';
import { decodeResponse, UNKNOWN_OUTCOME_TEXT, type Decoded } from '../net/decode';
import type { SendOutcome } from '../outcome';
import { describeFailure, type Sender, type SendResult } from './send';

export interface RoundTripReport {
  readonly outcome: SendOutcome;
  readonly prepared: PreparedRequest;
  readonly response?: Extract<SendResult, { kind: 'response' }>;
  readonly decoded?: Decoded;
  readonly failure?: Extract<SendResult, { kind: 'failure' }>;
  /** Why the gate refused, when it did. */
  readonly refusal?: GateRefusal;
  readonly budget: BudgetView;
  /** One line for a status bar or a terminal. */
  readonly summary: string;
  /** Something the user must know besides the outcome (the state could not record the answer). */
  readonly warning?: string;
}

export interface RoundTripDeps {
  readonly sender: Sender;
  readonly budget: Budget;
  /** accountId() of the key that signed the request, if any. */
  readonly account?: string;
}

function chargeOf(prepared: PreparedRequest, account: string | undefined): Charge {
  return { origin: prepared.origin, mode: prepared.mode, weight: prepared.weight, account };
}

export async function roundTrip(prepared: PreparedRequest, deps: RoundTripDeps): Promise<RoundTripReport> {
  const viewNow = (): BudgetView => deps.budget.view(prepared.origin, deps.account);
  const reserved = deps.budget.reserve(chargeOf(prepared, deps.account));
  if (!reserved.ok) return refused(prepared, reserved.error, viewNow());
  const result = await deps.sender.send(prepared);
  const decoded =
    result.kind === 'response'
      ? decodeResponse(result.status, result.bodyText, result.headers['retry-after'])
      : undefined;
  // Connect failures are before a byte went out; anything later may have reached the service (§7.1).
  const sent = result.kind === 'response' || result.phase === 'sent';
  const answer = { sent, status: decoded?.status, retryAfterSeconds: decoded?.retryAfterSeconds };
  const settled = deps.budget.settle(reserved.value, answer);
  // The answer is never lost to a state that can no longer be written after sending.
  const budget = settled.ok ? settled.value : viewNow();
  const warning = settled.ok
    ? undefined
    : `This answer could not be recorded in the rate-limit state (${settled.error}): a Retry-After or ban in it is not remembered.`;
  if (result.kind === 'response') {
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
  const failure = describeFailure(result.code, prepared.origin);
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

function refused(prepared: PreparedRequest, refusal: GateRefusal, budget: BudgetView): RoundTripReport {
  return { outcome: 'refused', prepared, refusal, budget, summary: `refused: ${refusal.message}` };
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
      // A 418 is the ban (§8 rule 4), whatever code its body repeats (a 429 code beside it says the opposite).
      return `${d.status} rejected:${(d.status !== 418 && codeText) || ' ' + d.statusInfo.meaning}${d.retryAfterSeconds !== undefined ? ` (Retry-After ${d.retryAfterSeconds} s)` : ''}`;
    case 'unknown':
      return `${d.status} outcome unknown: ${UNKNOWN_OUTCOME_TEXT}${codeText ? ` (${codeText.trim()})` : ''}`;
  }
}
