#!/usr/bin/env node
// `npm run bench:tls`: what makes the TLS sandbox's certificates (`tradereq sandbox --tls`,
// src/sandbox/certificates.ts), measured side by side with the libraries it could have used, and
// what --tls adds to the sandbox's start. It prints figures, not verdicts: no time is asserted.
//
// Candidates, each making the same pair at start: a CA (basic constraints, key usage) and a server
// certificate it signs for localhost, 127.0.0.1, ::1 and api.live.invalid, with the server's key
// as PEM for node:tls:
//   @peculiar/asn1-x509 (X.509's structures) with node:crypto's keys and signatures, ECDSA P-256:
//     the sandbox's own src/sandbox/certificates.ts, bundled from the repository;
//   @peculiar/x509 (WebCrypto, ECDSA P-256; with reflect-metadata, which its tsyringe needs);
//   selfsigned (ECDSA P-256, the server's certificate signed with the CA's key);
//   node-forge (RSA 2048: forge signs with RSA only; its keys made by node:crypto, faster than forge's own).
// The three others are installed with `npm install --no-save` into the benchmark's temporary folder
// (never project dependencies); each is checked once (a TLS handshake trusting its CA) before it is
// measured. Figures: the bundle (esbuild, minified, as the production build makes it) of the part
// that makes certificates; in fresh processes run in alternation, round after round (so a busy
// moment falls on all of them), each pinned to one CPU with taskset when there is one: the time to
// require() the bundle, and the time its first call takes to make the CA and the server's
// certificate; medians over the rounds, and each candidate's median difference from the sandbox's
// own in the same rounds (paired).
// Then the sandbox itself, from the production build made into the temporary folder: the time from
// spawn to the first line of `tradereq sandbox --port 0 --json`, with and without --tls, through V8's
// code cache as a user's second start has it; with --cli-before PATH (another build's cli.js), its
// plain start in the same rounds.
// Options: --runs N (default 15), --cpu N (default the last one), --cli-before PATH, --json FILE.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { performance } = require('node:perf_hooks');
const { createInterface } = require('node:readline');
const esbuild = require('esbuild');

const REPO = path.resolve(__dirname, '..', '..');
const NAMES = ['localhost', '127.0.0.1', '::1', 'api.live.invalid'];

