/**
 * A decoded Protocol Buffers push (core/ws/pb.ts; docs/websocket.md, "Protocol Buffers pushes") for
 * people, as push-summary.ts does for JSON pushes: one line for the bodies that have one, and the
 * book of a limit depth. The body is the decoder's plain JSON, read here with checks: a field that
 * is not a decimal as text, or a book past the panel's 20 levels, gives no line and no book (the
 * push is then shown as its JSON).
 */
import type { Book } from './protocol';
import { trimDecimal as t } from './push-summary';

type Fields = Readonly<Record<string, unknown>>;

const SIDE: Readonly<Record<number, string>> = { 1: 'BUY', 2: 'SELL' };
/** A decimal as the service writes it (the JSON catalog's decimalText). */
const DECIMAL = /^-?\d{1,20}(\.\d{1,18})?$/;
/** Levels a side the panel's book holds (protocol.ts BookShape). */
const BOOK_LEVELS = 20;

const isFields = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
const decimal = (o: Fields, k: string): string | undefined => {
  const v = o[k];
  return typeof v === 'string' && DECIMAL.test(v) ? t(v) : undefined;
};

function deal(b: Fields): string | undefined {
  const deals = b['deals'];
  if (!Array.isArray(deals) || !isFields(deals[0])) return undefined;
  const d = deals[0];
  const [side, q, p] = [SIDE[d['tradeType'] as number], decimal(d, 'quantity'), decimal(d, 'price')];
  if (side === undefined || q === undefined || p === undefined) return undefined;
  return `${side} ${q} @ ${p}${deals.length > 1 ? ` (+${deals.length - 1} more)` : ''}`;
}

function ticker(b: Fields): string | undefined {
  const [bp, bq, ap, aq] = ['bidPrice', 'bidQuantity', 'askPrice', 'askQuantity'].map((k) => decimal(b, k));
  const side = (p: string | undefined, q: string | undefined): string => (p === undefined ? '–' : `${p} × ${q ?? '0'}`);
  return bp === undefined && ap === undefined ? undefined : `bid ${side(bp, bq)} · ask ${side(ap, aq)}`;
}

function kline(b: Fields): string | undefined {
  const keys = ['openingPrice', 'highestPrice', 'lowestPrice', 'closingPrice', 'volume'];
  const [o, h, l, c, v] = keys.map((k) => decimal(b, k));
  const interval = b['interval'];
  if (typeof interval !== 'string' || interval.length > 10 || [o, h, l, c, v].includes(undefined)) return undefined;
  return `${interval} open ${o} · high ${h} · low ${l} · close ${c} · volume ${v}`;
}

function fill(b: Fields): string | undefined {
  const [side, q, p, fee] = [
    SIDE[b['tradeType'] as number],
    ...['quantity', 'price', 'feeAmount'].map((k) => decimal(b, k)),
  ];
  if (side === undefined || q === undefined || p === undefined || fee === undefined) return undefined;
  const coin = typeof b['feeCurrency'] === 'string' ? ` ${b['feeCurrency'].slice(0, 20)}` : '';
  return `fill ${side} ${q} @ ${p} · ${b['isMaker'] === true ? 'maker' : 'taker'} · fee ${fee}${coin}`;
}

function account(b: Fields): string | undefined {
  const [coin, balance, frozen] = [b['vcoinName'], decimal(b, 'balanceAmount'), decimal(b, 'frozenAmount')];
  if (typeof coin !== 'string' || balance === undefined || frozen === undefined) return undefined;
  return `${coin.slice(0, 20)} balance ${balance} · frozen ${frozen}`;
}

const SUMMARIES: Readonly<Record<string, (b: Fields) => string | undefined>> = {
  publicDeals: deal,
  publicAggreDeals: deal,
  publicBookTicker: ticker,
  publicAggreBookTicker: ticker,
  publicSpotKline: kline,
  privateDeals: fill,
  privateAccount: account,
};

/** The body of a decoded push (`json[body]`), when it is an object. */
function bodyOf(body: string, json: unknown): Fields | undefined {
  const b = isFields(json) ? json[body] : undefined;
  return isFields(b) ? b : undefined;
}

/** One line for people, or undefined for a body with none or one that does not fit its schema. */
export function summariseDecoded(body: string, json: unknown): string | undefined {
  const b = bodyOf(body, json);
  return b === undefined || !Object.hasOwn(SUMMARIES, body) ? undefined : SUMMARIES[body]!(b);
}

/** The book of a limit depth's decoded push (`publicLimitDepths`), best levels first; undefined otherwise. */
export function bookOfDecoded(stream: string, body: string, json: unknown, at: number): Book | undefined {
  const b = body === 'publicLimitDepths' ? bodyOf(body, json) : undefined;
  if (b === undefined) return undefined;
  const side = (levels: unknown): [string, string][] | undefined => {
    if (!Array.isArray(levels) || levels.length > BOOK_LEVELS) return undefined;
    const out = levels.map((l) => (isFields(l) ? [l['price'], l['quantity']] : []));
    return out.every((l) => l.every((x) => typeof x === 'string' && DECIMAL.test(x)) && l.length === 2)
      ? (out as [string, string][])
      : undefined;
  };
  const [bids, asks, version] = [side(b['bids']), side(b['asks']), b['version']];
  if (bids === undefined || asks === undefined) return undefined;
  return { stream, at, ...(typeof version === 'string' && version.length <= 40 && { version }), bids, asks };
}
