// Live WebSocket streams in the real extension host: Connect from a WS request's code lens, pushes
// in the stream view's state after a REST order sent from the editor, a listen key with the demo key
// from SecretStorage, Unsubscribe, Disconnect (its listen key closed), several connections at once,
// and a banned upgrade (418 with Retry-After) shown, then held back by the gate. The sandbox runs in
// this process; its own control surface says what it holds. The page's look is tested in Chromium
// (test/webview/live.test.js).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { WebSocket } from 'ws';
import { SANDBOX_KEYS, startSandbox, type LogEntry, type Sandbox } from '../../src/sandbox';
import type { StreamsState } from '../../src/extension/streams';
import type { TradeReqApi } from '../../src/extension/extension';
import type { PanelEntry } from '../../src/core/panel/protocol';
import {
  fixtureUri,
  demoKeyPort,
  storeDemoKeyIfMissing,
  tradereqApi,
  tradereqLogContaining,
  waitFor,
  ENV_FILE,
  useOnlyEnvironment,
} from './helpers';

const FILE = 'streams.tradereq';
const DEMO = SANDBOX_KEYS.find((k) => k.name === 'trade')!;
const DEALS = 'spot@public.deals.v3.api@BTCUSDT';
const DEPTH = 'spot@public.limit.depth.v3.api@BTCUSDT@5';
const ORDERS = 'spot@private.orders.v3.api';
// A first ban of 2 minutes × 0.05 is 6 s: long enough for the gate to hold on a busy machine.
const BAN_SCALE = 0.05;

// Requests of streams.tradereq, by position. The order crosses the house's best ask (30010): a trade.
const MARKET = 0;
const MY_ORDERS = 1;
const BUY = 2;
const TEXT = `# Live streams for the integration test. No secrets in this file.
### Trades and depth
WS /ws
[subscribe]
${DEALS}
${DEPTH}

### My orders
# @listenKey
WS /ws
[subscribe]
${ORDERS}

### Buy at the best ask
POST /api/v3/order
symbol = BTCUSDT
side = BUY
type = LIMIT
timeInForce = GTC
quantity = 0.001
price = 30010
`;

type Conn = StreamsState['connections'][number];

