/**
 * One rule for showing an API key (issue 19, point 9): its last four characters, as the command
 * line shows it, made by maskApiKey (src/core/env/keys.ts) and by nothing else. The panel's
 * headers, Sign only, the key list, the editor's messages and the listen keys all call it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { maskApiKey } from '../../../src/core/env/keys';

const SRC = join(__dirname, '..', '..', '..', 'src');
const HOME = join('core', 'env', 'keys.ts');
/** What a mask made by hand looks like: a run of stars or bullets, or the last four characters cut off. */
const HAND_MADE_MASK = /\*{3,}|[•●]{2,}|\.slice\(-4\)|\.substring\([^)]*length - 4\)/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

describe('the API key is masked one way everywhere', () => {
  it('maskApiKey shows the last four characters and nothing of a key of four or fewer', () => {
    assert.equal(maskApiKey('deskUiTestApiKey0000000000007391'), '****7391');
    assert.equal(maskApiKey('abcd'), '****');
  });

  it('no file of src/ but src/core/env/keys.ts makes a mask of its own', () => {
    const offenders = sources(SRC)
      .filter((file) => relative(SRC, file) !== HOME)
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${relative(SRC, file).split(sep).join('/')}:${i + 1}` }))
          .filter(({ line }) => HAND_MADE_MASK.test(line))
          .map(({ at, line }) => `${at}: ${line.trim()}`),
      );
    assert.deepEqual(offenders, [], 'use maskApiKey (src/core/env/keys.ts)');
  });
});
