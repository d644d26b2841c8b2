/**
 * From a send's result to a panel entry: redacted (the API key masked, no secret anywhere), with the
 * decoded error carrying the same text as the editor's hover.
 */
import { errorCodeMarkdown } from '../editor/markdown';
import { t } from '../l10n';
import type { ClockSample } from '../clock/clock';
import type { RoundTripReport } from '../net/round-trip';
import { describeFailure } from '../net/send';
import { passed, type Sent } from '../request/pipeline';
import type { RequestBlock } from '../format/model';
import { redactedHeaders } from '../request/build';
import { hideListenKeys, listenKeysOf } from '../request/listen-keys';
import type { BudgetView } from '../budget/budget';
import { environmentLabel } from '../env/demo';
import { BOUNDS, clip } from '../bounds';
import { jsonPath, nestsDeeperThan, parseJson } from '../format/json-value';
import { prettyStart } from './pretty-start';
import { validOrderRef } from '../request/order-query';
import { PROFILE_NAME_CHARS, type BudgetState, type HistoryItem, type PanelEntry } from './protocol';

/** Markdown hover text as plain text, for a title attribute and a screen reader. */
function plainText(markdown: string): string {
  return markdown
    .replace(/\*\*|__|`/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>&~"])/g, '$1')
    .replace(/^_(.*)_$/gm, '$1');
}

export function budgetState(view: BudgetView): BudgetState {
  return {
    origin: view.origin,
    ip: view.ip,
    uid: view.uid,
    blocked: view.blocked ? { status: view.blocked.status, untilMs: view.blocked.untilMs } : undefined,
    damaged: view.damaged === undefined ? undefined : clip(view.damaged, BOUNDS.messageChars),
  };
}

const ORDER_PATHS = new Set(['/api/v3/order', '/api/v3/order/test']);

/** What the one-click query of an order with an unknown outcome looks for, when ids of the documented shape are known. */
function orderRef(
  report: RoundTripReport,
  params: readonly { name: string; value: string }[],
  json: unknown,
): PanelEntry['orderRef'] {
  if (report.outcome !== 'unknown' || !ORDER_PATHS.has(report.prepared.path) || report.prepared.method !== 'POST')
    return undefined;
  const get = (n: string): unknown => params.find((p) => p.name === n)?.value ?? jsonPath(json, n);
  return validOrderRef({
    symbol: get('symbol'),
    origClientOrderId: get('newClientOrderId'),
    orderId: jsonPath(report.decoded?.json, 'orderId'),
  });
}

/** A key profile's name as an entry keeps it: one longer than the entry's shape allows is not kept. */
function profileName(profile: string | undefined): string | undefined {
  return profile !== undefined && profile.length <= PROFILE_NAME_CHARS ? profile : undefined;
}

/** The one line of a history list, from an entry. */
export function historyItem(e: PanelEntry): HistoryItem {
  return {
    id: e.id,
    at: e.at,
    title: e.title,
    outcome: e.outcome,
    expected: e.expected,
    summary: e.summary,
    method: e.request.method,
    path: urlPath(e.request.url),
    status: e.status,
    environment: e.environment,
  };
}

function optional(text: string | undefined, shown: (text: string) => string): string | undefined {
  return text === undefined ? undefined : shown(text);
}

function urlPath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.split('?')[0] ?? url;
  }
}

/**
 * What an entry shows of a body: JSON pretty-printed only as far as it is kept (an 8 MiB answer costs
 * what is kept), with room past the cut so that a listen key there is masked whole before it is cut;
 * the text as received when it is not JSON or nests too deeply to pretty-print.
 */
function bodyShown(json: unknown, raw: string, keys: readonly string[]): { text: string; whole: boolean } {
  if (json === undefined || nestsDeeperThan(json, BOUNDS.prettyJsonDepth)) return { text: raw, whole: true };
  return prettyStart(json, BOUNDS.historyBodyChars + Math.max(0, ...keys.map((k) => k.length)));
}

/** What an entry keeps of a response: bounded, so a hostile 8 MiB answer stays small in the history and the panel. */
function responseOf(
  report: RoundTripReport,
  keys: readonly string[],
  hide: (text: string) => string,
): PanelEntry['response'] {
  const response = report.response;
  if (!response) return undefined;
  const shown = bodyShown(report.decoded?.json, response.bodyText, keys);
  const body = hide(shown.text);
  const max = BOUNDS.historyBodyChars;
  return {
    // Pretty-printed in part, its whole length is not known: the note says the answer's size instead.
    body: shown.whole
      ? clip(body, max)
      : `${body.slice(0, max)}${t('… (the rest of the answer, {0} bytes in all, is not kept)', response.bodyBytes)}`,
    isJson: report.decoded?.json !== undefined,
    truncated: response.truncated || !shown.whole || body.length > max,
    bytes: response.bodyBytes,
    headers: Object.entries(response.headers).map(([n, v]) => [n, clip(v, BOUNDS.messageChars)]),
  };
}

/** Why a refused or not-sent request went nowhere, without the outcome's word that starts its summary. */
function reasonOf(report: RoundTripReport): string | undefined {
  const why =
    report.refusal?.message ??
    (report.outcome === 'not-sent' && report.failure
      ? describeFailure(report.failure, report.prepared.origin)
      : undefined);
  return why === undefined ? undefined : [why, report.warning].filter(Boolean).join(' ');
}

/** 700006 in a remote window (Remote-SSH, WSL, a container): the request left from the remote host's address. */
function remoteNote(code: number | undefined, remote: string | undefined): string | undefined {
  if (code !== 700006 || !remote) return undefined;
  return t(
    "This window is remote ({0}): requests leave from the remote host, not from this computer, so a key bound to your own IP answers 700006. Add the remote host's public IP to the key, or send from a local window.",
    remote,
  );
}

/** An expectation's result as the panel shows it, its texts bounded. */
function expectationOf(
  e: Sent['expectations'][number],
  message: (text: string) => string,
): PanelEntry['expectations'][number] {
  const shown = { text: message(e.text), passed: e.passed, actual: message(e.actual) };
  return e.checked === false ? { ...shown, checked: false } : shown;
}

/** The `timestamp` the request's file writes, which replaces the one TradeReq adds (request/build.ts). */
function ownTimestampOf(
  request: RequestBlock,
  message: (text: string) => string,
): PanelEntry['request']['ownTimestamp'] {
  const p = request.params.find((q) => q.name.text === 'timestamp');
  return p && { line: p.range.startLine + 1, value: message(p.value.text) };
}

export function entryFromResult(
  result: Sent,
  meta: { id: string; at: number; title: string; clock?: ClockSample; keyProfile?: string; remote?: string },
): PanelEntry {
  const { report, resolved } = result;
  const p = report.prepared;
  const d = report.decoded;
  // A listen key sent or received is shown masked, in the panel, the history and the log alike.
  const keys = listenKeysOf(report, resolved.params);
  const hide = (text: string): string => hideListenKeys(text, keys);
  const request = (text: string): string => clip(hide(text), BOUNDS.historyRequestChars);
  const message = (text: string): string => clip(hide(text), BOUNDS.messageChars);
  const summary = [report.summary, result.note, report.warning].filter(Boolean).join(' ');
  return {
    id: meta.id,
    at: meta.at,
    title: message(meta.title),
    environment: message(environmentLabel(resolved.environment.name, resolved.origin)),
    request: {
      method: p.method,
      url: request(p.url),
      query: request(p.query),
      body: request(p.body),
      totalParams: p.totalParams === undefined ? undefined : request(p.totalParams),
      headers: redactedHeaders(p).map(([n, v]) => [n, message(v)]),
      signed: p.signed,
      keyProfile: p.signed ? profileName(meta.keyProfile) : undefined,
      ownTimestamp: ownTimestampOf(resolved.request, message),
    },
    outcome: report.outcome,
    expected: report.outcome === 'rejected' && passed(result) ? true : undefined,
    summary: message(summary),
    reason: optional(reasonOf(report), message),
    note: optional(
      [result.note, remoteNote(d?.error?.code, meta.remote)].filter(Boolean).join(' ') || undefined,
      message,
    ),
    sendAgain: result.sendAgain,
    status: report.response?.status,
    statusMeaning: optional(d?.statusInfo.meaning, t),
    error: d?.error
      ? {
          code: d.error.code,
          meanings: d.error.meanings.map((m) => t(m)),
          cause: optional(d.error.cause, t),
          action: optional(d.error.action, t),
          hoverText: plainText(errorCodeMarkdown(d.error, meta.clock)),
        }
      : undefined,
    msg: optional(d?.msg, message),
    response: responseOf(report, keys, hide),
    timings: report.response?.timings ?? report.failure?.timings,
    orderRef: orderRef(report, resolved.params, resolved.json === undefined ? undefined : parseJson(resolved.json)),
    retryAtMs: report.budget.blocked?.untilMs ?? report.refusal?.retryAtMs,
    expectations: result.expectations.map((e) => expectationOf(e, message)),
  };
}
