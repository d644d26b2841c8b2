/**
 * Colour as Node itself decides it (issue 34, point 10): FORCE_COLOR read as
 * tty.WriteStream#getColorDepth reads it (on over NO_COLOR and TERM=dumb, and where standard output
 * is no terminal; off for 0 and false), --no-color over everything, and without FORCE_COLOR a
 * terminal without NO_COLOR.
 */
import assert from 'node:assert/strict';
import { WriteStream } from 'node:tty';
import { colourWanted } from '../../../src/cli/terminal';

/** Node's own answer: more than 2 colours. */
function nodeColours(env: NodeJS.ProcessEnv): boolean {
  // getColorDepth warns when FORCE_COLOR overrides NO_COLOR: muted here, the answer is what counts.
  const emit = process.emitWarning.bind(process);
  process.emitWarning = () => undefined;
  try {
    // getColorDepth reads only `env` (not its stream) when it is given one.
    return WriteStream.prototype.getColorDepth.bind({} as WriteStream)(env) > 2;
  } finally {
    process.emitWarning = emit;
  }
}

describe('colourWanted: FORCE_COLOR, NO_COLOR, TERM and --no-color', () => {
  it("reads FORCE_COLOR as Node's getColorDepth does, on a pipe and on a terminal", () => {
    for (const force of ['', '1', '2', '3', 'true', '0', 'false', 'yes', 'TRUE'])
      for (const extra of [{}, { NO_COLOR: '1' }, { TERM: 'dumb' }]) {
        const env = { FORCE_COLOR: force, ...extra };
        for (const terminal of [false, true])
          assert.equal(
            colourWanted(env, false, terminal),
            nodeColours(env),
            `${JSON.stringify(env)}, terminal ${terminal}`,
          );
      }
  });

  it('--no-color wins over FORCE_COLOR; without FORCE_COLOR, a terminal without NO_COLOR and not TERM=dumb', () => {
    assert.equal(colourWanted({ FORCE_COLOR: '1' }, true, true), false);
    assert.equal(colourWanted({}, false, true), true);
    assert.equal(colourWanted({}, false, false), false);
    assert.equal(colourWanted({ NO_COLOR: '1' }, false, true), false);
    assert.equal(colourWanted({ NO_COLOR: '' }, false, true), true, 'an empty NO_COLOR is unset (no-color.org)');
    assert.equal(colourWanted({ TERM: 'dumb' }, false, true), false);
  });
});
