/**
 * `tradereq doctor` on what real programs sent: broken signers in Python with `requests` and in
 * bash with openssl and curl (test/fixtures/doctor/) send orders to the sandbox, print what they
 * sent as a developer would paste it (raw HTTP from requests, the curl line from the script), and
 * the doctor, run as a user runs it, names each cause. The node:crypto signers are in
 * test/unit/doctor/diagnose.test.ts.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_ACCOUNTS } from '../../src/core/env/demo';
import { ensureToolchains, type Toolchains } from '../fixtures/codegen/support';
import { ensureBuilt } from '../support/build';
import { describeRun, ROOT, tradereq } from '../support/cli';
import { sandboxProject, type Project } from '../support/project';

const DEMO = DEMO_ACCOUNTS[0]!;
const FIXTURES = join(ROOT, 'test', 'fixtures', 'doctor');

interface Case {
  readonly cause: string;
  readonly text: string;
}

/** Runs a broken-signer program (without blocking: the sandbox answers from this process) and splits what it printed into cases. */
function runSigners(command: string, script: string, baseUrl: string): Promise<Case[]> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, BASE_URL: baseUrl, API_KEY: DEMO.apiKey, SECRET_KEY: DEMO.secretKey };
    const child = spawn(command, [join(FIXTURES, script)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      if (status !== 0) return reject(new Error(`${script} exited ${status}: ${err}`));
      const cases = out.split(/^### /m).slice(1);
      resolve(cases.map((c) => ({ cause: c.slice(0, c.indexOf('\n')).trim(), text: c.slice(c.indexOf('\n') + 1) })));
    });
  });
}

