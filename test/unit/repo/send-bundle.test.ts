/**
 * What the editor's first Send loads: dist/lazy.js, built here as esbuild.js builds it for the
 * package (minified), validates with zod/mini and sends with node:http, so it holds neither undici
 * nor zod's full form and stays a fraction of the megabyte it was; undici is in dist/ws.js, the
 * WebSocket client, loaded on the first Connect.
 */
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(__dirname, '..', '..', '..');
/** The first Send's code, minified (issue 20: "at most about 350 KB"; it was 1,105 KiB with undici and zod). */
const FIRST_SEND_MAX_BYTES = 350_000;

/** A lazy bundle as esbuild.js makes it for the package: its size and the files in it. */
async function bundle(entry: string): Promise<{ bytes: number; inputs: string[] }> {
  const result = await build({
    entryPoints: [join(ROOT, 'src', 'extension', 'lazy', entry)],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    write: false,
    metafile: true,
    outfile: join(ROOT, 'out', 'send-bundle-test.js'),
    // re2js is a bundle of its own (dist/re2.js), loaded on the first `# @expect … matches`.
    external: ['vscode', 're2js'],
    logLevel: 'silent',
  });
  const output = Object.values(result.metafile.outputs)[0]!;
  // A file it keeps nothing of (a re-export, all tree-shaken) is not in it.
  const inputs = Object.entries(output.inputs).filter(([, i]) => i.bytesInOutput > 0);
  return { bytes: output.bytes, inputs: inputs.map(([file]) => file) };
}

const undici = (p: string): boolean => p.includes('node_modules/undici/');
// zod's full form (classic) and its locales but English, which zod-mini.ts configures.
const fullZod = (p: string): boolean =>
  p.includes('node_modules/zod/v4/classic/') || (p.includes('node_modules/zod/v4/locales/') && !p.endsWith('/en.js'));

describe("the editor's first Send loads a bundle without undici or zod's full form", () => {
  it('dist/lazy.js: the send pipeline with zod/mini and node:http, under 350 KB minified', async () => {
    const lazy = await bundle('index.ts');
    assert.ok(lazy.inputs.includes('src/core/request/pipeline.ts'), 'the send pipeline is in it');
    assert.ok(lazy.inputs.includes('src/core/net/node-http-sender.ts'), "node:http's sender is in it");
    assert.deepEqual(lazy.inputs.filter(undici), [], 'no undici');
    assert.deepEqual(lazy.inputs.filter(fullZod), [], "no zod but zod/mini and zod's English messages");
    assert.ok(lazy.bytes <= FIRST_SEND_MAX_BYTES, `dist/lazy.js is ${lazy.bytes} bytes`);
  });

  it('dist/ws.js: the WebSocket client holds undici, and no zod but zod/mini either', async () => {
    const ws = await bundle('ws.ts');
    assert.ok(ws.inputs.includes('src/core/ws/connection.ts'), 'the WebSocket client is in it');
    assert.ok(ws.inputs.some(undici), "undici's WebSocket is in it");
    assert.deepEqual(ws.inputs.filter(fullZod), []);
  });
});
