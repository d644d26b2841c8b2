/** Which requests ask before they go, and how an order is named in the question. */
import { jsonValueText } from '../format/json-value';
import { t } from '../l10n';
import type { ResolvedRequest } from '../format/resolve';

/** Whether this request must be confirmed: `# @confirm`, or an order to an environment with "confirm": true. */
export function needsConfirmation(resolved: ResolvedRequest): boolean {
  if (resolved.options.confirm) return true;
  return resolved.environment.confirm === true && isOrder(resolved);
}

/** An order: an endpoint of the trade permission, or a request other than GET whose endpoint is not known. */
export function isOrder(resolved: ResolvedRequest): boolean {
  return resolved.endpoint ? resolved.endpoint.permission === 'trade' : resolved.method !== 'GET';
}

/** Why `resolved` asks before it goes: "# @confirm", or its environment's "confirm": true. */
export function confirmationReason(resolved: ResolvedRequest): string {
  return resolved.options.confirm
    ? '# @confirm'
    : t('environment "{0}" has "confirm": true', resolved.environment.name);
}

/** "POST /api/v3/order: symbol BTCUSDT, side BUY, quantity 0.001, price 30000". */
export function describeOrder(resolved: ResolvedRequest): string {
  const fields = ['symbol', 'side', 'type', 'quantity', 'price', 'quoteOrderQty', 'orderId', 'origClientOrderId'];
  const values = new Map<string, string>();
  for (const p of resolved.params) if (!values.has(p.name) || p.placement === 'query') values.set(p.name, p.value);
  if (resolved.json) {
    try {
      const body = JSON.parse(resolved.json) as Record<string, unknown>;
      for (const f of fields) if (!values.has(f) && body[f] !== undefined) values.set(f, jsonValueText(body[f]));
    } catch {
      // resolve already refused invalid JSON
    }
  }
  const parts = fields.filter((f) => values.has(f)).map((f) => `${f} ${values.get(f)}`);
  return `${resolved.method} ${resolved.path}${parts.length > 0 ? ': ' + parts.join(', ') : ''}`;
}
