/**
 * Incremental parsing: after an edit, re-parsing only the blocks it touched (and moving the ones
 * below) gives exactly the document a full parse of the new text gives. Random files and random
 * edits (lines added, removed and changed, `###` lines made and unmade, JSON bodies opened and
 * closed), seeded so a failure can be replayed.
 */
import assert from 'node:assert/strict';
import { parse, reparse, type LineChange, type ParsedDocument } from '../../../src/core/format/parser';

const PIECES = [
  '### order',
  '### ',
  '# @name n1',
  '# @name n1',
  '# @expect status 200',
  '@symbol = BTCUSDT',
  'POST /api/v3/order',
  'GET /api/v3/openOrders',
  'WS /ws',
  'symbol = {{symbol}}',
  'side = BUY',
  'quantity = 0.001',
  '[query]',
  '[body]',
  '[json]',
  '[subscribe]',
  '[message]',
  '{"symbol": "{{symbol}}",',
  '"side": "BUY"}',
  '{"method": "PING"}',
  'spot@public.deals.v3.api@BTCUSDT',
  'X-Note: hi',
  '',
  '   ',
  '??? unreadable',
  '// comment',
];

function prng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return ((s ^ (s >>> 13)) >>> 0) % n;
  };
}

function randomLines(random: (n: number) => number, count: number): string[] {
  return Array.from({ length: count }, () => PIECES[random(PIECES.length)]!);
}

/** What a document says, without the parser's internals. */
function model(doc: ParsedDocument): unknown {
  const { blocks: _blocks, truncated: _truncated, ...rest } = doc;
  return JSON.parse(JSON.stringify(rest));
}

/** The new text's lines [from, to) as the extension gives them (VS Code's getText of a line range keeps the last line break). */
function linesOf(next: readonly string[], withBreak: boolean): (from: number, to: number) => string {
  return (from, to) => next.slice(from, to).join('\n') + (withBreak && to < next.length ? '\n' : '');
}

/** Replaces lines [fromLine, oldToLine] of `text` with `inserted`, reparses, and compares with a full parse. */
function expectSameAsFullParse(text: string, fromLine: number, oldToLine: number, inserted: string[]): ParsedDocument {
  let result: ParsedDocument | undefined;
  for (const withBreak of [false, true]) {
    const doc = parse(text);
    const lines = text.split('\n');
    const next = [...lines.slice(0, fromLine), ...inserted, ...lines.slice(oldToLine + 1)];
    const change = { fromLine, oldToLine, newToLine: fromLine + inserted.length - 1 };
    const incremental = reparse(doc, change, linesOf(next, withBreak));
    assert.deepEqual(
      model(incremental),
      model(parse(next.join('\n'))),
      `${JSON.stringify(change)}, break ${withBreak}`,
    );
    result = incremental;
  }
  return result!;
}

function applyEdit(lines: string[], random: (n: number) => number): { next: string[]; change: LineChange } {
  const fromLine = random(lines.length);
  const oldToLine = Math.min(lines.length - 1, fromLine + random(4));
  const inserted = randomLines(random, 1 + random(4));
  // Typing inside a line: keep part of the old first line sometimes.
  if (random(3) === 0) inserted[0] = lines[fromLine]!.slice(0, random(lines[fromLine]!.length + 1)) + inserted[0];
  const next = [...lines.slice(0, fromLine), ...inserted, ...lines.slice(oldToLine + 1)];
  return { next, change: { fromLine, oldToLine, newToLine: fromLine + inserted.length - 1 } };
}

