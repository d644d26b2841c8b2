/** Messages the parser and resolve both give, in one place so they say it alike. */

export function unknownMethodMessage(method: string): string {
  return `The service accepts GET, POST, PUT and DELETE (spec §4.1), not ${method}.`;
}

/** A WS request reached the HTTP pipeline (send, test, code). */
export const WS_NOT_HTTP_MESSAGE =
  'A WebSocket request (WS) is not sent as an HTTP request: run it with `tradereq listen`, or Connect in the editor.';

export const UNCLOSED_JSON_MESSAGE = 'The JSON body is not closed: add the missing `}`.';
