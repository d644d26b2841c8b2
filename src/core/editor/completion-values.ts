/**
 * The shapes of completion entries, and the entries for values (enum values, symbols, the usual
 * values of a few parameters): shared by completion.ts and stream-completion.ts.
 */
import { range, type Range, type RequestBlock } from '../format/model';
import type { NamedEnvironment } from '../env/constants';
import type { ParamInfo } from '../catalog/types';
import { t } from '../l10n';

export type CompletionKind =
  'parameter' | 'value' | 'symbol' | 'variable' | 'directive' | 'method' | 'path' | 'section' | 'snippet' | 'operator';

export interface CompletionEntry {
  readonly label: string;
  readonly kind: CompletionKind;
  /** Text to insert; `snippet` says whether it uses snippet syntax ($1, ${1:x}). */
  readonly insertText?: string;
  readonly snippet?: boolean;
  readonly detail?: string;
  /** Markdown. */
  readonly documentation?: string;
  readonly sortText?: string;
  /** What the entry replaces (the word being typed). */
  readonly range: Range;
  /** Keep the list open once it is chosen: what follows it is completed too (`spot@public.deals.v3.api@` → symbols). */
  readonly retrigger?: boolean;
}

export interface SymbolEntry {
  readonly symbol: string;
  readonly detail?: string;
  readonly source: 'exchangeInfo' | 'setting' | 'workspace';
}

/** A path of an answer (`balances[*].free`) and a short sample of its value, for `# @expect json`. */
export interface AnswerPath {
  readonly path: string;
  readonly sample: string;
}

export interface CompletionContext {
  readonly environment: NamedEnvironment;
  /** Symbols from exchangeInfo, the tradereq.symbols setting and other files, most trusted first. */
  readonly symbols: readonly SymbolEntry[];
  /** The paths of the last answer `request` received in the editor (none before it is sent). */
  readonly answerPaths?: (request: RequestBlock) => readonly AnswerPath[] | undefined;
}

const WORD_CHAR = /[\w.$-]/;

/** Start of the word that ends at `character` (letters, digits and `_ . $ -`). */
export function wordStart(lineText: string, character: number): number {
  let s = character;
  while (s > 0 && WORD_CHAR.test(lineText[s - 1]!)) s--;
  return s;
}

export function wordRange(line: number, lineText: string, character: number): Range {
  // The word may continue after the cursor: replace it whole.
  let e = character;
  while (e < lineText.length && WORD_CHAR.test(lineText[e]!)) e++;
  return range(line, wordStart(lineText, character), line, e);
}

export function valuesFor(
  info: ParamInfo | undefined,
  name: string,
  r: Range,
  ctx: CompletionContext,
): CompletionEntry[] {
  if (info?.enumValues) {
    return info.enumValues.map((v, i) => ({
      label: v.value,
      kind: 'value',
      detail: v.source === 'spec' ? t('documented by the service') : t('assumed'),
      documentation: t(v.description),
      range: r,
      sortText: String(i).padStart(2, '0'),
    }));
  }
  if (name === 'symbol' || info?.type === 'symbol') return symbolCompletions(r, ctx);
  switch (name) {
    case 'recvWindow':
      return [
        {
          label: '5000',
          kind: 'value',
          detail: t('the default; 5000 or less is recommended (spec §5 rule 8)'),
          range: r,
        },
      ];
    case 'newClientOrderId':
      return [
        { label: '{{$clientOrderId}}', kind: 'variable', detail: t('a fresh client order id for each send'), range: r },
      ];
    case 'timestamp':
      return [
        {
          label: '{{$timestamp}}',
          kind: 'variable',
          detail: t('now in milliseconds; or leave timestamp out and TradeReq adds it'),
          range: r,
        },
      ];
  }
  return [];
}

export function symbolCompletions(r: Range, ctx: CompletionContext): CompletionEntry[] {
  const seen = new Set<string>();
  const out: CompletionEntry[] = [];
  const order = { exchangeInfo: 0, setting: 1, workspace: 2 } as const;
  const froms = {
    exchangeInfo: t('exchangeInfo of {0}', ctx.environment.name),
    setting: t('tradereq.symbols setting'),
    workspace: t('used in the workspace'),
  } as const;
  for (const s of ctx.symbols) {
    if (seen.has(s.symbol)) continue;
    seen.add(s.symbol);
    const from = froms[s.source];
    out.push({
      label: s.symbol,
      kind: 'symbol',
      detail: s.detail ? `${s.detail} · ${from}` : from,
      range: r,
      sortText: `${order[s.source]}${s.symbol}`,
    });
  }
  return out;
}
