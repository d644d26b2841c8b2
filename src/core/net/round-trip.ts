/**
 * gate → send → decode → record, for one prepared request. Every exchange ends in one outcome:
 * ok, rejected, unknown (5xx, or a failure after the request went out), not-sent (nothing left
 * this machine) or refused (the gate kept it back).
 */
import type { Budget, BudgetView, Charge, GateRefusal } from '../budget/budget';
import type { PreparedRequest } from './send';
import { decodeResponse, type Decoded } from '../net/decode';
import { t } from '../l10n';
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
  const reserved = await deps.budget.reserve(chargeOf(prepared, deps.account));
  if (!reserved.ok) return refused(prepared, reserved.error, viewNow());
  const result = await deps.sender.send(prepared);
  const decoded =
    result.kind === 'response'
      ? decodeResponse(result.status, result.bodyText, result.headers['retry-after'])
      : undefined;
  // Connect failures are before a byte went out; anything later may have reached the service (§7.1).
  const sent = result.kind === 'response' || result.phase === 'sent';
  const answer = { sent, status: decoded?.status, retryAfterSeconds: decoded?.retryAfterSeconds };
  const settled = await deps.budget.settle(reserved.value, answer);
  // The answer is never lost to a state that can no longer be written after sending.
  const budget = settled.ok ? settled.value : viewNow();
  const warning = settled.ok
    ? undefined
    : t(
        'This answer could not be recorded in the rate-limit state ({0}): a Retry-After or ban in it is not remembered.',
        settled.error,
      );
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
  const failure = describeFailure(result, prepared.origin);
  return sent
    ? {
        outcome: 'unknown',
        prepared,
        failure: result,
        budget,
        warning,
        summary: t('outcome unknown: {0} The operation may have succeeded: check before retrying.', failure),
      }
    : { outcome: 'not-sent', prepared, failure: result, budget, warning, summary: t('not sent: {0}', failure) };
}

function refused(prepared: PreparedRequest, refusal: GateRefusal, budget: BudgetView): RoundTripReport {
  return { outcome: 'refused', prepared, refusal, budget, summary: t('refused: {0}', refusal.message) };
}

/** "700002 Signature for this request is not valid": the error code and its meanings, or the service's msg. */
function codeText(d: Decoded): string | undefined {
  if (d.code === undefined) return undefined;
  const said = d.error ? d.error.meanings.map((m) => t(m)).join(' / ') : d.msg;
  return said ? `${d.code} ${said}` : String(d.code);
}

export function summarise(d: Decoded): string {
  const code = codeText(d);
  switch (d.outcome) {
    case 'ok':
      return t('{0} ok', d.status);
    case 'rejected': {
      // A 418 is the ban (§8 rule 4), whatever code its body repeats (a 429 code beside it says the opposite).
      const why = (d.status !== 418 && code) || t(d.statusInfo.meaning);
      return d.retryAfterSeconds === undefined
        ? t('{0} rejected: {1}', d.status, why)
        : t('{0} rejected: {1} (Retry-After {2} s)', d.status, why, d.retryAfterSeconds);
    }
    case 'unknown':
      return code === undefined
        ? t('{0} outcome unknown: the operation may have succeeded: check before retrying', d.status)
        : t(
            '{0} outcome unknown: the operation may have succeeded: check before retrying ({1})',
            d.status,
            code.trim(),
          );
  }
}
