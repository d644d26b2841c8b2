/**
 * Decimals compared exactly: the service sends prices and quantities as text ("0.10000000",
 * docs/service.md §2.1), and `# @expect json price < 0.1` must not round them through a float.
 * A decimal is held as a whole number of units and a scale (value = units × 10^-scale).
 */
import { BOUNDS } from '../bounds';

export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

/** `-12.5`, `0.10000000`, `1e-7` (a JSON number's own text); no `+`, no `.5`, no `5.`. */
const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/;

/** The decimal `text` writes, or undefined when it is no decimal (or past BOUNDS.decimalChars and BOUNDS.decimalExponent). */
export function parseDecimal(text: string): Decimal | undefined {
  if (text.length > BOUNDS.decimalChars) return undefined;
  const m = DECIMAL.exec(text);
  if (!m) return undefined;
  const exponent = Number(m[4] ?? 0);
  // 1e99999999 is ten characters: its power of ten is what must stay small.
  if (Math.abs(exponent) > BOUNDS.decimalExponent) return undefined;
  const fraction = m[3] ?? '';
  const scale = fraction.length - exponent;
  const digits = BigInt(m[2]! + fraction);
  const units = m[1] === '-' ? -digits : digits;
  // A negative scale (1e5) becomes whole units, so that every scale compared is 0 or more.
  return scale >= 0 ? { units, scale } : { units: units * 10n ** BigInt(-scale), scale: 0 };
}

/** The decimal of a JSON value: a number, or a string that writes one; undefined otherwise. */
export function decimalOf(value: unknown): Decimal | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? parseDecimal(String(value)) : undefined;
  return typeof value === 'string' ? parseDecimal(value) : undefined;
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`, exactly. */
export function compareDecimals(a: Decimal, b: Decimal): number {
  const scale = Math.max(a.scale, b.scale);
  const x = a.units * 10n ** BigInt(scale - a.scale);
  const y = b.units * 10n ** BigInt(scale - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}
