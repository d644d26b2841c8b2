import { isIP } from 'node:net';
import { DEMO_ACCOUNTS } from '../core/env/demo';
import { SANDBOX_PORT } from '../core/env/constants';
import { OPTION_MAX } from '../core/bounds';
import { LIMITS } from '../core/catalog/limits';
import { startSandbox, type Sandbox } from '../sandbox';
import { isLoopbackAddress } from '../sandbox/control';
import { integerFlag, parseCommand } from './args';
import { CLI, SANDBOX } from './messages';
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

function banScaleFlag(value: string | undefined): number {
  if (value === undefined) return 1;
  const f = Number(value);
  if (!DECIMAL.test(value) || !Number.isFinite(f) || f <= 0) throw new UsageError(SANDBOX.banScale(value));
  return f;
}

function describe(sandbox: Sandbox, banScale: number): string {
  const { limit: weight, intervalMs } = LIMITS.rate.ip;
  return SANDBOX.started({
    baseUrl: sandbox.baseUrl,
    wsUrl: sandbox.wsUrl,
    keys: DEMO_ACCOUNTS,
    limits: sandbox.limits ? { weight, seconds: intervalMs / 1000, banScale } : undefined,
  });
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

/** Runs until SIGINT or SIGTERM (or `signal`, for tests), then closes and returns 0. */
export async function sandboxCommand(args: string[], io: Io, signal?: AbortSignal): Promise<number> {
  const { values } = parseCommand(
    'sandbox',
    args,
    {
      port: { type: 'string' },
      host: { type: 'string' },
      'ban-scale': { type: 'string' },
      json: { type: 'boolean' },
      'no-limits': { type: 'boolean' },
    },
    false,
  );
  if (values.help) {
    io.out(SANDBOX.help({ port: SANDBOX_PORT, maxPort: OPTION_MAX.port }));
    return 0;
  }
  const port = portFlag(values.port);
  const host = hostFlag(values.host);
  const banScale = banScaleFlag(values['ban-scale']);

  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({ port, host, banScale, limits: !values['no-limits'] });
  } catch (e) {
    const why = listenFailure((e as NodeJS.ErrnoException).code, port, host);
    if (why === undefined) throw e;
    io.err(CLI.said(why));
    return 1;
  }

  if (values.json) io.out(JSON.stringify({ baseUrl: sandbox.baseUrl, wsUrl: sandbox.wsUrl, keys: sandbox.keys }));
  else io.out(describe(sandbox, banScale));
  if (!isLoopbackAddress(host) && host !== 'localhost') io.err(CLI.warning(SANDBOX.reachable(host)));
  await stopped(signal);
  await sandbox.close();
  return 0;
}
