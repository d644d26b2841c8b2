/**
 * `tradereq sandbox --tls` as a user runs it (dist/cli.js in a child process): HTTPS and WSS with a
 * certificate its own CA signed at start; the CA certificate in the file it names, trusted alone; no
 * private key in any file the process could write (its working, home, temporary and state folders
 * all lie in one folder the test reads whole afterwards); and the certificates' code loaded only
 * with --tls.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { ensureBuilt } from '../support/build';
import { CLI, cleanEnv, ROOT } from '../support/cli';
import { certificatesOf, httpsFailure, httpsGet, publicPoint, wssPing } from '../support/tls';

interface Running {
  readonly child: ChildProcess;
  /** The first line of standard output. */
  readonly first: string;
  /** Standard output and error, as far as written. */
  readonly output: () => string;
  /** SIGTERM, then the exit code. */
  readonly stop: () => Promise<number | null>;
}

/** Every file under `dir`, with its path. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : e.isFile() ? [p] : [];
  });
}

/**
 * The forms a written key of `point` would show: a private key's file (PEM or DER, PKCS #8 or SEC 1)
 * carries its public point too, and a JWK its x and y. The bytes, hex, and base64 (and base64url)
 * at each of the three alignments with the edges trimmed.
 */
function writtenForms(point: Buffer): Buffer[] {
  const forms: Buffer[] = [];
  // P-256's uncompressed point: 0x04, then x and y of 32 bytes each.
  for (const part of [point, point.subarray(1, 33), point.subarray(33)]) {
    forms.push(part, Buffer.from(part.toString('hex')));
    for (let skip = 0; skip < 3; skip++) {
      for (const encoding of ['base64', 'base64url'] as const) {
        const text = part.subarray(skip).toString(encoding).replace(/=+$/, '');
        forms.push(Buffer.from(text.slice(4, -4)));
      }
    }
  }
  return forms;
}

