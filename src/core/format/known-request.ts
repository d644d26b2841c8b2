/**
 * A document of one request TradeReq makes itself (the order query after an unknown outcome, the
 * calls of a listen key), built as data: no value is ever written into request text, so an id or a
 * key holding a line break cannot add a line. Laid out as if written: `### title` when there is
 * one, the request line, then one `name = value` line per query parameter.
 */
import { lineToken, range, type Method, type Param, type RequestBlock, type TradeReqDocument } from './model';

export interface KnownRequest {
  readonly method: Method;
  /** A path on the environment's base URL, or a whole URL. */
  readonly target: string;
  readonly title?: string;
  /** Query parameters, in order. */
  readonly query: readonly (readonly [name: string, value: string])[];
}

/** `name = value` on line `line`. */
function queryParam(name: string, value: string, line: number): Param {
  const at = name.length + ' = '.length;
  return {
    name: lineToken(name, line, 0),
    value: lineToken(value, line, at),
    placement: 'query',
    origin: 'section',
    range: range(line, 0, line, at + value.length),
  };
}

export function knownRequestDocument({ method, target, title, query }: KnownRequest): TradeReqDocument {
  const first = title === undefined ? 0 : 1;
  const lineCount = first + 1 + query.length;
  const at = method.length + 1;
  const targetToken = lineToken(target, first, at);
  const request: RequestBlock = {
    index: 0,
    range: range(0, 0, lineCount - 1, 0),
    ...(title === undefined ? {} : { title: lineToken(title, 0, '### '.length) }),
    directives: [],
    requestLine: {
      range: range(first, 0, first, at + target.length),
      method: lineToken(method, first, 0),
      target: targetToken,
      path: targetToken,
    },
    headers: [],
    sections: [],
    params: query.map(([name, value], i) => queryParam(name, value, first + 1 + i)),
    variableRefs: [],
    streams: [],
    messages: [],
  };
  return {
    lineCount,
    variables: [],
    fileDirectives: [],
    requests: [request],
    comments: [],
    variableRefs: [],
    diagnostics: [],
    separatorLines: [],
  };
}