describe('incremental parsing gives what a full parse gives', () => {
  it('2,000 random edits on random files', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const random = prng(seed);
      let lines = randomLines(random, 5 + random(60));
      let doc = parse(lines.join('\n'));
      for (let edit = 0; edit < 20; edit++) {
        const { next, change } = applyEdit(lines, random);
        const incremental = reparse(doc, change, linesOf(next, edit % 2 === 1));
        const full = parse(next.join('\n'));
        assert.deepEqual(
          model(incremental),
          model(full),
          `seed ${seed}, edit ${edit}: ${JSON.stringify(change)}\n${next.join('\n')}`,
        );
        lines = next;
        doc = incremental;
      }
    }
  });

  it('an edit inside one request keeps the other requests (the same objects, moved)', () => {
    const text = Array.from(
      { length: 200 },
      (_, i) => `### ${i}\nPOST /api/v3/order\nsymbol = BTCUSDT\nside = BUY\n`,
    ).join('');
    const doc = parse(text);
    const lines = text.split('\n');
    const at = 5 * 4 + 2; // the symbol line of request 5
    const next = [...lines.slice(0, at), 'symbol = ETHUSDT', 'price = 1', ...lines.slice(at + 1)];
    const after = reparse(doc, { fromLine: at, oldToLine: at, newToLine: at + 1 }, (from, to) =>
      next.slice(from, to).join('\n'),
    );
    assert.equal(after.requests[4], doc.requests[4], 'a request above is the same object');
    assert.equal(after.requests[6], doc.requests[6], 'a request below is the same object, moved');
    assert.equal(after.requests[6]!.requestLine.range.startLine, 6 * 4 + 1 + 1);
    assert.notEqual(after.requests[5], doc.requests[5]);
    assert.equal(after.requests[5]!.params.length, 3);
  });

  describe('edits at the places that decide which blocks are parsed again', () => {
    const FILE = [
      '@symbol = BTCUSDT',
      '### first',
      '# @name a',
      'POST /api/v3/order',
      'symbol = {{symbol}}',
      '[json]',
      '### second',
      '# @name b',
      'GET /api/v3/openOrders',
      'symbol = ETHUSDT',
      '',
      '### third',
      'POST /api/v3/order',
      'side = BUY',
    ].join('\n');

    it('inside one block: a value typed, a line added, a line removed', () => {
      expectSameAsFullParse(FILE, 9, 9, ['symbol = ETHBTC']);
      expectSameAsFullParse(FILE, 9, 9, ['symbol = ETHUSDT', 'limit = 5']);
      expectSameAsFullParse(FILE, 9, 10, ['symbol = ETHUSDT']);
    });

    it('across block boundaries: a `###` removed, added, and an edit over two blocks', () => {
      expectSameAsFullParse(FILE, 6, 6, ['# second, no longer a separator']);
      expectSameAsFullParse(FILE, 4, 4, ['symbol = {{symbol}}', '### inserted', 'GET /api/v3/time']);
      expectSameAsFullParse(FILE, 4, 12, ['side = SELL']);
      expectSameAsFullParse(FILE, 5, 5, ['[json]', '{"symbol": "BTCUSDT",']);
    });

    it('at the ends of the file: its first line, a line appended, the last lines removed', () => {
      expectSameAsFullParse(FILE, 0, 0, ['@symbol = ETHUSDT', '@qty = 1']);
      expectSameAsFullParse(FILE, 0, 1, ['GET /api/v3/time']);
      expectSameAsFullParse(FILE, 13, 13, ['side = BUY', 'quantity = 1', '### fourth']);
      expectSameAsFullParse(FILE, 11, 13, ['']);
      expectSameAsFullParse(FILE, 0, 13, ['']);
    });

    it('the model an edit was applied to keeps its own lists (a Send All holding it sees the requests it had)', () => {
      const doc = parse(FILE);
      const requests = [...doc.requests];
      const separators = [...doc.separatorLines];
      const lines = FILE.split('\n');
      const next = [...lines.slice(0, 5), '### inserted', 'GET /api/v3/time', ...lines.slice(5)];
      const after = reparse(doc, { fromLine: 4, oldToLine: 4, newToLine: 6 }, linesOf(next, true));
      assert.equal(after.requests.length, requests.length + 1);
      assert.deepEqual(doc.requests, requests, 'the same request objects, in the same order');
      assert.deepEqual(doc.separatorLines, separators);
      assert.equal(doc.blocks.length, requests.length + 1);
    });

    it('a model an edit was already applied to is parsed whole again, not moved twice', () => {
      const doc = parse(FILE);
      const lines = FILE.split('\n');
      const added = [...lines.slice(0, 2), '# note', ...lines.slice(2)];
      reparse(doc, { fromLine: 1, oldToLine: 1, newToLine: 2 }, linesOf(added, true));
      const again = reparse(doc, { fromLine: 1, oldToLine: 1, newToLine: 2 }, linesOf(added, true));
      assert.deepEqual(model(again), model(parse(added.join('\n'))));
    });
  });
});
