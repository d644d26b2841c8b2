/** Messages the parser and resolve both give, in one place so they say it alike. */

export function unknownMethodMessage(method: string): string {
  return `The service accepts GET, POST, PUT and DELETE (spec §4.1), not ${method}.`;
}

export const UNCLOSED_JSON_MESSAGE = 'The JSON body is not closed: add the missing `}`.';