describe('tradereq doctor: what real programs sent, diagnosed', function () {
  this.timeout(120_000);
  let project: Project;
  let tools: Toolchains;
  let shell: Case[] = [];
  before(async function () {
    tools = ensureToolchains(this);
    ensureBuilt();
    project = await sandboxProject('doctor', {});
  });
  after(() => project?.close());

  async function diagnoseAll(cases: readonly Case[]): Promise<void> {
    // In any order, however long after they were sent: the doctor never judges a timestamp by the time it runs.
    for (const [i, c] of cases.entries()) {
      const file = join(project.dir, `sent-${i}.txt`);
      writeFileSync(file, c.text);
      const r = await project.run(['doctor', file, '--json']);
      const report = JSON.parse(r.stdout) as {
        cause: string;
        fix: string;
        codeNote: string | null;
        snippets: Record<string, string>;
      };
      assert.equal(report.cause, c.cause, `${c.cause}:\n${c.text}\n${describeRun(r)}`);
      assert.equal(r.status, c.cause === 'none' ? 0 : 1, describeRun(r));
      if (c.cause !== 'none')
        assert.ok(report.fix.length > 0 && Object.keys(report.snippets).length === 5, describeRun(r));
      assert.ok(
        !r.stdout.includes(DEMO.secretKey) && !r.stderr.includes(DEMO.secretKey),
        'the secret is never printed',
      );
      // The seconds are in the Python program (requests' User-Agent says which): its words, not TradeReq's (issue 34, point 7).
      if (c.cause === 'timestamp-seconds')
        assert.ok(
          /^Your Python program/.test(report.fix) && !/TradeReq/.test(report.fix + (report.codeNote ?? '')),
          describeRun(r),
        );
      if (c.cause !== 'none' && c.cause !== 'timestamp-seconds')
        assert.match(c.text, /"code": ?(700002|602)/, 'the sandbox refused it as an invalid signature');
    }
  }

  it('Python with requests: json= re-serialises, a sorted string signed, seconds, JSON signed and a form sent', async () => {
    const cases = await runSigners(tools.pythonRequests, 'broken_requests.py', project.sandbox.baseUrl);
    assert.deepEqual(
      cases.map((c) => c.cause),
      ['body-reserialised', 'order-differs', 'timestamp-seconds', 'json-vs-form', 'none'],
    );
    await diagnoseAll(cases);
  });

  it('bash with openssl and curl: echo\'s newline, upper case, a secret with its line end, an "&" between query and body', async () => {
    const cases = (shell = await runSigners(tools.bash, 'broken_requests.sh', project.sandbox.baseUrl));
    assert.deepEqual(
      cases.map((c) => c.cause),
      ['message-newline', 'signature-uppercase', 'secret-whitespace', 'ampersand-join', 'none'],
    );
    await diagnoseAll(cases);
  });

  it('the report a person reads: cause, both strings with the difference marked, the fix; bad input exits 2', async () => {
    writeFileSync(join(project.dir, 'amp.txt'), shell.find((c) => c.cause === 'ampersand-join')!.text);
    const r = await project.run(['doctor', 'amp.txt', '--offline']);
    assert.equal(r.status, 1, describeRun(r));
    assert.match(r.stdout, /^Cause: ampersand-join/);
    assert.match(r.stdout, /\n {2}signed: {3}symbol=BTCUSDT&side=BUY&type=LIMIT/);
    assert.match(r.stdout, /\n {2}expected: symbol=BTCUSDT&side=BUYtype=LIMIT/);
    assert.match(r.stdout, /\n {12}\s*\^\n/);
    assert.match(r.stdout, /Fix: totalParams is the query string followed directly by the body/);
    assert.match(r.stdout, /this machine's clock stands in/);
    writeFileSync(join(project.dir, 'nothing.txt'), 'hello\n');
    const bad = await project.run(['doctor', 'nothing.txt']);
    assert.equal(bad.status, 2, describeRun(bad));
    assert.equal(bad.stdout, '');
  });

  it('keys from the environment variables: the secret of another profile is named by profile; an unknown --key is bad input', async () => {
    const live = { apiKey: 'LiveKey0000000000000000000000001', secretKey: 'live-secret-of-another-environment' };
    const q = `symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=29000&timestamp=${Date.now()}`;
    const signature = createHmac('sha256', live.secretKey).update(q).digest('hex');
    writeFileSync(
      join(project.dir, 'live.txt'),
      `curl -X POST '${project.sandbox.baseUrl}/api/v3/order?${q}&signature=${signature}' -H 'X-SERVICE-APIKEY: ${DEMO.apiKey}'\n`,
    );
    const env = { ...project.env, TRADEREQ_LIVE_API_KEY: live.apiKey, TRADEREQ_LIVE_SECRET_KEY: live.secretKey };
    const r = await tradereq(['doctor', 'live.txt', '--json', '--offline'], { cwd: project.dir, env });
    const report = JSON.parse(r.stdout) as { cause: string; summary: string };
    assert.equal(report.cause, 'wrong-secret', describeRun(r));
    assert.match(report.summary, /the secret of the key profile "live"/);
    assert.ok(
      !r.stdout.includes(live.secretKey) && !r.stdout.includes(live.apiKey),
      'no key of the profile is printed',
    );
    const unknown = await tradereq(['doctor', 'live.txt', '--key', 'nosuch'], { cwd: project.dir, env });
    assert.equal(unknown.status, 2, describeRun(unknown));
    assert.match(
      unknown.stderr,
      /no key for profile "nosuch": set TRADEREQ_NOSUCH_API_KEY and TRADEREQ_NOSUCH_SECRET_KEY/,
    );
  });
});

describe('tradereq doctor: hostile pastes (issue 31)', function () {
  this.timeout(60_000);
  let project: Project;
  before(async () => {
    ensureBuilt();
    project = await sandboxProject('doctor-hostile', {});
  });
  after(() => project?.close());

  it('a pasted request whose JSON body nests 10,000 deep: one line saying so, exit 2, no crash', async () => {
    const deep = `{"symbol":"BTCUSDT","x":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
    const text = `POST /api/v3/order?signature=${'ab'.repeat(32)} HTTP/1.1\nHost: ${new URL(project.sandbox.baseUrl).host}\nX-SERVICE-APIKEY: ${DEMO.apiKey}\nContent-Type: application/json\n\n${deep}\n`;
    writeFileSync(join(project.dir, 'deep.txt'), text);
    for (const json of [[], ['--json']]) {
      const r = await project.run(['doctor', 'deep.txt', '--offline', ...json]);
      assert.equal(r.status, 2, describeRun(r));
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^tradereq: the JSON body nests deeper than 256 levels, more than the doctor reads/);
      assert.equal(r.stderr.trim().split('\n').length, 1, 'one line');
    }
  });
});

describe('tradereq doctor: a request that carried its secret key (issue 31, point 6)', function () {
  this.timeout(60_000);
  const live = {
    apiKey: 'LiveApiKeyForTheDoctor000000AK01',
    secretKey: 'qZ7vLiveSecretThatMustNeverBePrinted9x3WmB4cR8tY2uN6pK1dF5gH0jE',
  };
  let project: Project;
  before(async () => {
    ensureBuilt();
    project = await sandboxProject('doctor-secret', {});
  });
  after(() => project?.close());

  it('sent as the API key and as a parameter: the key is found by its secret, the report names both fields and prints no part of it', async () => {
    const q = `symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=29000&secretKey=${live.secretKey}&timestamp=${Date.now()}`;
    const signature = createHmac('sha256', live.secretKey).update(q).digest('hex');
    writeFileSync(
      join(project.dir, 'leak.txt'),
      `curl -X POST 'https://api.example.com/api/v3/order?${q}&signature=${signature}' -H 'X-SERVICE-APIKEY: ${live.secretKey}'\n`,
    );
    const env = { ...project.env, TRADEREQ_LIVE_API_KEY: live.apiKey, TRADEREQ_LIVE_SECRET_KEY: live.secretKey };
    const text = await tradereq(['doctor', 'leak.txt', '--offline'], { cwd: project.dir, env });
    const json = await tradereq(['doctor', 'leak.txt', '--offline', '--json'], { cwd: project.dir, env });
    for (const r of [text, json]) {
      assert.equal(r.status, 1, describeRun(r));
      const out = r.stdout + r.stderr;
      for (let i = 0; i + 8 <= live.secretKey.length; i++)
        assert.ok(!out.includes(live.secretKey.slice(i, i + 8)), `part of the secret is printed:\n${describeRun(r)}`);
      assert.ok(!out.includes(`****${live.secretKey.slice(-4)}`), 'its last four characters are printed');
    }
    assert.match(
      text.stdout,
      /^Cause: secret-sent \(the secret key was sent with the request\)\nYour program sent its secret key as the API key \(the X-SERVICE-APIKEY header\), and as the value of the parameter "secretKey" in the query string\. Replace that key pair/,
    );
    const report = JSON.parse(json.stdout) as { cause: string; causes: string[]; signed: string };
    assert.deepEqual([report.cause, report.causes.includes('api-key-header')], ['secret-sent', true]);
    assert.match(report.signed, /&secretKey=<secret key>&/);
  });
});

describe('tradereq doctor: the time the request was answered, and the program that sent it (issue 34, points 6 and 7)', function () {
  this.timeout(60_000);
  // 2024-01-02 03:04:05 UTC: years before these tests run. No clock is moved; the times are pasted or given.
  const SECOND = Date.UTC(2024, 0, 2, 3, 4, 5);
  const DATE = 'Tue, 02 Jan 2024 03:04:05 GMT';
  const ORDER = 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=29000';
  let project: Project;
  before(async () => {
    ensureBuilt();
    project = await sandboxProject('doctor-time', {});
  });
  after(() => project?.close());

  const sign = (text: string): string => createHmac('sha256', DEMO.secretKey).update(text).digest('hex');

  /** curl -v's lines for an order with `timestamp` (signed over echo's newline when `newline`), then `answer`. */
  function verbose(timestamp: number, answer: string[], newline = false): string {
    const q = `${ORDER}&timestamp=${timestamp}`;
    return [
      `> POST /api/v3/order?${q}&signature=${sign(newline ? `${q}\n` : q)} HTTP/1.1`,
      `> Host: ${new URL(project.sandbox.baseUrl).host}`,
      '> User-Agent: curl/8.5.0',
      `> X-SERVICE-APIKEY: ${DEMO.apiKey}`,
      '>',
      ...answer,
      '',
    ].join('\n');
  }

  interface Report {
    cause: string;
    causes: string[];
    fix: string;
    codeNote: string | null;
    checks: { id: string; ok: boolean; possible?: boolean; text: string }[];
  }

  async function doctor(name: string, text: string, ...args: string[]): Promise<{ report: Report; status: number }> {
    writeFileSync(join(project.dir, name), text);
    const r = await project.run(['doctor', name, '--json', '--offline', ...args]);
    assert.notEqual(r.status, 2, describeRun(r));
    return { report: JSON.parse(r.stdout) as Report, status: r.status ?? -1 };
  }

  const windowOf = (r: Report) => r.checks.find((c) => c.id === 'clock-window')!;

  it('an accepted request pasted with its 200 answer is not clock-window, though diagnosed years after its Date', async () => {
    const text = verbose(SECOND + 300, ['< HTTP/1.1 200 OK', `< Date: ${DATE}`, '<', '{"orderId":"1"}']);
    const { report, status } = await doctor('accepted.txt', text);
    assert.deepEqual([report.cause, report.causes, status], ['none', ['none'], 0], JSON.stringify(report, null, 1));
    assert.equal(windowOf(report).ok, true);
  });

  it("a rejected request whose answer's Date header is within the window is not clock-window", async () => {
    const text = verbose(
      SECOND - 1_500,
      [
        '< HTTP/1.1 400 Bad Request',
        `< Date: ${DATE}`,
        '<',
        '{"code":700002,"msg":"Signature for this request is not valid."}',
      ],
      true,
    );
    const { report, status } = await doctor('newline.txt', text);
    assert.equal(report.cause, 'message-newline');
    assert.ok(!report.causes.includes('clock-window'), JSON.stringify(report, null, 1));
    assert.deepEqual([windowOf(report).ok, status], [true, 1]);
    // The same, answered a minute after its timestamp: now it is asserted, from the Date alone.
    const late = verbose(SECOND - 60_000, ['< HTTP/1.1 400 Bad Request', `< Date: ${DATE}`, '<'], true);
    assert.ok((await doctor('late.txt', late)).report.causes.includes('clock-window'));
  });

  it('--at is honoured, as ISO 8601 and as epoch milliseconds; a time it cannot read is bad input', async () => {
    const text = verbose(SECOND, []);
    for (const at of ['2024-01-02T03:04:07Z', String(SECOND + 2_000)]) {
      const { report, status } = await doctor('at.txt', text, '--at', at);
      assert.deepEqual([report.cause, status], ['none', 0], `${at}: ${JSON.stringify(report, null, 1)}`);
    }
    for (const at of ['2024-01-02T03:05:05Z', String(SECOND + 60_000)]) {
      const { report } = await doctor('at.txt', text, '--at', at);
      assert.equal(report.cause, 'clock-window', at);
      assert.match(
        windowOf(report).text,
        /^timestamp is 60 s behind the server's time when it was answered \(by the time given with --at/,
      );
    }
    const bad = await project.run(['doctor', 'at.txt', '--offline', '--at', 'yesterday']);
    assert.equal(bad.status, 2, describeRun(bad));
    assert.match(bad.stderr, /--at takes when the request was answered, as ISO 8601/);
  });

  it('without any time of the answer, an old timestamp is worded as a possibility, not a cause', async () => {
    writeFileSync(join(project.dir, 'bare.txt'), verbose(SECOND, []));
    const r = await project.run(['doctor', 'bare.txt', '--offline']);
    assert.equal(r.status, 0, describeRun(r));
    assert.doesNotMatch(r.stdout, /Cause: clock-window|Also: clock-window/);
    assert.match(r.stdout, /\n {2}\? {3}timestamp is \d+ h behind the server's time now/);
    assert.match(r.stdout, /if it was sent more than recvWindow \(5000 ms\) after its timestamp/);
  });

  it("what to do for a Python program's timestamp in seconds names the program and time.time() * 1000, not TradeReq", async () => {
    const q = `${ORDER}&timestamp=${Math.floor(SECOND / 1000)}`;
    const head = `POST /api/v3/order?${q}&signature=${sign(q)} HTTP/1.1\\r\\nHost: ${new URL(project.sandbox.baseUrl).host}\\r\\nX-SERVICE-APIKEY: ${DEMO.apiKey}\\r\\n\\r\\n`;
    const text = `send: b'${head}'\nreply: 'HTTP/1.1 400 Bad Request\\r\\n'\nheader: Date: ${DATE}\n{"code":10073,"msg":"Invalid request time"}\n`;
    writeFileSync(join(project.dir, 'seconds.txt'), text);
    const r = await project.run(['doctor', 'seconds.txt', '--offline']);
    assert.equal(r.status, 1, describeRun(r));
    assert.match(r.stdout, /^Cause: timestamp-seconds/);
    assert.match(
      r.stdout,
      /\nFix: Your Python program computes timestamp in seconds \(int\(time\.time\(\)\)\): multiply by 1000, timestamp = int\(time\.time\(\) \* 1000\)/,
    );
    assert.match(r.stdout, /What to do: Your Python program/);
    assert.doesNotMatch(r.stdout, /TradeReq/, r.stdout);
  });
});
