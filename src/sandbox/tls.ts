/**
 * What a TLS sandbox's certificate holds and how long: this machine's loopback names, the address it
 * listens on, and the host names a user adds (`--tls-name`, such as a name only a proxy routes
 * here). Apart from the certificates themselves (certificates.ts, loaded only for a TLS sandbox), so
 * the command line can check its options and word its help without loading them.
 */
import { isIP } from 'node:net';

/**
 * How long the CA and the server's certificate are valid: a week, enough for a sandbox left running
 * through a working week, short enough that a CA file trusted and forgotten stops counting soon.
 */
export const CERTIFICATE_VALIDITY_DAYS = 7;

/**
 * At most this many names besides the loopback ones: a certificate is for this machine and the few
 * names a test routes to it, and 32 names of at most 253 characters keep it under 10 KiB.
 */
export const TLS_NAMES_MAX = 32;

/** What every TLS sandbox's certificate holds, whatever it listens on. */
const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '::1'];

// A DNS name of RFC 1035 (letters, digits and hyphens; labels of 1 to 63; at most 253 in all), no wildcard.
const DNS_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const DNS_NAME = new RegExp(`^(?=.{1,253}$)${DNS_LABEL}(?:\\.${DNS_LABEL})*$`);

/** Whether a certificate can name `name`: a DNS name, or an IPv4 or IPv6 address without a zone. */
export function isTlsName(name: string): boolean {
  if (isIP(name) !== 0) return !name.includes('%');
  return DNS_NAME.test(name);
}

/** An address as URLs write it (`::ffff:127.0.0.1` as `::ffff:7f00:1`), so each is held once and in a form every parser reads. */
function canonical(name: string): string {
  if (isIP(name) === 0) return name;
  const host = new URL(`http://${isIP(name) === 6 ? `[${name}]` : name}/`).hostname;
  return host.startsWith('[') ? host.slice(1, -1) : host;
}

/** A wildcard address is not a name to reach; its loopback names are in every certificate. */
function listensOn(host: string): string[] {
  return host === '0.0.0.0' || host === '::' ? [] : [host];
}

/**
 * The certificate's names: the loopback ones, the host it listens on, then `extra`, each once (DNS
 * names compared without case). Throws a RangeError for a name a certificate cannot hold.
 */
export function certificateNames(host: string, extra: readonly string[]): string[] {
  if (extra.length > TLS_NAMES_MAX)
    throw new RangeError(`tls.names holds at most ${TLS_NAMES_MAX} names, not ${extra.length}`);
  const names = new Map<string, string>();
  for (const name of [...LOOPBACK_NAMES, ...listensOn(host), ...extra]) {
    if (!isTlsName(name)) throw new RangeError(`a certificate cannot name "${name}": a DNS name or an IP address`);
    const key = canonical(name).toLowerCase();
    if (!names.has(key)) names.set(key, canonical(name));
  }
  return [...names.values()];
}
