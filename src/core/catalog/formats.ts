/**
 * The shapes of identifiers the service uses. The spec says symbols are upper-case letters (§2.1);
 * the rest follows the API family (docs/service.md, Assumptions, docs/format.md) and is assumed.
 */

/**
 * A symbol name (§2.1: upper-case letters); digits allowed, as the family's names have them
 * (assumed). The sandbox refuses other names with 30014; stream names use it too.
 */
export const SYMBOL_FORMAT = /^[A-Z0-9]{2,20}$/;

/** A client order id: at most 32 characters of A-Z a-z 0-9 (docs/format.md). */
export const CLIENT_ORDER_ID_FORMAT = /^[A-Za-z0-9]{1,32}$/;

/** An order id as the service returns it: a string (docs/service.md, Assumptions) of letters, digits, `_` and `-` (assumed). */
export const ORDER_ID_FORMAT = /^[A-Za-z0-9_-]{1,64}$/;
