/**
 * The answers kept between command-line runs for chaining (core/request/kept-answers.ts): bounded
 * in count and size, listen keys masked, never another environment's, and a damaged file ignored
 * with a warning (it gates nothing) and replaced by the next answer kept.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BOUNDS } from '../../../src/core/bounds';
import { ChainedResponses, KEPT_ANSWERS, KeptAnswers } from '../../../src/core/request/kept-answers';

describe('kept answers (chaining across command-line runs)', () => {
  let dir: string;
  const where = { file: '/work/orders.tradereq', environment: 'local', origin: 'http://127.0.0.1:8780' };
  const chain = (runNames: string[] = [], at = 1000): ChainedResponses =>
    new ChainedResponses(new KeptAnswers(dir), where, new Set(runNames), () => at);

  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tradereq-kept-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('an answer of one run is read by the next, with its time; a request of the run reads only the run', () => {
    chain(['buy']).set('buy', { orderId: 7 });
    const next = chain();
    assert.deepEqual(next.get('buy'), { orderId: 7 });
    assert.deepEqual(next.take().used, [{ name: 'buy', at: 1000 }]);
    assert.equal(chain(['buy']).get('buy'), undefined, 'buy is part of this run: its earlier answer is not read');
    const other = new ChainedResponses(new KeptAnswers(dir), { ...where, environment: 'live' }, new Set());
    assert.equal(other.get('buy'), undefined, 'another environment never reads it');
  });

  it('keeps at most KEPT_ANSWERS.count, the oldest out first', () => {
    const store = new KeptAnswers(dir);
    for (let i = 0; i <= KEPT_ANSWERS.count; i++) store.keep({ ...where, name: `r${i}` }, { i }, i);
    const kept = store.read();
    assert.ok(kept.ok);
    assert.equal(kept.value.length, KEPT_ANSWERS.count);
    assert.equal(kept.value[0]!.name, 'r1');
  });

  it('an answer too large is not kept, and the older one of that request goes too, said once', () => {
    const c = chain();
    c.set('big', { small: true });
    c.set('big', { text: 'x'.repeat(KEPT_ANSWERS.answerChars) });
    assert.equal(chain().get('big'), undefined);
    assert.deepEqual(c.take().warnings, [
      `the answer of "big" is larger than ${KEPT_ANSWERS.answerChars} characters: not kept for later runs`,
    ]);
  });

  it('an answer nested 10,000 deep (with a listen key in it) is not kept, and no older one stays: said once, nothing thrown (issue 31)', () => {
    const listenKey = 'pqia91ma19a5s61cv6a81va65sdf19v8a65a1a5s61cv6a81va65sdf19v8a65a1';
    const deep = JSON.parse(
      `{"orderId":42,"listenKey":"${listenKey}","x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
    ) as unknown;
    const c = chain();
    c.set('buy', { orderId: 41 });
    c.set('buy', deep);
    assert.equal(chain().get('buy'), undefined, 'a later run reads no answer of buy: not the older one');
    assert.deepEqual(c.take().warnings, [
      `the answer of "buy" nests deeper than ${BOUNDS.prettyJsonDepth} levels: not kept for later runs`,
    ]);
    assert.equal(c.get('buy'), undefined);
  });

  it('a kept answer nested past the bound (the file written by hand) is not read, and keeping another one still works', () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    writeFileSync(
      join(dir, 'answers.json'),
      `{"version":1,"answers":[{"file":"${where.file}","environment":"local","origin":"${where.origin}","name":"buy","at":1,"json":${deep}}]}`,
    );
    const c = chain();
    assert.equal(c.get('buy'), undefined);
    assert.match(
      c.take().warnings[0]!,
      /kept answers in .*answers\.json are not used: it does not have the expected shape/,
    );
    c.set('sell', { orderId: 2 });
    assert.deepEqual(chain().get('sell'), { orderId: 2 });
  });

  it('a listen key is masked before it is kept', () => {
    const listenKey = 'pqia91ma19a5s61cv6a81va65sdf19v8a65a1a5s61cv6a81va65sdf19v8a65a1';
    chain().set('stream', { listenKey, echo: `key ${listenKey}` });
    const text = readFileSync(join(dir, 'answers.json'), 'utf8');
    assert.ok(!text.includes(listenKey), text);
    assert.match(text, /"listenKey":"\*{4}65a1"/);
  });

  it('a damaged file is ignored with a warning, and the next answer kept replaces it', () => {
    writeFileSync(join(dir, 'answers.json'), '{"version":1,"answers":[');
    const c = chain();
    assert.equal(c.get('buy'), undefined);
    assert.match(c.take().warnings[0]!, /kept answers in .*answers\.json are not used: it is not valid JSON/);
    c.set('buy', { orderId: 1 });
    assert.deepEqual(chain().get('buy'), { orderId: 1 });
  });
});
