/** Messages the parser and resolve both give, in one place so they say it alike. */
import { t } from '../l10n';

export function unknownMethodMessage(method: string): string {
  return t('The service accepts GET, POST, PUT and DELETE (spec §4.1), not {0}.', method);
}

/** A WS request reached the HTTP pipeline (send, test, code). */
export function wsNotHttpMessage(): string {
  return t(
    'A WebSocket request (WS) is not sent as an HTTP request: run it with `tradereq listen`, or Connect in the editor.',
  );
}

export function unclosedJsonMessage(): string {
  return t('The JSON body is not closed: add the missing `}`.');
}
