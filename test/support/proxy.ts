/**
 * A real HTTP proxy for the tests: Debian's tinyproxy, started by the test itself on a free loopback
 * port, with its config, log and hosts file in a folder of its own. Names the machine cannot resolve
 * resolve inside the proxy alone: tinyproxy runs in a mount namespace of its own (`unshare -m`) with a
 * private hosts file bind-mounted over /etc/hosts, so an origin named there is reachable only through
 * the proxy. That needs Linux and root: `needsProxy(this)` skips a suite elsewhere, saying why.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, createServer, isIP, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

export interface ProxyOptions {
  /** Basic credentials the proxy demands: tinyproxy answers 407 without any, 401 to wrong ones. */
  readonly auth?: { readonly user: string; readonly password: string };
  /** Names that resolve inside the proxy only: name → IP address, e.g. 'api.live.invalid' → '127.0.0.1'. */
  readonly hosts?: Readonly<Record<string, string>>;
  /** The only ports a CONNECT may reach (any other: 403); every port when absent. */
  readonly connectPorts?: readonly number[];
}

export interface Proxy {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  /** The url with the credentials of `auth`, percent-encoded; the url itself when there are none. */
  readonly urlWithAuth: string;
  readonly port: number;
  /** The proxy's log (LogLevel Connect), line by line. */
  logLines(): string[];
  /** Every request line the proxy read, in order: "CONNECT api.live.invalid:18443 HTTP/1.1", "GET http://… HTTP/1.1". */
  requestLines(): string[];
  /** The targets of the CONNECT request lines, in order ("api.live.invalid:18443"): one per tunnel asked for. */
  connects(): string[];
  /** Ends the proxy's process group and removes its folder; a second call does nothing. */
  stop(): Promise<void>;
}

export type ProxyAvailability =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: string; readonly cause: 'platform' | 'root' | 'tinyproxy' | 'namespace' };

/** How long a start may take on a busy machine: tinyproxy listens within milliseconds on an idle one. */
const START_DEADLINE_MS = 15_000;
/** Free ports tried: another program may bind the one node found before tinyproxy does. */
const PORT_ATTEMPTS = 5;
/** The pause between two probes of the port while tinyproxy starts. */
const PROBE_INTERVAL_MS = 50;
/** How long stop() waits for the exit after SIGKILL: a ceiling, not a pause (it ends at the exit). */
const STOP_WAIT_MS = 5_000;
/** The end of tinyproxy's own output kept for an error message. */
const OUTPUT_KEPT = 16 * 1024;
/** A word of tinyproxy's config (ALNUM in its conf.c): BasicAuth's user and password are such words. */
const CONFIG_WORD = /^[-a-z0-9._]+$/i;
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?)*$/i;
/** What tinyproxy says when its port is taken (then it exits 71). */
const PORT_TAKEN = 'Could not create listening sockets';
const NEEDS = "needs Debian's tinyproxy and a mount namespace: Linux as root";
/** Runs in the proxy's own mount namespace; setpriv ends tinyproxy should the test process die unannounced. */
const IN_NAMESPACE = 'mount --bind "$1" /etc/hosts && exec setpriv --pdeathsig KILL "$2" -d -c "$3"';
const LOCALHOST = '127.0.0.1 localhost\n::1 localhost\n';

interface Setup {
  tinyproxyPath(): string | null;
}
/** setup.js from test/support/ (mocha) or from a bundle in out/test/integration/ (the extension host). */
const setup = createRequire(__filename)(
  [join(__dirname, '..', 'harness', 'setup.js'), join(__dirname, '..', '..', '..', 'test', 'harness', 'setup.js')].find(
    (f) => existsSync(f),
  ) ?? '../harness/setup.js',
) as Setup;

interface Running {
  readonly child: ChildProcess;
  readonly dir: string;
  readonly logFile: string;
  readonly output: () => string;
}

/** The proxies not yet stopped, ended when the test process exits (setpriv covers a SIGKILL). */
const running = new Set<Running>();
let exitHook = false;

let availability: ProxyAvailability | undefined;

/** Whether a proxy can start here; the answer is probed once per process. */
export function proxyAvailable(): ProxyAvailability {
  availability ??= probeAvailability();
  return availability;
}

