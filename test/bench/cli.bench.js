#!/usr/bin/env node
// `npm run bench:cli`: how long people wait for the command line, against what Node itself costs.
// Every row is a fresh process, run in alternation with its baseline (round after round, so a busy
// moment of the machine falls on all of them), median over the rounds. Every process measured is
// pinned to one CPU with taskset (the sandbox to another one when there is one), so that a second
// core does not hide what a process costs (garbage collection and compilation threads); without
// taskset the runs are not pinned and the output says so. Peak memory is the kernel's (GNU time's
// %M, the process's maximum resident set), taken in a second, separately spawned run of each case
// in the same round, so that the timed runs have no wrapper but taskset. Rows:
//   tradereq --help and tradereq errors 700003, against `node -e 0`;
//   tradereq send of one signed LIMIT order to the sandbox (its own process, limits off), as a user
//   sends it: from a folder with a tradereq.env.json whose environment names a key profile, the
//   profile's keys and origins in TRADEREQ_<PROFILE>_* variables, and a state folder that already
//   holds the rate-limit state of a few dozen origins (the clock offset is measured in a warm-up
//   send, so each timed send makes one request), against a minimal node:http script that signs the
//   same order with node:crypto and sends it;
//   tradereq send against httpyac's command line sending the same signed order (installed with
//   `npm install --no-save httpyac` into the benchmark's temporary folder; skipped when that fails);
//   tradereq send of the same order over HTTPS to a TLS sandbox (`tradereq sandbox --tls`), direct to
//   https://127.0.0.1, and through a real proxy (Debian's tinyproxy, test/support/proxy.ts) to a name
//   only the proxy resolves: what the proxy adds to a send (skipped where tinyproxy cannot run).
// It prints figures, not verdicts: no time is asserted anywhere.
// Every tradereq row is measured twice in the same rounds: this tree and the previous build (issue
// 34's final tree, or --base REV; test/bench/previous-build.js), printed side by side.
// Options: --runs N (default 20), --cli PATH (another build, e.g. an older one; default: build
// with esbuild.js --production, as the package is, into the benchmark's temporary folder, leaving
// dist/ alone, and use its cli.js), --base REV (the previous build's commit), --no-base (this build alone), --no-https (leave out the https rows: a build without --cacert), --cpu N (the CPU to pin to; default the last one), --no-httpyac,
// --httpyac-dir DIR (install httpyac there, or use the copy already there, and keep it), --json
// FILE (the figures as JSON).
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { performance } = require('node:perf_hooks');
const { createInterface } = require('node:readline');

const { REPO, baseRevision, build, buildRevision, describe } = require('./previous-build.js');
/** The name of the TLS sandbox that only the proxy resolves. */
const PROXIED_HOST = 'api.live.invalid';
const TIME = '/usr/bin/time';

