/**
 * The response panel's page as it ships: dist/webview/panel.js built for production stays under
 * 120 KB with no zod in it (the page validates with the protocol's shapes, core/panel/protocol.ts).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const MAX_BUNDLE_BYTES = 120 * 1024;

describe('panel bundle: dist/webview/panel.js as it ships', function () {
  this.timeout(120_000);
  let tmp: string;
  before(() => (tmp = mkdtempSync(join(tmpdir(), 'tradereq-bundle-'))));
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it(`built in production mode, it is under ${MAX_BUNDLE_BYTES / 1024} KB and holds no zod`, () => {
    const r = spawnSync(process.execPath, ['esbuild.js', '--production', `--outdir=${tmp}`], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    const file = join(tmp, 'webview', 'panel.js');
    const bytes = statSync(file).size;
    console.log(`      dist/webview/panel.js: ${(bytes / 1024).toFixed(1)} KB minified`);
    assert.ok(bytes < MAX_BUNDLE_BYTES, `the panel's bundle has ${bytes} bytes, over ${MAX_BUNDLE_BYTES}`);
    const text = readFileSync(file, 'utf8');
    assert.doesNotMatch(text, /\$ZodType|ZodError|invalid_type/, 'no zod in the panel: it validates with the shapes');
  });
});
