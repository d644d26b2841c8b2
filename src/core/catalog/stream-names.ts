/**
 * Stream names, read and written for a deployment: each deployment's streams are data
 * (stream-names-spec.ts, stream-names-mexc.ts, listed by deployment.ts); a name is its channel
 * and then its parameters in the order its description lists them. Plain data with no zod, so the
 * editor (completion, hover, the check step) reads it without loading the push schemas;
 * streams.ts adds those for the spec's JSON pushes.
 */
import { DEFAULT_DEPLOYMENT, DEPLOYMENTS, type Deployment } from './deployment';
import { SYMBOL_FORMAT } from './formats';
import {
  DEPTH_LEVELS,
  KLINE_INTERVAL_MS,
  type DepthLevels,
  type KlineInterval,
  type ParsedStream,
  type StreamDescription,
  type StreamKind,
  type StreamParamInfo,
  type StreamParamName,
  type StreamRate,
} from './stream-types';
import { WS_RULES } from './ws-limits';
import { t } from '../l10n';
import { err, ok, type Result } from '../result';

export * from './stream-types';
export { STREAM_DESCRIPTIONS } from './stream-names-spec';

/** What reading and writing names needs of a deployment. */
export type StreamCatalog = Pick<Deployment, 'id' | 'title' | 'streams'>;

/** The deployment's stream of `kind`; undefined when it has none (the spec has no aggreDepth). */
export function streamOfKind(kind: StreamKind, deployment: StreamCatalog = DEFAULT_DEPLOYMENT) {
  return deployment.streams.find((s) => s.kind === kind);
}

/** The deployment's stream whose name starts with `channel`. */
export function streamOfChannel(channel: string, deployment: StreamCatalog = DEFAULT_DEPLOYMENT) {
  return deployment.streams.find((s) => s.channel === channel);
}

/** A stream's parameters as the text its name holds. */
type ParamTexts = Partial<Record<StreamParamName, string>>;

function paramTexts(s: ParsedStream): ParamTexts {
  return {
    ...('symbol' in s && { symbol: s.symbol }),
    ...('levels' in s && { levels: String(s.levels) }),
    ...('interval' in s && { interval: s.interval }),
    ...('rate' in s && s.rate !== undefined && { rate: s.rate }),
  };
}

/**
 * The name of a stream, as subscribed and as the channel of its pushes. A parameter the stream
 * does not carry takes the description's first value (a spec `deals` written for mexc: 100ms).
 * Asking a deployment for a kind it lacks is a bug of the caller.
 */
export function formatStreamName(s: ParsedStream, deployment: StreamCatalog = DEFAULT_DEPLOYMENT): string {
  const info = streamOfKind(s.kind, deployment);
  if (info === undefined) throw new Error(`the ${deployment.id} deployment has no ${s.kind} stream`);
  const texts = paramTexts(s);
  return [info.channel, ...info.params.map((p) => texts[p.name] ?? p.values?.[0]?.value ?? '')].join('@');
}

/** The stream from its parameters' texts, already checked against its description. */
function streamFrom(kind: StreamKind, v: ParamTexts): ParsedStream {
  const symbol = v.symbol ?? '';
  const rate = v.rate as StreamRate | undefined;
  switch (kind) {
    case 'deals':
    case 'bookTicker':
      return rate === undefined ? { kind, symbol } : { kind, symbol, rate };
    case 'aggreDepth':
      return { kind, symbol, rate: rate ?? '100ms' };
    case 'depth':
      return { kind, symbol, levels: Number(v.levels) as DepthLevels };
    case 'kline':
      return { kind, symbol, interval: v.interval as KlineInterval };
    case 'increaseDepthBatch':
    case 'bookTickerBatch':
      return { kind, symbol };
    default:
      return { kind };
  }
}

/** A value of `p` that means what `value` means (an interval of the same length: Month ↔ Month1). */
function equivalentValue(p: StreamParamInfo, value: string): string | undefined {
  const values = p.values ?? [];
  if (values.some((v) => v.value === value)) return value;
  if (p.name !== 'interval' || !Object.hasOwn(KLINE_INTERVAL_MS, value)) return undefined;
  const length = KLINE_INTERVAL_MS[value as KlineInterval];
  return values.find(
    (v) => Object.hasOwn(KLINE_INTERVAL_MS, v.value) && KLINE_INTERVAL_MS[v.value as KlineInterval] === length,
  )?.value;
}

/**
 * The same stream under another deployment (`spot@public.deals.v3.api@BTCUSDT` under mexc is
 * `spot@public.aggre.deals.v3.api.pb@100ms@BTCUSDT`); undefined when it has no such stream or
 * no value that means the same (the spec has no Hour8 candles).
 */