function option(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const RUNS = Number(option('--runs') ?? 20);
const JSON_OUT = option('--json');
const TASKSET = '/usr/bin/taskset';
/** The CPU every measured process runs on, and another for the sandbox (undefined without taskset or a second CPU). */
const CPUS = (() => {
  if (!fs.existsSync(TASKSET)) return undefined;
  const count = os.cpus().length;
  const measured = Number(option('--cpu') ?? count - 1);
  return { measured, sandbox: count > 1 ? (measured + 1) % count : undefined };
})();

/** argv run on `cpu` (through taskset, which execs it: the same process), or as it is without taskset. */
function pinned(argv, cpu) {
  return cpu === undefined ? argv : [TASKSET, '-c', String(cpu), ...argv];
}

/** The minimal client the send row is measured against: sign with node:crypto, send with node:http. */
const MINIMAL_CLIENT = `'use strict';
const http = require('node:http');
const { createHmac } = require('node:crypto');
const [baseUrl, apiKey, secretKey] = process.argv.slice(2);
const body = 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.001&price=20000&timestamp=' + Date.now();
const signature = createHmac('sha256', secretKey).update(body).digest('hex');
const req = http.request(baseUrl + '/api/v3/order?signature=' + signature, {
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-SERVICE-APIKEY': apiKey, 'Content-Length': Buffer.byteLength(body) },
}, (res) => {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (c) => (text += c));
  res.on('end', () => {
    console.log(res.statusCode, text);
    process.exitCode = res.statusCode === 200 ? 0 : 1;
  });
});
req.on('error', (e) => { console.error(e.message); process.exitCode = 1; });
req.end(body);
`;

const ORDER = `POST /api/v3/order
symbol = {{symbol}}
side = BUY
type = LIMIT
quantity = 0.001
price = 20000
`;

/** The same order for httpyac: a script block signs it (same body, same HMAC) before the request. */
const HTTPYAC_FILE = `{{
  const { createHmac } = require('crypto');
  exports.orderBody = 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.001&price=20000&timestamp=' + Date.now();
  exports.signature = createHmac('sha256', secretKey).update(exports.orderBody).digest('hex');
}}
POST {{baseUrl}}/api/v3/order?signature={{signature}}
Content-Type: application/x-www-form-urlencoded
X-SERVICE-APIKEY: {{apiKey}}

{{orderBody}}
`;

/**
 * The builds measured: `now`, --cli or else the production build (what the package holds) made into
 * `dir`, leaving dist/ to the tests; `previous`, the previous build's cli.js (undefined with --no-base).
 */
function buildClis(dir) {
  const given = option('--cli');
  const outdir = path.join(dir, 'dist');
  if (!given) build(REPO, outdir);
  const rev = baseRevision();
  return {
    now: given ? path.resolve(given) : path.join(outdir, 'cli.js'),
    previous: rev && path.join(buildRevision(rev, path.join(dir, 'previous')), 'dist', 'cli.js'),
    rev,
  };
}

/** The profile the environment names; its keys and origins come from TRADEREQ_DESK_* (docs/guide.md, "Keys"). */
const PROFILE = 'desk';

/** The user's folder: a tradereq.env.json whose one environment points at the sandbox and names the key profile. */
function writeProject(dir, baseUrl, tls) {
  fs.writeFileSync(path.join(dir, 'order.tradereq'), ORDER);
  const variables = { symbol: 'BTCUSDT' };
  const env = {
    local: { baseUrl, key: PROFILE, variables },
    ...(tls && {
      'tls-direct': { baseUrl: tls.direct, key: PROFILE, variables },
      'tls-proxied': { baseUrl: tls.proxied, key: PROFILE, variables },
    }),
    live: { baseUrl: 'https://api.example.com', key: 'main', confirm: true, variables: { symbol: 'BTCUSDT' } },
  };
  fs.writeFileSync(path.join(dir, 'tradereq.env.json'), JSON.stringify(env, null, 2));
}

/** The process environment of every run: the state folder and the key profile, no other TRADEREQ_ variable. */
function runEnv(stateDir, sandbox, tls) {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (/^TRADEREQ_/.test(k)) delete env[k];
  const prefix = `TRADEREQ_${PROFILE.toUpperCase()}_`;
  return {
    ...env,
    TRADEREQ_STATE_DIR: stateDir,
    TRADEREQ_ENV: 'local',
    [`${prefix}API_KEY`]: sandbox.key.apiKey,
    [`${prefix}SECRET_KEY`]: sandbox.key.secretKey,
    [`${prefix}ORIGINS`]: [sandbox.baseUrl, ...(tls ? [tls.direct, tls.proxied] : [])]
      .map((u) => new URL(u).origin)
      .join(','),
  };
}

/**
 * A state folder as a user's looks after a while: the rate-limit state of 40 other origins, each
 * with its clock offset and requests counted against its IP and an account (src/core/budget/state.ts).
 */
function prefillState(stateDir) {
  const now = Date.now();
  const entries = (n) => Array.from({ length: n }, (_, i) => [now - 1000 * (i + 1), 1 + (i % 4)]);
  const origins = {};
  for (let i = 0; i < 40; i++) {
    const origin = i % 4 === 0 ? `http://127.0.0.1:${20000 + i}` : `https://api-${i}.example.com`;
    origins[origin] = {
      ip: entries(6),
      accounts: { [`${(i * 7919).toString(16).padStart(16, '0')}`]: entries(4) },
      clock: { offsetMs: i - 20, roundTripMs: 2 + (i % 5), measuredAt: now - 1000 * i },
    };
  }
  fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(stateDir, 'state.json'), JSON.stringify({ version: 1, origins }), { mode: 0o600 });
}

