/**
 * The editor's answers for chaining (core/request/answer-store.ts): a request reads only the answer
 * of its own file, environment and origin; the store is bounded in count, per answer and in all,
 * holds no listen key, and an answer nested too deep is not kept, without a crash.
 */
import assert from 'node:assert/strict';
import type { NamedEnvironment } from '../../../src/core/env/constants';
import { ANSWER_STORE, AnswerStore, answerPlace } from '../../../src/core/request/answer-store';

describe('the answer store (chaining in the editor)', () => {
  const where = { file: 'file:///work/a.tradereq', environment: 'sandbox', origin: 'http://127.0.0.1:8780' };
  const key = (name: string, place = where) => ({ ...place, name });
  /** A JSON answer of about `chars` characters. */
  const sized = (chars: number): { text: string } => ({ text: 'x'.repeat(chars - 11) });

  it('an answer is read only by its own file, environment and origin, under its own name', () => {
    const store = new AnswerStore();
    assert.equal(store.keep(key('buy'), { orderId: 7 }), true);
    assert.deepEqual(store.get(key('buy')), { orderId: 7 });
    assert.equal(store.get({ ...key('buy'), file: 'file:///work/b.tradereq' }), undefined, 'another file');
    assert.equal(store.get({ ...key('buy'), environment: 'live' }), undefined, 'another environment');
    assert.equal(store.get({ ...key('buy'), origin: 'https://api.example.com' }), undefined, 'another origin');
    assert.equal(store.get(key('sell')), undefined, 'another name');
  });

  it('a place reads and keeps as the pipeline does; the latest answer replaces the one before', () => {
    const store = new AnswerStore();
    const a = store.at(where);
    const b = store.at({ ...where, file: 'file:///work/b.tradereq' });
    a.set('buy', { orderId: 1 });
    a.set('buy', { orderId: 2 });
    assert.deepEqual(a.get('buy'), { orderId: 2 });
    assert.equal(b.get('buy'), undefined);
    b.set('buy', { orderId: 3 });
    assert.deepEqual(a.get('buy'), { orderId: 2 });
    assert.deepEqual(b.get('buy'), { orderId: 3 });
  });

  it('keeps a copy: what the caller changes afterwards is not what a later request reads', () => {
    const store = new AnswerStore();
    const answer = { orderId: 7, fills: [{ price: '1' }] };
    store.keep(key('buy'), answer);
    answer.fills[0]!.price = '2';
    assert.deepEqual(store.get(key('buy')), { orderId: 7, fills: [{ price: '1' }] });
  });

  it(`keeps at most ANSWER_STORE.count (${ANSWER_STORE.count}) answers, the oldest going first`, () => {
    const store = new AnswerStore();
    for (let i = 0; i <= ANSWER_STORE.count; i++) store.keep(key(`r${i}`), { i });
    assert.equal(store.get(key('r0')), undefined, 'the oldest went');
    assert.deepEqual(store.get(key('r1')), { i: 1 });
    assert.deepEqual(store.get(key(`r${ANSWER_STORE.count}`)), { i: ANSWER_STORE.count });
    // Keeping an answer again makes it the newest.
    store.keep(key('r1'), { i: 1 });
    store.keep(key('new'), {});
    assert.deepEqual(store.get(key('r1')), { i: 1 });
    assert.equal(store.get(key('r2')), undefined);
  });

  it('an answer longer than ANSWER_STORE.answerChars is not kept, and the older answer of that request goes too, said by name', () => {
    const store = new AnswerStore();
    const notKept: string[] = [];
    const place = store.at(where, (name) => notKept.push(name));
    place.set('big', { small: true });
    place.set('big', sized(ANSWER_STORE.answerChars + 1));
    assert.equal(place.get('big'), undefined);
    assert.deepEqual(notKept, ['big']);
    place.set('fits', sized(ANSWER_STORE.answerChars));
    assert.equal((place.get('fits') as { text: string }).text.length, ANSWER_STORE.answerChars - 11);
    assert.deepEqual(notKept, ['big']);
  });

  it('all answers together stay within ANSWER_STORE.totalChars, the oldest going first', () => {
    const store = new AnswerStore();
    const each = ANSWER_STORE.answerChars;
    const fit = Math.floor(ANSWER_STORE.totalChars / each);
    for (let i = 0; i <= fit; i++) store.keep(key(`r${i}`), sized(each));
    assert.equal(store.get(key('r0')), undefined, 'the oldest went');
    for (let i = 1; i <= fit; i++) assert.ok(store.get(key(`r${i}`)), `r${i} is kept`);
  });

  it('holds no listen key: masked wherever the answer holds it', () => {
    const store = new AnswerStore();
    const listenKey = 'pqia91ma19a5s61cv6a81va65sdf19v8a65a1a5s61cv6a81va65sdf19v8a65a1';
    store.keep(key('stream'), { listenKey, echo: `key ${listenKey}`, nested: [{ listenKey }] });
    const kept = JSON.stringify(store.get(key('stream')));
    assert.ok(!kept.includes(listenKey), kept);
    assert.deepEqual(store.get(key('stream')), {
      listenKey: '****65a1',
      echo: 'key ****65a1',
      nested: [{ listenKey: '****65a1' }],
    });
  });

  it('an answer nested deeper than JSON.stringify can write, or that masking leaves unreadable, is not kept, and nothing throws', () => {
    const store = new AnswerStore();
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    assert.equal(store.keep(key('deep'), deep), false);
    assert.equal(store.get(key('deep')), undefined);
    // A hostile "listen key" of one JSON character: masking it breaks the text.
    assert.equal(store.keep(key('odd'), { listenKey: '}' }), false);
    assert.equal(store.keep(key('fine'), { orderId: 1 }), true);
  });

  it("answerPlace: the file as the shell names it, the environment's name and its base URL's origin", () => {
    const environment = { name: 'live', baseUrl: 'https://API.example.com:443/base/' } as NamedEnvironment;
    assert.deepEqual(answerPlace('file:///work/a.tradereq', environment), {
      file: 'file:///work/a.tradereq',
      environment: 'live',
      origin: 'https://api.example.com',
    });
  });
});
