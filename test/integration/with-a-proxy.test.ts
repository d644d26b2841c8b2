// Behind a company proxy, in the real extension host (named to run after the suites that send first,
// whose state folder the extension keeps): with VS Code's http.proxy set, Send and
// Connect reach a TLS origin that only the proxy can reach (Debian's tinyproxy, which alone resolves
// api.live.invalid, to a TLS sandbox the harness started with its CA in NODE_EXTRA_CA_CERTS:
// test/harness/run-vscode-tests.js); the proxy's log shows CONNECT lines and no request of the API;
// http.proxySupport "off" goes direct; loopback is never proxied.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PanelEntry } from '../../src/core/panel/protocol';
import type { TradeReqApi } from '../../src/extension/extension';
import type { StreamsState } from '../../src/extension/streams';
import { proxyAvailable, startProxy, type Proxy } from '../support/proxy';
import { fixtureUri, tradereqApi, tradereqLogContaining, waitFor, ENV_FILE, useOnlyEnvironment } from './helpers';

const FILE = 'behind-proxy.tradereq';
const HOST = 'api.live.invalid';
const BOOK = 'spot@public.bookTicker.v3.api@BTCUSDT';
const TIME = 0;
const STREAM = 1;
const TEXT = `### Server time\nGET /api/v3/time\n\n### Book\nWS /ws\n[subscribe]\n${BOOK}\n`;

type Conn = StreamsState['connections'][number];