/** The sandbox in a process of its own, limits off; resolves with its address and demo keys. */
async function startSandbox(cli, extra = []) {
  const [cmd, ...args] = pinned(
    [process.execPath, cli, 'sandbox', '--port', '0', '--json', '--no-limits', ...extra],
    CPUS?.sandbox,
  );
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before printing its address`)));
  });
  child.stdout.resume();
  const info = JSON.parse(line);
  return { child, baseUrl: info.baseUrl, caFile: info.caFile, key: info.keys.find((k) => k.name === 'trade') };
}

/** One run: wall time from spawn to exit (ms), or peak RSS (KiB) when run under GNU time. */
function runOnce({ argv, expect, env: own }, { cwd, env, memory }) {
  return new Promise((resolve, reject) => {
    const marker = `@@peak `;
    const run = pinned(argv, CPUS?.measured);
    const [cmd, args] = memory ? [TIME, ['-f', `${marker}%M`, ...run]] : [run[0], run.slice(1)];
    const start = performance.now();
    const child = spawn(cmd, args, { cwd, env: own ?? env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - start;
      // A run that did not do its work (an order refused, a failed send) would make a meaningless figure.
      if (code !== 0 || (expect && !expect.test(out)))
        return reject(new Error(`${argv.join(' ')} exited ${code}\n${out.slice(0, 2000)}\n${err.slice(0, 2000)}`));
      if (!memory) return resolve(ms);
      const m = new RegExp(`${marker}(\\d+)`).exec(err);
      if (!m) return reject(new Error(`no peak memory from ${TIME}: ${err.slice(0, 500)}`));
      resolve(Number(m[1]));
    });
  });
}

/** httpyac in the benchmark's own folder (never a project dependency); undefined when it cannot be had. */
function installHttpyac(dir) {
  if (process.argv.includes('--no-httpyac')) return { skipped: '--no-httpyac' };
  fs.mkdirSync(dir, { recursive: true });
  const bin = path.join(dir, 'node_modules', 'httpyac', 'bin', 'httpyac.js');
  if (fs.existsSync(bin)) return { bin, version: httpyacVersion(dir) };
  console.log(`installing httpyac into ${dir} (npm install --no-save httpyac) ...`);
  const r = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', 'httpyac'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 10 * 60_000,
  });
  if (r.status !== 0 || !fs.existsSync(bin)) {
    const why = r.error ? r.error.message : (r.stderr || r.stdout || '').trim().split('\n').slice(-3).join(' ');
    return { skipped: `npm install httpyac failed (${why || `exit ${r.status}`})` };
  }
  return { bin, version: httpyacVersion(dir) };
}

function httpyacVersion(dir) {
  return JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', 'httpyac', 'package.json'), 'utf8')).version;
}

/** A difference with its sign, +1.0 or −1.0. */
function signed(v) {
  return `${v < 0 ? '−' : '+'}${Math.abs(v).toFixed(1)}`;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The cases, each an argv run from `dir` with `env`; every tradereq case twice when there is a previous build. */
function cases(builds, dir, sandbox, httpyac, tls) {
  const list = { ...baselines(dir, sandbox, httpyac), ...tradereqCases(builds.now, sandbox, tls) };
  if (!builds.previous) return list;
  // A state folder of its own: the code cache lives there, and each build's would replace the other's.
  const previous = tradereqCases(builds.previous, sandbox, tls);
  return {
    ...list,
    ...Object.fromEntries(
      Object.entries(previous).map(([name, c]) => [`${name} (previous)`, { ...c, env: builds.previousEnv }]),
    ),
  };
}

/** What tradereq is measured against: Node itself, the minimal client and httpyac. */
function baselines(dir, sandbox, httpyac) {
  const node = process.execPath;
  const { baseUrl, key } = sandbox;
  const list = {
    'node -e 0': { argv: [node, '-e', '0'] },
    'minimal node:http client': {
      argv: [node, path.join(dir, 'minimal-client.js'), baseUrl, key.apiKey, key.secretKey],
      expect: PLACED,
    },
  };
  if (httpyac.bin) {
    list[`httpyac ${httpyac.version} send`] = {
      argv: [
        ...[node, httpyac.bin, 'send', 'order.http', '--all', '--var', `baseUrl=${baseUrl}`],
        ...[`apiKey=${key.apiKey}`, `secretKey=${key.secretKey}`],
      ],
      expect: PLACED,
    };
  }
  return list;
}

/** An order the sandbox placed. */
const PLACED = /"status": ?"NEW"/;

/** The tradereq cases of one build (its cli.js). */
function tradereqCases(cli, sandbox, tls) {
  const node = process.execPath;
  const list = {
    'tradereq --help': { argv: [node, cli, '--help'], expect: /^Usage: tradereq/ },
    'tradereq errors 700003': { argv: [node, cli, 'errors', '700003'], expect: /^700003: / },
    'tradereq send': { argv: [node, cli, 'send', 'order.tradereq'], expect: PLACED },
  };
  if (tls) {
    const over = ['send', 'order.tradereq', '--cacert', tls.caFile];
    list['tradereq send, https direct'] = { argv: [node, cli, ...over, '--env', 'tls-direct'], expect: PLACED };
    list['tradereq send, https through the proxy'] = {
      argv: [node, cli, ...over, '--env', 'tls-proxied', '--proxy', tls.proxy.url],
      expect: PLACED,
    };
  }
  return list;
}

async function measure(list, options) {
  const names = Object.keys(list);
  const figures = Object.fromEntries(names.map((n) => [n, { ms: [], kib: [] }]));
  // Warm-up: the file cache, and the send's clock offset (measured once, kept in the state folder).
  for (const n of names) await runOnce(list[n], options);
  for (let round = 0; round < RUNS; round++) {
    for (const n of names) {
      figures[n].ms.push(await runOnce(list[n], options));
      figures[n].kib.push(await runOnce(list[n], { ...options, memory: true }));
    }
    process.stdout.write(`\rround ${round + 1}/${RUNS}`);
  }
  process.stdout.write('\n');
  return Object.fromEntries(names.map((n) => [n, { ms: median(figures[n].ms), mib: median(figures[n].kib) / 1024 }]));
}

/** Issue 35's targets: [case, baseline, time ratio, memory ratio]. */
function targetRows(results) {
  return [
    ['tradereq --help', 'node -e 0', 1.3, undefined],
    ['tradereq errors 700003', 'node -e 0', 1.1, undefined],
    ['tradereq send', 'minimal node:http client', 1.1, 1.3],
    ['tradereq send', Object.keys(results).find((n) => n.startsWith('httpyac')), 0.12, undefined],
  ];
}

/** The medians, each tradereq case beside the previous build's ("—" without one). */
function reportCases(results) {
  const cell = (r) => (r ? `${r.ms.toFixed(0)} ms, ${r.mib.toFixed(1)} MiB` : '—');
  console.log('\n| case | median time, peak memory | previous build |');
  console.log('| --- | --- | --- |');
  for (const [n, r] of Object.entries(results)) {
    if (n.endsWith(' (previous)')) continue;
    const previous = n.startsWith('tradereq') ? cell(results[`${n} (previous)`]) : '';
    console.log(`| ${n} | ${cell(r)} | ${previous} |`);
  }
}

function report(results, httpyac) {
  reportCases(results);
  const x = (v) => `${v.toFixed(2)}x`;
  const mark = (v, target) => (target === undefined ? '' : v <= target ? ' ✔' : ' ✘');
  console.log('\n| ratio | time | previous build | target | memory | previous build | target |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  const ratios = [];
  for (const [a, b, timeTarget, memTarget] of targetRows(results)) {
    if (!b) {
      console.log(`| ${a} vs httpyac | skipped: ${httpyac.skipped} | | ≤ ${x(timeTarget)} | | | |`);
      continue;
    }
    const ratio = (name) =>
      results[name] && { time: results[name].ms / results[b].ms, memory: results[name].mib / results[b].mib };
    const now = ratio(a);
    const previous = ratio(`${a} (previous)`);
    ratios.push({ case: a, baseline: b, ...now, previous, timeTarget, memTarget });
    console.log(
      `| ${a} vs ${b} | ${x(now.time)}${mark(now.time, timeTarget)} | ${previous ? x(previous.time) : '—'} | ≤ ${x(timeTarget)} | ${x(now.memory)}${mark(now.memory, memTarget)} | ${previous ? x(previous.memory) : '—'} | ${memTarget ? `≤ ${x(memTarget)}` : '—'} |`,
    );
  }
  reportProxy(results, '');
  if (results['tradereq send, https direct (previous)']) reportProxy(results, ' (previous)');
  return ratios;
}

/** What the proxy adds to an https send, in one build's rows. */
function reportProxy(results, suffix) {
  const direct = results[`tradereq send, https direct${suffix}`];
  const proxied = results[`tradereq send, https through the proxy${suffix}`];
  if (direct && proxied)
    console.log(
      `\nthrough the proxy${suffix} (tinyproxy, one CONNECT tunnel): ${signed(proxied.ms - direct.ms)} ms and ${signed(proxied.mib - direct.mib)} MiB against the direct https send`,
    );
}

/** A TLS sandbox and tinyproxy, which alone resolves PROXIED_HOST to it; undefined (said) where tinyproxy cannot run. */
async function startProxied(cli) {
  if (process.argv.includes('--no-https')) {
    console.log('https rows skipped: --no-https');
    return undefined;
  }
  const { proxyAvailable, startProxy } = require('../support/proxy.ts');
  const available = proxyAvailable();
  if (!available.ok) {
    console.log(`https rows skipped: ${available.reason}`);
    return undefined;
  }
  const sandbox = await startSandbox(cli, ['--tls', '--tls-name', PROXIED_HOST]);
  const proxy = await startProxy({ hosts: { [PROXIED_HOST]: '127.0.0.1' } });
  const port = new URL(sandbox.baseUrl).port;
  return {
    sandbox,
    proxy,
    caFile: sandbox.caFile,
    direct: sandbox.baseUrl,
    proxied: `https://${PROXIED_HOST}:${port}`,
  };
}

