/**
 * `tradereq doctor`: why the service refused what the user's own program sent. Reads the request
 * (a cURL line, a raw HTTP request, a URL and a body, a log line), picks the key profile to check
 * against from the environment variables, measures the server's clock, and prints the diagnosis.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Budget } from '../core/budget/budget';
import { FileStateStore } from '../core/budget/state';
import { defaultStateDir } from '../core/budget/state-dir';
import { measureClock } from '../core/clock/measure';
import { ClockSync } from '../core/clock/sync';
import { diagnose } from '../core/doctor/diagnose';
import { readSentRequest } from '../core/doctor/input';
import { reportJson, reportText } from '../core/doctor/report';
import type { DoctorKey, SentRequest, ServerClock } from '../core/doctor/types';
import { headerValue } from '../core/doctor/wire';
import { DEFAULT_API_KEY_HEADER } from '../core/env/constants';
import { DEMO_ACCOUNTS, isLoopbackOrigin, SANDBOX_PROFILE } from '../core/env/demo';
import { keysFromEnvironment, PROFILE_NAME_PATTERN, profileEnvPrefix } from '../core/env/keys';
import { integerFlag, parseCommand } from './args';
import { cliSender, EXIT } from './send';
import { readStdin } from './stdin';
import { UsageError, type Io } from './usage';

export const DOCTOR_HELP = `Usage: tradereq doctor [FILE|-] [--key PROFILE] [--code N] [--json] [--offline]

Explains why the service refused a request your own program sent (an invalid signature 700002,
a timestamp 700003, ...). Give what the program sent, in FILE or on standard input: a cURL
command, a raw HTTP request (request line, headers, blank line, body), a URL and its body, or a
line of your log holding one of them. The doctor recomputes the signature the service expects
(spec §5), and when yours differs, finds the known mistake that reproduces it exactly: an "&"
between query string and body, a body serialised again, another order, lower-case or missing
percent-encoding, a newline signed, the signature signed too, JSON signed but a form sent, a
secret with whitespace, another profile's secret. Then it checks the timestamp against the
server's clock, recvWindow, the API key header and where the parameters were put.

  --key PROFILE  the key profile to check against: TRADEREQ_<PROFILE>_API_KEY and
                 TRADEREQ_<PROFILE>_SECRET_KEY (profile upper-cased, "-" as "_"). Default: the
                 profile whose API key the request carries, else TRADEREQ_API_KEY and
                 TRADEREQ_SECRET_KEY, else the sandbox's demo key for a loopback URL
  --code N       the error code the service answered, if the text does not hold it
  --json         print one JSON object: cause, causes, summary, signed, expected, difference,
                 fix, snippets, checks, codeNote
  --offline      do not measure the server's clock (GET /api/v3/time at the request's origin,
                 unsigned, no key sent); this machine's clock stands in
  -h, --help     this help

Every other profile found in the environment variables (and the sandbox's demo keys) is tried as
"the key of another environment". Secrets are used for the HMAC and never printed.

Cause ids (stable, for scripts): signature-missing, signature-uppercase, ampersand-join,
body-reserialised, order-differs, encoding-lowercase, encoding-missing, message-newline,
signature-included, json-vs-form, secret-whitespace, wrong-secret, timestamp-seconds,
clock-window, recv-window, api-key-header, query-overrides-body, none, unknown.

Exit codes: 0 the request is right (cause none); 1 a cause was found (or unknown);
2 bad input (nothing to read, no key to check against).`;

/** Standard input or a file is read up to this many bytes; the reader then holds the request to its own bound. */
const MAX_INPUT_BYTES = 1024 * 1024;
const CLOCK_TIMEOUT_MS = 3_000;

const DOCTOR_OPTIONS = {
  key: { type: 'string' },
  code: { type: 'string' },
  json: { type: 'boolean' },
  offline: { type: 'boolean' },
} as const;

export async function doctorCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand('doctor', args, DOCTOR_OPTIONS);
  if (values.help) {
    io.out(DOCTOR_HELP);
    return 0;
  }
  if (positionals.length > 1)
    throw new UsageError('doctor takes one FILE (or - for standard input). See: tradereq doctor --help');
  if (values.key !== undefined && !PROFILE_NAME_PATTERN.test(values.key))
    throw new UsageError('--key names a key profile: letters, digits, "-" and "_"');
  const code = values.code === undefined ? undefined : integerFlag('code', values.code, -99_999_999, 99_999_999);
  const read = readSentRequest(await inputText(positionals[0], io));
  if (!read.ok) throw new UsageError(read.error);
  const sent = read.value;
  const { key, otherKeys } = chooseKeys(sent, values.key, io.env);
  const clock = values.offline ? undefined : await serverClock(sent, io);
  const given = code ?? sent.code;
  const diagnosis = diagnose({
    sent,
    key,
    otherKeys,
    now: Date.now(),
    ...(clock ? { clock } : {}),
    ...(given !== undefined ? { code: given } : {}),
  });
  io.out(values.json ? reportJson(diagnosis) : reportText(diagnosis));
  return diagnosis.cause === 'none' ? EXIT.ok : EXIT.rejected;
}

