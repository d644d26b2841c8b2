/**
 * Incremental parsing: after an edit, re-parsing only the blocks it touched (and moving the ones
 * below) gives exactly the document a full parse of the new text gives. Random files and random
 * edits (lines added, removed and changed, `###` lines made and unmade, JSON bodies opened and
 * closed), seeded so a failure can be replayed.
 */
import assert from 'node:assert/strict';
import { parse, reparse, type LineChange, type ParsedDocument } from '../../src/core/format/parser';

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
        const incremental = reparse(doc, change, (from, to) => next.slice(from, to).join('\n'));
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
});
