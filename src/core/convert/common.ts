/** Small pieces every importer shares: decoding, names, and the notes list (credentials: credential-like.ts). */
import { percentDecode } from '../format/parser';

/** Notes in the order they were found, each once. */
export class Notes {
  private readonly seen = new Set<string>();
  add(note: string): void {
    this.seen.add(note);
  }
  addAll(notes: Iterable<string>): void {
    for (const n of notes) this.add(n);
  }
  list(): string[] {
    return [...this.seen];
  }
}

/** A value of an `application/x-www-form-urlencoded` string: `+` is a space, `%XX` a byte. */
export function formDecode(s: string): string {
  return percentDecode(s.indexOf('+') < 0 ? s : s.replace(/\+/g, ' '));
}

export interface RawPair {
  readonly name: string;
  readonly value: string;
  /** The segment as written, e.g. `price=1%2C5`. */
  readonly raw: string;
  /** False for a segment without `=` (sent as `name=` with an empty value). */
  readonly hasEquals: boolean;
}

/** `a=1&b=2` (a query string or a form body) into decoded pairs, in order; empty segments skipped. */
export function splitPairs(text: string): RawPair[] {
  const out: RawPair[] = [];
  for (const raw of text.split('&')) {
    if (raw.length === 0) continue;
    const eq = raw.indexOf('=');
    out.push({
      name: formDecode(eq < 0 ? raw : raw.slice(0, eq)),
      value: eq < 0 ? '' : formDecode(raw.slice(eq + 1)),
      raw,
      hasEquals: eq >= 0,
    });
  }
  return out;
}

/** Looks like `a=1&b=2`: a form body rather than free text (scanned, not matched: input is hostile). */
export function looksLikeForm(text: string): boolean {
  const t = text.trim();
  if (t.length === 0 || /\s/.test(t) || t.startsWith('{') || t.startsWith('[')) return false;
  const segments = t.split('&').filter((s) => s.length > 0);
  return segments.length > 0 && segments.every((s) => s.indexOf('=') > 0);
}

/** `New Order (TRADE)` → `new-order-trade`: for file names and request names. */
export function slug(text: string, fallback: string): string {
  const s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return s.length > 0 ? s : fallback;
}

/** A request name for `# @name` (letters, digits, `_`, `-`, starting with a letter or `_`). */
export const REQUEST_NAME = /^[A-Za-z_][\w-]*$/;

export function requestNameFrom(text: string): string {
  const s = slug(text, 'request');
  return /^[a-z_]/.test(s) ? s : 'r-' + s;
}

/** Names made unique by a numeric suffix: `order`, `order-2`, … */
export class UniqueNames {
  private readonly used = new Set<string>();
  take(base: string): string {
    let name = base;
    for (let i = 2; this.used.has(name.toLowerCase()); i++) name = `${base}-${i}`;
    this.used.add(name.toLowerCase());
    return name;
  }
}

/** One line of text from outside: control characters become spaces, so it cannot break a line. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f\u2028\u2029]/g, ' ');
}

/** Quotes a value for a note: short, on one line. */
export function shown(text: string, max = 60): string {
  const t = oneLine(text);
  return JSON.stringify(t.length > max ? t.slice(0, max) + '…' : t);
}