function option(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const RUNS = Number(option('--runs') ?? 15);
const TASKSET = '/usr/bin/taskset';
const CPU = fs.existsSync(TASKSET) ? Number(option('--cpu') ?? os.cpus().length - 1) : undefined;

/** argv on the measured CPU (taskset execs it: the same process), or as it is without taskset. */
function pinned(argv) {
  return CPU === undefined ? argv : [TASKSET, '-c', String(CPU), ...argv];
}

/** How each candidate makes the pair; `make(names)` resolves with { ca, cert, key } as PEM. */
const CANDIDATES = {
  'asn1-x509 + node:crypto': {
    packages: [],
    versionOf: '@peculiar/asn1-x509',
    key: 'ECDSA P-256',
    entry: () => `
      const { makeCertificates } = require(${JSON.stringify(path.join(REPO, 'src', 'sandbox', 'certificates.ts'))});
      exports.make = async (names) => {
        const c = makeCertificates(names, Date.now());
        return { ca: c.caPem, cert: c.certPem, key: c.keyPem };
      };`,
  },
  '@peculiar/x509': {
    packages: ['@peculiar/x509', 'reflect-metadata'],
    versionOf: '@peculiar/x509',
    key: 'ECDSA P-256',
    entry: () => `
      require('reflect-metadata');
      const x509 = require('@peculiar/x509');
      const { webcrypto, randomBytes } = require('node:crypto');
      const { isIP } = require('node:net');
      x509.cryptoProvider.set(webcrypto);
      const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
      const serial = () => '01' + randomBytes(15).toString('hex');
      exports.make = async (names) => {
        const notBefore = new Date(Date.now() - 3600e3), notAfter = new Date(Date.now() + 7 * 864e5);
        const caKeys = await webcrypto.subtle.generateKey(EC, false, ['sign', 'verify']);
        const ca = await x509.X509CertificateGenerator.createSelfSigned({
          serialNumber: serial(), name: 'CN=TradeReq sandbox CA', notBefore, notAfter, keys: caKeys, signingAlgorithm: EC,
          extensions: [
            new x509.BasicConstraintsExtension(true, 0, true),
            new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
          ],
        });
        const keys = await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify']);
        const cert = await x509.X509CertificateGenerator.create({
          serialNumber: serial(), subject: 'CN=localhost', issuer: ca.subject, notBefore, notAfter,
          signingKey: caKeys.privateKey, publicKey: keys.publicKey, signingAlgorithm: EC,
          extensions: [
            new x509.BasicConstraintsExtension(false, undefined, true),
            new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
            new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
            new x509.SubjectAlternativeNameExtension(names.map((n) => ({ type: isIP(n) ? 'ip' : 'dns', value: n }))),
          ],
        });
        const key = x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
        return { ca: ca.toString('pem'), cert: cert.toString('pem'), key };
      };`,
  },
  selfsigned: {
    packages: ['selfsigned'],
    versionOf: 'selfsigned',
    key: 'ECDSA P-256',
    entry: () => `
      const selfsigned = require('selfsigned');
      const { isIP } = require('node:net');
      exports.make = async (names) => {
        const o = { keyType: 'ec', curve: 'P-256', algorithm: 'sha256', notBeforeDate: new Date(Date.now() - 3600e3), notAfterDate: new Date(Date.now() + 7 * 864e5) };
        const ca = await selfsigned.generate([{ name: 'commonName', value: 'TradeReq sandbox CA' }], { ...o, extensions: [
          { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
          { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
        ] });
        const server = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], { ...o, ca: { key: ca.private, cert: ca.cert }, extensions: [
          { name: 'basicConstraints', cA: false, critical: true },
          { name: 'keyUsage', digitalSignature: true, critical: true },
          { name: 'extKeyUsage', serverAuth: true },
          { name: 'subjectAltName', altNames: names.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })) },
        ] });
        return { ca: ca.cert, cert: server.cert, key: server.private };
      };`,
  },
  'node-forge': {
    packages: ['node-forge'],
    versionOf: 'node-forge',
    key: 'RSA 2048',
    entry: () => `
      const forge = require('node-forge');
      const { generateKeyPairSync, randomBytes } = require('node:crypto');
      const { isIP } = require('node:net');
      const pki = forge.pki;
      function keys() {
        const k = generateKeyPairSync('rsa', { modulusLength: 2048 });
        return {
          privateKey: pki.privateKeyFromPem(k.privateKey.export({ type: 'pkcs1', format: 'pem' })),
          publicKey: pki.publicKeyFromPem(k.publicKey.export({ type: 'spki', format: 'pem' })),
          pem: k.privateKey.export({ type: 'pkcs8', format: 'pem' }),
        };
      }
      function certificate(publicKey, subject, issuer, extensions, signer) {
        const c = pki.createCertificate();
        c.publicKey = publicKey;
        c.serialNumber = '01' + randomBytes(15).toString('hex');
        c.validity.notBefore = new Date(Date.now() - 3600e3);
        c.validity.notAfter = new Date(Date.now() + 7 * 864e5);
        c.setSubject([{ name: 'commonName', value: subject }]);
        c.setIssuer([{ name: 'commonName', value: issuer }]);
        c.setExtensions(extensions);
        c.sign(signer, forge.md.sha256.create());
        return pki.certificateToPem(c);
      }
      exports.make = async (names) => {
        const ca = keys();
        const server = keys();
        const caPem = certificate(ca.publicKey, 'TradeReq sandbox CA', 'TradeReq sandbox CA', [
          { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
          { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
        ], ca.privateKey);
        const cert = certificate(server.publicKey, 'localhost', 'TradeReq sandbox CA', [
          { name: 'basicConstraints', cA: false, critical: true },
          { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
          { name: 'extKeyUsage', serverAuth: true },
          { name: 'subjectAltName', altNames: names.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })) },
        ], ca.privateKey);
        return { ca: caPem, cert, key: server.pem };
      };`,
  },
};

/** What each measured process runs: require the bundle, make the pair once, print both times. */
const RUNNER = `'use strict';
const t0 = process.hrtime.bigint();
const m = require(process.argv[2]);
const t1 = process.hrtime.bigint();
m.make(${JSON.stringify(NAMES)}).then((pair) => {
  const t2 = process.hrtime.bigint();
  if (!/BEGIN CERTIFICATE/.test(pair.ca) || !/BEGIN CERTIFICATE/.test(pair.cert) || !/PRIVATE KEY/.test(pair.key)) throw new Error('no pair');
  console.log(JSON.stringify({ loadMs: Number(t1 - t0) / 1e6, makeMs: Number(t2 - t1) / 1e6 }));
});
`;

/** One check per candidate before it is measured: node:tls serves its pair, and a client trusting its CA alone is answered. */
const CHECK = `'use strict';
const https = require('node:https');
require(process.argv[2]).make(${JSON.stringify(NAMES)}).then((pair) => {
  const server = https.createServer({ key: pair.key, cert: pair.cert }, (q, r) => r.end('ok'));
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    https.get({ host: '127.0.0.1', port, ca: pair.ca, servername: 'api.live.invalid' }, (res) => {
      res.resume();
      res.on('end', () => { server.close(); console.log(res.statusCode); });
    }).on('error', (e) => { server.close(); console.log(e.code); });
  });
});
`;

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function install(dir) {
  const packages = [...new Set(Object.values(CANDIDATES).flatMap((c) => c.packages))];
  console.log(`installing ${packages.join(', ')} into ${dir} (npm install --no-save) ...`);
  fs.writeFileSync(path.join(dir, 'package.json'), '{"private": true}');
  const r = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', ...packages], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 10 * 60_000,
  });
  if (r.status !== 0) throw new Error(`npm install failed: ${(r.stderr || r.stdout || '').trim().slice(-500)}`);
}