describe('tradereq sandbox --tls, as a process', function () {
  this.timeout(60_000);
  let root: string;
  let state: string;
  let temp: string;
  const children: ChildProcess[] = [];

  before(() => ensureBuilt());
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'tradereq-sandbox-tls-'));
    state = join(root, 'state');
    temp = join(root, 'tmp');
    for (const d of [state, temp, join(root, 'home'), join(root, 'work')]) mkdirSync(d);
  });
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  /** Every place the process may write, inside `root`. */
  function env(): NodeJS.ProcessEnv {
    const home = join(root, 'home');
    return cleanEnv({
      TRADEREQ_STATE_DIR: state,
      HOME: home,
      USERPROFILE: home,
      APPDATA: home,
      LOCALAPPDATA: home,
      TMPDIR: temp,
      TMP: temp,
      TEMP: temp,
    });
  }

  async function start(args: string[]): Promise<Running> {
    const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', ...args], {
      cwd: join(root, 'work'),
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const first = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', () => reject(new Error(`exited before printing: ${output}`)));
    });
    const stop = (): Promise<number | null> => {
      child.kill('SIGTERM');
      return exited;
    };
    return { child, first, output: () => output, stop };
  }

  it('--json: https and wss URLs and the CA file; trusted with that CA alone, not without it', async () => {
    const sandbox = await start(['--tls', '--json']);
    const info = JSON.parse(sandbox.first) as { baseUrl: string; wsUrl: string; caFile: string };
    assert.match(info.baseUrl, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(info.wsUrl, info.baseUrl.replace('https:', 'wss:') + '/ws');
    assert.ok(!relative(temp, info.caFile).startsWith('..'), `${info.caFile} is in the temporary folder`);
    const ca = readFileSync(info.caFile, 'utf8');
    assert.equal(certificatesOf(ca).length, 1);
    assert.doesNotMatch(ca, /PRIVATE/);

    const answer = await httpsGet(`${info.baseUrl}/api/v3/time`, { ca });
    assert.equal(answer.status, 200);
    assert.match(answer.body, /"serverTime":\d+/);
    assert.equal(await httpsFailure(`${info.baseUrl}/api/v3/time`), 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    assert.deepEqual(JSON.parse(await wssPing(info.wsUrl, ca)), { id: 0, code: 0, msg: 'PONG' });

    assert.equal(await sandbox.stop(), 0);
    assert.equal(existsSync(info.caFile), false, 'the CA file it made is removed when it stops');
  });

  // SIGTERM is POSIX's: on Windows, kill() ends the process at once, with nothing to catch.
  (process.platform === 'win32' ? it.skip : it)(
    'SIGTERM as soon as the address is read still stops it cleanly: exit 0, its CA file removed',
    async () => {
      // A script stops its sandbox the moment it is done, and that can be the moment the address is printed.
      for (let round = 0; round < 5; round++) {
        const sandbox = await start(['--tls', '--json']);
        const { caFile } = JSON.parse(sandbox.first) as { caFile: string };
        assert.equal(await sandbox.stop(), 0, `round ${round}`);
        assert.equal(existsSync(caFile), false, `round ${round}: ${caFile} is left`);
      }
    },
  );

  it('--tls-name and --tls-ca: a name only a proxy would route here is in the certificate; the banner names the file', async () => {
    const caFile = join(root, 'work', 'sandbox-ca.pem');
    const sandbox = await start(['--tls', '--tls-name', 'api.live.invalid', '--tls-ca', 'sandbox-ca.pem']);
    assert.match(sandbox.first, /^Sandbox exchange listening on https:\/\/127\.0\.0\.1:\d+$/);
    const baseUrl = sandbox.first.split(' ').at(-1)!;
    // The banner is written at once; its CA line follows the first.
    const banner = await new Promise<string>((resolve) => {
      const check = (): void =>
        sandbox.output().includes('Stop with Ctrl+C.') ? resolve(sandbox.output()) : undefined;
      sandbox.child.stdout!.on('data', check);
      check();
    });
    assert.match(banner, /wss:\/\/127\.0\.0\.1:\d+\/ws/);
    assert.ok(banner.includes(`CA certificate: ${caFile}`), banner);
    assert.match(banner, /names localhost, 127\.0\.0\.1, ::1, api\.live\.invalid/);
    const ca = readFileSync(caFile, 'utf8');
    const named = await httpsGet(`${baseUrl}/api/v3/ping`, { ca, servername: 'api.live.invalid' });
    assert.equal(named.status, 200);
    const other = await httpsFailure(`${baseUrl}/api/v3/ping`, { ca, servername: 'other.invalid' });
    assert.equal(other, 'ERR_TLS_CERT_ALTNAME_INVALID');
    assert.equal(await sandbox.stop(), 0);
    assert.ok(existsSync(caFile), 'the file the user named is left');
  });

  it('no private key is written: not in any file the process could write, nor in its output', async () => {
    const sandbox = await start(['--tls', '--json', '--tls-ca', join(root, 'work', 'ca.pem')]);
    const info = JSON.parse(sandbox.first) as { baseUrl: string; caFile: string };
    const ca = readFileSync(info.caFile, 'utf8');
    const { peer } = await httpsGet(`${info.baseUrl}/api/v3/ping`, { ca });
    const serverKey = writtenForms(publicPoint(new X509Certificate(peer.raw)));
    const caKey = writtenForms(publicPoint(certificatesOf(ca)[0]!));
    assert.equal(await sandbox.stop(), 0);

    const files = filesUnder(root);
    assert.ok(files.some((f) => f.includes('code-cache')) || process.platform === 'win32', files.join('\n'));
    for (const file of files) {
      const bytes = readFileSync(file);
      assert.equal(bytes.includes('PRIVATE KEY'), false, file);
      for (const form of serverKey) assert.equal(bytes.includes(form), false, `the server's key in ${file}`);
      // The CA's certificate holds its public key; no other file may.
      if (file !== info.caFile)
        for (const form of caKey) assert.equal(bytes.includes(form), false, `the CA's key in ${file}`);
    }
    assert.doesNotMatch(sandbox.output(), /PRIVATE/);
  });

  // The command line keeps V8's code cache of each bundle it loads (not on Windows, src/cli/code-cache.ts).
  (process.platform === 'win32' ? it.skip : it)(
    'the certificates load only with --tls: the plain sandbox loads no bundle of them',
    async () => {
      const loaded = (): string[] =>
        existsSync(join(state, 'code-cache'))
          ? readdirSync(join(state, 'code-cache')).map((f) => f.replace(/-\w+\.bin$/, ''))
          : [];
      const plain = await start(['--json']);
      assert.match(plain.first, /"baseUrl":"http:\/\//);
      assert.equal(await plain.stop(), 0);
      assert.deepEqual(loaded(), ['sandbox']);
      const tls = await start(['--tls', '--json']);
      assert.equal(await tls.stop(), 0);
      assert.deepEqual(loaded().sort(), ['sandbox', 'sandbox-certificates']);

      const bundle = (name: string): string => readFileSync(join(ROOT, 'dist', name), 'utf8');
      assert.doesNotMatch(bundle('cli/sandbox.js'), /node_modules\/@peculiar\//);
      assert.match(bundle('cli/sandbox-certificates.js'), /node_modules\/@peculiar\/asn1-x509\//);
      // The editor's sandbox is plain HTTP: its bundle holds neither the certificates nor their library.
      assert.doesNotMatch(bundle('tools.js'), /node_modules\/@peculiar\//);
      assert.ok(statSync(join(ROOT, 'dist', 'cli', 'sandbox.js')).size < statSync(join(ROOT, 'dist', 'tools.js')).size);
    },
  );
});
