/** Symbols of an environment from GET /api/v3/exchangeInfo (shape of docs/service.md, Assumptions; hostile input). */
import { z } from 'zod';
import { err, ok, type Result } from '../result';
import type { Budget } from '../budget/budget';
import { joinUrl } from '../format/resolve';
import { roundTrip } from '../net/round-trip';
import type { Sender } from '../net/send';
import type { PreparedRequest } from '../net/send';
import { findEndpoint } from '../catalog/endpoints';
import type { SymbolEntry } from './completion';

const ExchangeInfoSchema = z.object({
  symbols: z
    .array(
      z
        .object({
          symbol: z.string().regex(/^[A-Za-z0-9]{1,40}$/),
          status: z.string().max(40).optional(),
          baseAsset: z.string().max(20).optional(),
          quoteAsset: z.string().max(20).optional(),
        })
        .passthrough(),
    )
    .max(10_000),
});

const EXCHANGE_INFO = findEndpoint('GET', '/api/v3/exchangeInfo')!;

export type SymbolsResult = Result<SymbolEntry[], string>;

export async function fetchSymbols(baseUrl: string, deps: { sender: Sender; budget: Budget }): Promise<SymbolsResult> {
  const url = joinUrl(baseUrl, EXCHANGE_INFO.path);
  const prepared: PreparedRequest = {
    method: 'GET',
    url,
    origin: new URL(url).origin,
    path: EXCHANGE_INFO.path,
    query: '',
    body: '',
    headers: [],
    signed: false,
    weight: EXCHANGE_INFO.weight,
    mode: EXCHANGE_INFO.mode,
  };
  const report = await roundTrip(prepared, deps);
  if (report.outcome !== 'ok' || !report.decoded) return err(report.summary);
  const parsed = ExchangeInfoSchema.safeParse(report.decoded.json);
  if (!parsed.success) return err('exchangeInfo did not have the expected shape ({"symbols": [{"symbol": ...}]})');
  return ok(
    parsed.data.symbols.map((s) => ({
      symbol: s.symbol,
      detail:
        [s.baseAsset && s.quoteAsset ? `${s.baseAsset}/${s.quoteAsset}` : undefined, s.status]
          .filter(Boolean)
          .join(' · ') || undefined,
      source: 'exchangeInfo' as const,
    })),
  );
}