function versionOf(dir, name) {
  for (const root of [dir, REPO]) {
    const file = path.join(root, 'node_modules', name, 'package.json');
    if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')).version;
  }
  return '?';
}

/** Each candidate's bundle, minified as the production build makes it; resolves with its path and size. */
async function bundle(dir, name) {
  const slug = name.replace(/[^a-z0-9]+/gi, '-');
  const entry = path.join(dir, `${slug}.entry.js`);
  fs.writeFileSync(entry, CANDIDATES[name].entry());
  const outfile = path.join(dir, `${slug}.bundle.js`);
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    logLevel: 'warning',
  });
  return { file: outfile, bytes: fs.statSync(outfile).size };
}

/** A fresh process: its first line and the time to it; with `firstLine`, stopped then (SIGTERM). Resolves once it has exited. */
function run(argv, { env, firstLine } = {}) {
  return new Promise((resolve, reject) => {
    const [cmd, ...args] = pinned(argv);
    const start = performance.now();
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    let first;
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    createInterface({ input: child.stdout }).once('line', (line) => {
      first = { line, ms: performance.now() - start };
      if (firstLine) child.kill('SIGTERM');
    });
    child.on('close', (code, signal) => {
      // A build from before it listened for SIGTERM in time ends by the signal itself.
      const stopped = code === 0 || (firstLine && signal === 'SIGTERM');
      if (!stopped || first === undefined)
        return reject(new Error(`${argv.join(' ')} exited ${code}: ${err.slice(0, 1000)}`));
      resolve(first);
    });
  });
}

async function measureCandidates(dir, bundles) {
  const names = Object.keys(bundles);
  const runner = path.join(dir, 'runner.js');
  fs.writeFileSync(runner, RUNNER);
  const figures = Object.fromEntries(names.map((n) => [n, { loadMs: [], makeMs: [] }]));
  for (const n of names) await run([process.execPath, runner, bundles[n].file]); // warm-up: the file cache
  for (let round = 0; round < RUNS; round++) {
    // Rotated, so no candidate always runs first.
    for (const n of names.slice(round % names.length).concat(names.slice(0, round % names.length))) {
      const { line } = await run([process.execPath, runner, bundles[n].file]);
      const r = JSON.parse(line);
      figures[n].loadMs.push(r.loadMs);
      figures[n].makeMs.push(r.makeMs);
    }
    process.stdout.write(`\rcandidates: round ${round + 1}/${RUNS}`);
  }
  process.stdout.write('\n');
  return figures;
}

