/**
 * The TLS sandbox in process (`startSandbox({ tls })`, src/sandbox/tls.ts and certificates.ts): HTTPS
 * and WSS on one port with a certificate its own CA signed at start, trusted with `caPem` alone and
 * by nothing else; the names the certificate holds; how long it is valid; the command line's options.
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate, GeneralName, NameConstraints, id_ce_nameConstraints } from '@peculiar/asn1-x509';
import { sandboxCommand } from '../../../src/cli/sandbox';
import { UsageError, type Io } from '../../../src/cli/usage';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { CERTIFICATE_VALIDITY_DAYS, TLS_NAMES_MAX, certificateNames } from '../../../src/sandbox/tls';
import { certificatesOf, httpsFailure, httpsGet, wssPing } from '../../support/tls';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The names a CA may vouch for (its name constraint's permitted subtrees), as text. */
function permittedNames(caPem: string): string[] {
  const ca = AsnConvert.parse(certificatesOf(caPem)[0]!.raw, Certificate);
  const extension = ca.tbsCertificate.extensions?.find((e) => e.extnID === id_ce_nameConstraints);
  assert.ok(extension?.critical, 'a critical name constraint');
  const constraints = AsnConvert.parse(extension.extnValue, NameConstraints);
  return Array.from(constraints.permittedSubtrees ?? [], (s) => textOf(s.base));
}

function textOf(name: GeneralName): string {
  return name.dNSName ?? name.iPAddress ?? '?';
}

