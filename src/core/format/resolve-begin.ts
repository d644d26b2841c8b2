/**
 * The start of every resolution, an HTTP request's (resolve.ts) and a WebSocket one's
 * (ws/resolved-request.ts): the variable scope, the directives, substitution and the JSON check.
 * Apart from resolve.ts, which looks the endpoint up in the deployment's REST catalog: the
 * WebSocket client (dist/ws.js) carries no catalog.
 */
import type { RuleId } from '../rules';
import { t } from '../l10n';
import { readOptions, type RequestOptions } from './directives';
import type { Diagnostic, Range, RequestBlock, TradeReqDocument } from './model';
import { VariableScope, unresolvedRefs, type ResolveContext } from './variables';

/** Collects the diagnostics of one resolution (of an HTTP request in resolve.ts, of a WebSocket one in ws/resolved-request.ts). */
export class Problems {
  readonly list: Diagnostic[] = [];
  add(range: Range, message: string, rule: RuleId): void {
    this.list.push({ range, severity: 'error', message, rule });
  }
  get any(): boolean {
    return this.list.length > 0;
  }
}

/** The start of every resolution: the variable scope, the options, and the errors of directives and variables. */
export function beginResolve(
  doc: TradeReqDocument,
  request: RequestBlock,
  ctx: ResolveContext,
): { scope: VariableScope; options: RequestOptions; problems: Problems } {
  const scope = new VariableScope(doc, ctx);
  const { options, diagnostics, fileDiagnostics } = readOptions(doc, request);
  const problems = new Problems();
  for (const d of [...fileDiagnostics, ...diagnostics, ...unresolvedRefs(request.variableRefs, scope)]) {
    if (d.severity === 'error') problems.list.push(d);
  }
  return { scope, options, problems };
}

/** Substitutes a text of the request; a failure is recorded at `at` and the text kept (it is never sent). */
export function substituter(
  scope: VariableScope,
  problems: Problems,
): (s: string, at: Range, maxChars?: number) => string {
  return (s, at, maxChars) => {
    const r = scope.substitute(s, maxChars);
    if (r.ok) return r.value;
    problems.add(at, scope.notSentMessage(r.error), 'variable-expansion');
    return s;
  };
}

/** Records a problem when `json` (the request's body, or a WebSocket `[message]`) is not one JSON object. */
export function checkJsonObject(json: string, at: Range, problems: Problems, what: 'body' | 'message' = 'body'): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    const message =
      what === 'body'
        ? t('The JSON body is not a valid JSON object after substituting variables ({0}).', why)
        : t('The [message] is not a valid JSON object after substituting variables ({0}).', why);
    problems.add(at, message, 'json-invalid');
    return;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    const message =
      what === 'body'
        ? t('The JSON body is not a valid JSON object after substituting variables (not an object).')
        : t('The [message] is not a valid JSON object after substituting variables (not an object).');
    problems.add(at, message, 'json-invalid');
  }
}
