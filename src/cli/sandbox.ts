import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEMO_ACCOUNTS } from '../core/env/demo';
import { SANDBOX_PORT } from '../core/env/constants';
import { OPTION_MAX } from '../core/bounds';
import { LIMITS } from '../core/catalog/limits';
import { DEPLOYMENT_IDS, deploymentById, type Deployment } from '../core/catalog/deployment';
import { startSandbox, type Sandbox } from '../sandbox';
import { isLoopbackAddress } from '../sandbox/control';
import { CERTIFICATE_VALIDITY_DAYS, TLS_NAMES_MAX, isTlsName } from '../sandbox/tls';
import { integerFlag, parseCommand } from './args';
import { CLI, SANDBOX, SANDBOX_TLS } from './messages';
import { UsageError, type Io } from './usage';

const HOST_NAME = /^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/;
const DECIMAL = /^(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

function portFlag(value: string | undefined): number {
  return integerFlag('port', value, 0, OPTION_MAX.port) ?? SANDBOX_PORT;
}

function hostFlag(value: string | undefined): string {
  if (value === undefined) return '127.0.0.1';
  if (isIP(value) === 0 && !HOST_NAME.test(value)) throw new UsageError(SANDBOX.host(value));
  return value;
}

/** A factor above 0 (--ban-scale, --connection-scale); 1 when not given. */
function scaleFlag(value: string | undefined, usage: (value: string) => string): number {
  if (value === undefined) return 1;
  const f = Number(value);
  if (!DECIMAL.test(value) || !Number.isFinite(f) || f <= 0) throw new UsageError(usage(value));
  return f;
}

function deploymentFlag(value: string | undefined): Deployment {
  const deployment = deploymentById(value);
  if (deployment === undefined) throw new UsageError(SANDBOX.deployment(value ?? '', DEPLOYMENT_IDS));
  return deployment;
}

/** Where the CA certificate was written, and whether the sandbox removes it when it stops. */
interface CaFile {
  readonly path: string;
  /** The folder made for it, removed when the sandbox stops; undefined for the user's --tls-ca FILE. */
  readonly temporary: string | undefined;
}

function describe(sandbox: Sandbox, deployment: Deployment, banScale: number, ca: CaFile | undefined): string {
  const { limit: weight, intervalMs } = LIMITS.rate.ip;
  const tls =
    ca && sandbox.certificate
      ? SANDBOX_TLS.started({
          names: sandbox.certificate.names,
          validUntil: sandbox.certificate.notAfter.toISOString(),
          caFile: ca.path,
          removed: ca.temporary !== undefined,
        })
      : undefined;
  return SANDBOX.started({
    baseUrl: sandbox.baseUrl,
    wsUrl: sandbox.wsUrl,
    deployment: { title: deployment.title, apiKeyHeader: deployment.apiKeyHeader },
    keys: DEMO_ACCOUNTS,
    limits: sandbox.limits ? { weight, seconds: intervalMs / 1000, banScale } : undefined,
    tls,
  });
}

/** --tls, its names and --tls-ca; the names (and the host the certificate names) are checked here, as usage errors, before anything starts. */
function tlsFlags(values: { tls?: boolean; 'tls-name'?: string[]; 'tls-ca'?: string }, host: string) {
  const names = values['tls-name'] ?? [];
  if (!values.tls) {
    if (names.length > 0) throw new UsageError(SANDBOX_TLS.needsTls('--tls-name'));
    if (values['tls-ca'] !== undefined) throw new UsageError(SANDBOX_TLS.needsTls('--tls-ca'));
    return undefined;
  }
  if (!isTlsName(host)) throw new UsageError(SANDBOX_TLS.host(host));
  if (names.length > TLS_NAMES_MAX) throw new UsageError(SANDBOX_TLS.tooManyNames(names.length, TLS_NAMES_MAX));
  for (const name of names) if (!isTlsName(name)) throw new UsageError(SANDBOX_TLS.name(name));
  return { names, caFile: values['tls-ca'] };
}

/**
 * Writes the CA certificate (PEM, public; never a key) to `chosen`, else to a folder of its own in
 * the temporary folder, which the sandbox removes when it stops: each start makes a new CA.
 */
function writeCa(caPem: string, chosen: string | undefined): CaFile {
  // A certificate is public: readable by all, as any CA file.
  const mode = 0o644;
  if (chosen !== undefined) {
    writeFileSync(resolve(chosen), caPem, { mode });
    return { path: resolve(chosen), temporary: undefined };
  }
  const temporary = mkdtempSync(join(tmpdir(), 'tradereq-sandbox-'));
  try {
    writeFileSync(join(temporary, 'ca.pem'), caPem, { mode });
  } catch (e) {
    rmSync(temporary, { recursive: true, force: true });
    throw e;
  }
  return { path: join(temporary, 'ca.pem'), temporary };
}

/** What to do when the sandbox cannot listen, for the errors a user can fix; undefined for the rest. */
function listenFailure(code: string | undefined, port: number, host: string): string | undefined {
  if (code === 'EADDRINUSE') return SANDBOX.portInUse(port, host);
  if (code === 'EACCES') return SANDBOX.portNotAllowed(port, host);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return SANDBOX.cannotListen(host, code);
  return undefined;
}

/** Resolves on SIGINT, SIGTERM or `signal`'s abort. */
function stopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop);
  });
}