function probeAvailability(): ProxyAvailability {
  if (process.platform !== 'linux')
    return { ok: false, cause: 'platform', reason: `${NEEDS} (this is ${process.platform})` };
  const uid = process.getuid?.();
  if (uid !== 0) return { ok: false, cause: 'root', reason: `${NEEDS} (running as uid ${uid})` };
  if (!setup.tinyproxyPath()) {
    const fix = 'node test/harness/setup.js --debian-packages installs it';
    return { ok: false, cause: 'tinyproxy', reason: `${NEEDS} (tinyproxy is not installed: ${fix})` };
  }
  // The whole way a proxy starts, with getent in tinyproxy's place: a name only the private file holds.
  const dir = mkdtempSync(join(tmpdir(), 'tradereq-proxy-probe-'));
  try {
    const hosts = join(dir, 'hosts');
    writeFileSync(hosts, `${LOCALHOST}127.0.0.1 proxy-probe.invalid\n`);
    const script = IN_NAMESPACE.replace('-d -c "$3"', 'hosts proxy-probe.invalid');
    const r = spawnSync('unshare', ['-m', 'sh', '-c', script, 'sh', hosts, 'getent'], {
      encoding: 'utf8',
      timeout: START_DEADLINE_MS,
    });
    if (r.status === 0) return { ok: true };
    const why = r.error?.message ?? (r.stderr.trim() || `exit ${r.status ?? r.signal}`);
    return { ok: false, cause: 'namespace', reason: `${NEEDS} (unshare -m with mount --bind failed: ${why})` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Skips the suite where a proxy cannot start, saying why. On CI a missing tinyproxy fails instead:
 * test/harness/setup.js installs it before the tests start, so its absence is a broken setup.
 */
export function needsProxy(suite: Mocha.Context): void {
  const available = proxyAvailable();
  if (available.ok) return;
  const ci = process.env['CI'];
  if (available.cause === 'tinyproxy' && ci && !['0', 'false'].includes(ci.toLowerCase()))
    throw new Error(`on CI, where setup installs it: ${available.reason}`);
  console.log(`      not run here: ${available.reason}`);
  suite.skip();
}

/** A running tinyproxy on a free loopback port, ready for connections; stop() it when done. */
export async function startProxy(options: ProxyOptions = {}): Promise<Proxy> {
  checkOptions(options);
  const available = proxyAvailable();
  if (!available.ok) throw new Error(available.reason);
  const dir = mkdtempSync(join(tmpdir(), 'tradereq-proxy-'));
  try {
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const proxy = launch(dir, port, options);
      if ((await untilListening(proxy, port, options)) === 'listening') return handle(proxy, port, options);
      if (attempt === PORT_ATTEMPTS) throw new Error(`tinyproxy found no free port in ${PORT_ATTEMPTS} attempts`);
    }
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** The options as tinyproxy's config can hold them; a message never repeats the password. */
function checkOptions(options: ProxyOptions): void {
  const { auth, hosts = {}, connectPorts } = options;
  if (auth && !(CONFIG_WORD.test(auth.user) && CONFIG_WORD.test(auth.password)))
    throw new Error("proxy credentials: tinyproxy's BasicAuth reads only letters, digits, '-', '.' and '_'");
  for (const [name, address] of Object.entries(hosts)) {
    if (!HOST_NAME.test(name) || isIP(address) === 0)
      throw new Error(`proxy hosts: "${name}" → "${address}" is not a host name and an IP address`);
  }
  // Without any ConnectPort line tinyproxy allows every port: an empty list cannot mean "none".
  if (
    connectPorts &&
    (connectPorts.length === 0 || !connectPorts.every((p) => Number.isInteger(p) && p > 0 && p < 65536))
  )
    throw new Error(`proxy connectPorts: ${JSON.stringify(connectPorts)} is not a non-empty list of ports`);
}

function config(port: number, logFile: string, options: ProxyOptions): string {
  const lines = [
    // As root without a User line tinyproxy warns and stays root; naming root keeps the log quiet.
    'User root',
    'Group root',
    `Port ${port}`,
    'Listen 127.0.0.1',
    `LogFile "${logFile}"`,
    'LogLevel Connect', // each connection and request line, no headers
  ];
  if (options.auth) lines.push(`BasicAuth ${options.auth.user} ${options.auth.password}`);
  for (const p of options.connectPorts ?? []) lines.push(`ConnectPort ${p}`);
  return lines.join('\n') + '\n';
}

/** A port free on 127.0.0.1 now, as the system gives one to a listener on port 0. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts tinyproxy in the foreground (-d) as the leader of its own process group. */
function launch(dir: string, port: number, options: ProxyOptions): Running {
  const logFile = join(dir, `tinyproxy-${port}.log`);
  const confFile = join(dir, 'tinyproxy.conf');
  const hostsFile = join(dir, 'hosts');
  // The config holds the password: readable by its owner only, and removed with the folder.
  writeFileSync(confFile, config(port, logFile, options), { mode: 0o600 });
  const named = Object.entries(options.hosts ?? {}).map(([name, address]) => `${address} ${name}\n`);
  writeFileSync(hostsFile, LOCALHOST + named.join(''));
  const args = ['-m', 'sh', '-c', IN_NAMESPACE, 'sh', hostsFile, setup.tinyproxyPath() ?? 'tinyproxy', confFile];
  const child = spawn('unshare', args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('error', (e) => keep(Buffer.from(`unshare: ${e.message}\n`)));
  const proxy: Running = { child, dir, logFile, output: () => output };
  running.add(proxy);
  if (!exitHook) process.once('exit', endAll);
  exitHook = true;
  return proxy;
}

/**
 * Polls until tinyproxy accepts a connection on `port` ('listening'), or says the port is taken
 * ('port taken'). Its log file appears only once it holds the port, so a connection accepted before
 * then is another program's. Anything else, or no answer within the deadline, throws with its output.
 */
async function untilListening(
  proxy: Running,
  port: number,
  options: ProxyOptions,
): Promise<'listening' | 'port taken'> {
  const deadline = Date.now() + START_DEADLINE_MS;
  for (;;) {
    if (exited(proxy.child)) {
      running.delete(proxy);
      if (proxy.output().includes(PORT_TAKEN)) return 'port taken';
      throw new Error(
        `tinyproxy exited (${exitOf(proxy.child)}) before it listened on port ${port}${shown(proxy, options)}`,
      );
    }
    if (existsSync(proxy.logFile) && (await accepts(port))) return 'listening';
    if (Date.now() > deadline) {
      await end(proxy);
      throw new Error(
        `tinyproxy did not listen on port ${port} within ${START_DEADLINE_MS / 1000} s${shown(proxy, options)}`,
      );
    }
    await delay(PROBE_INTERVAL_MS);
  }
}

/** tinyproxy's output and log for an error message, with the password masked should it be there. */
function shown(proxy: Running, options: ProxyOptions): string {
  const text = `\n--- output ---\n${proxy.output()}\n--- log ---\n${readLog(proxy.logFile).slice(-OUTPUT_KEPT)}`;
  const password = options.auth?.password;
  return password ? text.replaceAll(password, '***') : text;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(1_000, () => socket.destroy());
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('close', () => resolve(false)); // after an error or the timeout; a no-op after connect
  });
}

function handle(proxy: Running, port: number, options: ProxyOptions): Proxy {
  const url = `http://127.0.0.1:${port}`;
  const { auth } = options;
  const credentials = auth ? `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.password)}@` : '';
  // The test process need not wait for a proxy a test forgot to stop: the exit hook ends it.
  proxy.child.unref();
  for (const stream of [proxy.child.stdout, proxy.child.stderr]) (stream as Socket | null)?.unref();
  const logLines = (): string[] => readLog(proxy.logFile).split('\n').filter(Boolean);
  const requestLines = (): string[] =>
    logLines().flatMap((line) => /\]: Request \(file descriptor \d+\): (.*)$/.exec(line)?.[1] ?? []);
  return {
    url,
    urlWithAuth: `http://${credentials}127.0.0.1:${port}`,
    port,
    logLines,
    requestLines,
    connects: () => requestLines().flatMap((line) => /^CONNECT (\S+) HTTP\//.exec(line)?.[1] ?? []),
    stop: () => end(proxy),
  };
}

function readLog(logFile: string): string {
  try {
    return readFileSync(logFile, 'utf8');
  } catch {
    return ''; // not written yet
  }
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function exitOf(child: ChildProcess): string {
  return child.signalCode ?? `exit code ${child.exitCode}`;
}

/**
 * SIGKILL to the process group, then its folder goes. Not SIGTERM: tinyproxy then exits at once or,
 * one time in a few, 5 s later (measured), and it has nothing to save: each log line is written as it goes.
 */
async function end(proxy: Running): Promise<void> {
  if (!running.delete(proxy)) return;
  if (!exited(proxy.child)) {
    const gone = new Promise((resolve) => proxy.child.once('exit', resolve));
    signalGroup(proxy.child, 'SIGKILL');
    const waited = new AbortController(); // the timer must not outlive the wait
    const timer = delay(STOP_WAIT_MS, undefined, { signal: waited.signal }).catch(() => undefined);
    await Promise.race([gone, timer]);
    waited.abort();
  }
  rmSync(proxy.dir, { recursive: true, force: true });
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** At the test process's exit: synchronous, so SIGKILL and no wait. */
function endAll(): void {
  for (const proxy of running) {
    signalGroup(proxy.child, 'SIGKILL');
    rmSync(proxy.dir, { recursive: true, force: true });
  }
  running.clear();
}
