// The stream view in the real extension host against the sandbox playing the public deployment
// (`startSandbox({ deployment: 'mexc' })`), whose pushes are Protocol Buffers wrappers: an
// environment that says "deployment": "mexc", Connect on a `.pb` channel, and the push in the stream
// view's state decoded to its JSON (the wrapper's channel and symbol, the body under its name,
// decimals as text); a frame that is no wrapper counted and noted, the connection kept.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SANDBOX_KEYS, startSandbox, type LogEntry, type Sandbox } from '../../src/sandbox';
import type { StreamsState } from '../../src/extension/streams';
import type { TradeReqApi } from '../../src/extension/extension';
import type { PanelEntry } from '../../src/core/panel/protocol';
import {
  demoKeyPort,
  fixtureUri,
  storeDemoKeyIfMissing,
  tradereqApi,
  waitFor,
  useBuiltInEnvironment,
  useOnlyEnvironment,
} from './helpers';

const FILE = 'streams-pb.tradereq';
const DEPTH5 = 'spot@public.limit.depth.v3.api.pb@BTCUSDT@5';
const ORDERS = 'spot@private.orders.v3.api.pb';
const DEMO = SANDBOX_KEYS.find((k) => k.name === 'trade')!;
// Requests of the file, by position. The order crosses the house's best ask (30010): a trade.
const MY_ORDERS = 1;
const BUY = 2;
const TEXT = `# Protocol Buffers streams for the integration test. No secrets in this file.
### Book
WS /ws
[subscribe]
${DEPTH5}

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

suite('the stream view decodes Protocol Buffers pushes, in the real extension host', () => {
  let sandbox: Sandbox;
  let api: TradeReqApi;
  let stateDir: string;
  let id: string | undefined;
  let mine: string | undefined;
  const previousStateDir = process.env['TRADEREQ_STATE_DIR'];
  const connection = (which = id): Conn | undefined =>
    api.streamsState().connections.find((c) => c.connection.id === which);
  const send = (index: number): Thenable<PanelEntry | undefined> =>
    vscode.commands.executeCommand<PanelEntry | undefined>('tradereq.sendRequest', fixtureUri(FILE), index);

  /** The environment of the mexc sandbox (its wsUrl next to its baseUrl), the current one. */
  const useEnvironment = (): Promise<void> =>
    useOnlyEnvironment('pb-sandbox', { deployment: 'mexc', baseUrl: sandbox.baseUrl, key: 'sandbox' });

  suiteSetup(async () => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-streams-pb-state-'));
    process.env['TRADEREQ_STATE_DIR'] = stateDir;
    api = await tradereqApi();
    // On the origin the demo key's profile is bound to, when an earlier suite stored it.
    sandbox = await startSandbox({ port: await demoKeyPort(), deployment: 'mexc' });
    await vscode.workspace.fs.writeFile(fixtureUri(FILE), new TextEncoder().encode(TEXT));
    await useEnvironment();
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(fixtureUri(FILE)));
    await storeDemoKeyIfMissing(() => send(BUY));
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  suiteTeardown(async () => {
    for (const c of [id, mine]) if (c) await vscode.commands.executeCommand('tradereq.disconnect', c);
    await vscode.workspace.fs.delete(fixtureUri(FILE));
    // The suites after this one expect the built-in environment again, not this one's mexc deployment.
    await useBuiltInEnvironment();
    await sandbox?.close();
    if (previousStateDir === undefined) delete process.env['TRADEREQ_STATE_DIR'];
    else process.env['TRADEREQ_STATE_DIR'] = previousStateDir;
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  test('Connect on a .pb channel: the limit depth pushed on subscription is decoded and shown as its book', async () => {
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
      'vscode.executeCodeLensProvider',
      fixtureUri(FILE),
    );
    const lens = lenses.find((l) => l.command?.command === 'tradereq.connect')?.command;
    assert.ok(lens, 'a Connect lens');
    id = await vscode.commands.executeCommand<string | undefined>(
      lens.command,
      ...((lens.arguments ?? []) as unknown[]),
    );
    assert.ok(id, 'Connect resolves to the connection id');
    const c = await waitFor('the book in the stream view', () => {
      const v = connection();
      return v?.books.some((b) => b.stream === DEPTH5) && v;
    });
    assert.equal(c.connection.streams[0]?.status, 'subscribed');
    // As a JSON depth push is: its book, not a line of text.
    const book = c.books.find((b) => b.stream === DEPTH5)!;
    assert.deepEqual(book.asks[0], ['30010.00000000', '2.00000000']);
    assert.equal(book.bids.length, 5);
    assert.match(book.version ?? '', /^\d+$/);
    assert.ok(c.pushes.some((p) => p.stream === DEPTH5 && p.text === undefined));
    assert.equal(c.connection.counts.undecodable, 0);
  });

  test('a frame that is no wrapper is counted and noted; the connection stays open', async () => {
    const sent = await fetch(`${sandbox.baseUrl}/_sandbox/ws/malformed`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.equal(sent.status, 200);
    const c = await waitFor('the undecodable frame counted', () => {
      const v = connection();
      return v?.connection.counts.undecodable === 1 && v;
    });
    assert.ok(
      c.connection.notes.some((n) => n.tone === 'warn' && n.text.includes('not a Protocol Buffers push')),
      JSON.stringify(c.connection.notes),
    );
    assert.equal(c.connection.status, 'open');
  });

  test('a private .pb stream with # @listenKey: an order sent from the editor comes back as a decoded private push', async () => {
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
      'vscode.executeCodeLensProvider',
      fixtureUri(FILE),
    );
    const lens = lenses.find(
      (l) => l.command?.command === 'tradereq.connect' && l.command.arguments?.[1] === MY_ORDERS,
    );
    assert.ok(lens?.command, 'a Connect lens above the private stream');
    mine = await vscode.commands.executeCommand<string | undefined>(
      lens.command.command,
      ...((lens.command.arguments ?? []) as unknown[]),
    );
    await waitFor(
      'the private stream subscribed',
      () => connection(mine)?.connection.streams[0]?.status === 'subscribed',
    );
    const entry = await send(BUY);
    assert.equal(entry?.outcome, 'ok', entry?.summary);
    const log = (await (await fetch(`${sandbox.baseUrl}/_sandbox/requests`)).json()) as LogEntry[];
    assert.ok(
      log.some((e) => e.method === 'POST' && e.path === '/api/v3/order' && e.status === 200),
      "the order went with the deployment's key header (X-MEXC-APIKEY) and was accepted",
    );
    const c = await waitFor('the order in the private stream', () => {
      const v = connection(mine);
      return v?.pushes.some((p) => p.stream === ORDERS) && v;
    });
    const push = c.pushes.find((p) => p.stream === ORDERS)!;
    // Decoded from the binary wrapper: its channel, and the body under its name with decimals as text.
    assert.match(push.text ?? '', /^\{"channel":"spot@private\.orders\.v3\.api\.pb"/, push.text);
    assert.match(push.text ?? '', /"privateOrders":\{[^}]*"price":"30010(\.0+)?"/, push.text);
    assert.equal(c.connection.counts.undecodable, 0);
    assert.match(c.connection.listenKey ?? '', /^\*{4}.{4}$/, 'the listen key is shown masked');
    const json = JSON.stringify(api.streamsState());
    assert.ok(!json.includes(DEMO.apiKey) && !json.includes(DEMO.secretKey), 'no key value in the stream view');
  });
});
