/**
 * What a request file may put in a header. Headers that steer the connection are TradeReq's and
 * the sender's business: a `Host:` written in a shared file would carry a signed request (and its
 * key) to another virtual host behind a shared proxy. Values must be one line of Latin-1, as
 * HTTP carries them; anything else is bad input, refused before anything is sent or counted.
 */
import { t } from '../l10n';

/** Connection-level and hop-by-hop headers (RFC 9110 §7.6.1), and those TradeReq sets itself. */
const FORBIDDEN = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'expect',
]);

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Tab, visible ASCII and Latin-1: no CR, LF, NUL or other control characters.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

function isForbiddenHeader(name: string): boolean {
  return FORBIDDEN.has(name.toLowerCase());
}

/** Why the header name `name` cannot be written in a file, if it cannot (a clause, without a full stop). */
export function headerNameProblem(name: string): string | undefined {
  if (!TOKEN.test(name)) return t('"{0}" is not a valid header name', name);
  if (isForbiddenHeader(name)) {
    return t(
      "{0} is not for request files: TradeReq and the HTTP client set it from the URL (a Host header could take a signed request and its key to another host). Remove the line; the host belongs in the URL or the environment's baseUrl",
      name,
    );
  }
  return undefined;
}

/** Whether `value` can go in a header: one line of Latin-1. */
export function isHeaderValue(value: string): boolean {
  return FIELD_VALUE.test(value);
}

/** What a header value may hold (a clause, without a full stop). */
export function headerValueRule(): string {
  return t('a header value is one line of Latin-1 text: no line break, control character or character beyond U+00FF');
}
