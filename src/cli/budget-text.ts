/** The rate-limit budget as one line for a terminal. */
import type { BudgetView, CounterView } from '../core/budget/budget';

function counterText(name: string, c: CounterView | undefined): string | undefined {
  if (!c) return undefined;
  return `${name} ${c.remaining}/${c.limit} left${c.used > 0 ? ` (frees in ${Math.ceil(c.freesInMs / 1000)} s)` : ''}`;
}

export function budgetText(b: BudgetView): string {
  const parts = [counterText('account', b.uid), counterText('IP', b.ip)].filter((x): x is string => x !== undefined);
  if (b.blocked)
    parts.push(
      `${b.blocked.status === 418 ? 'banned' : 'backing off'}: nothing sent for ${Math.ceil(b.blocked.remainingMs / 1000)} s`,
    );
  if (b.damaged) parts.push('state damaged: nothing is sent until it is reset (tradereq state reset)');
  return parts.join(' · ');
}