async function main() {
  if (!fs.existsSync(TIME)) throw new Error(`${TIME} (GNU time) is needed for peak memory: apt-get install time`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-bench-cli-'));
  let sandbox;
  let tls;
  try {
    const builds = buildClis(dir);
    const cli = builds.now;
    fs.writeFileSync(path.join(dir, 'minimal-client.js'), MINIMAL_CLIENT);
    fs.writeFileSync(path.join(dir, 'order.http'), HTTPYAC_FILE);
    const httpyacDir = option('--httpyac-dir');
    const httpyac = installHttpyac(httpyacDir ? path.resolve(httpyacDir) : path.join(dir, 'httpyac'));
    if (httpyac.skipped) console.log(`httpyac row skipped: ${httpyac.skipped}`);
    sandbox = await startSandbox(cli);
    tls = await startProxied(cli);
    writeProject(dir, sandbox.baseUrl, tls);
    const stateDir = path.join(dir, 'state');
    prefillState(stateDir);
    const env = runEnv(stateDir, sandbox, tls);
    if (builds.previous) {
      prefillState(path.join(dir, 'state-previous'));
      builds.previousEnv = runEnv(path.join(dir, 'state-previous'), sandbox, tls);
    }
    if (builds.previous) console.log(`previous build: ${describe(builds.rev)} (${builds.previous})`);
    console.log(
      `${cli}; ${RUNS} rounds; Node ${process.version}; ${os.cpus().length} cores; load ${os.loadavg()[0].toFixed(2)}`,
    );
    console.log(
      CPUS
        ? `every measured process pinned to CPU ${CPUS.measured} (taskset -c ${CPUS.measured})${CPUS.sandbox === undefined ? '' : `, the sandbox to CPU ${CPUS.sandbox}`}`
        : `not pinned: ${TASKSET} is missing (apt-get install util-linux), so the runs may use every core`,
    );
    console.log(
      `send: from a folder with tradereq.env.json (environment "local", key profile "${PROFILE}" from TRADEREQ_${PROFILE.toUpperCase()}_*), state folder prefilled with 40 origins (one per build: the code cache is kept there)`,
    );
    const results = await measure(cases(builds, dir, sandbox, httpyac, tls), { cwd: dir, env });
    const ratios = report(results, httpyac);
    console.log(`load average after: ${os.loadavg()[0].toFixed(2)}`);
    if (JSON_OUT)
      fs.writeFileSync(
        JSON_OUT,
        JSON.stringify(
          { cli, previous: builds.previous ?? null, runs: RUNS, cpus: CPUS ?? null, results, ratios },
          null,
          2,
        ),
      );
  } finally {
    sandbox?.child.kill();
    tls?.sandbox.child.kill();
    await tls?.proxy.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
