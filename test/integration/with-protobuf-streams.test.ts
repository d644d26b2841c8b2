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
import { startSandbox, type Sandbox } from '../../src/sandbox';
import type { StreamsState } from '../../src/extension/streams';
import type { TradeReqApi } from '../../src/extension/extension';
import { completionsAt, fixtureUri, labelOf, openWithCursor, tradereqApi, waitFor } from './helpers';

const ENV_FILE = 'tradereq.env.json';
const FILE = 'streams-pb.tradereq';
const DEPTH5 = 'spot@public.limit.depth.v3.api.pb@BTCUSDT@5';
const TEXT = `# A Protocol Buffers stream for the integration test.\n### Book\nWS /ws\n[subscribe]\n${DEPTH5}\n`;

type Conn = StreamsState['connections'][number];

suite('the stream view decodes Protocol Buffers pushes, in the real extension host', () => {
  let sandbox: Sandbox;
  let api: TradeReqApi;
  let stateDir: string;
  let id: string | undefined;
  const previousStateDir = process.env['TRADEREQ_STATE_DIR'];
  const connection = (): Conn | undefined => api.streamsState().connections.find((c) => c.connection.id === id);

  /** The environment of the mexc sandbox (its wsUrl next to its baseUrl), once the extension uses it. */
  async function useEnvironment(): Promise<void> {
    const env = { 'pb-sandbox': { deployment: 'mexc', baseUrl: sandbox.baseUrl, variables: { marker: 'pb' } } };
    await vscode.workspace.fs.writeFile(fixtureUri(ENV_FILE), new TextEncoder().encode(JSON.stringify(env)));
    const { doc, position } = await openWithCursor('GET /api/v3/openOrders\nsymbol = {{|');
    await waitFor('the environment "pb-sandbox" to be the current one', async () =>
      (await completionsAt(doc.uri, position)).some(
        (i) => labelOf(i) === 'marker' && i.detail === 'environment pb-sandbox = pb',
      ),
    );
  }

  suiteSetup(async () => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-streams-pb-state-'));
    process.env['TRADEREQ_STATE_DIR'] = stateDir;
    api = await tradereqApi();
    sandbox = await startSandbox({ port: 0, deployment: 'mexc' });
    await vscode.workspace.fs.writeFile(fixtureUri(FILE), new TextEncoder().encode(TEXT));
    await useEnvironment();
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(fixtureUri(FILE)));
  });

  suiteTeardown(async () => {
    if (id) await vscode.commands.executeCommand('tradereq.disconnect', id);
    await vscode.workspace.fs.delete(fixtureUri(ENV_FILE));
    await vscode.workspace.fs.delete(fixtureUri(FILE));
    // The suites after this one expect the built-in environment again, not this one's mexc deployment.
    const { doc, position } = await openWithCursor('GET /api/v3/openOrders\nsymbol = {{|');
    await waitFor('the built-in sandbox environment again', async () =>
      (await completionsAt(doc.uri, position)).every((i) => labelOf(i) !== 'marker'),
    );
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
});
