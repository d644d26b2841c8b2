/**
 * The network of the command line, as curl and Node users set it
 * (docs/cli.md, "Proxies and certificates"): HTTPS_PROXY, HTTP_PROXY, ALL_PROXY and NO_PROXY (lower case first, as curl reads
 * them), `--proxy URL`, `--no-proxy`, and `--cacert FILE` beside NODE_EXTRA_CA_CERTS. The route
 * itself is the core's (core/net/proxy.ts); nothing here turns certificate checks off.
 */
import { BOUNDS } from '../core/bounds';
import { Network } from '../core/net/network';
import { DIRECT, proxyTarget, proxyVariables, type NetworkSettings } from '../core/net/proxy';
import { fileProblemText, readPlainFileSync } from '../core/repo-file';
import { NETWORK } from './messages';
import { UsageError } from './usage';

export const NETWORK_OPTIONS = {
  proxy: { type: 'string' },
  'no-proxy': { type: 'boolean' },
  cacert: { type: 'string' },
} as const;

export interface NetworkFlags {
  readonly proxy?: string;
  readonly 'no-proxy'?: boolean;
  readonly cacert?: string;
}

/** The Network of one command: its flags over the environment's variables. */
export function cliNetwork(flags: NetworkFlags, env: NodeJS.ProcessEnv = process.env): Network {
  return new Network(networkSettings(flags, env));
}

function networkSettings(flags: NetworkFlags, env: NodeJS.ProcessEnv = process.env): NetworkSettings {
  if (flags.proxy !== undefined && flags['no-proxy']) throw new UsageError(NETWORK.bothProxyFlags);
  const trust = flags.cacert === undefined ? {} : { ca: trusted(flags.cacert, env) };
  if (flags['no-proxy']) return { ...DIRECT, ...trust };
  if (flags.proxy !== undefined) {
    const checked = proxyTarget(flags.proxy);
    if (typeof checked === 'string') throw new UsageError(NETWORK.badProxy(checked));
  }
  const variables = proxyVariables(env);
  return {
    ...variables,
    ...(flags.proxy !== undefined && { httpsProxy: flags.proxy, httpProxy: flags.proxy }),
    ...trust,
  };
}

/** Node's store, NODE_EXTRA_CA_CERTS and FILE: a `ca` option replaces Node's store, so all three are given. */
function trusted(file: string, env: NodeJS.ProcessEnv): string[] {
  // Loaded only with --cacert: every other run uses Node's store as it is.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const tls = require('node:tls') as typeof import('node:tls');
  const extra = env.NODE_EXTRA_CA_CERTS?.trim() || undefined;
  return [...tls.rootCertificates, ...(extra ? [pemFile(extra)] : []), pemFile(file)];
}

function pemFile(file: string): string {
  const read = readPlainFileSync(file, BOUNDS.caFileBytes, true);
  if (!read.ok) throw new UsageError(NETWORK.cacert(fileProblemText(file, read.error)));
  const text = read.value.bytes.toString('utf8');
  if (!/-----BEGIN CERTIFICATE-----/.test(text)) throw new UsageError(NETWORK.noCertificate(file));
  return text;
}
