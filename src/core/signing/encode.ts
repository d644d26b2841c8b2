/**
 * Strict percent-encoding (docs/format.md, spec §5 rule 6): every byte outside `A-Z a-z 0-9 - _ . ~`
 * becomes `%XX` with upper-case hex, on the UTF-8 bytes. encodeURIComponent is not enough: it
 * leaves `! ' ( ) *` as they are, so `BEP20(BSC)` would sign one string and send another.
 */
const UNRESERVED = /^[A-Za-z0-9\-_.~]*$/;
const HEX = '0123456789ABCDEF';

function isUnreserved(b: number): boolean {
  return (
    (b >= 0x41 && b <= 0x5a) ||
    (b >= 0x61 && b <= 0x7a) ||
    (b >= 0x30 && b <= 0x39) ||
    b === 0x2d ||
    b === 0x5f ||
    b === 0x2e ||
    b === 0x7e
  );
}

export function percentEncode(value: string): string {
  if (UNRESERVED.test(value)) return value;
  const bytes = Buffer.from(value, 'utf8');
  let out = '';
  for (const b of bytes) {
    out += isUnreserved(b) ? String.fromCharCode(b) : '%' + HEX[b >> 4] + HEX[b & 15];
  }
  return out;
}

export interface NameValue {
  readonly name: string;
  readonly value: string;
}

/** `name=value&...` with both sides strictly encoded, in the order given. */
export function encodeParams(params: readonly NameValue[]): string {
  let out = '';
  for (let i = 0; i < params.length; i++) {
    const p = params[i]!;
    if (i > 0) out += '&';
    out += percentEncode(p.name) + '=' + percentEncode(p.value);
  }
  return out;
}
