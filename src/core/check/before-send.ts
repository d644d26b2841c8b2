/**
 * The check step before a send (docs/cli.md, Commands): a request with errors that check finds,
 * which the service would refuse, is not sent without a decision (the editor asks; `tradereq send`
 * and `test` refuse unless `--no-check`). The same findings as the diagnostics and `tradereq check`:
 * one its own `# @expect` lines anticipate is information already (findings.ts), and a warning never
 * stops a send. An error that names no service error (an undefined variable, a line the parser
 * could not read, a header not in Latin-1) is the send's own refusal, in its own words.
 */
import type { NamedEnvironment } from '../env/constants';
import type { Diagnostic, RequestBlock, TradeReqDocument } from '../format/model';
import { RULES } from '../rules';
import { checkDocument } from './check';

/**
 * The errors of each request of `doc` that lead to a service error, by its block's lines; the file
 * is checked once, on the first question (a run of 20,000 requests checks it once, not once each).
 */
export function errorsBeforeSend(
  doc: TradeReqDocument,
  environment: NamedEnvironment,
): (request: RequestBlock) => readonly Diagnostic[] {
  let errors: readonly Diagnostic[] | undefined;
  return (request) => {
    errors ??= checkDocument(doc, { environment }).filter(
      (d) => d.severity === 'error' && (d.prevents !== undefined || RULES[d.rule].prevents.length > 0),
    );
    const { startLine, endLine } = request.range;
    return errors.filter((d) => d.range.startLine >= startLine && d.range.startLine <= endLine);
  };
}

/** The findings a refusal to send lists (the command line, the editor's question); `tradereq check` lists them all. */
export const SHOWN_BEFORE_SEND = 10;
