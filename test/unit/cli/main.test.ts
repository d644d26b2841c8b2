/**
 * The command line's manners (issue 19, point 6): a mistyped command or option gets "did you
 * mean", messages start in one case, a negative number for a numeric option gets that option's own
 * message (not Node's "argument is ambiguous"), a negative error code is a code, and every --help
 * lists its exit codes. Run in-process through main(), as `tradereq` runs them.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { main } from '../../../src/cli/main';
import type { Io } from '../../../src/cli/usage';

const ROOT = join(__dirname, '..', '..', '..');

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const lines: string[] = [];
  const errors: string[] = [];
  const io: Io = { out: (t) => lines.push(t), err: (t) => errors.push(t), env: {}, cwd: ROOT };
  const code = await main(args, io);
  return { code, out: lines.join('\n'), err: errors.join('\n') };
}

describe("the command line's manners: did you mean, one case, negative numbers, exit codes in every --help", () => {
  it('a mistyped command: did you mean, and the commands there are (exit 2)', async () => {
    const r = await run(['sned', 'x.tradereq']);
    assert.equal(r.code, 2);
    assert.match(r.err, /^tradereq: unknown command "sned": did you mean "send"\? Else use sign, send, /);
    const far = await run(['frobnicate']);
    assert.doesNotMatch(far.err, /did you mean/);
    assert.match(far.err, /^tradereq: unknown command "frobnicate": use sign, send, /);
  });

  it('a mistyped option: "unknown option" in lower case, with the option meant', async () => {
    const r = await run(['send', 'examples/orders.tradereq', '--reqest', 'buy']);
    assert.equal(r.code, 2);
    assert.equal(r.err, "tradereq: unknown option '--reqest': did you mean --request? See: tradereq send --help");
    const swapped = await run(['test', '--sandobx']);
    assert.match(swapped.err, /^tradereq: unknown option '--sandobx': did you mean --sandbox\?/);
    const missing = await run(['send', 'examples/orders.tradereq', '--request']);
    assert.match(missing.err, /^tradereq: --request needs a value/);
  });

  it('a negative number for a numeric option: the option\'s own message, not "argument is ambiguous"', async () => {
    const r = await run(['send', 'examples/orders.tradereq', '--timeout', '-5']);
    assert.equal(r.code, 2);
    assert.equal(r.err, 'tradereq: --timeout takes a whole number of at least 1 and at most 600000, not "-5"');
    const listen = await run(['listen', 'examples/streams.tradereq', '--count', '-1']);
    assert.match(listen.err, /^tradereq: --count takes a whole number/);
    assert.doesNotMatch(r.err + listen.err, /ambiguous/);
  });

  it('a negative error code is a code: tradereq errors -2011 explains it', async () => {
    const r = await run(['errors', '-2011']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^-2011\b/m);
  });

  it('every --help lists its exit codes', async () => {
    const commands = [
      'sign',
      'send',
      'check',
      'errors',
      'sandbox',
      'state',
      'import',
      'code',
      'listen',
      'test',
      'init',
    ];
    const top = await run(['--help']);
    assert.match(top.out, /\nExit codes: 0 /);
    for (const c of commands) assert.match(top.out, new RegExp(`\\n  ${c} `), `tradereq --help lists ${c}`);
    for (const c of commands) {
      const r = await run([c, '--help']);
      assert.equal(r.code, 0, `${c} --help`);
      assert.match(r.out, /\nExit codes:? .*0 /, `${c} --help lists its exit codes`);
    }
  });
});
