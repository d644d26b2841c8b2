/**
 * gate → send → decode → record, for one prepared request. Every exchange ends in one outcome:
 * ok, rejected, unknown (5xx, or a failure after the request went out), not-sent (nothing left
 * this machine) or refused (the gate kept it back).
 */
import { Budget, type BudgetView, type Charge } from '../budget/budget';
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
  const gate = deps.budget.gate(charge);
  if (!gate.ok) {
    return {
      outcome: 'refused',
      prepared,
      refusal: { reason: gate.reason, message: gate.message, retryAtMs: gate.retryAtMs },
      budget: deps.budget.view(prepared.origin, deps.account),
      summary: `refused: ${gate.message}`,
    };
  }
  const result = await deps.sender.send(prepared);
  if (result.kind === 'failure') {
    if (result.phase === 'connect') {
      return {
        outcome: 'not-sent',
        prepared,
        failure: result,
        budget: deps.budget.view(prepared.origin, deps.account),
        summary: `not sent: ${describeFailure(result.code, prepared.origin)}`,
      };
    }
    // It may have reached the service: count it, and never call it a failure (§7.1).
    const budget = deps.budget.record(charge, {});
    return {
      outcome: 'unknown',
      prepared,
      failure: result,
      budget,
      summary: `outcome unknown: ${describeFailure(result.code, prepared.origin)} ${capitalise(UNKNOWN_OUTCOME_TEXT)}.`,
    };
  }
  const decoded = decodeResponse(result.status, result.bodyText, result.headers['retry-after']);
  const budget = deps.budget.record(charge, { status: result.status, retryAfterSeconds: decoded.retryAfterSeconds });
  return { outcome: decoded.outcome, prepared, response: result, decoded, budget, summary: summarise(decoded) };
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