export function equivalentStream(s: ParsedStream, to: StreamCatalog): ParsedStream | undefined {
  const info = streamOfKind(s.kind, to);
  if (info === undefined) return undefined;
  const from = paramTexts(s);
  const out: ParamTexts = {};
  for (const p of info.params) {
    const value = from[p.name];
    const fitting =
      p.values === undefined ? value : value === undefined ? p.values[0]?.value : equivalentValue(p, value);
    if (fitting === undefined) return undefined;
    out[p.name] = fitting;
  }
  return streamFrom(info.kind, out);
}

/** A name of the stream to show: its template with BTCUSDT and each parameter's first value. */
export function exampleStreamName(info: StreamDescription): string {
  return [
    info.channel,
    ...info.params.map((p) => (p.name === 'symbol' ? 'BTCUSDT' : (p.values?.[0]?.value ?? ''))),
  ].join('@');
}

// ---------------------------------------------------------------------------------------------
// Reading a stream name

type StreamProblemKind =
  'malformed' | 'unknown-kind' | 'other-deployment' | 'bad-symbol' | 'bad-levels' | 'bad-interval' | 'bad-rate';

export interface StreamProblem {
  readonly kind: StreamProblemKind;
  /** What is wrong and what to write instead, as one or two sentences. */
  readonly message: string;
  /** The offending part of the name, as [start, end) offsets into it (for an editor squiggle). */
  readonly start: number;
  readonly end: number;
  /** Values that would fit there (levels, intervals, channels), for a quick fix or completion. */
  readonly expected?: readonly string[];
  /** The whole name corrected, when the correction is plain (upper-cased symbol, the other deployment's equivalent). */
  readonly suggestion?: string;
  /** For `other-deployment`: the id of the deployment whose stream the name is. */
  readonly deployment?: string;
}

export type StreamNameParse = Result<
  { readonly stream: ParsedStream; readonly info: StreamDescription },
  StreamProblem
>;

// Characters a stream name may hold at all; anything else (spaces, quotes, controls) is malformed.
const NAME_CHARS = /^[A-Za-z0-9@._-]*$/;

function problem(
  kind: StreamProblemKind,
  message: string,
  start: number,
  end: number,
  extra: { expected?: readonly string[]; suggestion?: string; deployment?: string } = {},
): StreamProblem {
  return { kind, message, start, end, ...extra };
}

function characterProblem(name: string): StreamProblem | undefined {
  if (name.length === 0) return problem('malformed', t('The stream name is empty.'), 0, 0);
  if (name.length > WS_RULES.maxStreamNameLength) {
    const message = t('A stream name has at most {0} characters.', WS_RULES.maxStreamNameLength);
    return problem('malformed', message, 0, name.length);
  }
  if (!NAME_CHARS.test(name)) {
    const at = [...name].findIndex((c) => !NAME_CHARS.test(c));
    const message = t('A stream name holds letters, digits and . _ - @ only, with no spaces.');
    return problem('malformed', message, at, at + 1);
  }
  return undefined;
}

/** The kind of `name` and its parameters under `deployment`, or the first precise problem with it. */
export function readStreamName(name: string, deployment: StreamCatalog = DEFAULT_DEPLOYMENT): StreamNameParse {
  const bad = characterProblem(name);
  if (bad !== undefined) return err(bad);
  const parts = name.split('@');
  const channel = parts.length >= 2 ? `${parts[0]}@${parts[1]}` : name;
  const info = streamOfChannel(channel, deployment);
  if (info === undefined) return err(unknownChannel(name, channel, deployment));
  let offset = channel.length + 1;
  const spans = parts.slice(2).map((a) => {
    const span = { text: a, start: offset, end: offset + a.length };
    offset += a.length + 1;
    return span;
  });
  const wanted = info.params.length;
  if (spans.length !== wanted) {
    const at = spans.length > wanted ? spans[wanted]!.start - 1 : 0;
    return err(problem('malformed', parameterCountMessage(info), at, name.length));
  }
  const texts: ParamTexts = {};
  for (const [i, p] of info.params.entries()) {
    const read = readParam(p, spans[i]!, name, deployment);
    if (!read.ok) return err(read.error);
    texts[p.name] = read.value;
  }
  return ok({ stream: streamFrom(info.kind, texts), info });
}