/** The production build (what the package holds) into `dir`, leaving dist/ to the tests. */
function buildCli(dir) {
  const outdir = path.join(dir, 'dist');
  const built = spawnSync(process.execPath, [path.join(REPO, 'esbuild.js'), '--production', `--outdir=${outdir}`], {
    cwd: REPO,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('the build failed (see above)');
  return outdir;
}

async function measureStarts(dir, cli) {
  const env = { ...process.env, TRADEREQ_STATE_DIR: path.join(dir, 'state') };
  for (const k of Object.keys(env)) if (/^TRADEREQ_(?!STATE_DIR)/.test(k)) delete env[k];
  const sandbox = (c, tls) => [process.execPath, c, 'sandbox', '--port', '0', '--json', ...(tls ? ['--tls'] : [])];
  const cases = { 'sandbox (plain)': sandbox(cli, false), 'sandbox --tls': sandbox(cli, true) };
  const before = option('--cli-before');
  if (before) cases['sandbox (plain), --cli-before'] = sandbox(path.resolve(before), false);
  const figures = Object.fromEntries(Object.keys(cases).map((n) => [n, []]));
  for (const argv of Object.values(cases)) await run(argv, { env, firstLine: true }); // warm-up: the code cache
  for (let round = 0; round < RUNS; round++) {
    for (const [n, argv] of Object.entries(cases)) figures[n].push((await run(argv, { env, firstLine: true })).ms);
    process.stdout.write(`\rsandbox starts: round ${round + 1}/${RUNS}`);
  }
  process.stdout.write('\n');
  return figures;
}

function report(dir, bundles, figures, starts, outdir) {
  const own = Object.keys(CANDIDATES)[0];
  const kib = (b) => `${(b / 1024).toFixed(0)} KiB`;
  const ms = (xs) => `${median(xs).toFixed(1)} ms (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;
  const paired = (n, field) => {
    if (n === own) return '—';
    const d = median(figures[n][field].map((v, i) => v - figures[own][field][i]));
    return `${d >= 0 ? '+' : ''}${d.toFixed(1)} ms`;
  };
  console.log(
    '\n| candidate | version | key | bundle (minified) | require() | vs own | CA + server certificate | vs own |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [n, c] of Object.entries(CANDIDATES)) {
    const f = figures[n];
    console.log(
      `| ${n} | ${versionOf(dir, c.versionOf)} | ${c.key} | ${kib(bundles[n].bytes)} | ${ms(f.loadMs)} | ${paired(n, 'loadMs')} | ${ms(f.makeMs)} | ${paired(n, 'makeMs')} |`,
    );
  }
  const size = (f) => kib(fs.statSync(path.join(outdir, 'cli', f)).size);
  console.log(
    `\nproduction build: dist/cli/sandbox.js ${size('sandbox.js')}, dist/cli/sandbox-certificates.js ${size('sandbox-certificates.js')} (loaded with --tls only)`,
  );
  console.log('\n| start, spawn to the first line | median (min–max) |');
  console.log('| --- | --- |');
  for (const [n, xs] of Object.entries(starts)) console.log(`| ${n} | ${ms(xs)} |`);
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-bench-tls-'));
  try {
    install(dir);
    const bundles = {};
    for (const name of Object.keys(CANDIDATES)) bundles[name] = await bundle(dir, name);
    fs.writeFileSync(path.join(dir, 'check.js'), CHECK);
    for (const [name, b] of Object.entries(bundles)) {
      const { line } = await run([process.execPath, path.join(dir, 'check.js'), b.file]);
      if (line !== '200') throw new Error(`${name}: a client trusting its CA got ${line}, not 200`);
    }
    console.log(
      `${RUNS} rounds; Node ${process.version}; ${os.cpus().length} cores; load ${os.loadavg()[0].toFixed(2)}; ${CPU === undefined ? `not pinned (${TASKSET} is missing)` : `pinned to CPU ${CPU}`}`,
    );
    const figures = await measureCandidates(dir, bundles);
    const outdir = buildCli(dir);
    const starts = await measureStarts(dir, path.join(outdir, 'cli.js'));
    report(dir, bundles, figures, starts, outdir);
    console.log(`load average after: ${os.loadavg()[0].toFixed(2)}`);
    const jsonOut = option('--json');
    if (jsonOut)
      fs.writeFileSync(jsonOut, JSON.stringify({ runs: RUNS, cpu: CPU ?? null, bundles, figures, starts }, null, 2));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
