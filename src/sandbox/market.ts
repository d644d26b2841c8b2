/**
 * Market data of the sandbox: its symbols, their limits and the house liquidity seeded at start
 * and reset. All of it is assumed: the spec shows no symbol list (§4.2 "market data: not shown").
 * BTCUSDT and ETHUSDT are the usual examples; LTCBTC is the symbol of the published signing
 * vectors; ETHBTC is listed with an empty book, so a MARKET order there meets 30025 until someone
 * rests an order.
 */
import { formatUnits, units } from './decimal';

export interface SymbolSpec {
  readonly symbol: string;
  readonly baseAsset: string;
  readonly quoteAsset: string;
  readonly status: 'TRADING';
  readonly orderTypes: readonly ('LIMIT' | 'MARKET')[];
  /** Quantity below → 30002, above → 30003. */
  readonly minQty: bigint;
  readonly maxQty: bigint;
  /** quantity × price (or quoteOrderQty) below → 30002, above → 30003. */
  readonly minNotional: bigint;
  readonly maxNotional: bigint;
  /** A price above this → 30010 (no valid trade price). */
  readonly maxPrice: bigint;
  /** House orders rest at reference ± k × step for k = 1..levels, each of levelQty. */
  readonly referencePrice: bigint;
  readonly step: bigint;
  readonly levels: number;
  readonly levelQty: bigint;
}

function spec(s: {
  symbol: string;
  baseAsset: string;
  quoteAsset: string;
  minQty: string;
  maxQty: string;
  minNotional: string;
  maxNotional: string;
  maxPrice: string;
  referencePrice: string;
  step: string;
  levels: number;
  levelQty: string;
}): SymbolSpec {
  return {
    symbol: s.symbol,
    baseAsset: s.baseAsset,
    quoteAsset: s.quoteAsset,
    status: 'TRADING',
    orderTypes: ['LIMIT', 'MARKET'],
    minQty: units(s.minQty),
    maxQty: units(s.maxQty),
    minNotional: units(s.minNotional),
    maxNotional: units(s.maxNotional),
    maxPrice: units(s.maxPrice),
    referencePrice: units(s.referencePrice),
    step: units(s.step),
    levels: s.levels,
    levelQty: units(s.levelQty),
  };
}

export const SYMBOLS: readonly SymbolSpec[] = [
  spec({
    symbol: 'BTCUSDT',
    baseAsset: 'BTC',
    quoteAsset: 'USDT',
    minQty: '0.00001',
    maxQty: '100',
    minNotional: '1',
    maxNotional: '5000000',
    maxPrice: '1000000',
    referencePrice: '30000',
    step: '10',
    levels: 20,
    levelQty: '2',
  }),
  spec({
    symbol: 'ETHUSDT',
    baseAsset: 'ETH',
    quoteAsset: 'USDT',
    minQty: '0.0001',
    maxQty: '1000',
    minNotional: '1',
    maxNotional: '5000000',
    maxPrice: '100000',
    referencePrice: '2000',
    step: '1',
    levels: 20,
    levelQty: '20',
  }),
  spec({
    symbol: 'LTCBTC',
    baseAsset: 'LTC',
    quoteAsset: 'BTC',
    minQty: '0.001',
    maxQty: '10000',
    minNotional: '0.0001',
    maxNotional: '100',
    maxPrice: '10',
    referencePrice: '0.0015',
    step: '0.00001',
    levels: 20,
    levelQty: '100',
  }),
  spec({
    symbol: 'ETHBTC',
    baseAsset: 'ETH',
    quoteAsset: 'BTC',
    minQty: '0.0001',
    maxQty: '1000',
    minNotional: '0.0001',
    maxNotional: '100',
    maxPrice: '10',
    referencePrice: '0.06',
    step: '0.0001',
    levels: 0,
    levelQty: '0',
  }),
];

export const SYMBOLS_BY_NAME: ReadonlyMap<string, SymbolSpec> = new Map(SYMBOLS.map((s) => [s.symbol, s]));

/** Every asset of the listed symbols, in a stable order (account balances list them so). */
export const ASSETS: readonly string[] = ['BTC', 'ETH', 'LTC', 'USDT'];

/** Start balances of each demo account: generous, so tries and tests rarely meet 10101 by accident. */
export const DEMO_BALANCES: Readonly<Record<string, bigint>> = {
  BTC: units('10'),
  ETH: units('100'),
  LTC: units('100'),
  USDT: units('1000000'),
};

/** The house account that seeds the books: enough of everything never to run short. */
export const HOUSE_BALANCE = units('1000000000');

function symbolJson(s: SymbolSpec): string {
  return JSON.stringify({
    symbol: s.symbol,
    status: s.status,
    baseAsset: s.baseAsset,
    baseAssetPrecision: 8,
    quoteAsset: s.quoteAsset,
    quotePrecision: 8,
    quoteAssetPrecision: 8,
    orderTypes: s.orderTypes,
    isSpotTradingAllowed: true,
    permissions: ['SPOT'],
    filters: [
      { filterType: 'PRICE_FILTER', minPrice: '0.00000001', maxPrice: formatUnits(s.maxPrice), tickSize: '0.00000001' },
      { filterType: 'LOT_SIZE', minQty: formatUnits(s.minQty), maxQty: formatUnits(s.maxQty), stepSize: '0.00000001' },
      { filterType: 'NOTIONAL', minNotional: formatUnits(s.minNotional), maxNotional: formatUnits(s.maxNotional) },
    ],
  });
}

/** Each symbol's exchangeInfo entry, serialised once. */
export const SYMBOL_JSON: ReadonlyMap<string, string> = new Map(SYMBOLS.map((s) => [s.symbol, symbolJson(s)]));
