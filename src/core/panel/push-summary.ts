/**
 * A push for people, in one line (the stream view's log), and a depth push's book (its table).
 * The connection has validated each push's `d` against its stream's schema (catalog/streams.ts);
 * it is parsed again here to be typed, and a push that does not fit gets no summary.
 */
import {
  AccountDataSchema,
  BookTickerDataSchema,
  DealsDataSchema,
  DepthDataSchema,
  KlineDataSchema,
  OrderDataSchema,
  PrivateDealDataSchema,
  type StreamKind,
} from '../catalog/streams';
import type { Push } from '../catalog/streams';
import type { Book } from './protocol';

const SIDE: Readonly<Record<number, string>> = { 1: 'BUY', 2: 'SELL' };
// The private orders stream's codes (catalog/streams.ts, fields of spot@private.orders.v3.api).
const ORDER_TYPE: Readonly<Record<number, string>> = { 1: 'LIMIT', 3: 'IOC', 4: 'FOK', 5: 'MARKET' };
const ORDER_STATUS: Readonly<Record<number, string>> = {
  1: 'NEW',
  2: 'FILLED',
  3: 'PARTIALLY_FILLED',
  4: 'CANCELED',
  5: 'PARTIALLY_CANCELED',
};

/** "30010.00000000" → "30010", "0.00100000" → "0.001": the digits that say something. */
export function trimDecimal(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

const t = trimDecimal;
const level = (l: { p: string; v: string } | undefined): string => (l === undefined ? '–' : `${t(l.p)} × ${t(l.v)}`);

type Summarise = (d: unknown) => string | undefined;

// The spec's JSON kinds; a binary deployment's pushes are summarised where they are decoded.
const SUMMARIES: Readonly<Partial<Record<StreamKind, Summarise>>> = {
  deals: (d) => {
    const r = DealsDataSchema.safeParse(d);
    if (!r.success || r.data.deals.length === 0) return undefined;
    const first = r.data.deals[0]!;
    const more = r.data.deals.length > 1 ? ` (+${r.data.deals.length - 1} more)` : '';
    return `${SIDE[first.S]} ${t(first.v)} @ ${t(first.p)}${more}`;
  },
  depth: (d) => {
    const r = DepthDataSchema.safeParse(d);
    return r.success ? `bid ${level(r.data.bids[0])} · ask ${level(r.data.asks[0])}` : undefined;
  },
  bookTicker: (d) => {
    const r = BookTickerDataSchema.safeParse(d);
    if (!r.success) return undefined;
    const side = (p: string | null, v: string | null) => (p === null ? '–' : `${t(p)} × ${t(v ?? '0')}`);
    return `bid ${side(r.data.b, r.data.B)} · ask ${side(r.data.a, r.data.A)}`;
  },
  kline: (d) => {
    const r = KlineDataSchema.safeParse(d);
    if (!r.success) return undefined;
    const k = r.data.k;
    return `${k.i} open ${t(k.o)} · high ${t(k.h)} · low ${t(k.l)} · close ${t(k.c)} · volume ${t(k.v)}`;
  },
  orders: (d) => {
    const r = OrderDataSchema.safeParse(d);
    if (!r.success) return undefined;
    const o = r.data;
    const price = o.o === 5 ? '' : ` @ ${t(o.p)}`;
    return `${SIDE[o.S]} ${ORDER_TYPE[o.o] ?? `type ${o.o}`} ${t(o.v)}${price} · ${ORDER_STATUS[o.s] ?? `status ${o.s}`} · filled ${t(o.cv)} · orderId ${o.i}`;
  },
  privateDeals: (d) => {
    const r = PrivateDealDataSchema.safeParse(d);
    if (!r.success) return undefined;
    const f = r.data;
    return `fill ${SIDE[f.S]} ${t(f.v)} @ ${t(f.p)} · ${f.m === 1 ? 'maker' : 'taker'} · fee ${t(f.n)} ${f.N} · orderId ${f.i}`;
  },
  account: (d) => {
    const r = AccountDataSchema.safeParse(d);
    if (!r.success) return undefined;
    const a = r.data;
    const change = (x: string) => (x.startsWith('-') ? t(x) : `+${t(x)}`);
    return `${a.a} free ${t(a.f)} (${change(a.fd)}) · locked ${t(a.l)} (${change(a.ld)}) · ${a.o}`;
  },
};

/** One line for people, or undefined when the push does not fit its stream's shape. */
export function summarisePush(kind: StreamKind, push: Push): string | undefined {
  return SUMMARIES[kind]?.(push.d);
}

/** The book of a depth push, best levels first; undefined when it is not one. */
export function bookOf(stream: string, push: Push, at: number): Book | undefined {
  const r = DepthDataSchema.safeParse(push.d);
  if (!r.success) return undefined;
  const side = (levels: readonly { p: string; v: string }[]): [string, string][] => levels.map((l) => [l.p, l.v]);
  return { stream, at, version: r.data.r, bids: side(r.data.bids), asks: side(r.data.asks) };
}
