/**
 * The embedded sandbox exchange: a local HTTP server that answers like the service (spec
 * §4-§8, shapes of docs/service.md, Assumptions), so every test runs against real HTTP and anyone can try
 * a request with no account. Used by the command line (`tradereq sandbox`), the extension and
 * the tests. No vscode import here: it runs in plain Node.
 */
import type { AddressInfo } from 'node:net';
import { DEMO_ACCOUNTS, type DemoAccount } from '../core/env/demo';
import { SANDBOX_PORT } from '../core/env/constants';
import { WS_RULES } from '../core/catalog/ws-limits';
import { DEPLOYMENT_IDS, deploymentById, type ConnectionRules, type Deployment } from '../core/catalog/deployment';
import { endpointCatalogOf } from '../core/catalog/endpoint-catalogs';
import type { EndpointInfo } from '../core/catalog/types';
import type { SandboxCertificates } from './certificates';
import { SandboxServer } from './server';
import { certificateNames } from './tls';

export { isLoopbackAddress } from './control';
export type { LogEntry } from './control';

interface SandboxOptions {
  /** Default 8780 (SANDBOX_PORT); 0 picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Multiplies the ban durations of §8 (tests use a small factor). Default 1. */
  readonly banScale?: number;
  /** Rate limits and bans on (default) or off (benchmarks). */
  readonly limits?: boolean;
  /** The clock, in Unix milliseconds. Default Date.now. */
  readonly now?: () => number;
  /**
   * The deployment the sandbox plays (deployment.ts): its key header, the endpoints of its catalog
   * (those it does not play answered 501), its listen keys, stream names, push encoding and
   * connection rules: its id, or a Deployment itself (a test's variant). Default `spec`.
   */
  readonly deployment?: string | Deployment;
  /** The endpoints of its catalog (a test's variant). Default: those registered for the deployment (endpoint-catalogs.ts). */
  readonly endpoints?: readonly EndpointInfo[];
  /** Multiplies the deployment's connection rules (idle closes, lifetime), as banScale the bans. Default 1. */
  readonly connectionScale?: number;
  /** A WebSocket connection with no subscription this long is closed. Default: the deployment's (30 s) × connectionScale. */
  readonly wsIdleMs?: number;
  /** Every WebSocket connection is closed after this long. Default: the deployment's (24 h) × connectionScale. */
  readonly wsLifetimeMs?: number;
  /**
   * Serve HTTPS and WSS with a certificate made at start, signed by a CA of its own (the Sandbox's
   * `caPem`). It names localhost, 127.0.0.1, ::1, the host, and `names` (at most TLS_NAMES_MAX DNS
   * names or IP addresses, such as a host name only a proxy routes here).
   */
  readonly tls?: { readonly names?: readonly string[] };
  /**
   * Symbols exchangeInfo lists after the sandbox's own, as given (not traded): for tests of answers
   * as large as a deployment's (test/support/exchange-info.ts makes 2,500 in the documented shape).
   */
  readonly listedSymbols?: readonly object[];
}

/** What a TLS sandbox's certificate holds. */
interface SandboxCertificate {
  /** Its DNS names and IP addresses. */
  readonly names: readonly string[];
  /** When it and its CA expire. */
  readonly notAfter: Date;
}

/** A demo key as `tradereq sandbox --json` prints it. Public: the keys are documented. */
export interface SandboxKey {
  readonly name: DemoAccount['name'];
  readonly apiKey: string;
  readonly secretKey: string;
  readonly permissions: readonly ('read' | 'trade')[];
}

export interface Sandbox {
  /** http://HOST:PORT (https: with `tls`), with no trailing slash. */
  readonly baseUrl: string;
  /** ws://HOST:PORT/ws (wss: with `tls`): the WebSocket endpoint (public streams; private ones with ?listenKey=). */
  readonly wsUrl: string;
  /** With `tls`: the certificate of the CA that signed the server's (PEM, no key), for a client to trust. */
  readonly caPem?: string;
  /** With `tls`: the server's certificate. */
  readonly certificate?: SandboxCertificate;
  readonly port: number;
  readonly host: string;
  readonly keys: readonly SandboxKey[];
  readonly limits: boolean;
  /** The id of the deployment it plays. */
  readonly deployment: string;
  /** The header it reads the API key from (the deployment's). */
  readonly apiKeyHeader: string;
  /** Stops listening, drops open connections and resolves when the server is closed. */
  close(): Promise<void>;
}

