/**
 * What activation loads (issue 35: at most 100 KiB): dist/extension.js, built with esbuild.js's own
 * options for it, minified as the package's. The commands, the providers and the Testing view's
 * controller are registered there; their code (the parser, the check step, completion and hover,
 * the catalogs, the services behind the commands) is dist/language.js's, loaded on first use.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { build, type BuildOptions } from 'esbuild';

const ROOT = resolve(__dirname, '..', '..', '..');
const { activationBundle } = createRequire(__filename)(join(ROOT, 'esbuild.js')) as {
  activationBundle: (options: { minify: boolean }) => BuildOptions;
};
/** Issue 35's budget for what activation loads: 100 KiB (it was 292,540 B, the catalogs and the parser in it). */
const ACTIVATION_MAX_BYTES = 100 * 1024;

/** The activation bundle as the package has it: its size, the files it keeps something of, what it requires. */
async function activation(): Promise<{ bytes: number; inputs: string[]; external: string[] }> {
  const result = await build({
    ...activationBundle({ minify: true }),
    absWorkingDir: ROOT,
    write: false,
    metafile: true,
  });
  const output = Object.values(result.metafile.outputs)[0]!;
  return {
    bytes: output.bytes,
    inputs: Object.entries(output.inputs)
      .filter(([, i]) => i.bytesInOutput > 0)
      .map(([file]) => file),
    external: output.imports.filter((i) => i.external).map((i) => i.path),
  };
}

/** The code of the request files' language: the catalogs, the parser, the check step, completion and hover, the rules. */
const languageCode = (p: string): boolean =>
  /^src\/core\/(catalog|format|check|editor|testing)\//.test(p) || p === 'src/core/rules.ts';

describe('what activation loads: the registrations, not the language (dist/language.js, on first use)', () => {
  it('dist/extension.js, minified as the package has it, is at most 100 KiB', async () => {
    const { bytes } = await activation();
    assert.ok(bytes <= ACTIVATION_MAX_BYTES, `dist/extension.js is ${bytes} bytes`);
  });

  it('holds none of the catalogs, the format, the check step, completion and hover, nor any package', async () => {
    const { inputs } = await activation();
    assert.deepEqual(inputs.filter(languageCode), []);
    assert.deepEqual(
      inputs.filter((p) => p.startsWith('node_modules/')),
      [],
    );
  });

  it('leaves them to dist/language.js, which it requires on first use, and holds its registrations', async () => {
    const { inputs, external } = await activation();
    assert.ok(external.includes('./language.js'), external.join(', '));
    for (const file of ['src/extension/extension.ts', 'src/extension/providers.ts', 'src/extension/testing.ts'])
      assert.ok(inputs.includes(file), `${file} is in it`);
  });
});
