/**
 * Whole requests written from a word (`limit`, `market`, `query`, `cancel`, `split`, `json`), offered
 * by TradeReq's completion where a request line fits. Not a `contributes.snippets` file: VS Code
 * reads a snippet file's descriptions as written, in no display language (microsoft/vscode#43829,
 * out of scope), so they are made here with `t()` like every other word the editor shows.
 */
import { t } from '../l10n';
import type { Range, TradeReqDocument } from '../format/model';
import type { CompletionEntry } from './completion-values';

interface RequestSnippet {
  readonly prefixes: readonly string[];
  /** What the suggestion list shows beside the word. */
  readonly description: string;
  /** The `###` title it writes, the first placeholder. */
  readonly title: string;
  /** The lines under the title, in snippet syntax, their placeholders from 2. */
  readonly lines: readonly string[];
}

const ORDER_BY_ID = ['symbol = ${2:BTCUSDT}', '${3|orderId,origClientOrderId|} = ${4:{{buy.response.orderId\\}\\}}'];

/** The snippets, their words in the display language (each a literal of t(), so the l10n tests find it). */
function requestSnippets(): readonly RequestSnippet[] {
  return [...orderSnippets(), ...placementSnippets()];
}

/** An order placed, queried or cancelled. */
function orderSnippets(): readonly RequestSnippet[] {
  return [
    {
      prefixes: ['limit', 'order'],
      description: t('POST /api/v3/order: a LIMIT order (quantity and price)'),
      title: t('Buy at a limit price'),
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
      prefixes: ['market'],
      description: t('POST /api/v3/order: a MARKET order (quantity)'),
      title: t('Sell at market price'),
      lines: [
        'POST /api/v3/order',
        'symbol = ${2:BTCUSDT}',
        'side = ${3|SELL,BUY|}',
        'type = MARKET',
        'quantity = ${4:0.001}',
      ],
    },
    {
      prefixes: ['query', 'get order'],
      description: t('GET /api/v3/order by orderId or origClientOrderId'),
      title: t('Query the order'),
      lines: ['GET /api/v3/order', ...ORDER_BY_ID],
    },
    {
      prefixes: ['cancel'],
      description: t('DELETE /api/v3/order by orderId or origClientOrderId'),
      title: t('Cancel the order'),
      lines: ['DELETE /api/v3/order', ...ORDER_BY_ID],
    },
  ];
}

/** The snippets that place the same order another way: split between query string and body, or as JSON. */
function placementSnippets(): readonly RequestSnippet[] {
  return [
    {
      prefixes: ['split'],
      description: t('Parameters split between the query string and the body (spec §5 rule 11)'),
      title: t('Split between query string and body'),
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
      prefixes: ['json'],
      description: t('An order as a JSON body (application/json)'),
      title: t('Order as a JSON body'),
      lines: [
        'POST /api/v3/order',
        '[json]',
        '{"symbol": "${2:BTCUSDT}", "side": "${3|BUY,SELL|}", "type": "LIMIT", "quantity": "${4:0.001}", "price": "${5:30000}"}',
      ],
    },
  ];
}

/** A snippet's placeholder text as written: `$`, `}` and `\` escaped. */
const placeholderText = (text: string): string => text.replace(/[$}\\]/g, (c) => '\\' + c);

/**
 * The request snippets for a line with no request line in its block, replacing `range`. In a block
 * that has its `###` line already, the snippet writes the request under it, without a title of its own.
 */
export function requestSnippetCompletions(doc: TradeReqDocument, line: number, range: Range): CompletionEntry[] {
  const first = doc.separatorLines[0];
  const titled = first !== undefined && first <= line;
  return requestSnippets().flatMap((s, i) =>
    s.prefixes.map((prefix) => ({
      label: prefix,
      kind: 'snippet' as const,
      insertText: [...(titled ? [] : [`### \${1:${placeholderText(s.title)}}`]), ...s.lines, '$0'].join('\n'),
      snippet: true,
      detail: s.description,
      range,
      sortText: `3${i}`,
    })),
  );
}
