/**
 * Every generated program passes its own language's checker as a user would run it: gofmt (the
 * file is already formatted), shellcheck (no warning, quoting included), Python's compiler and
 * `node --check`, for the requests of the run tests and for one made of hostile strings.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CodeLanguage, CodeRequest } from '../../src/core/codegen';
import { CHAIN, codeRequest, HOSTILE, HOSTILE_LINE, pairs, RUN_CASES } from '../fixtures/codegen/cases';
import { ensureToolchains, generated, LANGUAGES, type Toolchains } from '../fixtures/codegen/support';

const BASE = 'http://127.0.0.1:8780';

const REQUESTS: [string, CodeRequest][] = [
  ...RUN_CASES.map((c): [string, CodeRequest] => [c.name, c.build(BASE)]),
  ['query', CHAIN.byOrderId(BASE, 'GET')],
  ['cancel', CHAIN.byOrderId(BASE, 'DELETE')],
  [
    'hostile',
    codeRequest(BASE, {
      title: HOSTILE,
      query: pairs([[HOSTILE, HOSTILE]]),
      form: pairs([['note', { kind: 'parameter', parameter: 'note' }]]),
      headers: pairs([['X-Note', HOSTILE_LINE]]),
      parameters: [{ name: 'note', description: HOSTILE }],
    }),
  ],
  ['uuid', codeRequest(BASE, { form: pairs([['id', { kind: 'uuid' }]]), signed: false })],
  [
    // An order that asks before it goes (a "confirm": true environment), its reason and order hostile.
    'confirm',
    codeRequest(BASE, {
      form: pairs([
        ['newClientOrderId', { kind: 'clientOrderId' }],
        ['note', { kind: 'parameter', parameter: 'note' }],
      ]),
      parameters: [{ name: 'note', description: HOSTILE }],
      confirm: {
        reason: HOSTILE,
        order: [{ kind: 'text', text: HOSTILE }, { kind: 'clientOrderId' }, { kind: 'parameter', parameter: 'note' }],
      },
    }),
  ],
];

// Python's compiler over every file named, in one interpreter.
const COMPILE = 'import sys\nfor f in sys.argv[1:]: compile(open(f, "rb").read(), f, "exec")';

/**
 * The checker's commands for `files`, each of which must exit 0 and print nothing: one process for
 * them all, but `node --check`, which takes one file.
 */
function checkers(tools: Toolchains, language: CodeLanguage, files: readonly string[]): [string, string[]][] {
  switch (language) {
    case 'python':
      return [[tools.python3, ['-c', COMPILE, ...files]]];
    case 'python-requests':
      return [[tools.pythonRequests, ['-c', COMPILE, ...files]]];
    case 'node':
      return files.map((file) => [tools.node, ['--check', file]]);
    case 'go':
      return [[tools.gofmt, ['-l', ...files]]];
    case 'shell':
      return [[tools.shellcheck, ['--shell=bash', ...files]]];
  }
}

describe('Copy as code: every program passes its language checker', function () {
  this.timeout(300_000);
  let tools: Toolchains;
  let dir: string;

  before(function () {
    tools = ensureToolchains(this);
    dir = mkdtempSync(join(tmpdir(), 'tradereq-codegen-lint-'));
  });

  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const language of LANGUAGES) {
    const what = {
      python: 'compiles',
      'python-requests': 'compiles',
      node: 'node --check',
      go: 'gofmt -l',
      shell: 'shellcheck',
    };
    it(`${language}: ${what[language]} is clean for ${REQUESTS.length} programs`, () => {
      // Each file is named after its program, and the checkers name the files they fault.
      const files = REQUESTS.map(([name, request]) => {
        const file = join(
          dir,
          `${name}-${language}.${language === 'go' ? 'go' : language === 'node' ? 'mjs' : language === 'shell' ? 'sh' : 'py'}`,
        );
        writeFileSync(file, generated(request, language));
        return file;
      });
      for (const [command, args] of checkers(tools, language, files)) {
        const r = spawnSync(command, args, { encoding: 'utf8', timeout: 60_000 });
        assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
        assert.equal(r.stdout.trim(), '', r.stdout);
      }
    });
  }
});