suite('live streams in the editor, in the real extension host', () => {
  let sandbox: Sandbox;
  let api: TradeReqApi;
  let stateDir: string;
  const previousStateDir = process.env['TRADEREQ_STATE_DIR'];
  const ids: { market?: string; mine?: string } = {};

  const sandboxGet = async <T>(what: string): Promise<T> =>
    (await fetch(`${sandbox.baseUrl}/_sandbox/${what}`)).json() as Promise<T>;
  const sandboxLog = (): Promise<LogEntry[]> => sandboxGet<LogEntry[]>('requests');
  const sandboxWs = (): Promise<{ connections: number; subscriptions: number }> => sandboxGet('ws');
  const connection = (id: string | undefined): Conn | undefined =>
    api.streamsState().connections.find((c) => c.connection.id === id);
  const pushesOf = (c: Conn | undefined, stream: string): number =>
    c?.connection.streams.find((s) => s.stream === stream)?.pushes ?? 0;
  const send = (index: number): Thenable<PanelEntry | undefined> =>
    vscode.commands.executeCommand<PanelEntry | undefined>('tradereq.sendRequest', fixtureUri(FILE), index);

  /** The code lenses above request `index` of the file: their titles and commands. */
  async function lensesOf(index: number): Promise<vscode.Command[]> {
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
      'vscode.executeCodeLensProvider',
      fixtureUri(FILE),
    );
    return lenses.flatMap((l) => (l.command && l.command.arguments?.[1] === index ? [l.command] : []));
  }

  /** Runs the code lens titled `title` of request `index`, as a click does. */
  async function clickLens<T>(index: number, title: string): Promise<T> {
    const lens = (await lensesOf(index)).find((c) => c.title.endsWith(title));
    assert.ok(lens, `a "${title}" lens above request ${index}: ${JSON.stringify(await lensesOf(index))}`);
    return vscode.commands.executeCommand<T>(lens.command, ...((lens.arguments ?? []) as unknown[]));
  }

  /** One environment, with the sandbox's wsUrl, the current one. */
  const useEnvironment = (): Promise<void> =>
    useOnlyEnvironment('streams-sandbox', { baseUrl: sandbox.baseUrl, wsUrl: sandbox.wsUrl, key: 'sandbox' });

  /** Opens a connection that sends PINGs past §8's 100 a second until the sandbox cuts it. */
  async function cut(): Promise<void> {
    const ws = new WebSocket(sandbox.wsUrl);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    for (let i = 1; i <= 101; i++) ws.send(JSON.stringify({ method: 'PING', id: i }));
    assert.equal(await closed, 1008, 'the sandbox cut the connection for its message rate');
  }

  suiteSetup(async () => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-streams-state-'));
    process.env['TRADEREQ_STATE_DIR'] = stateDir;
    api = await tradereqApi();
    await vscode.workspace.fs.writeFile(fixtureUri(FILE), new TextEncoder().encode(TEXT));
    // Open, as a person would before clicking a lens (code lenses are asked of open documents only).
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(fixtureUri(FILE)));
    sandbox = await startSandbox({ port: await demoKeyPort(), banScale: BAN_SCALE });
    await useEnvironment();
    await storeDemoKeyIfMissing(() => send(BUY));
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  suiteTeardown(async () => {
    for (const id of [ids.market, ids.mine]) if (id) await vscode.commands.executeCommand('tradereq.disconnect', id);
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.workspace.fs.delete(fixtureUri(ENV_FILE));
    await vscode.workspace.fs.delete(fixtureUri(FILE));
    await sandbox?.close();
    if (previousStateDir === undefined) delete process.env['TRADEREQ_STATE_DIR'];
    else process.env['TRADEREQ_STATE_DIR'] = previousStateDir;
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  test('a WS request has a Connect lens (not Send); clicking it opens the connection and subscribes its streams', async () => {
    assert.deepEqual(
      (await lensesOf(MARKET)).map((c) => [c.title, c.command]),
      [['$(plug) Connect', 'tradereq.connect']],
    );
    assert.ok(
      (await lensesOf(BUY)).some((c) => c.command === 'tradereq.sendRequest'),
      'a REST request keeps Send',
    );
    ids.market = await clickLens<string | undefined>(MARKET, 'Connect');
    assert.ok(ids.market, 'Connect resolves to the connection id');
    const c = await waitFor('both streams subscribed', () => {
      const v = connection(ids.market);
      return v?.connection.status === 'open' && v.connection.streams.every((s) => s.status === 'subscribed') && v;
    });
    assert.deepEqual(c.connection.streams.map((s) => s.stream).sort(), [DEALS, DEPTH].sort());
    assert.equal(c.connection.title, 'Trades and depth');
    assert.equal(c.connection.environment, 'streams-sandbox');
    assert.deepEqual(await sandboxWs(), { connections: 1, subscriptions: 2, paused: false });
    // While connected the lens is Disconnect, and Connect again brings the same connection forward.
    const lenses = await waitFor('the Disconnect lens', async () => {
      const l = await lensesOf(MARKET);
      return l.some((x) => x.command === 'tradereq.disconnect') && l;
    });
    assert.deepEqual(
      lenses.map((x) => x.command),
      ['tradereq.disconnect', 'tradereq.connect'],
    );
    assert.equal(await clickLens(MARKET, 'Show stream'), ids.market, 'no second connection');
    assert.equal((await sandboxWs()).connections, 1);
  });

  test('a private stream with # @listenKey: the key obtained with the demo key from SecretStorage, shown masked only', async () => {
    ids.mine = await clickLens<string | undefined>(MY_ORDERS, 'Connect');
    assert.ok(ids.mine && ids.mine !== ids.market, 'a second connection beside the first');
    const c = await waitFor('the private stream subscribed', () => {
      const v = connection(ids.mine);
      return v?.connection.streams[0]?.status === 'subscribed' && v;
    });
    assert.deepEqual(await sandboxWs(), { connections: 2, subscriptions: 3, paused: false });
    const posted = (await sandboxLog()).filter((e) => e.method === 'POST' && e.path === '/api/v3/userDataStream');
    assert.deepEqual(
      posted.map((e) => e.status),
      [200],
      'one listen key obtained',
    );
    assert.match(c.connection.listenKey ?? '', /^\*{4}.{4}$/, 'the listen key is shown masked');
    assert.ok(!c.connection.url.includes('listenKey='), `no listen key in the URL shown: ${c.connection.url}`);
    const json = JSON.stringify(api.streamsState());
    assert.ok(!json.includes(DEMO.apiKey) && !json.includes(DEMO.secretKey), 'no key value in the stream view');
  });

  test('an order sent from the editor: its trade, the new book and the private order push arrive in the stream view', async () => {
    const entry = await send(BUY);
    assert.equal(entry?.outcome, 'ok', entry?.summary);
    const market = await waitFor('a deals push and a book of BTCUSDT', () => {
      const v = connection(ids.market);
      return pushesOf(v, DEALS) > 0 && v?.books.some((b) => b.stream === DEPTH) && v;
    });
    const trade = market.pushes.find((p) => p.stream === DEALS);
    assert.ok(trade, 'the trade is among the newest pushes');
    assert.match(trade.summary ?? '', /BUY 0\.001 @ 30010/, `a line for people: ${trade.summary}`);
    const book = market.books.find((b) => b.stream === DEPTH)!;
    assert.deepEqual(
      book.asks[0]?.map(Number),
      [30010, 1.999],
      `the best ask is what the house has left: ${JSON.stringify(book)}`,
    );
    assert.equal(book.bids.length, 5, 'five levels of bids');
    const mine = await waitFor('the order in the private stream', () => {
      const v = connection(ids.mine);
      return pushesOf(v, ORDERS) > 0 && v;
    });
    const told = mine.pushes.filter((p) => p.stream === ORDERS).map((p) => p.summary ?? '');
    assert.ok(
      told.some((t) => /^BUY LIMIT 0\.001 @ 30010 · FILLED/.test(t)),
      `the order is told FILLED: ${told.join(' | ')}`,
    );
  });

  test('Unsubscribe (the stream view’s button, as a command): the sandbox drops the stream and no more of it arrives', async () => {
    const outcome = await vscode.commands.executeCommand<{ ok: boolean }>(
      'tradereq.unsubscribeStream',
      ids.market,
      DEALS,
    );
    assert.equal(outcome?.ok, true, JSON.stringify(outcome));
    assert.deepEqual(await sandboxWs(), { connections: 2, subscriptions: 2, paused: false });
    await waitFor('the stream gone from the view', () =>
      connection(ids.market)?.connection.streams.every((s) => s.stream !== DEALS),
    );
    const before = connection(ids.market)!;
    const deals = before.pushes.filter((p) => p.stream === DEALS).length;
    const orders = pushesOf(connection(ids.mine), ORDERS);
    assert.equal((await send(BUY))?.outcome, 'ok');
    // The order's own pushes arrived: the depth book changed and the private stream told the fill.
    await waitFor('the next book and order push', () => {
      const v = connection(ids.market);
      const b = v?.books.find((x) => x.stream === DEPTH);
      return Number(b?.asks[0]?.[1]) === 1.998 && pushesOf(connection(ids.mine), ORDERS) > orders;
    });
    const after = connection(ids.market)!;
    assert.equal(after.pushes.filter((p) => p.stream === DEALS).length, deals, 'no deals push after Unsubscribe');
  });

  test('Disconnect from the lens: both connections close, the listen key is closed, the lens is Connect again', async () => {
    await clickLens(MARKET, 'Disconnect');
    await vscode.commands.executeCommand('tradereq.disconnect', ids.mine);
    for (const id of [ids.market, ids.mine])
      await waitFor(`connection ${id} closed`, () => connection(id)?.connection.status === 'closed');
    await waitFor('the sandbox holds no connection', async () => (await sandboxWs()).connections === 0);
    const closed = (await sandboxLog()).filter((e) => e.method === 'DELETE' && e.path === '/api/v3/userDataStream');
    assert.deepEqual(
      closed.map((e) => e.status),
      [200],
      'the listen key was closed',
    );
    await waitFor('the Connect lens again', async () =>
      (await lensesOf(MARKET)).some((c) => c.command === 'tradereq.connect' && c.title.endsWith('Connect')),
    );
    const json = JSON.stringify(api.streamsState());
    assert.ok(!json.includes(DEMO.secretKey), 'no secret in the stream view');
  });

  test('Send All goes past the WS requests: the order is sent, no connection is opened', async () => {
    const orders = async (): Promise<number> =>
      (await sandboxLog()).filter((e) => e.method === 'POST' && e.path === '/api/v3/order').length;
    const before = await orders();
    const open = api.streamsState().connections.filter((c) => c.connection.status !== 'closed').length;
    await vscode.commands.executeCommand('tradereq.sendAll', fixtureUri(FILE));
    assert.equal(await orders(), before + 1, 'the POST after two WS requests was sent');
    assert.equal(api.streamsState().connections.filter((c) => c.connection.status !== 'closed').length, open);
    assert.equal((await sandboxWs()).connections, 0, 'Send All connects nothing');
  });

  test('a banned IP: the upgrade answered 418 with Retry-After is shown, and the next Connect is held back by the gate, sending nothing', async () => {
    await cut();
    await cut();
    const banFrom = Date.now(); // the third cut starts the 6 s ban
    await cut();
    const first = await clickLens<string | undefined>(MARKET, 'Connect');
    const refused = await waitFor('the refusal shown', () => {
      const v = connection(first);
      return v?.connection.status === 'closed' && v;
    });
    const shown = Date.now();
    assert.match(refused.connection.message ?? '', /418/, JSON.stringify(refused.connection));
    const told = refused.connection.notes.filter((n) => n.tone === 'error').map((n) => n.text);
    assert.equal(told.length, 1, `the refusal is told once: ${JSON.stringify(told)}`);
    // The seconds left of the 6 s ban when the upgrade was answered: 6 at most, and no fewer than the
    // time that has passed since the ban began allows (a busy machine takes longer to get here).
    const left = Number(/banned this IP .*\(418\).* for (\d+) s \(Retry-After\)/.exec(told[0]!)?.[1]);
    const least = Math.max(1, Math.floor(6 - (shown - banFrom) / 1000));
    assert.ok(left >= least && left <= 6, `${told[0]} (at least ${least} s after ${shown - banFrom} ms)`);
    const upgrades = (await sandboxLog()).filter((e) => e.path === '/ws');
    assert.equal(upgrades.at(-1)?.status, 418);

    const second = await clickLens<string | undefined>(MARKET, 'Connect');
    const held = await waitFor('the gate refusal shown', () => {
      const v = connection(second);
      return v?.connection.status === 'closed' && v;
    });
    assert.notEqual(second, first, 'a new connection, refused before it went out');
    assert.match(held.connection.message ?? '', /banned this IP .*nothing is sent to .* for [1-6] s more/);
    assert.equal(
      (await sandboxLog()).filter((e) => e.path === '/ws').length,
      upgrades.length,
      'nothing reached the sandbox',
    );
    await tradereqLogContaining('WS Trades and depth: not connected:');
  });
});