interface Span {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** What a stream's name takes after its channel, and how to write it. */
function parameterCountMessage(info: StreamDescription): string {
  const names = info.params.map((p) => p.name);
  if (names.length === 0) return t('{0} takes no parameters: write {1}.', info.channel, info.template);
  const params = names.slice(1).reduce<string>((all, n) => t('{0} and {1}', all, n), names[0]!);
  return t('{0} takes {1}: write {2}, e.g. {3}.', info.channel, params, info.template, exampleStreamName(info));
}

/** A channel this deployment lacks: another deployment's (with its equivalent here), one written in another case, or unknown. */
function unknownChannel(name: string, channel: string, deployment: StreamCatalog): StreamProblem {
  const channels = deployment.streams.map((s) => s.channel);
  const other = DEPLOYMENTS.find((d) => d.id !== deployment.id && streamOfChannel(channel, d) !== undefined);
  if (other !== undefined) {
    const read = readStreamName(name, other);
    const equivalent = read.ok ? equivalentStream(read.value.stream, deployment) : undefined;
    if (equivalent !== undefined) {
      const suggestion = formatStreamName(equivalent, deployment);
      const message = t(
        '"{0}" is a stream of {1}; under {2}, the deployment of this environment, write {3}.',
        channel,
        other.title,
        deployment.title,
        suggestion,
      );
      return problem('other-deployment', message, 0, name.length, {
        expected: channels,
        suggestion,
        deployment: other.id,
      });
    }
    const message = t(
      '"{0}" is a stream of {1}; {2}, the deployment of this environment, has none like it; known: {3}.',
      channel,
      other.title,
      deployment.title,
      channels.join(', '),
    );
    return problem('other-deployment', message, 0, channel.length, { expected: channels, deployment: other.id });
  }
  const lower = channel.toLowerCase();
  const near = channels.find((c) => c.toLowerCase() === lower);
  return problem(
    'unknown-kind',
    near !== undefined
      ? t('Unknown stream "{0}"; names are case-sensitive: {1}.', channel, near)
      : t('Unknown stream "{0}"; known: {1}.', channel, channels.join(', ')),
    0,
    channel.length,
    near !== undefined ? { expected: channels, suggestion: near } : { expected: channels },
  );
}

type ParamRead = Result<string, StreamProblem>;

function readParam(p: StreamParamInfo, span: Span, name: string, deployment: StreamCatalog): ParamRead {
  if (p.name === 'symbol') return readSymbol(span, name);
  const values = (p.values ?? []).map((v) => v.value);
  if (values.includes(span.text)) return ok(span.text);
  const replaced = (by: string) => name.slice(0, span.start) + by + name.slice(span.end);
  if (p.name === 'levels') {
    const message = t('The depth levels are 5, 10 or 20, not "{0}".', span.text);
    return err(problem('bad-levels', message, span.start, span.end, { expected: DEPTH_LEVELS.map(String) }));
  }
  const near = values.find((v) => v.toLowerCase() === span.text.toLowerCase());
  const same = near ?? equivalentValue(p, span.text);
  const fix = same !== undefined ? { expected: values, suggestion: replaced(same) } : { expected: values };
  return err(
    problem(
      p.name === 'rate' ? 'bad-rate' : 'bad-interval',
      valueMessage(p, span.text, values, near, same, deployment),
      span.start,
      span.end,
      fix,
    ),
  );
}

function valueMessage(
  p: StreamParamInfo,
  text: string,
  values: readonly string[],
  near: string | undefined,
  same: string | undefined,
  deployment: StreamCatalog,
): string {
  const list = values.join(', ');
  if (p.name === 'rate')
    return near !== undefined
      ? t('The rate is one of {0} (case-sensitive: {1}), not "{2}".', list, near, text)
      : t('The rate is one of {0}, not "{1}".', list, text);
  if (near !== undefined)
    return t('The kline interval is one of {0} (case-sensitive: {1}), not "{2}".', list, near, text);
  if (same !== undefined)
    return t('The kline interval is one of {0}; {1} writes "{2}" as {3}.', list, deployment.title, text, same);
  return t('The kline interval is one of {0}, not "{1}".', list, text);
}

function readSymbol(sym: Span, name: string): ParamRead {
  if (SYMBOL_FORMAT.test(sym.text)) return ok(sym.text);
  const upper = sym.text.toUpperCase();
  const fixable = upper !== sym.text && SYMBOL_FORMAT.test(upper);
  return err(
    problem(
      'bad-symbol',
      fixable
        ? t('The symbol must be upper-case (§2.1): {0}, not {1}.', upper, sym.text)
        : t(
            '"{0}" is not a symbol: upper-case letters and digits with no separator, such as BTCUSDT (§2.1).',
            sym.text,
          ),
      sym.start,
      sym.end,
      fixable ? { suggestion: name.slice(0, sym.start) + upper + name.slice(sym.end) } : {},
    ),
  );
}
