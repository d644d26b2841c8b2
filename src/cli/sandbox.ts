import { isIP } from 'node:net';
import { DEMO_ACCOUNTS } from '../core/env/demo';
import { SANDBOX_PORT } from '../core/env/constants';
import { OPTION_MAX } from '../core/bounds';
import { LIMITS } from '../core/catalog/limits';
import { startSandbox, type Sandbox } from '../sandbox';
import { isLoopbackAddress } from '../sandbox/control';
import { integerFlag, parseCommand } from './args';
import { UsageError, type Io } from './usage';

export const SANDBOX_HELP = `Usage: tradereq sandbox [--port N] [--host H] [--ban-scale F] [--json] [--no-limits]

Runs the sandbox exchange: a local server that answers like the service (orders, balances, signing,
timing, rate limits and bans of the spec), with public demo keys, so any request can be tried with
no account. Runs until Ctrl+C (SIGINT) or SIGTERM.

  --port N        port to listen on (default ${SANDBOX_PORT}, at most ${OPTION_MAX.port}; 0 picks a free one)
  --host H        address to listen on (default 127.0.0.1, loopback only)
  --ban-scale F   multiply the IP ban durations (2 minutes up to 3 days) by F, e.g. 0.01
  --json          print one JSON line first: {"baseUrl", "wsUrl", "keys": [{name, apiKey, secretKey, permissions}]}
  --no-limits     switch rate limits and bans off (for benchmarks)
  -h, --help      this help

Demo keys: "trade" can read and trade; "readonly" cannot trade (orders answer 700007); "ipbound" is
bound to an IP that is not loopback (signed requests answer 700006).

WebSocket: ws://HOST:PORT/ws on the same port. Public streams (deals, limit.depth, bookTicker,
kline) are fed by the sandbox's own trades; private ones (orders, deals, account) need a listen
key from POST /api/v3/userDataStream, then ws://HOST:PORT/ws?listenKey=KEY. Limits of §8: at most
30 streams per connection (the 31st is refused); more than 100 messages in one second closes the
connection (1008); an IP closed so 3 times in 10 minutes is answered 418 with Retry-After (bans
× --ban-scale). A connection with no subscription for 30 s, or open for 24 h, is closed; one that
leaves over 256 KiB of pushes unread is closed (1008).

Control surface, loopback clients only: POST /_sandbox/reset, POST /_sandbox/fault
{"status": 503, "count": 1, "path": "/api/v3/order"}, POST /_sandbox/clock {"offsetMs": N},
POST /_sandbox/latency {"ms": N}, GET /_sandbox/requests; WebSocket: GET /_sandbox/ws (state),
POST /_sandbox/ws/drop (every connection dropped, 1006), POST /_sandbox/ws/pause and
/_sandbox/ws/resume (pushes stop and go), POST /_sandbox/ws/malformed (one invalid JSON frame to
every connection). GET /_sandbox/ lists them.

Exit codes: 0 stopped by Ctrl+C or SIGTERM; 1 the port cannot be listened on (taken, or not
allowed); 2 bad input.`;

const HOST_NAME = /^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/;
const DECIMAL = /^(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

function portFlag(value: string | undefined): number {
  return integerFlag('port', value, 0, OPTION_MAX.port) ?? SANDBOX_PORT;
}

function hostFlag(value: string | undefined): string {
  if (value === undefined) return '127.0.0.1';
  if (isIP(value) === 0 && !HOST_NAME.test(value))
    throw new UsageError(`--host takes an IP address or a host name, not "${value}"`);
  return value;
}

function banScaleFlag(value: string | undefined): number {
  if (value === undefined) return 1;
  const f = Number(value);
  if (!DECIMAL.test(value) || !Number.isFinite(f) || f <= 0)
    throw new UsageError(`--ban-scale takes a number above 0 such as 0.01, not "${value}"`);
  return f;
}

function describe(sandbox: Sandbox, banScale: number): string {
  const lines = [
    `Sandbox exchange listening on ${sandbox.baseUrl}`,
    `WebSocket streams on ${sandbox.wsUrl} (private streams: ?listenKey= from POST /api/v3/userDataStream)`,
    '',
    'Demo keys (public, for the sandbox only; header X-SERVICE-APIKEY):',
  ];
  for (const d of DEMO_ACCOUNTS) {
    lines.push(
      `  ${d.name.padEnd(9)} ${d.description}`,
      `            apiKey    ${d.apiKey}`,
      `            secretKey ${d.secretKey}`,
    );
  }
  const { ip } = LIMITS.rate;
  lines.push(
    '',
    sandbox.limits
      ? `Rate limits: ${ip.limit} weight per ${ip.intervalMs / 1000} s per IP (unsigned) and per account (signed); bans ×${banScale}.`
      : 'Rate limits: off.',
    'Control (loopback only): POST /_sandbox/reset, /_sandbox/fault, /_sandbox/clock, /_sandbox/latency; GET /_sandbox/requests.',
    'WebSocket control: GET /_sandbox/ws; POST /_sandbox/ws/drop, /_sandbox/ws/pause, /_sandbox/ws/resume, /_sandbox/ws/malformed.',
    'Stop with Ctrl+C.',
  );
  return lines.join('\n');
}

/** What to do when the sandbox cannot listen, for the errors a user can fix; undefined for the rest. */
function listenFailure(code: string | undefined, port: number, host: string): string | undefined {
  const another = 'choose another with --port N, or --port 0 for a free one';
  if (code === 'EADDRINUSE')
    return `tradereq: port ${port} on ${host} is already in use (another sandbox?); ${another}`;
  if (code === 'EACCES') return `tradereq: not allowed to listen on port ${port} on ${host}; ${another}`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `tradereq: cannot listen on host ${host} (${code}); use an address of this machine, such as the default 127.0.0.1`;
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
    io.out(SANDBOX_HELP);
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
    io.err(why);
    return 1;
  }

  if (values.json) io.out(JSON.stringify({ baseUrl: sandbox.baseUrl, wsUrl: sandbox.wsUrl, keys: sandbox.keys }));
  else io.out(describe(sandbox, banScale));
  if (!isLoopbackAddress(host) && host !== 'localhost') {
    io.err(
      `tradereq: warning: listening on ${host}: other machines can reach the sandbox, whose demo keys are public (the /_sandbox/ control surface still answers loopback only)`,
    );
  }
  await stopped(signal);
  await sandbox.close();
  return 0;
}
