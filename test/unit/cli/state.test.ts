/**
 * `tradereq state` on a poisoned state file (issue 31, point 5): origins named as the members of
 * every JavaScript object, and an origin written twice. Shown, and reset one by one or all,
 * without a crash; the origin written twice is shown damaged until its reset.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stateCommand } from '../../../src/cli/state';
import type { Io } from '../../../src/cli/usage';

const A = 'http://127.0.0.1:8780';

describe('tradereq state on a poisoned state file', () => {
  let dir: string;
  let out: string[];
  let io: Io;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tradereq-state-cli-'));
    out = [];
    io = { out: (t) => out.push(t), err: (t) => out.push(t), env: { TRADEREQ_STATE_DIR: dir }, cwd: dir };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const run = async (...args: string[]): Promise<{ code: number; text: string }> => {
    out = [];
    const code = await stateCommand(args, io);
    return { code, text: out.join('\n') };
  };

  it('shows, resets one origin and resets all, whatever the origins are named', async () => {
    const ban = JSON.stringify({ until: Date.now() + 600_000, status: 418, since: Date.now() });
    const entries = ['constructor', '__proto__', 'toString', 'hasOwnProperty'].map(
      (name) => `${JSON.stringify(name)}:{"ip":[[${Date.now()},2]]}`,
    );
    writeFileSync(
      join(dir, 'state.json'),
      `{"version":1,"origins":{${entries.join(',')},${JSON.stringify(A)}:{"blocked":${ban}},${JSON.stringify(A)}:{}}}`,
    );
    const shown = await run();
    assert.equal(shown.code, 0, shown.text);
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty'])
      assert.match(shown.text, new RegExp(`^${name}: `, 'm'), name);
    assert.match(shown.text, /127\.0\.0\.1:8780.*\n.*its entry is written twice in the file/);
    const json = await run('--json');
    assert.equal(json.code, 0, json.text);
    assert.equal(json.text.split('\n').length, 5);
    const one = await run('reset', A);
    assert.equal(one.code, 0, one.text);
    assert.doesNotMatch((await run()).text, /written twice/);
    const all = await run('reset');
    assert.equal(all.code, 0, all.text);
    assert.match((await run()).text, /^No origin has rate-limit state/);
  });
});
