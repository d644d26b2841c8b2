/**
 * Amounts as integers of 1e-8 units (bigint), so balances and fills are exact. Quantities and
 * prices arrive as decimal text (§2.1: "decimal number, sent as text").
 */

const DECIMALS = 8;
const SCALE = 100_000_000n;

// At most 12 digits before the point keeps products far from anything slow; 8 after is the unit.
const DECIMAL_TEXT = /^(\d{1,12})(?:\.(\d{1,8}))?$/;

/** Decimal text → units, or undefined when it is not a plain decimal with at most 8 places. */
export function parseUnits(text: string): bigint | undefined {
  const m = DECIMAL_TEXT.exec(text);
  if (m === null) return undefined;
  const fraction = m[2] ?? '';
  return BigInt(m[1]!) * SCALE + (fraction.length > 0 ? BigInt(fraction.padEnd(DECIMALS, '0')) : 0n);
}

/** Units → decimal text with 8 places, as the API family prints amounts ("0.00100000"). */
export function formatUnits(units: bigint): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(DECIMALS + 1, '0');
  const text = digits.slice(0, -DECIMALS) + '.' + digits.slice(-DECIMALS);
  return negative ? '-' + text : text;
}

/** quantity × price in units, rounded down: what changes hands in a fill. */
export function mulFloor(quantity: bigint, price: bigint): bigint {
  return (quantity * price) / SCALE;
}

/** quantity × price in units, rounded up: what a BUY order locks, so fills never outrun the lock. */
export function mulCeil(quantity: bigint, price: bigint): bigint {
  return (quantity * price + SCALE - 1n) / SCALE;
}

/** amount ÷ price in units, rounded down: the quantity an amount buys at least. */
export function divFloor(amount: bigint, price: bigint): bigint {
  return (amount * SCALE) / price;
}

/** amount ÷ price in units, rounded up: the quantity that brings in at least the amount. */
export function divCeil(amount: bigint, price: bigint): bigint {
  return (amount * SCALE + price - 1n) / price;
}

/** units of text for constants written in code ("0.0001"); throws on a typo. */
export function units(text: string): bigint {
  const v = parseUnits(text);
  if (v === undefined) throw new Error(`not a decimal: ${text}`);
  return v;
}
