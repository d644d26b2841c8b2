/**
 * Answers as large as the public deployment sends (issue 33, point 7): an exchangeInfo of 2,500
 * symbols in its documented shape (~1.4 MiB, test/support/exchange-info.ts), served by the
 * in-process sandbox, is read whole, parsed, feeds the symbol look-up, and shows in the panel's
 * entry as JSON, pretty-printed and cut to what an entry keeps. Past BOUNDS.responseBytes an answer
 * is cut while it is read: what is kept never grows past the bound, however much comes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BOUNDS } from '../../../src/core/bounds';
import { Budget } from '../../../src/core/budget/budget';
import { FileStateStore } from '../../../src/core/budget/state';
import { ClockSync } from '../../../src/core/clock/sync';
import { fetchSymbols } from '../../../src/core/editor/symbols';
import { parse } from '../../../src/core/format/parser';
import { NodeHttpSender } from '../../../src/core/net/node-http-sender';
import { entryFromResult } from '../../../src/core/panel/entry';
import { runRequest } from '../../../src/core/request/pipeline';
import { sandboxEnvironment, sandboxKeys } from '../../../src/core/testing/sandbox';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { exchangeInfoText, listedSymbol, listedSymbolName } from '../../support/exchange-info';
import { prepared } from '../../support/senders';

const LISTED = 2_500;

describe('answers the size the deployment sends', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let dir: string;
  let sender: NodeHttpSender;

  before(async () => {
    const symbols: object[] = [];
    for (let i = 0; i < LISTED; i++) symbols.push(listedSymbol(i));
    sandbox = await startSandbox({ port: 0, listedSymbols: symbols });
    dir = mkdtempSync(join(tmpdir(), 'tradereq-large-'));
    sender = new NodeHttpSender();
  });
  after(async () => {
    await sender.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the test answer is the size the deployment documents: 2,500 symbols, over 1 MiB', () => {
    const bytes = Buffer.byteLength(exchangeInfoText(LISTED));
    assert.ok(bytes > 1.3 * 1024 * 1024 && bytes < 1.6 * 1024 * 1024, `${bytes} bytes`);
  });

  it("a 2,500-symbol exchangeInfo is read whole, parsed, and shown in the panel's entry as pretty JSON cut to its bound", async () => {
    const store = new FileStateStore(join(dir, 'state'));
    const doc = parse('GET /api/v3/exchangeInfo\n');
    const r = await runRequest(doc, doc.requests[0]!, sandboxEnvironment(sandbox.baseUrl), {
      sender,
      budget: new Budget(store),
      clock: new ClockSync(store),
      clockSync: false,
      responses: new Map(),
      key: sandboxKeys(new URL(sandbox.baseUrl).origin),
      confirm: () => assert.fail('not asked'),
    });
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    const { response, decoded } = r.value.report;
    assert.ok(response!.bodyBytes > 1024 * 1024, `${response!.bodyBytes} bytes`);
    assert.equal(response!.truncated, false);
    const symbols = (decoded!.json as { symbols: { symbol: string }[] }).symbols;
    assert.equal(symbols.at(-1)!.symbol, listedSymbolName(LISTED - 1));

    const entry = entryFromResult(r.value, { id: '1', at: 0, title: 'exchangeInfo' });
    assert.equal(entry.response!.isJson, true);
    assert.equal(entry.response!.truncated, true, 'the entry keeps only its bound of the body');
    assert.ok(
      entry.response!.body.startsWith('{\n  "timezone": "UTC",\n  "serverTime": '),
      entry.response!.body.slice(0, 80),
    );
    assert.ok(entry.response!.body.length < BOUNDS.historyBodyChars + 100, `${entry.response!.body.length} characters`);
    assert.match(entry.response!.body, /… \(the rest of the answer, \d+ bytes in all, is not kept\)$/);
  });

  it("feeds the editor's symbol look-up (core/editor/symbols.ts) with every symbol", async () => {
    const store = new FileStateStore(join(dir, 'state-symbols'));
    const r = await fetchSymbols(sandbox.baseUrl, { sender, budget: new Budget(store) });
    assert.ok(r.ok, r.ok ? '' : r.error);
    const names = new Set(r.value.map((s) => s.symbol));
    assert.ok(names.has('BTCUSDT'), 'the sandbox own symbols');
    assert.ok(names.has(listedSymbolName(0)) && names.has(listedSymbolName(LISTED - 1)));
    assert.equal(
      r.value.find((s) => s.symbol === listedSymbolName(7))!.detail,
      `${listedSymbolName(7).slice(0, 4)}/USDT · 1`,
    );
  });

  it('a list longer than the look-up takes (10,000) still completes: its first 10,000 symbols', async () => {
    const symbols: object[] = [];
    for (let i = 0; i < 10_500; i++) symbols.push(listedSymbol(i));
    const long = await startSandbox({ port: 0, listedSymbols: symbols });
    try {
      const r = await fetchSymbols(long.baseUrl, { sender, budget: new Budget(new FileStateStore(join(dir, 'long'))) });
      assert.ok(r.ok, r.ok ? '' : r.error);
      assert.equal(r.value.length, 10_000);
      assert.equal(r.value[0]!.symbol, 'BTCUSDT', "the sandbox's own come first");
    } finally {
      await long.close();
    }
  });

  describe('past the bound', () => {
    let server: Server;
    let origin: string;
    const sent = BOUNDS.responseBytes + 3 * 1024 * 1024;

    before(async () => {
      // An answer that does not stop: 64 KiB chunks past the bound, then the end.
      server = createServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let left = sent;
        const more = (): void => {
          while (left > 0) {
            const n = Math.min(left, chunk.length);
            left -= n;
            if (!res.write(chunk.subarray(0, n))) return void res.once('drain', more);
          }
          res.end();
        };
        more();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('keeps BOUNDS.responseBytes of an answer, counted while it is read, and says it cut it', async () => {
      const r = await sender.send(prepared(`${origin}/big`));
      assert.equal(r.kind, 'response');
      if (r.kind !== 'response') return;
      assert.equal(r.bodyBytes, sent, 'the rest was read');
      assert.equal(r.truncated, true);
      assert.equal(r.bodyText.length, BOUNDS.responseBytes, 'what is kept stops at the bound');
    });
  });
});
