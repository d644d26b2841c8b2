/**
 * An exchangeInfo answer of the public deployment's documented shape (GET /api/v3/exchangeInfo with
 * no parameter: every listed symbol, each with the fields its documentation names and shows), made
 * for tests and benchmarks of answers larger than 1 MiB: 2,500 symbols are about 1.4 MB, as the
 * deployment sends. Deterministic: symbol `i` is always the same.
 */

/** The name of the `i`-th symbol: four letters of its own, then USDT (2,500 of them: "AAAAUSDT" … "AADSUSDT"). */
export function listedSymbolName(i: number): string {
  let base = '';
  for (let n = i, k = 0; k < 4; k++, n = Math.floor(n / 26)) base = String.fromCharCode(65 + (n % 26)) + base;
  return `${base}USDT`;
}

/** One symbol's entry, with every field the deployment documents for it. */
export function listedSymbol(i: number): Record<string, unknown> {
  const symbol = listedSymbolName(i);
  return {
    symbol,
    status: '1',
    baseAsset: symbol.slice(0, -4),
    baseAssetPrecision: 2,
    quoteAsset: 'USDT',
    quotePrecision: 5,
    quoteAssetPrecision: 5,
    baseCommissionPrecision: 2,
    quoteCommissionPrecision: 5,
    orderTypes: ['LIMIT', 'MARKET', 'LIMIT_MAKER'],
    isSpotTradingAllowed: true,
    isMarginTradingAllowed: false,
    quoteAmountPrecision: '1',
    baseSizePrecision: '0.1',
    permissions: ['SPOT'],
    // Most symbols carry no filter and no contract address; one in ten carries the documented ones.
    filters:
      i % 10 === 0 ? [{ filterType: 'PERCENT_PRICE_BY_SIDE', bidMultiplierUp: '5', askMultiplierDown: '0.2' }] : [],
    maxQuoteAmount: '2000000',
    makerCommission: '0',
    takerCommission: '0.0005',
    quoteAmountPrecisionMarket: '1',
    maxQuoteAmountMarket: '100000',
    fullName: `Token ${i}`,
    tradeSideType: '1',
    ...(i % 10 === 0 && { contractAddress: `0x${(i * 2654435761).toString(16).padStart(40, '0')}` }),
    st: false,
  };
}

/** The whole answer's text with `count` symbols, as the deployment writes it (no spaces). */
export function exchangeInfoText(count: number, serverTime = 1_700_000_000_000): string {
  const symbols: string[] = [];
  for (let i = 0; i < count; i++) symbols.push(JSON.stringify(listedSymbol(i)));
  return `{"timezone":"CST","serverTime":${serverTime},"rateLimits":[],"exchangeFilters":[],"symbols":[${symbols.join(',')}]}`;
}