async function inputText(path: string | undefined, io: Io): Promise<string> {
  if (path === undefined || path === '-')
    return readStdin({
      maxBytes: MAX_INPUT_BYTES,
      onTerminal:
        'give a FILE holding what your program sent, or pipe it on standard input (a cURL line, a raw HTTP request, a URL and its body)',
      tooLong: 'the text on standard input is too long: give only the request your program sent',
    });
  const full = resolve(io.cwd, path);
  let size: number;
  try {
    const stat = statSync(full);
    if (stat.isDirectory()) throw new UsageError(`${path} is a folder: name a file`);
    size = stat.size;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  if (size > MAX_INPUT_BYTES)
    throw new UsageError(`${path} is too large (${size} bytes): give only the request your program sent`);
  return readFileSync(full, 'utf8');
}

/** Every pair TRADEREQ_<PROFILE>_API_KEY / _SECRET_KEY in the environment, by profile (lower-cased). */
function profilesInEnvironment(env: NodeJS.ProcessEnv): DoctorKey[] {
  const out: DoctorKey[] = [];
  for (const name of Object.keys(env)) {
    const m = /^TRADEREQ_(.+)_SECRET_KEY$/.exec(name);
    if (!m) continue;
    const apiKey = env[`TRADEREQ_${m[1]!}_API_KEY`];
    const secretKey = env[name];
    if (apiKey && secretKey) out.push({ profile: m[1]!.toLowerCase(), apiKey, secretKey });
  }
  return out;
}

const DEMO_KEYS: readonly DoctorKey[] = DEMO_ACCOUNTS.map((a) => ({
  profile: a.name === 'trade' ? SANDBOX_PROFILE : `${SANDBOX_PROFILE} (${a.name})`,
  apiKey: a.apiKey,
  secretKey: a.secretKey,
}));

/** The key to check against (see --key in the help) and the others to try as "another environment's". */
function chooseKeys(
  sent: SentRequest,
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
): { key: DoctorKey; otherKeys: DoctorKey[] } {
  const known = [...profilesInEnvironment(env), ...DEMO_KEYS];
  const generic = keysFromEnvironment(undefined, env);
  const sentKey = headerValue(sent, DEFAULT_API_KEY_HEADER);
  let key: DoctorKey | undefined;
  if (flag !== undefined) {
    const own = keysFromEnvironment(flag, { ...env, TRADEREQ_API_KEY: undefined, TRADEREQ_SECRET_KEY: undefined });
    key = own ? { profile: flag, ...own } : flag === SANDBOX_PROFILE ? DEMO_KEYS[0] : undefined;
    if (!key)
      throw new UsageError(
        `no key for profile "${flag}": set ${profileEnvPrefix(flag)}API_KEY and ${profileEnvPrefix(flag)}SECRET_KEY`,
      );
  } else {
    key =
      known.find((k) => k.apiKey === sentKey) ??
      (generic ? { profile: 'default', ...generic } : undefined) ??
      (isLoopbackOrigin(sent.url) ? DEMO_KEYS[0] : undefined);
    if (!key)
      throw new UsageError(
        'no key to check against: set TRADEREQ_<PROFILE>_API_KEY and TRADEREQ_<PROFILE>_SECRET_KEY and pass --key PROFILE (or TRADEREQ_API_KEY and TRADEREQ_SECRET_KEY)',
      );
  }
  const chosen = key;
  return { key: chosen, otherKeys: known.filter((k) => k.secretKey !== chosen.secretKey) };
}

/** The server's clock at the request's origin, or undefined when it does not answer in time. */
async function serverClock(sent: SentRequest, io: Io): Promise<ServerClock | undefined> {
  const store = new FileStateStore(defaultStateDir(io.env));
  const sender = cliSender(CLOCK_TIMEOUT_MS, CLOCK_TIMEOUT_MS);
  try {
    const origin = new URL(sent.url).origin;
    return await measureClock(origin, { sender, budget: new Budget(store), clock: new ClockSync(store) });
  } catch {
    return undefined;
  } finally {
    await sender.close();
  }
}
