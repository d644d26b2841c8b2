/**
 * Whole requests to start from (a LIMIT order, a query, …), offered by TradeReq's completion only
 * where a request begins. They were VS Code snippets once, which VS Code offers wherever a word
 * matches their prefix, titles and comments included ("### My own sell order" + Enter took one).
 */
import { range } from '../format/model';
import { t } from '../l10n';
import type { CompletionEntry } from './completion-values';

interface Template {
  /** What is typed to find it: the words of the former snippet prefixes. */
  readonly label: string;
  /** Said beside the label, in the display language. */
  readonly description: () => string;
  /** The `###` line's tab stop: its title, in the display language. */
  readonly title: () => string;
  /** The request's lines, in snippet syntax, tab stops from 2 (1 is the title). */
  readonly lines: readonly string[];
}

const BY_ID = '${3|orderId,origClientOrderId|} = ${4:{{buy.response.orderId\\}\\}}';

const TEMPLATES: readonly Template[] = [
  {
    label: 'limit order',
    description: () => t('POST /api/v3/order: a LIMIT order (quantity and price)'),
    title: () => t('Buy at a limit price'),
    lines: [
      'POST /api/v3/order',
      'symbol = ${2:BTCUSDT}',
      'side = ${3|BUY,SELL|}',
      'type = LIMIT',
      'quantity = ${4:0.001}',
      'price = ${5:30000}',
      'newClientOrderId = {{\\$clientOrderId}}',
    ],
  },
  {
    label: 'market order',
    description: () => t('POST /api/v3/order: a MARKET order (quantity)'),
    title: () => t('Sell at market price'),
    lines: [
      'POST /api/v3/order',
      'symbol = ${2:BTCUSDT}',
      'side = ${3|SELL,BUY|}',
      'type = MARKET',
      'quantity = ${4:0.001}',
    ],
  },
  {
    label: 'query order',
    description: () => t('GET /api/v3/order by orderId or origClientOrderId'),
    title: () => t('Query the order'),
    lines: ['GET /api/v3/order', 'symbol = ${2:BTCUSDT}', BY_ID],
  },
  {
    label: 'cancel order',
    description: () => t('DELETE /api/v3/order by orderId or origClientOrderId'),
    title: () => t('Cancel the order'),
    lines: ['DELETE /api/v3/order', 'symbol = ${2:BTCUSDT}', BY_ID],
  },
  {
    label: 'split order',
    description: () => t('Parameters split between the query string and the body (spec §5 rule 11)'),
    title: () => t('Split between query string and body'),
    lines: [
      'POST /api/v3/order',
      '[query]',
      'symbol = ${2:BTCUSDT}',
      'side = ${3|BUY,SELL|}',
      'type = LIMIT',
      '[body]',
      'quantity = ${4:0.001}',
      'price = ${5:30000}',
    ],
  },
  {
    label: 'json order',
    description: () => t('An order as a JSON body (application/json)'),
    title: () => t('Order as a JSON body'),
    lines: [
      'POST /api/v3/order',
      '[json]',
      '{"symbol": "${2:BTCUSDT}", "side": "${3|BUY,SELL|}", "type": "LIMIT", "quantity": "${4:0.001}", "price": "${5:30000}"}',
    ],
  },
];

/**
 * The templates where a request line fits; `titled` when the block has its `###` line already, so
 * that a template does not write a second one (which would leave the first an empty block).
 */
export function templateCompletions(
  line: number,
  start: number,
  character: number,
  titled: boolean,
): CompletionEntry[] {
  return TEMPLATES.map((tpl, i) => ({
    label: tpl.label,
    kind: 'snippet',
    insertText: [...(titled ? [] : [`### \${1:${tpl.title()}}`]), ...tpl.lines, '$0'].join('\n'),
    snippet: true,
    detail: tpl.description(),
    range: range(line, start, line, character),
    sortText: `3${i}`,
  }));
}
