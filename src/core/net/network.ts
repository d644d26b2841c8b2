/**
 * The connections of one sender or WebSocket client, by the rule of proxy.ts: a keep-alive agent per
 * protocol and route. Direct agents are Node's own; a tunnel is https-proxy-agent's CONNECT, loaded
 * only when a proxy applies, so a send with no proxy costs what it did. Node's http machinery is
 * used as `new http.ClientRequest` with these agents, never through `http.request`, which VS Code's
 * extension host reroutes by its own proxy settings: the route is decided here, once.
 */
import * as http from 'node:http';
import type * as https from 'node:https';
import type { HttpsProxyAgent } from 'https-proxy-agent';
import { err, ok, type Result } from '../result';
import { routeFor, DIRECT, type NetworkSettings, type ProxyTarget } from './proxy';

/** How a request or an upgrade reaches its origin: the agent to use, and the proxy when there is one. */
export interface Connection {
  readonly agent: http.Agent;
  readonly tls: boolean;
  readonly proxy?: ProxyTarget;
}

export class Network {
  private readonly agents = new Map<string, http.Agent>();

  constructor(readonly settings: NetworkSettings = DIRECT) {}

  /**
   * The connection for `url` (http:, https:, ws:, wss:); `secret` when what goes is signed or holds a
   * listen key. `keepAlive: false` for a WebSocket upgrade, whose socket leaves the pool anyway.
   */
  async connection(url: URL, secret: boolean, keepAlive = true): Promise<Result<Connection, string>> {
    const route = routeFor(url, this.settings, secret);
    if (route.kind === 'refused') return err(route.message);
    const tls = url.protocol === 'https:' || url.protocol === 'wss:';
    const proxy = route.kind === 'tunnel' ? route.proxy : undefined;
    const key = `${tls}|${proxy?.shown ?? ''}|${keepAlive}`;
    let agent = this.agents.get(key);
    if (!agent) {
      agent = proxy ? this.tunnel(proxy, tls, keepAlive) : await this.direct(tls, keepAlive);
      this.agents.set(key, agent);
    }
    return ok({ agent, tls, proxy });
  }

  private async direct(tls: boolean, keepAlive: boolean): Promise<http.Agent> {
    if (!tls) return new http.Agent({ keepAlive });
    const h: typeof https = await import('node:https');
    return new h.Agent({ keepAlive, ...this.trust() });
  }

  /** A CONNECT tunnel through `proxy`: the proxy sees the origin's host and port, nothing of what goes inside. */
  private tunnel(proxy: ProxyTarget, tls: boolean, keepAlive: boolean): HttpsProxyAgent<string> {
    // A bundle of its own (esbuild.js, LAZY_PACKAGES): loaded on the first tunnel, never by a direct send.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { HttpsProxyAgent: Agent } = require('https-proxy-agent') as typeof import('https-proxy-agent');
    const headers: http.OutgoingHttpHeaders = proxy.authorization ? { 'Proxy-Authorization': proxy.authorization } : {};
    const trust = this.trust();
    const agent = new Agent(proxy.url.href, { keepAlive, headers, ...trust });
    // new http.ClientRequest cannot tell agent-base the protocol (it guesses from the call stack).
    agent.protocol = tls ? 'https:' : 'http:';
    agent.defaultPort = tls ? 443 : 80;
    // Its constructor keeps the options for the proxy's connection: the origin's TLS gets the trust from here.
    Object.assign(agent.options, trust);
    return agent;
  }

  /** The trusted certificates: Node's store, with --cacert's beside it when given. */
  private trust(): { ca?: string[] } {
    return this.settings.ca ? { ca: [...this.settings.ca] } : {};
  }

  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}
