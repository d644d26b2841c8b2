/**
 * Numeric options of the command line have a largest value: shown in the option's --help line, and
 * past it one usage line (exit 2) before anything is read or sent. Node's setTimeout fires at once
 * past 2^31 - 1 ms, so an unbounded --timeout or --duration ended a run at once instead of waiting.
 * Run in-process through main(), as `tradereq` runs them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { integerFlag } from '../../../src/cli/args';
import { main } from '../../../src/cli/main';
import { UsageError, type Io } from '../../../src/cli/usage';

const ROOT = join(__dirname, '..', '..', '..');
/** Past setTimeout's longest wait (2^31 - 1 ms). */
const TIMER_OVERFLOW_MS = 2 ** 31;

interface Captured extends Io {
  readonly lines: string[];
  readonly errors: string[];
}

function captureIo(): Captured {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (t) => lines.push(t), err: (t) => errors.push(t), env: {}, cwd: ROOT };
}

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo();
  const code = await main(args, io);
  return { code, out: io.lines.join('\n'), err: io.errors.join('\n') };
}

/** The --help line of `option` in `command`'s help. */
async function helpLine(command: string, option: string): Promise<string> {
  const help = (await run([command, '--help'])).out;
  // An option's line, or the line of options it shares ("--no-clock-sync, --timeout MS, ...").
  const named = new RegExp(`^\\s+(-\\S+( [A-Z]+)?, )*${option} `);
  const line = help.split('\n').find((l) => named.test(l));
  assert.ok(line !== undefined, `${command} --help has a line for ${option}`);
  return line;
}

/** The largest value a --help line names ("at most N"). */
function documentedMax(line: string): number {
  const m = /at most (\d+)/.exec(line);
  assert.ok(m, `the help line names its maximum: ${line}`);
  return Number(m[1]);
}

const NUMERIC_OPTIONS: readonly (readonly [command: string, option: string, ms: number])[] = [
  // [command, option, how many ms one unit is when it reaches a timer (0: no timer)]
  ['send', '--timeout', 1],
  ['send', '--connect-timeout', 1],
  ['test', '--timeout', 1],
  ['test', '--connect-timeout', 1],
  ['listen', '--duration', 1000],
  ['listen', '--reply-timeout', 1],
  ['listen', '--count', 0],
  ['sandbox', '--port', 0],
  ['sign', '--timestamp', 0],
];

describe('numeric options: documented maxima, a usage error past them', () => {
  it('integerFlag takes a max: past it (or below min, or not a whole number) one usage line naming the range', () => {
    assert.equal(integerFlag('count', '5', 1, 10), 5);
    assert.equal(integerFlag('count', '10', 1, 10), 10);
    assert.equal(integerFlag('count', undefined, 1, 10), undefined);
    for (const bad of ['11', '0', '-1', '1.5', 'x', '99999999999999999999999'])
      assert.throws(() => integerFlag('count', bad, 1, 10), UsageError, bad);
    assert.throws(
      () => integerFlag('count', '11', 1, 10),
      /^UsageError: --count takes a whole number of at least 1 and at most 10, not "11"$/,
    );
  });

  it('every numeric option names its maximum in its --help line, and a timer it reaches stays below 2^31 - 1 ms', async () => {
    for (const [command, option, ms] of NUMERIC_OPTIONS) {
      const max = documentedMax(await helpLine(command, option));
      if (ms > 0)
        assert.ok(max * ms < TIMER_OVERFLOW_MS, `${command} ${option}: ${max} is a timer setTimeout can wait`);
    }
  });

  it('exit 2 with one line past the documented maximum, nothing read or sent; the maximum itself is taken', async () => {
    for (const [command, option] of NUMERIC_OPTIONS) {
      const max = documentedMax(await helpLine(command, option));
      // A FILE that does not exist: an option past its maximum is refused before the file is read.
      const file = command === 'sandbox' ? [] : ['no-such-file.tradereq'];
      const over = await run([command, ...file, option, String(max + 1)]);
      assert.equal(over.code, 2, `${command} ${option} ${max + 1}: ${over.err}`);
      const range = command === 'sandbox' || command === 'sign' ? '' : 'of at least 1 and ';
      assert.equal(
        over.err,
        `tradereq: ${option} takes a whole number ${range || 'of '}at most ${max}, not "${max + 1}"`,
      );
      if (command === 'sandbox') continue;
      // At the maximum the option is taken: what fails next is the missing file.
      const at = await run([command, ...file, option, String(max)]);
      assert.doesNotMatch(at.err, new RegExp(`${option} takes`), `${command} ${option} ${max}`);
    }
  });

  it('send --timeout 2147483648 and listen --duration 2147484 (past setTimeout) are usage errors, not a run that ends at once', async () => {
    const send = await run(['send', 'no-such-file.tradereq', '--timeout', String(TIMER_OVERFLOW_MS)]);
    assert.equal(send.code, 2, send.err);
    assert.match(
      send.err,
      /^tradereq: --timeout takes a whole number of at least 1 and at most \d+, not "2147483648"$/,
    );
    const listen = await run([
      'listen',
      'no-such-file.tradereq',
      '--duration',
      String(Math.ceil(TIMER_OVERFLOW_MS / 1000)),
    ]);
    assert.equal(listen.code, 2, listen.err);
    assert.match(
      listen.err,
      /^tradereq: --duration takes a whole number of at least 1 and at most \d+, not "2147484"$/,
    );
  });
});

describe('an empty argument is bad input, never "everything here" (issue 31, point 7)', () => {
  /** A folder whose only request would be sent (to a port where nothing answers) if the run went ahead. */
  async function inFolder(args: string[]): Promise<{ code: number; err: string }> {
    const dir = mkdtempSync(join(tmpdir(), 'tradereq-empty-arg-'));
    try {
      writeFileSync(join(dir, 'tradereq.env.json'), JSON.stringify({ here: { baseUrl: 'http://127.0.0.1:1' } }));
      writeFileSync(join(dir, 'ping.tradereq'), 'GET /api/v3/ping\n');
      const io = { ...captureIo(), cwd: dir, env: { TRADEREQ_STATE_DIR: join(dir, 'state') } };
      const code = await main(args, io);
      return { code, err: io.errors.join('\n') };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('tradereq test "" (an unset $FILE in a script) is refused (exit 2) instead of running every file of the folder', async () => {
    const r = await inFolder(['test', '']);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /an argument is empty/);
  });

  it('--pace "" is --pace given an empty value (exit 2), not a path after --pace', async () => {
    const r = await inFolder(['test', '--pace', '', 'ping.tradereq']);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /--pace is given an empty value/);
  });

  it('an empty option value of any command is refused: send --env ""', async () => {
    const r = await inFolder(['send', 'ping.tradereq', '--env', '']);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /--env is given an empty value/);
  });
});
