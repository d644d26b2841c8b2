/**
 * What `tradereq send` loads before its request leaves, as bench:cli's user sends it: one signed
 * order over plain HTTP, from a folder whose tradereq.env.json names a key profile, keys in
 * TRADEREQ_<PROFILE>_* variables and a state folder that already holds dozens of origins. Counted,
 * not timed: the command line's bundles it reads and Node's modules it loads. The development build
 * of dist/ (ensureBuilt), spawned.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, SANDBOX_KEYS, type Sandbox } from '../../src/sandbox';
import { ensureBuilt } from '../support/build';
import { cleanEnv, ROOT } from '../support/cli';

/** Records, at exit, Node's modules (process.moduleLoadList) and each file of dist/cli/ read. */
const RECORDER = `'use strict';
const fs = require('node:fs');
const read = fs.readFileSync;
const bundles = [];
fs.readFileSync = function (file, ...rest) {
  if (typeof file === 'string' && /[\\\\/]dist[\\\\/]cli[\\\\/]/.test(file)) bundles.push(require('node:path').basename(file));
  return read.call(this, file, ...rest);
};
process.on('exit', () =>
  fs.writeFileSync(process.env.RECORD_TO, JSON.stringify({ modules: process.moduleLoadList, bundles })),
);
`;

interface Recorded {
  readonly modules: readonly string[];
  readonly bundles: readonly string[];
}

describe('what a plain HTTP send loads (counted)', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let dir: string;

  before(() => ensureBuilt());
  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0, limits: false });
    dir = mkdtempSync(join(tmpdir(), 'tradereq-send-loads-'));
  });
  afterEach(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** bench:cli's folder: the order, the env file naming profile "desk", 40 origins' state. */
  function project(): { env: NodeJS.ProcessEnv; state: string } {
    writeFileSync(
      join(dir, 'order.tradereq'),
      'POST /api/v3/order\nsymbol = {{symbol}}\nside = BUY\ntype = LIMIT\nquantity = 0.001\nprice = 20000\n',
    );
    const variables = { symbol: 'BTCUSDT' };
    const environments = {
      local: { baseUrl: sandbox.baseUrl, key: 'desk', variables },
      live: { baseUrl: 'https://api.example.com', key: 'main', confirm: true, variables },
    };
    writeFileSync(join(dir, 'tradereq.env.json'), JSON.stringify(environments, null, 2));
    const state = join(dir, 'state');
    const now = Date.now();
    const entries = (n: number): [number, number][] => Array.from({ length: n }, (_, i) => [now - 1000 * (i + 1), 1]);
    const origins: { [origin: string]: unknown } = {};
    for (let i = 0; i < 40; i++)
      origins[`https://api-${i}.example.com`] = {
        ip: entries(6),
        accounts: { [i.toString(16).padStart(16, '0')]: entries(4) },
        clock: { offsetMs: 0, roundTripMs: 2, measuredAt: now - 1000 * i },
      };
    mkdirSync(state, { recursive: true, mode: 0o700 });
    writeFileSync(join(state, 'state.json'), JSON.stringify({ version: 1, origins }), { mode: 0o600 });
    const key = SANDBOX_KEYS.find((k) => k.name === 'trade')!;
    const env = cleanEnv({
      TRADEREQ_STATE_DIR: state,
      TRADEREQ_ENV: 'local',
      TRADEREQ_DESK_API_KEY: key.apiKey,
      TRADEREQ_DESK_SECRET_KEY: key.secretKey,
      TRADEREQ_DESK_ORIGINS: new URL(sandbox.baseUrl).origin,
    });
    return { env, state };
  }

  /** One send, spawned (the sandbox answers in this process), recorded. */
  function send(env: NodeJS.ProcessEnv): Promise<Recorded> {
    const recorder = join(dir, 'recorder.js');
    const record = join(dir, 'record.json');
    writeFileSync(recorder, RECORDER);
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['-r', recorder, join(ROOT, 'dist', 'cli.js'), 'send', 'order.tradereq'], {
        cwd: dir,
        env: { ...env, RECORD_TO: record },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      child.on('error', reject);
      child.on('close', (status) => {
        if (status !== 0 || !/"status": ?"NEW"/.test(out)) reject(new Error(`send exited ${status}: ${out}`));
        else resolve(JSON.parse(readFileSync(record, 'utf8')) as Recorded);
      });
    });
  }

  it("reads the send bundle and the env file's schema (zod) only", async () => {
    const { env } = project();
    await send(env); // the first send measures the clock
    const r = await send(env);
    assert.deepEqual(
      r.bundles.filter((b) => b.endsWith('.js')),
      ['send.js', 'core-env-schema.js'],
    );
  });

  it('loads none of the Node modules a plain HTTP send does not use', async () => {
    const { env } = project();
    await send(env);
    const { modules } = await send(env);
    for (const name of ['tls', 'https', 'zlib', 'readline', 'worker_threads', 'http2', 'child_process'])
      assert.equal(modules.includes(`NativeModule ${name}`), false, `node:${name} was loaded`);
    assert.ok(modules.includes('NativeModule http'), 'the recorder saw the send');
  });
});
