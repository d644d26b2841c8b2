/**
 * Where traffic goes (docs/security.md, "Proxies"): one rule for REST and WebSocket, the command
 * line and the editor. Loopback is never proxied; through a proxy, every connection is a CONNECT
 * tunnel, so the proxy never sees the key, the signature or the body; a signed request (or a
 * listen key) to a plain http:/ws: origin off loopback is refused when a proxy would carry it, since
 * past the proxy it would cross the network in clear. Pure: no sockets, no environment.
 */
import { isLoopbackOrigin } from '../env/demo';
import { t } from '../l10n';

/** How the network is reached, as the command line or the editor's settings say. */
export interface NetworkSettings {
  /** The proxy for https:/wss: origins (HTTPS_PROXY, --proxy, http.proxy). */
  readonly httpsProxy?: string;
  /** The proxy for http:/ws: origins (HTTP_PROXY, --proxy, http.proxy). */
  readonly httpProxy?: string;
  /** Hosts reached directly (NO_PROXY, http.noProxy): a comma or space list of names, suffixes, ports, `*`. */
  readonly noProxy?: string;
  /** A Proxy-Authorization value given apart from the proxy's URL (VS Code's http.proxyAuthorization). */
  readonly proxyAuthorization?: string;
  /** Certificates (PEM) trusted beside Node's own (--cacert); none: Node's store as it is. */
  readonly ca?: readonly string[];
}

export const DIRECT: NetworkSettings = {};

/**
 * The proxy variables as curl reads them: lower case first; `http_proxy` in lower case only (a CGI
 * program gets HTTP_PROXY from a request's Proxy header); ALL_PROXY for both; empty is unset.
 */
export function proxyVariables(env: Readonly<Record<string, string | undefined>>): NetworkSettings {
  const value = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const either = (lower: string): string | undefined => value(lower) ?? value(lower.toUpperCase());
  const all = either('all_proxy');
  return {
    httpsProxy: either('https_proxy') ?? all,
    httpProxy: value('http_proxy') ?? all,
    noProxy: either('no_proxy'),
  };
}

/** The proxy a connection goes through: its URL without credentials, and the header that carries them. */
export interface ProxyTarget {
  readonly url: URL;
  /** `http://host:port`, as messages show it: never the credentials. */
  readonly shown: string;
  readonly authorization?: string;
}

export type Route =
  | { readonly kind: 'direct' }
  | { readonly kind: 'tunnel'; readonly proxy: ProxyTarget }
  | { readonly kind: 'refused'; readonly message: string };

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'ws:': '80', 'https:': '443', 'wss:': '443' };

/** The route to `target`; `secret` when what goes there is signed or holds a listen key. */
export function routeFor(target: URL, s: NetworkSettings, secret: boolean): Route {
  const plain = target.protocol === 'http:' || target.protocol === 'ws:';
  const raw = plain ? s.httpProxy : s.httpsProxy;
  if (!raw || isLoopbackOrigin(`http://${target.host}`) || bypassed(target, s.noProxy ?? '')) return { kind: 'direct' };
  const proxy = proxyTarget(raw, s.proxyAuthorization);
  if (typeof proxy === 'string') return { kind: 'refused', message: proxy };
  if (plain && secret)
    return {
      kind: 'refused',
      message: t(
        'Not sent: {0} is plain {1} and the proxy {2} would carry it, so the key and the signature would cross the network in clear. Use the https origin, or reach this host directly (NO_PROXY, --no-proxy, http.noProxy).',
        target.origin,
        target.protocol.replace(':', ''),
        proxy.shown,
      ),
    };
  return { kind: 'tunnel', proxy };
}

/** A proxy URL as users write it (`host:port` too), its credentials split off; a message when it cannot be used. */
export function proxyTarget(raw: string, authorization?: string): ProxyTarget | string {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`);
  } catch {
    // Not quoted: it may hold credentials.
    return t('The proxy is not a URL: write it as http://host:port.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return t('The proxy {0} is a {1} proxy: only http: and https: proxies are supported.', url.host, url.protocol);
  let auth = authorization;
  if (url.username || url.password) {
    const pair = `${decoded(url.username)}:${decoded(url.password)}`;
    auth = `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
  }
  const bare = new URL(`${url.protocol}//${url.host}`);
  return { url: bare, shown: bare.origin, authorization: auth };
}

/** A percent-encoded part of a URL's credentials, or as written when its encoding is broken (never a throw). */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** NO_PROXY as curl reads it: `*`; a name matches itself and its subdomains; `.name` its subdomains; `:port` narrows. */
export function bypassed(target: URL, noProxy: string): boolean {
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const port = target.port || DEFAULT_PORTS[target.protocol] || '';
  for (const entry of noProxy.split(/[\s,]+/)) {
    const e = entry.trim().toLowerCase();
    if (e === '') continue;
    if (e === '*') return true;
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(e);
    if (!m || (m[2] !== undefined && m[2] !== port)) continue;
    const name = (m[1] ?? '').replace(/^\[(.*)\]$/, '$1').replace(/^\*?\./, '.');
    if (name.startsWith('.') ? host.endsWith(name) : host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}
