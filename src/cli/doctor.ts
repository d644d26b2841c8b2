/**
 * `tradereq doctor`: why the service refused what the user's own program sent. Reads the request
 * (a cURL line, a raw HTTP request, a URL and a body, a log line), picks the key profile to check
 * against from the environment variables, measures the server's clock, and prints the diagnosis.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { BOUNDS, clip } from '../core/bounds';
import { Budget } from '../core/budget/budget';
import { FileStateStore } from '../core/budget/state';
import { defaultStateDir } from '../core/budget/state-dir';
import { measureClock } from '../core/clock/measure';
import { ClockSync } from '../core/clock/sync';
import { givenTime } from '../core/doctor/answer-time';
import { diagnose } from '../core/doctor/diagnose';
import { readSentRequest } from '../core/doctor/input';
import { reportJson, reportText } from '../core/doctor/report';
import { CAUSE_IDS, type DoctorKey, type SentRequest, type ServerClock } from '../core/doctor/types';
import { headerValue } from '../core/doctor/wire';
import { DEFAULT_API_KEY_HEADER } from '../core/env/constants';
import { DEMO_ACCOUNTS, isLoopbackOrigin, SANDBOX_PROFILE } from '../core/env/demo';
import { keysFromEnvironment, PROFILE_NAME_PATTERN, profileEnvPrefix } from '../core/env/keys';
import { integerFlag, parseCommand } from './args';
import { DOCTOR, INPUT, NETWORK, OPTIONS } from './messages';
import { cliSender, EXIT } from './send';
import type { Network } from '../core/net/network';
import { cliNetwork, NETWORK_OPTIONS } from './network';
import { readStdin } from './stdin';
import { UsageError, type Io } from './usage';

/** Bytes read of standard input or a file: UTF-8 may take up to 4 bytes for each character the reader allows. */
const MAX_INPUT_BYTES = BOUNDS.doctorInputChars * 4;
const CLOCK_TIMEOUT_MS = 3_000;

const DOCTOR_OPTIONS = {
  key: { type: 'string' },
  code: { type: 'string' },
  at: { type: 'string' },
  json: { type: 'boolean' },
  offline: { type: 'boolean' },
  ...NETWORK_OPTIONS,
} as const;

export async function doctorCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand('doctor', args, DOCTOR_OPTIONS);
  if (values.help) {
    io.out(DOCTOR.help(CAUSE_IDS, { network: NETWORK.help }));
    return 0;
  }
  if (positionals.length > 1) throw new UsageError(DOCTOR.takesOneFile);
  if (values.key !== undefined && !PROFILE_NAME_PATTERN.test(values.key)) throw new UsageError(OPTIONS.keyProfile);
  const code = values.code === undefined ? undefined : integerFlag('code', values.code, -99_999_999, 99_999_999);
  const at = values.at === undefined ? undefined : givenTime(values.at);
  if (values.at !== undefined && at === undefined) throw new UsageError(DOCTOR.badAt(clip(values.at, 40)));
  const read = readSentRequest(await inputText(positionals[0], io), knownSecrets(io.env));
  if (!read.ok) throw new UsageError(read.error);
  const sent = read.value;
  const { key, otherKeys } = chooseKeys(sent, values.key, io.env);
  const clock = values.offline ? undefined : await serverClock(sent, io, cliNetwork(values, io.env));
  const given = code ?? sent.code;
  const diagnosis = diagnose({
    sent,
    key,
    otherKeys,
    // Only a bound: the timestamp is judged at the time of the answer (--at, else its Date header).
    now: Date.now(),
    ...(at ? { at } : {}),
    ...(sent.answer ? { answer: sent.answer } : {}),
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
      onTerminal: DOCTOR.onTerminal,
      tooLong: DOCTOR.stdinTooLong,
    });
  const full = resolve(io.cwd, path);
  let size: number;
  try {
    const stat = statSync(full);
    if (stat.isDirectory()) throw new UsageError(INPUT.folderNotFile(path));
    size = stat.size;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(DOCTOR.cannotRead(path, (e as NodeJS.ErrnoException).code));
  }
  if (size > MAX_INPUT_BYTES) throw new UsageError(DOCTOR.tooLarge(path, size));
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

/** The keys of the environment's profiles and the sandbox's demo keys. */
function knownKeys(env: NodeJS.ProcessEnv): DoctorKey[] {
  return [...profilesInEnvironment(env), ...DEMO_KEYS];
}

/** Every secret the doctor knows, the generic TRADEREQ_SECRET_KEY's too: never quoted back. */
function knownSecrets(env: NodeJS.ProcessEnv): string[] {
  const generic = keysFromEnvironment(undefined, env)?.secretKey;
  return [...knownKeys(env).map((k) => k.secretKey), ...(generic ? [generic] : [])];
}

/** The key to check against (see --key in the help) and the others to try as "another environment's". */
function chooseKeys(
  sent: SentRequest,
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
): { key: DoctorKey; otherKeys: DoctorKey[] } {
  const known = knownKeys(env);
  const generic = keysFromEnvironment(undefined, env);
  const sentKey = headerValue(sent, DEFAULT_API_KEY_HEADER);
  let key: DoctorKey | undefined;
  if (flag !== undefined) {
    const own = keysFromEnvironment(flag, { ...env, TRADEREQ_API_KEY: undefined, TRADEREQ_SECRET_KEY: undefined });
    key = own ? { profile: flag, ...own } : flag === SANDBOX_PROFILE ? DEMO_KEYS[0] : undefined;
    if (!key) throw new UsageError(DOCTOR.noKeyForProfile(flag, profileEnvPrefix(flag)));
  } else {
    key =
      // A program that sent its secret where the API key goes is checked against that secret's profile.
      known.find((k) => k.apiKey === sentKey || k.secretKey === sentKey) ??
      (generic ? { profile: 'default', ...generic } : undefined) ??
      (isLoopbackOrigin(sent.url) ? DEMO_KEYS[0] : undefined);
    if (!key) throw new UsageError(DOCTOR.noKey);
  }
  const chosen = key;
  return { key: chosen, otherKeys: known.filter((k) => k.secretKey !== chosen.secretKey) };
}

/** The server's clock at the request's origin, or undefined when it does not answer in time. */
async function serverClock(sent: SentRequest, io: Io, network: Network): Promise<ServerClock | undefined> {
  const store = new FileStateStore(defaultStateDir(io.env));
  const sender = cliSender(CLOCK_TIMEOUT_MS, CLOCK_TIMEOUT_MS, network);
  try {
    const origin = new URL(sent.url).origin;
    return await measureClock(origin, { sender, budget: new Budget(store), clock: new ClockSync(store) });
  } catch {
    return undefined;
  } finally {
    await sender.close();
  }
}
