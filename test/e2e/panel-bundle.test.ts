/**
 * The response panel's page as it ships: dist/webview/panel.js of the production build the packages
 * are made from (out/package/dist, `npm run package`) stays under 120 KB with no zod in it (the page
 * validates with the protocol's shapes, core/panel/protocol.ts).
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePackages } from '../support/build';

const MAX_BUNDLE_BYTES = 120 * 1024;

describe('panel bundle: dist/webview/panel.js as it ships', function () {
  this.timeout(300_000); // ensurePackages() makes the packages first when a source is newer
  let build: string;
  // The packages' production build, made once for every test that needs it (npm test makes it first).
  before(() => ({ build } = ensurePackages()));

  it(`built in production mode, it is under ${MAX_BUNDLE_BYTES / 1024} KB and holds no zod`, () => {
    const file = join(build, 'webview', 'panel.js');
    const bytes = statSync(file).size;
    console.log(`      dist/webview/panel.js: ${(bytes / 1024).toFixed(1)} KB minified`);
    assert.ok(bytes < MAX_BUNDLE_BYTES, `the panel's bundle has ${bytes} bytes, over ${MAX_BUNDLE_BYTES}`);
    const text = readFileSync(file, 'utf8');
    assert.doesNotMatch(text, /\$ZodType|ZodError|invalid_type/, 'no zod in the panel: it validates with the shapes');
  });
});
