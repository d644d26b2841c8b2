/**
 * Issue 18, "Bounded everywhere", on the command line as a user runs it: `tradereq check` of a
 * request with thousands of streams ends in findings (exit 1), `tradereq test` checks where its
 * reports go before it sends anything (exit 2, one line), and the TAP and JUnit reports of an
 * answer full of characters YAML and XML forbid are read back by PyYAML and expat.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { ensureBuilt } from '../support/build';
import { describeRun, tradereq, type Run } from '../support/cli';

const PING = '### Ping\nGET /api/v3/ping\n';

describe('bounds, hostile input: the command line', function () {
  this.timeout(120_000);
  let dir: string;
  let env: Record<string, string>;

  before(() => ensureBuilt());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tradereq-bounds-'));
    env = { TRADEREQ_STATE_DIR: join(dir, 'state') };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const run = (args: string[]): Promise<Run> => tradereq(args, { cwd: dir, env, timeoutMs: 90_000 });

  it('check: 3,100 and 10,000 streams end in findings (exit 1), never a crash or negative advice', async () => {
    for (const n of [3100, 10_000]) {
      const names = Array.from({ length: n }, (_, i) => `spot@public.deals.v3.api@S${i}USDT`);
      writeFileSync(join(dir, 'many.tradereq'), ['WS /ws', '[subscribe]', ...names, '[message]', '{}'].join('\n'));
      const r = await run(['check', 'many.tradereq']);
      assert.equal(r.status, 1, describeRun(r));
      assert.equal(r.stderr, '');
      assert.match(r.stdout, new RegExp(`streams alone take ${Math.ceil(n / 30)} SUBSCRIPTION messages`));
      assert.doesNotMatch(r.stdout, /at most -/);
    }
  });

  describe('test: report paths are checked before anything is sent', () => {
    let sandbox: Sandbox;
    beforeEach(async () => {
      sandbox = await startSandbox({ port: 0 });
      writeFileSync(join(dir, 'tradereq.env.json'), JSON.stringify({ local: { baseUrl: sandbox.baseUrl } }));
      writeFileSync(join(dir, 'a.tradereq'), PING);
    });
    afterEach(() => sandbox.close());

    const reached = async (): Promise<unknown[]> =>
      (await (await fetch(`${sandbox.baseUrl}/_sandbox/requests`)).json()) as unknown[];

    it('a folder, a request file, an env file, a path given twice or under a file: exit 2, one line, nothing sent', async () => {
      mkdirSync(join(dir, 'out'));
      mkdirSync(join(dir, 'other'));
      writeFileSync(join(dir, 'other', 'b.tradereq'), PING);
      symlinkSync(join(dir, 'a.tradereq'), join(dir, 'link.xml'));
      const cases: [string[], RegExp][] = [
        [['--reporter', 'junit:out'], /out is a folder/],
        [['--reporter', 'junit', '--output', 'out'], /out is a folder/],
        [['--reporter', 'junit:a.tradereq'], /a\.tradereq is a request file/],
        [['--reporter', 'tap:other/b.tradereq'], /b\.tradereq is a request file/],
        [['--reporter', 'json:A.TRADEREQ'], /A\.TRADEREQ is a request file/],
        [['--reporter', 'junit:link.xml'], /link\.xml is a request file/],
        [['--reporter', 'json:tradereq.env.json'], /tradereq\.env\.json is an environment file/],
        [['--reporter', 'junit:r.xml', '--reporter', 'tap:out/../r.xml'], /r\.xml is given twice/],
        [['--reporter', 'junit:a.tradereq/r.xml'], /a\.tradereq is a file, not a folder/],
      ];
      for (const [args, message] of cases) {
        const r = await run(['test', 'a.tradereq', ...args]);
        assert.equal(r.status, 2, `${args.join(' ')}\n${describeRun(r)}`);
        assert.match(r.stderr, /^tradereq: [^\n]+\n$/, args.join(' '));
        assert.match(r.stderr, message, args.join(' '));
        assert.equal(r.stdout, '', args.join(' '));
      }
      assert.deepEqual(await reached(), [], 'nothing reached the sandbox');
      assert.equal(readFileSync(join(dir, 'a.tradereq'), 'utf8'), PING, 'the request file is as it was');
    });

    it('a report in folders still to be made is written, and the run goes on (exit 0)', async () => {
      const r = await run(['test', 'a.tradereq', '--reporter', 'pretty', '--reporter', 'junit:new/deeper/r.xml']);
      assert.equal(r.status, 0, describeRun(r));
      assert.match(readFileSync(join(dir, 'new', 'deeper', 'r.xml'), 'utf8'), /<testsuites /);
    });
  });

  describe('reports of an answer full of characters YAML and XML forbid', () => {
    const forbidden = 'a\u0001b\u007fc\u0085d\u009be\ufffef\uffffg\ufeffh\u2028i\u0000j';
    let server: Server;
    beforeEach(async () => {
      server = createServer((_req, res) => {
        res.writeHead(400, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ code: 700004, msg: `${forbidden}\ud800` }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      writeFileSync(join(dir, 'tradereq.env.json'), JSON.stringify({ hostile: { baseUrl } }));
      // A file name may hold all but NUL (and /): its path is in every report.
      const name = `${forbidden.replace('\u0000', '')}.tradereq`;
      writeFileSync(join(dir, name), `### ${forbidden}\n# @expect json msg == x\nGET /api/v3/ping\n`);
    });
    afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('PyYAML reads every YAML block of the TAP report, and expat the JUnit XML', async function () {
      const r = await run(['test', '--reporter', 'tap:r.tap', '--reporter', 'junit:r.xml']);
      assert.equal(r.status, 1, describeRun(r));
      const tap = readFileSync(join(dir, 'r.tap'), 'utf8');
      assert.match(tap, /\n {2}---\n/);
      const probe = spawnSync('python3', ['-c', 'import yaml'], { encoding: 'utf8' });
      if (probe.status !== 0) {
        console.log('      not run here: python3 with PyYAML is not installed');
        this.skip();
      }
      const script = [
        'import sys, yaml, xml.etree.ElementTree as ET',
        'text = open(sys.argv[1], encoding="utf-8").read()',
        'blocks = [b.split("\\n  ...")[0] for b in text.split("\\n  ---\\n")[1:]]',
        'docs = [yaml.safe_load("\\n".join(l[2:] for l in b.split("\\n"))) for b in blocks]',
        'assert docs and all(isinstance(d, dict) and "got" in d for d in docs), docs',
        'ET.parse(sys.argv[2])',
        'print(len(docs))',
      ].join('\n');
      const read = spawnSync('python3', ['-c', script, join(dir, 'r.tap'), join(dir, 'r.xml')], { encoding: 'utf8' });
      assert.equal(read.status, 0, read.stderr);
      assert.equal(read.stdout.trim(), '1');
    });
  });
});
