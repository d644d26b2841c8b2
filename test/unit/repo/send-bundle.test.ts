/**
 * What the editor's first Send loads: dist/lazy.js, built here as esbuild.js builds it for the
 * package (minified), validates with zod/mini and sends with node:http, so it holds neither undici
 * nor zod's full form and stays a fraction of the megabyte it was. The WebSocket client, loaded on
 * the first Connect, is dist/ws.js: the `ws` package's client, no undici (issue 32: chosen by the
 * figures of `npm run bench:ws-client`), opening its upgrade in a way VS Code does not reroute.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { WebSocketServer } from 'ws';
import { Budget } from '../../../src/core/budget/budget';
import { MemoryStateStore } from '../../../src/core/budget/state';

const ROOT = resolve(__dirname, '..', '..', '..');
const load = createRequire(__filename);
/** esbuild.js's plugin for the bundles of the WebSocket client (their upgrade through node:http's ClientRequest). */
const { wsOwnRequest } = load(join(ROOT, 'scripts', 'ws-own-request.js')) as { wsOwnRequest: Plugin };
/** The first Send's code, minified (issue 20: "at most about 350 KB"; it was 1,105 KiB with undici and zod). */
const FIRST_SEND_MAX_BYTES = 350_000;

/** A lazy bundle as esbuild.js makes it for the package: its size and the files in it; written to `outfile` when given. */
async function bundle(entry: string, outfile?: string): Promise<{ bytes: number; inputs: string[] }> {
  const result = await build({
    entryPoints: [join(ROOT, 'src', 'extension', 'lazy', entry)],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    write: outfile !== undefined,
    metafile: true,
    outfile: outfile ?? join(ROOT, 'out', 'send-bundle-test.js'),
    // re2js is a bundle of its own (dist/re2.js), loaded on the first `# @expect … matches`.
    external: ['vscode', 're2js'],
    plugins: [wsOwnRequest],
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

  it("dist/ws.js: the WebSocket client holds ws's client, no undici, and no zod but zod/mini either", async () => {
    const ws = await bundle('ws.ts');
    assert.ok(ws.inputs.includes('src/core/ws/connection.ts'), 'the WebSocket client is in it');
    assert.ok(ws.inputs.includes('node_modules/ws/lib/websocket.js'), "ws's client is in it");
    assert.deepEqual(ws.inputs.filter(undici), [], 'no undici');
    assert.deepEqual(ws.inputs.filter(fullZod), []);
  });

  it("dist/ws.js: no deployment's REST endpoints, error codes or send pipeline (a listen key's REST calls are lazy.js's)", async () => {
    const ws = await bundle('ws.ts');
    assert.ok(ws.inputs.includes('src/core/catalog/deployment.ts'), "the deployments' stream facts are in it");
    for (const file of [
      'src/core/catalog/mexc-endpoints.ts',
      'src/core/catalog/endpoints.ts',
      'src/core/catalog/endpoint-catalogs.ts',
      'src/core/catalog/errors.ts',
      'src/core/request/pipeline.ts',
      'src/core/ws/listen-key-api.ts',
    ])
      assert.ok(!ws.inputs.includes(file), `${file} is not in it`);
    assert.ok((await bundle('index.ts')).inputs.includes('src/core/ws/listen-key-api.ts'), 'lazy.js makes the calls');
  });

  it("dist/ws.js: no request file's reading either (a WS request is resolved in lazy.js, which the Connect loads first)", async () => {
    const ws = await bundle('ws.ts');
    for (const file of [
      'src/core/ws/resolved-request.ts',
      'src/core/format/directives.ts',
      'src/core/format/expectation.ts',
      'src/core/format/variables.ts',
    ])
      assert.ok(!ws.inputs.includes(file), `${file} is not in it`);
    const lazy = await bundle('index.ts');
    assert.ok(lazy.inputs.includes('src/core/ws/resolved-request.ts'), 'lazy.js resolves WS requests');
  });

  it("dist/ws.js opens its upgrade with node:http's ClientRequest, never http.request or https.request, which VS Code reroutes by its proxy settings", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradereq-ws-bundle-'));
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((r) => wss.once('listening', r));
    const restore = reroute();
    try {
      await bundle('ws.ts', join(dir, 'ws.js'));
      const { WsConnection } = load(join(dir, 'ws.js')) as typeof import('../../../src/extension/lazy/ws');
      const c = new WsConnection({ budget: new Budget(new MemoryStateStore()), pingAfterMs: 0 });
      const r = await c.connect(`ws://127.0.0.1:${(wss.address() as { port: number }).port}/ws`);
      await c.close();
      assert.deepEqual(restore(), [], 'http.request and https.request were not called');
      assert.ok(r.ok, JSON.stringify(r));
    } finally {
      restore();
      await new Promise((r) => wss.close(r));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * http.request and https.request replaced, as VS Code's extension host replaces them for an
 * extension (its proxy support), by functions that refuse; the returned function puts them back and
 * tells which were called.
 */
function reroute(): () => string[] {
  const called: string[] = [];
  const modules = ['node:http', 'node:https'].map((name) => ({ name, m: load(name) as { request: unknown } }));
  const originals = modules.map(({ m }) => m.request);
  for (const { name, m } of modules)
    m.request = () => {
      called.push(`${name.slice(5)}.request`);
      throw new Error('rerouted by the host');
    };
  return () => {
    modules.forEach(({ m }, i) => (m.request = originals[i]));
    return called;
  };
}
