/**
 * From a send's result to a panel entry: redacted (the API key masked, no secret anywhere), with the
 * decoded error carrying the same text as the editor's hover.
 */
import { errorCodeMarkdown } from '../editor/markdown';
import type { ClockSample } from '../clock/clock';
import type { ExchangeReport } from '../net/exchange';
import type { PipelineResult } from '../request/pipeline';
import { redactedHeaders } from '../request/build';
import type { BudgetView } from '../budget/budget';
import type { BudgetStateT, PanelEntryT } from './protocol';

/** Markdown hover text as plain text, for a title attribute and a screen reader. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/\*\*|__|`/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>&~"])/g, '$1')
    .replace(/^_(.*)_$/gm, '$1');
}

export function budgetState(view: BudgetView): BudgetStateT {
  return {
    origin: view.origin,
    ip: view.ip,
    uid: view.uid,
    blocked: view.blocked ? { status: view.blocked.status, untilMs: view.blocked.untilMs } : undefined,
  };
}

const ORDER_PATHS = new Set(['/api/v3/order', '/api/v3/order/test']);

/** What the one-click query of an order with an unknown outcome looks for, when an id is known. */
function orderRef(
  report: ExchangeReport,
  params: readonly { name: string; value: string }[],
  json: unknown,
): PanelEntryT['orderRef'] {
  if (report.outcome !== 'unknown' || !ORDER_PATHS.has(report.prepared.path) || report.prepared.method !== 'POST')
    return undefined;
  const get = (n: string): string | undefined =>
    params.find((p) => p.name === n)?.value ??
    (json && typeof json === 'object' ? (json as Record<string, unknown>)[n]?.toString() : undefined);
  const symbol = get('symbol');
  const origClientOrderId = get('newClientOrderId');
  const body = report.decoded?.json;
  const orderId = body && typeof body === 'object' && 'orderId' in body ? String(body.orderId) : undefined;
  if (!symbol || (!origClientOrderId && !orderId)) return undefined;
  return { symbol, orderId, origClientOrderId };
}

export function entryFromResult(
  result: Extract<PipelineResult, { kind: 'sent' }>,
  meta: { id: string; at: number; title: string; clock?: ClockSample },
): PanelEntryT {
  const { report, resolved } = result;
  const p = report.prepared;
  const d = report.decoded;
  const response = report.response;
  let json: unknown;
  try {
    json = resolved.json ? JSON.parse(resolved.json) : undefined;
  } catch {
    json = undefined;
  }
  return {
    id: meta.id,
    at: meta.at,
    title: meta.title,
    environment: resolved.environment.name,
    request: {
      method: p.method,
      url: p.url,
      query: p.query,
      body: p.body,
      totalParams: p.totalParams,
      headers: redactedHeaders(p),
      signed: p.signed,
    },
    outcome: report.outcome,
    summary: report.summary + (result.note ? ` ${result.note}` : ''),
    status: response?.status,
    statusMeaning: d?.statusInfo.meaning,
    error: d?.error
      ? {
          code: d.error.code,
          meanings: [...d.error.meanings],
          cause: d.error.cause,
          action: d.error.action,
          hoverText: plainText(errorCodeMarkdown(d.error, meta.clock)),
        }
      : undefined,
    msg: d?.msg,
    response: response
      ? {
          body: d?.json !== undefined ? JSON.stringify(d.json, null, 2) : response.bodyText,
          isJson: d?.json !== undefined,
          truncated: response.truncated,
          bytes: response.bodyBytes,
          headers: Object.entries(response.headers),
        }
      : undefined,
    timings: response?.timings ?? report.failure?.timings,
    orderRef: orderRef(report, resolved.params, json),
    retryAtMs: report.budget.blocked?.untilMs ?? report.refusal?.retryAtMs,
    expectations: result.expectations.map((e) => ({ ...e })),
  };
}
