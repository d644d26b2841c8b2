/**
 * Which requests ask before they go, and how an order is named in the question. The key's owner
 * decides, never the repository (docs/security.md, "Your key, your decision"): a request that can
 * trade or move funds, signed with the user's own key, asks unless the owner said otherwise where no
 * repository can write; a file may only ask for more care (`# @confirm`, "confirm": true).
 */
import { isDemoKey } from '../env/demo';
import type { KeyPair } from '../env/keys';
import { jsonValueText } from '../format/json-value';
import { t } from '../l10n';
import type { ResolvedRequest } from '../format/resolve';

/**
 * What the key's owner decided for the requests signed with a key that can trade or move funds,
 * read only from places no repository can write (the profile's own setting, the user's command line).
 */
export type OwnerDecision =
  /** Each such request asks first; `optOut` says how its owner may send them unasked (the shell's words). */
  | { readonly ask: true; readonly optOut: string }
  /** Such requests go unasked: `by` says who decided (the profile's setting, the sandbox's demo key). */
  | { readonly ask: false; readonly by: string };

/** The sandbox's public demo keys never ask (nothing real is at stake); any other key asks unless its owner said no. */
export function ownerDecision(key: KeyPair, optOut: string, unasked?: string): OwnerDecision {
  if (isDemoKey(key)) return { ask: false, by: t("the sandbox's public demo key") };
  return unasked === undefined ? { ask: true, optOut } : { ask: false, by: unasked };
}

/** The key of a request and what its owner decided: enough to know whether it asks. */
interface Signing {
  readonly binding: { readonly profile: string };
  readonly owner: OwnerDecision;
}

/** Whether the file asks before this request goes: `# @confirm`, or a trade to an environment with "confirm": true. */
export function fileAsksConfirmation(resolved: ResolvedRequest): boolean {
  return resolved.options.confirm || (resolved.environment.confirm === true && canTrade(resolved));
}

/**
 * A request that can trade or move funds: an endpoint of the trade permission (orders, cancels,
 * batches), or one the catalog does not know that is signed or not a GET.
 */
export function canTrade(resolved: ResolvedRequest): boolean {
  return resolved.endpoint ? resolved.endpoint.permission === 'trade' : resolved.signed || resolved.method !== 'GET';
}

/** Why a request asks; when its key's owner is why, how the owner may send such requests unasked. */
export interface Asked {
  readonly reason: string;
  readonly optOut?: string;
}

/**
 * Why `resolved` asks before it goes, or undefined when it goes unasked: the file's `# @confirm`,
 * the key's owner (a trade signed with a key whose owner did not say otherwise), the environment's
 * "confirm": true, or `notSelected` (a trade run only for its answer).
 */
export function askedBy(
  resolved: ResolvedRequest,
  signing: Signing | undefined,
  notSelected?: string,
): Asked | undefined {
  if (resolved.options.confirm) return { reason: '# @confirm' };
  if (!canTrade(resolved)) return undefined;
  if (signing?.owner.ask)
    return {
      reason: t('it can trade with your key profile "{0}"', signing.binding.profile),
      optOut: signing.owner.optOut,
    };
  if (resolved.environment.confirm === true)
    return { reason: t('environment "{0}" has "confirm": true', resolved.environment.name) };
  return notSelected === undefined ? undefined : { reason: notSelected };
}

/** askedBy's reason alone. */
export function confirmationReason(
  resolved: ResolvedRequest,
  signing: Signing | undefined,
  notSelected?: string,
): string | undefined {
  return askedBy(resolved, signing, notSelected)?.reason;
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
