// The key of a request file's environment is read from SecretStorage when the file opens, so that
// its Send does not wait for a round trip to the window: counted on the key store's diagnostics
// channel (src/extension/key-reads.ts KEY_STORE_CHANNEL), which tells each read, never a value. The
// profiles here have no key stored (storing one needs a person at a dialog, or the notification
// that sending.test.ts uses for the sandbox's): "none" is read ahead and kept like a key.
// Its name runs it after sending.test.ts: the host's first Send fixes the state folder for the
// session (network.ts), and that suite's checks of its own state folder need it to be the first.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as diagnosticsChannel from 'node:diagnostics_channel';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { KEY_STORE_CHANNEL } from '../../src/extension/key-reads';
import type { PanelEntry } from '../../src/core/panel/protocol';
import { ENV_FILE, fixtureUri, openFixture, useOnlyEnvironment, waitFor } from './helpers';

interface Told {
  readonly event: 'read' | 'get';
  readonly entry?: string;
  readonly ahead?: boolean;
  readonly profile?: string;
  readonly from?: string;
}

suite('the key of an open request file is read ahead of its Send', () => {
  let sandbox: Sandbox;
  let stateDir: string;
  const previousStateDir = process.env['TRADEREQ_STATE_DIR'];
  const told: Told[] = [];
  const listener = (m: unknown): void => void told.push(m as Told);
  const readsOf = (profile: string): Told[] =>
    told.filter((t) => t.event === 'read' && t.entry === `tradereq.key.${profile}`);
  const send = (): Thenable<PanelEntry | undefined> =>
    vscode.commands.executeCommand<PanelEntry | undefined>('tradereq.sendRequest', fixtureUri('sending.tradereq'), 0);

  suiteSetup(async () => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-state-'));
    process.env['TRADEREQ_STATE_DIR'] = stateDir;
    sandbox = await startSandbox({ port: 0 });
    diagnosticsChannel.subscribe(KEY_STORE_CHANNEL, listener);
  });

  suiteTeardown(async () => {
    diagnosticsChannel.unsubscribe(KEY_STORE_CHANNEL, listener);
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.workspace.fs.delete(fixtureUri(ENV_FILE));
    await sandbox?.close();
    if (previousStateDir === undefined) delete process.env['TRADEREQ_STATE_DIR'];
    else process.env['TRADEREQ_STATE_DIR'] = previousStateDir;
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  test("opening the file reads its environment's key profile once; its Send asks SecretStorage nothing more", async () => {
    const profile = `ahead-${crypto.randomUUID().slice(0, 8)}`;
    await useOnlyEnvironment('ahead', { baseUrl: sandbox.baseUrl, key: profile });
    await openFixture('sending.tradereq');
    await waitFor(`the key profile "${profile}" read ahead`, () => readsOf(profile).some((t) => t.ahead));
    assert.equal(await send(), undefined, 'nothing is sent: the profile has no key');
    assert.deepEqual(
      readsOf(profile).map((t) => t.ahead),
      [true],
      'one read of SecretStorage, the one ahead of the Send',
    );
    const gets = told.filter((t) => t.event === 'get' && t.profile === profile);
    assert.equal(gets.length, 1, 'the Send asked the key store once');
    assert.notEqual(gets[0]!.from, 'store', 'and was answered by the read ahead');
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  test("when the environment's key profile changes (tradereq.env.json edited), the new profile is read ahead", async () => {
    const before = `ahead-${crypto.randomUUID().slice(0, 8)}`;
    const after = `ahead-${crypto.randomUUID().slice(0, 8)}`;
    await useOnlyEnvironment('ahead', { baseUrl: sandbox.baseUrl, key: before });
    await openFixture('sending.tradereq');
    await waitFor(`the key profile "${before}" read ahead`, () => readsOf(before).some((t) => t.ahead));
    assert.deepEqual(readsOf(after), [], 'a profile no environment names is not read');
    await useOnlyEnvironment('ahead', { baseUrl: sandbox.baseUrl, key: after });
    await waitFor(`the key profile "${after}" read ahead`, () => readsOf(after).some((t) => t.ahead));
    assert.equal(readsOf(before).length, 1, `"${before}" was read once`);
  });
});
