/**
 * The check step before a send (docs/cli.md, Commands): a request with errors that check finds,
 * which the service would refuse, is not sent without a decision (the editor asks; `tradereq send`
 * and `test` refuse unless `--no-check`). The same findings as the diagnostics and `tradereq check`:
 * one its own `# @expect` lines anticipate is information already (findings.ts), and a warning never
 * stops a send. An error that names no service error (an undefined variable, a line the parser
 * could not read, a header not in Latin-1) is the send's own refusal, in its own words.
 */
import type { NamedEnvironment } from '../env/constants';
import type { Diagnostic, Range, RequestBlock, TradeReqDocument } from '../format/model';
import { RULES } from '../rules';
import { checkDocument } from './check';

/** The findings a refusal to send lists (the command line, the editor's question); `tradereq check` lists them all. */
export const SHOWN_BEFORE_SEND = 10;

/**
 * Each document's errors that lead to a service error, with the environment they were found in: a
 * document is a version of its text (the editor parses each version anew), so Send All, Send again
 * and a test run check it once, not once per request.
 */
const CHECKED = new WeakMap<
  TradeReqDocument,
  { readonly environment: NamedEnvironment; readonly errors: readonly Diagnostic[] }
>();

function blockingErrors(doc: TradeReqDocument, environment: NamedEnvironment): readonly Diagnostic[] {
  const kept = CHECKED.get(doc);
  if (kept?.environment === environment) return kept.errors;
  const errors = checkDocument(doc, { environment }).filter(
    (d) => d.severity === 'error' && (d.prevents !== undefined || RULES[d.rule].prevents.length > 0),
  );
  CHECKED.set(doc, { environment, errors });
  return errors;
}

/**
 * The errors of each request of `doc` that lead to a service error, by its block's lines; the file
 * is checked once, on the first question (a run of 20,000 requests checks it once, not once each).
 */
export function errorsBeforeSend(
  doc: TradeReqDocument,
  environment: NamedEnvironment,
): (request: RequestBlock) => readonly Diagnostic[] {
  return (request) => {
    const { startLine, endLine } = request.range;
    return blockingErrors(doc, environment).filter(
      (d) => d.range.startLine >= startLine && d.range.startLine <= endLine,
    );
  };
}

/**
 * For a test run (testing/run.ts `checkFirst`): the case of request `index` is not sent when check
 * finds errors in it, with what `says` of them and where the first is; undefined when it may go.
 */
export function refusalBeforeSend(
  doc: TradeReqDocument,
  environment: NamedEnvironment,
  says: (errors: readonly Diagnostic[]) => string,
): (c: { readonly index: number }) => { readonly summary: string; readonly range: Range } | undefined {
  const errorsOf = errorsBeforeSend(doc, environment);
  return (c) => {
    const request = doc.requests[c.index];
    const errors = request ? errorsOf(request) : [];
    return errors.length > 0 ? { summary: says(errors), range: errors[0]!.range } : undefined;
  };
}