describe('the TLS sandbox, in process', function () {
  this.timeout(20_000);
  let sb: Sandbox;

  before(async () => {
    sb = await startSandbox({ port: 0, tls: { names: ['api.live.invalid'] } });
  });
  after(() => sb.close());

  it('serves https: and wss: on one port, and hands back the CA certificate, no key', () => {
    assert.match(sb.baseUrl, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(sb.wsUrl, sb.baseUrl.replace('https://', 'wss://') + '/ws');
    assert.ok(sb.caPem);
    assert.equal(certificatesOf(sb.caPem).length, 1);
    assert.doesNotMatch(sb.caPem, /PRIVATE|KEY-----/);
    assert.equal(certificatesOf(sb.caPem)[0]!.ca, true);
  });

  it('a REST call trusting that CA alone is answered; without it, the server is not trusted', async () => {
    const answer = await httpsGet(`${sb.baseUrl}/api/v3/time`, { ca: sb.caPem });
    assert.equal(answer.status, 200);
    assert.match(answer.body, /"serverTime":\d+/);
    assert.equal(await httpsFailure(`${sb.baseUrl}/api/v3/time`), 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  });

  it('the WebSocket endpoint answers over wss on the same port', async () => {
    assert.deepEqual(JSON.parse(await wssPing(sb.wsUrl, sb.caPem!)), { id: 0, code: 0, msg: 'PONG' });
  });

  it('the control surface answers over https as over http', async () => {
    const answer = await httpsGet(`${sb.baseUrl}/_sandbox/requests`, { ca: sb.caPem });
    assert.equal(answer.status, 200);
    assert.match(answer.body, /\/api\/v3\/time/);
  });

  it('the certificate names the loopback names and the names given; any other name is refused', async () => {
    assert.deepEqual(sb.certificate?.names, ['localhost', '127.0.0.1', '::1', 'api.live.invalid']);
    const answer = await httpsGet(`${sb.baseUrl}/api/v3/ping`, { ca: sb.caPem, servername: 'api.live.invalid' });
    assert.equal(answer.status, 200);
    assert.equal(
      answer.peer.subjectaltname,
      'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:api.live.invalid',
    );
    const other = await httpsFailure(`${sb.baseUrl}/api/v3/ping`, { ca: sb.caPem, servername: 'other.invalid' });
    assert.equal(other, 'ERR_TLS_CERT_ALTNAME_INVALID');
    const local = await httpsGet(sb.baseUrl.replace('127.0.0.1', 'localhost') + '/api/v3/ping', { ca: sb.caPem });
    assert.equal(local.status, 200);
  });

  it("the server's certificate is the CA's, for a server only; the CA may vouch for those names only", async () => {
    const { peer } = await httpsGet(`${sb.baseUrl}/api/v3/ping`, { ca: sb.caPem });
    const server = new X509Certificate(peer.raw);
    const ca = certificatesOf(sb.caPem!)[0]!;
    assert.ok(server.checkIssued(ca) && server.verify(ca.publicKey), 'signed by the CA');
    assert.equal(server.ca, false);
    assert.deepEqual(server.keyUsage, ['1.3.6.1.5.5.7.3.1'], 'TLS server authentication only');
    assert.deepEqual(permittedNames(sb.caPem!), ['localhost', '127.0.0.1/32', '::1/128', 'api.live.invalid']);
  });

  it(`the CA and the certificate are valid for ${CERTIFICATE_VALIDITY_DAYS} days from the start, no longer`, async () => {
    const { peer } = await httpsGet(`${sb.baseUrl}/api/v3/ping`, { ca: sb.caPem });
    const ca = certificatesOf(sb.caPem!)[0]!;
    for (const c of [ca, new X509Certificate(peer.raw)]) {
      const until = Date.parse(c.validTo);
      assert.ok(Math.abs(until - (Date.now() + CERTIFICATE_VALIDITY_DAYS * DAY_MS)) < DAY_MS / 2, c.validTo);
      assert.ok(Date.parse(c.validFrom) <= Date.now(), c.validFrom);
    }
    assert.equal(sb.certificate?.notAfter.getTime(), Date.parse(ca.validTo));
  });

  it("each start makes a new CA: one sandbox's CA does not vouch for another's server", async () => {
    const other = await startSandbox({ port: 0, tls: {} });
    try {
      assert.notEqual(other.caPem, sb.caPem);
      assert.equal(
        await httpsFailure(`${other.baseUrl}/api/v3/ping`, { ca: sb.caPem }),
        'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      );
      assert.equal((await httpsGet(`${other.baseUrl}/api/v3/ping`, { ca: other.caPem })).status, 200);
    } finally {
      await other.close();
    }
  });

  it('without tls: http: and ws:, no CA', async () => {
    const plain = await startSandbox({ port: 0 });
    try {
      assert.match(plain.baseUrl, /^http:\/\//);
      assert.match(plain.wsUrl, /^ws:\/\//);
      assert.equal(plain.caPem, undefined);
    } finally {
      await plain.close();
    }
  });
});

describe("the TLS sandbox's names", () => {
  it('loopback names, then the host it listens on, then the names given, each once', () => {
    assert.deepEqual(
      certificateNames('127.0.0.1', ['Api.Live.Invalid', 'api.live.invalid', '::1', '0:0:0:0:0:0:0:1']),
      ['localhost', '127.0.0.1', '::1', 'Api.Live.Invalid'],
    );
    assert.deepEqual(certificateNames('0.0.0.0', []), ['localhost', '127.0.0.1', '::1']);
    assert.deepEqual(certificateNames('::', []), ['localhost', '127.0.0.1', '::1']);
    assert.deepEqual(certificateNames('sandbox.lan', ['192.0.2.7']), [
      'localhost',
      '127.0.0.1',
      '::1',
      'sandbox.lan',
      '192.0.2.7',
    ]);
    // An IPv4-mapped address as URLs write it, so the certificate holds the address it was given.
    assert.deepEqual(certificateNames('127.0.0.1', ['::ffff:127.0.0.1']).at(-1), '::ffff:7f00:1');
  });

  it('a name a certificate cannot hold, or too many, is refused', async () => {
    for (const bad of [
      '*.live.invalid',
      'a_b.invalid',
      '-a.invalid',
      'a..b',
      '',
      'fe80::1%eth0',
      `${'a'.repeat(64)}.invalid`,
      `${'a.'.repeat(127)}ab`,
    ]) {
      assert.throws(() => certificateNames('127.0.0.1', [bad]), RangeError, bad);
    }
    const many = Array.from({ length: TLS_NAMES_MAX + 1 }, (_, i) => `n${i}.invalid`);
    assert.throws(() => certificateNames('127.0.0.1', many), RangeError);
    assert.equal(certificateNames('127.0.0.1', many.slice(1)).length, TLS_NAMES_MAX + 3);
    await assert.rejects(startSandbox({ port: 0, tls: { names: ['*.invalid'] } }), RangeError);
  });
});

describe('tradereq sandbox --tls, in process', function () {
  this.timeout(20_000);
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'tradereq-sandbox-tls-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  function captureIo(): Io & { lines: string[]; errors: string[]; printed: Promise<string> } {
    const lines: string[] = [];
    const errors: string[] = [];
    let printed: (line: string) => void = () => undefined;
    return {
      lines,
      errors,
      printed: new Promise<string>((resolve) => (printed = resolve)),
      out: (t) => {
        lines.push(t);
        printed(t);
      },
      err: (t) => errors.push(t),
      env: {},
      cwd: folder,
    };
  }

  it('--tls-name and --tls-ca need --tls; a bad or a 33rd name, or a host no certificate can name, is a usage error', async () => {
    const many = Array.from({ length: TLS_NAMES_MAX + 1 }, (_, i) => ['--tls-name', `n${i}.invalid`]).flat();
    for (const args of [
      ['--tls-name', 'api.live.invalid'],
      ['--tls-ca', join(folder, 'ca.pem')],
      ['--tls', '--tls-name', '*.invalid'],
      ['--tls', '--tls-name', 'a b'],
      ['--tls', '--host', 'a..b'],
      ['--tls', '--host', 'fe80::1%lo'],
      ['--tls', ...many],
    ]) {
      await assert.rejects(sandboxCommand(['--port', '0', ...args], captureIo()), UsageError, args.join(' '));
    }
  });

  it('--tls-ca FILE: the CA certificate is written there, and left when the sandbox stops', async () => {
    const io = captureIo();
    const stop = new AbortController();
    const file = join(folder, 'sandbox-ca.pem');
    const running = sandboxCommand(['--port', '0', '--tls', '--json', '--tls-ca', file], io, stop.signal);
    const info = JSON.parse(await io.printed) as { baseUrl: string; caFile: string };
    assert.equal(info.caFile, file);
    assert.equal((await httpsGet(`${info.baseUrl}/api/v3/ping`, { ca: readFileSync(file, 'utf8') })).status, 200);
    stop.abort();
    assert.equal(await running, 0);
    assert.equal(certificatesOf(readFileSync(file, 'utf8')).length, 1);
  });

  it('a CA file that cannot be written: one line naming it, exit 1, the port free again', async () => {
    const io = captureIo();
    const file = join(folder, 'no-such-folder', 'ca.pem');
    const probe = await startSandbox({ port: 0 });
    await probe.close();
    assert.equal(await sandboxCommand(['--port', String(probe.port), '--tls', '--tls-ca', file], io), 1);
    assert.equal(io.errors.length, 1);
    assert.match(io.errors[0]!, /cannot write the CA certificate to .*no-such-folder.*ENOENT/);
    assert.deepEqual(io.lines, [], 'no URL was printed');
    // Closed: the port can be listened on again.
    await (await startSandbox({ port: probe.port })).close();
  });
});