export const SANDBOX_KEYS: readonly SandboxKey[] = DEMO_ACCOUNTS.map((d) => ({
  name: d.name,
  apiKey: d.apiKey,
  secretKey: d.secretKey,
  permissions: [...d.permissions],
}));

function urlHost(host: string): string {
  // A wildcard address is not one to connect to; loopback reaches it.
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

// setTimeout takes at most 2^31 - 1 ms.
const MAX_TIMER_MS = 2 ** 31 - 1;

function timerOption(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > MAX_TIMER_MS)
    throw new RangeError(`${name} must be a whole number of ms from 1 to ${MAX_TIMER_MS}, not ${value}`);
  return value;
}

/** The certificates of a TLS sandbox: their code and its library load only for one (a bundle of its own in the command line). */
function tlsOf(tls: SandboxOptions['tls'], host: string): (SandboxCertificates & { names: string[] }) | undefined {
  if (tls === undefined) return undefined;
  const names = certificateNames(host, tls.names ?? []);
  const { makeCertificates } = require('./certificates') as typeof import('./certificates');
  // The real clock, not the exchange's (options.now): a client checks the validity by its own.
  return { names, ...makeCertificates(names, Date.now()) };
}

function listen(server: SandboxServer, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (e: Error): void => reject(e);
    server.http.once('error', onError);
    server.http.listen({ port, host, exclusive: true }, () => {
      server.http.off('error', onError);
      resolve();
    });
  });
}

function scaleOption(name: string, value: number | undefined): number {
  const scale = value ?? 1;
  if (!Number.isFinite(scale) || scale <= 0) throw new RangeError(`${name} must be a number above 0, not ${scale}`);
  return scale;
}

function deploymentOption(id: string | Deployment | undefined): Deployment {
  if (typeof id === 'object') return id;
  const deployment = deploymentById(id);
  if (deployment === undefined)
    throw new RangeError(`deployment must be one of ${DEPLOYMENT_IDS.join(', ')}, not ${JSON.stringify(id)}`);
  return deployment;
}

/** The deployment's connection rules × `scale` (at least 1 ms each), where the options do not set them. */
function connectionRules(deployment: Deployment, options: SandboxOptions): ConnectionRules {
  const scale = scaleOption('connectionScale', options.connectionScale);
  const scaled = (ms: number): number => Math.min(Math.max(1, Math.round(ms * scale)), MAX_TIMER_MS);
  const rules = deployment.connection;
  return {
    lifetimeMs: timerOption('wsLifetimeMs', options.wsLifetimeMs, scaled(rules.lifetimeMs)),
    idleUnsubscribedMs: timerOption('wsIdleMs', options.wsIdleMs, scaled(rules.idleUnsubscribedMs)),
    ...(rules.idleSubscribedMs !== undefined && { idleSubscribedMs: scaled(rules.idleSubscribedMs) }),
  };
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const port = options.port ?? SANDBOX_PORT;
  const host = options.host ?? '127.0.0.1';
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new RangeError(`port must be a whole number from 0 to 65535, not ${port}`);
  const banScale = scaleOption('banScale', options.banScale);
  const limits = options.limits ?? true;
  const deployment = deploymentOption(options.deployment);
  const connection = connectionRules(deployment, options);
  const tls = tlsOf(options.tls, host);
  const server = new SandboxServer({
    deployment,
    endpoints: options.endpoints ?? endpointCatalogOf(deployment).endpoints,
    banScale,
    limits,
    now: options.now ?? Date.now,
    connection,
    tls: tls && { cert: tls.certPem, key: tls.keyPem },
    listedSymbols: options.listedSymbols ?? [],
  });
  await listen(server, port, host);
  const actual = (server.http.address() as AddressInfo).port;
  const where = `${urlHost(host)}:${actual}`;
  let closing: Promise<void> | undefined;
  return {
    baseUrl: `${tls ? 'https' : 'http'}://${where}`,
    wsUrl: `${tls ? 'wss' : 'ws'}://${where}${WS_RULES.path}`,
    ...(tls && { caPem: tls.caPem, certificate: { names: tls.names, notAfter: tls.notAfter } }),
    port: actual,
    host,
    keys: SANDBOX_KEYS,
    limits,
    deployment: deployment.id,
    apiKeyHeader: deployment.apiKeyHeader,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.stopTimers();
        server.http.close(() => resolve());
        server.http.closeAllConnections();
      });
      return closing;
    },
  };
}