function flags(args: string[]) {
  return parseCommand(
    'sandbox',
    args,
    {
      port: { type: 'string' },
      host: { type: 'string' },
      'ban-scale': { type: 'string' },
      'connection-scale': { type: 'string' },
      deployment: { type: 'string' },
      json: { type: 'boolean' },
      'no-limits': { type: 'boolean' },
      tls: { type: 'boolean' },
      'tls-name': { type: 'string', multiple: true },
      'tls-ca': { type: 'string' },
    },
    false,
  ).values;
}

/** The CA certificate written where it goes; on failure, one line and the sandbox closed (exit 1). */
async function caWritten(sandbox: Sandbox, chosen: string | undefined, io: Io): Promise<CaFile | undefined> {
  try {
    return writeCa(sandbox.caPem!, chosen);
  } catch (e) {
    const file = chosen === undefined ? tmpdir() : resolve(chosen);
    io.err(CLI.said(SANDBOX_TLS.caNotWritten(file, (e as NodeJS.ErrnoException).code ?? String(e))));
    await sandbox.close();
    return undefined;
  }
}

/** Runs until SIGINT or SIGTERM (or `signal`, for tests), then closes and returns 0. */
export async function sandboxCommand(args: string[], io: Io, signal?: AbortSignal): Promise<number> {
  const values = flags(args);
  if (values.help) {
    io.out(
      SANDBOX.help({
        port: SANDBOX_PORT,
        maxPort: OPTION_MAX.port,
        maxNames: TLS_NAMES_MAX,
        validDays: CERTIFICATE_VALIDITY_DAYS,
        deployments: DEPLOYMENT_IDS,
      }),
    );
    return 0;
  }
  const port = portFlag(values.port);
  const host = hostFlag(values.host);
  const banScale = scaleFlag(values['ban-scale'], SANDBOX.banScale);
  const connectionScale = scaleFlag(values['connection-scale'], SANDBOX.connectionScale);
  const deployment = deploymentFlag(values.deployment);
  const tls = tlsFlags(values, host);

  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({
      port,
      host,
      banScale,
      connectionScale,
      deployment: deployment.id,
      limits: !values['no-limits'],
      tls: tls && { names: tls.names },
    });
  } catch (e) {
    const why = listenFailure((e as NodeJS.ErrnoException).code, port, host);
    if (why === undefined) throw e;
    io.err(CLI.said(why));
    return 1;
  }
  const ca = tls && (await caWritten(sandbox, tls.caFile, io));
  if (tls && ca === undefined) return 1;

  // Listening for SIGTERM before the address is printed: one sent as soon as it is read still closes
  // the sandbox (and removes its CA file) instead of ending the process as it stands.
  const stop = stopped(signal);
  const json = {
    baseUrl: sandbox.baseUrl,
    wsUrl: sandbox.wsUrl,
    deployment: sandbox.deployment,
    apiKeyHeader: sandbox.apiKeyHeader,
    keys: sandbox.keys,
    ...(ca && { caFile: ca.path }),
  };
  io.out(values.json ? JSON.stringify(json) : describe(sandbox, deployment, banScale, ca));
  if (!isLoopbackAddress(host) && host !== 'localhost') io.err(CLI.warning(SANDBOX.reachable(host)));
  await stop;
  await sandbox.close();
  if (ca?.temporary !== undefined) rmSync(ca.temporary, { recursive: true, force: true });
  return 0;
}
