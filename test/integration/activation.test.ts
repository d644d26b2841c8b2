import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, openFixture, waitFor } from './helpers';

suite('activation', () => {
  test('a .tradereq file opens with the tradereq language', async () => {
    const doc = await openFixture('example.tradereq');
    assert.equal(doc.languageId, 'tradereq');
    assert.match(doc.getText(), /^POST \/api\/v3\/order$/m);
  });

  test('the extension activates when a .tradereq file is open', async () => {
    await openFixture('example.tradereq');
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is installed`);
    await waitFor(`${EXTENSION_ID} to activate`, () => ext.isActive);
    // isActive is also true after a failed activation; activate() rethrows that failure.
    await ext.activate();
  });
});