suite('behind a company proxy: http.proxy in the real extension host', function () {
  // Set by the harness: the TLS sandbox it started before VS Code, its CA in NODE_EXTRA_CA_CERTS.
  const tlsOrigin = process.env['TRADEREQ_TEST_TLS_ORIGIN'];
  let proxy: Proxy;
  let api: TradeReqApi;
  let stateDir: string;
  const previousStateDir = process.env['TRADEREQ_STATE_DIR'];
  const http = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('http');
  const send = (index: number): Thenable<PanelEntry | undefined> =>
    vscode.commands.executeCommand<PanelEntry | undefined>('tradereq.sendRequest', fixtureUri(FILE), index);

  async function setHttp(name: string, value: unknown): Promise<void> {
    await http().update(name, value, vscode.ConfigurationTarget.Global);
    await waitFor(
      `http.${name} in the extension host`,
      () => JSON.stringify(http().inspect(name)?.globalValue) === JSON.stringify(value),
    );
  }

  const useEnvironment = (name: string, baseUrl: string): Promise<void> =>
    useOnlyEnvironment(name, { baseUrl, wsUrl: `${baseUrl.replace(/^http/, 'ws')}/ws` });

  function onlyTunnels(): void {
    assert.ok(proxy.connects().length >= 1, 'the proxy carried the connection');
    assert.deepEqual(
      proxy.requestLines().filter((l) => !l.startsWith('CONNECT ')),
      [],
      'no request line of the API',
    );
    for (const target of proxy.connects()) assert.equal(target, new URL(tlsOrigin!).host);
  }

  suiteSetup(async function () {
    const available = proxyAvailable();
    if (!tlsOrigin || !available.ok) {
      console.log(
        `  skipped: ${tlsOrigin ? (available.ok ? '' : available.reason) : 'no TLS sandbox from the harness'}`,
      );
      return this.skip();
    }
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-proxy-state-'));
    process.env['TRADEREQ_STATE_DIR'] = stateDir;
    proxy = await startProxy({ hosts: { [HOST]: '127.0.0.1' } });
    api = await tradereqApi();
    await vscode.workspace.fs.writeFile(fixtureUri(FILE), new TextEncoder().encode(TEXT));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(fixtureUri(FILE)));
    await useEnvironment('live-behind-proxy', tlsOrigin);
    await setHttp('proxy', proxy.url);
  });

  suiteTeardown(async () => {
    if (!proxy) return;
    for (const c of api.streamsState().connections)
      await vscode.commands.executeCommand('tradereq.disconnect', c.connection.id);
    await setHttp('proxy', undefined);
    await setHttp('proxySupport', undefined);
    await setHttp('noProxy', undefined);
    await vscode.workspace.fs.delete(fixtureUri(ENV_FILE));
    await vscode.workspace.fs.delete(fixtureUri(FILE));
    await proxy.stop();
    if (previousStateDir === undefined) delete process.env['TRADEREQ_STATE_DIR'];
    else process.env['TRADEREQ_STATE_DIR'] = previousStateDir;
    // Left in place: the extension keeps the folder of its first send for the rest of the session.
  });

  test('Send reaches the TLS origin only the proxy reaches; the proxy sees CONNECT and nothing of the request', async () => {
    const entry = await send(TIME);
    assert.equal(entry?.outcome, 'ok', entry?.summary);
    onlyTunnels();
  });

  test('Connect opens the wss stream through the proxy, and pushes arrive', async () => {
    const before = proxy.connects().length;
    const id = await vscode.commands.executeCommand<string | undefined>('tradereq.connect', fixtureUri(FILE), STREAM);
    assert.ok(id, 'Connect resolves to the connection id');
    await waitFor('a push of the book through the proxy', () => {
      const c: Conn | undefined = api.streamsState().connections.find((x) => x.connection.id === id);
      return c?.connection.streams.some((s) => s.stream === BOOK && s.pushes > 0);
    });
    assert.equal(proxy.connects().length, before + 1, 'one more tunnel: the stream');
    onlyTunnels();
    await vscode.commands.executeCommand('tradereq.disconnect', id);
  });

  /** With `name` set to `value`, a Send goes direct: the name does not resolve here, and the proxy sees nothing more. */
  async function direct(name: string, value: unknown): Promise<void> {
    await setHttp(name, value);
    const before = proxy.requestLines().length;
    const entry = await send(TIME);
    assert.equal(entry?.outcome, 'not-sent', entry?.summary);
    assert.match(entry?.summary ?? '', /cannot be found/);
    assert.equal(proxy.requestLines().length, before);
    await setHttp(name, undefined);
  }

  test('http.noProxy names the host: direct, so the name does not resolve and the proxy sees nothing more', () =>
    direct('noProxy', ['.invalid']));

  test('http.proxySupport "off": direct, so the name does not resolve and the proxy sees nothing more', () =>
    direct('proxySupport', 'off'));

  test("a proxy that wants credentials: 407 without them, through with http.proxyAuthorization or in http.proxy's URL; they are in no log, panel state or file", async () => {
    const password = 'edit0r-Pr0xy-9c1d';
    const guarded = await startProxy({ hosts: { [HOST]: '127.0.0.1' }, auth: { user: 'desk', password } });
    try {
      await setHttp('proxy', guarded.url);
      const refused = await send(TIME);
      assert.equal(refused?.outcome, 'not-sent', refused?.summary);
      assert.match(refused?.summary ?? '', /wants credentials, or other ones \(407\)/);
      const encoded = Buffer.from(`desk:${password}`).toString('base64');
      await setHttp('proxyAuthorization', `Basic ${encoded}`);
      const byHeader = await send(TIME);
      assert.equal(byHeader?.outcome, 'ok', byHeader?.summary);
      await setHttp('proxyAuthorization', undefined);
      await setHttp('proxy', guarded.urlWithAuth);
      const entry = await send(TIME);
      assert.equal(entry?.outcome, 'ok', entry?.summary);
      assert.equal(guarded.requestLines().filter((l) => !l.startsWith('CONNECT ')).length, 0);
      const log = await tradereqLogContaining(/GET https:\/\/api\.live\.invalid:\d+\/api\/v3\/time .*→ 200/);
      // The folder the extension's state went to: this suite's, or an earlier suite's when one sent first.
      const texts = [log, JSON.stringify(api.panelState()), ...filesUnder(path.dirname(api.statePath()))];
      for (const text of texts) assert.ok(!text.includes(password) && !text.includes(encoded), text.slice(0, 2000));
    } finally {
      await setHttp('proxyAuthorization', undefined);
      await setHttp('proxy', proxy.url);
      await guarded.stop();
    }
  });
});

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(dir, f))
    .filter((f) => fs.statSync(f).isFile())
    .map((f) => fs.readFileSync(f, 'utf8'));
}
