/** Symbols of an environment from GET /api/v3/exchangeInfo (shape of docs/service.md, Assumptions; hostile input). */
import { t } from '../l10n';
import { err, ok, type Result } from '../result';
import * as z from '../zod-mini';
import type { Budget } from '../budget/budget';
import { joinUrl } from '../format/resolve';
import { roundTrip } from '../net/round-trip';
import type { Sender } from '../net/send';
import type { PreparedRequest } from '../net/send';
import { SPEC_ENDPOINTS, type EndpointCatalog } from '../catalog/endpoints';
import type { SymbolEntry } from './completion';

/** Symbols offered from one exchangeInfo: a deployment lists ~2,500; the rest of a longer list is left out, not refused. */
const MAX_SYMBOLS = 10_000;

// Made on first use: a session that never completes a symbol does not pay for it.
const exchangeInfoSchema = z.onFirstUse(() =>
  z.object({
    symbols: z
      .array(
        z.looseObject({
          symbol: z.string().check(z.regex(/^[A-Za-z0-9]{1,40}$/)),
          status: z.optional(z.string().check(z.maxLength(40))),
          baseAsset: z.optional(z.string().check(z.maxLength(20))),
          quoteAsset: z.optional(z.string().check(z.maxLength(20))),
        }),
      )
      .check(z.maxLength(MAX_SYMBOLS)),
  }),
);

export type SymbolsResult = Result<SymbolEntry[], string>;

/** Symbols from GET /api/v3/exchangeInfo, weighed as the deployment's catalog says (`endpoints`; the spec's when not given). */
export async function fetchSymbols(
  baseUrl: string,
  deps: { sender: Sender; budget: Budget; endpoints?: EndpointCatalog },
): Promise<SymbolsResult> {
  const info = '/api/v3/exchangeInfo';
  const exchangeInfo = (deps.endpoints ?? SPEC_ENDPOINTS).find('GET', info) ?? SPEC_ENDPOINTS.find('GET', info)!;
  const url = joinUrl(baseUrl, exchangeInfo.path);
  const prepared: PreparedRequest = {
    method: 'GET',
    url,
    origin: new URL(url).origin,
    path: exchangeInfo.path,
    query: '',
    body: '',
    headers: [],
    signed: false,
    weight: exchangeInfo.weight,
    mode: exchangeInfo.mode,
  };
  const report = await roundTrip(prepared, deps);
  if (report.outcome !== 'ok' || !report.decoded) return err(report.summary);
  const parsed = exchangeInfoSchema().safeParse(firstSymbols(report.decoded.json));
  if (!parsed.success) return err(t('exchangeInfo did not have the expected shape ({"symbols": [{"symbol": ...}]})'));
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

/** The answer with its first MAX_SYMBOLS symbols only (BOUNDS.responseBytes lets ~13,000 come), so a longer list still completes. */
function firstSymbols(json: unknown): unknown {
  if (json === null || typeof json !== 'object' || !('symbols' in json) || !Array.isArray(json.symbols)) return json;
  return { ...json, symbols: json.symbols.slice(0, MAX_SYMBOLS) };
}
