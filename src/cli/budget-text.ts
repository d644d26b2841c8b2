/** The rate-limit budget as one line for a terminal. */
import type { BudgetView, CounterView } from '../core/budget/budget';
import { BUDGET } from './messages';

function counterText(name: string, c: CounterView | undefined): string | undefined {
  if (!c) return undefined;
  return BUDGET.counter(name, c.remaining, c.limit, c.used > 0 ? Math.ceil(c.freesInMs / 1000) : undefined);
}

export function budgetText(b: BudgetView): string {
  const parts = [counterText(BUDGET.account, b.uid), counterText(BUDGET.ip, b.ip)].filter(
    (x): x is string => x !== undefined,
  );
  if (b.blocked) {
    const seconds = Math.ceil(b.blocked.remainingMs / 1000);
    parts.push(b.blocked.status === 418 ? BUDGET.banned(seconds) : BUDGET.backingOff(seconds));
  }
  if (b.damaged) parts.push(BUDGET.damaged);
  return parts.join(' · ');
}
