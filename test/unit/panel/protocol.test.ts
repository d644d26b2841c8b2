/**
 * The panel's protocol is defined once (core/panel/protocol.ts, as shapes): the page checks messages
 * with the shapes' own validator, the extension with zod schemas derived from them. Both must agree
 * on every message, good or bad. (The page's bundle as it ships: test/e2e/panel-bundle.test.ts.)
 */
import assert from 'node:assert/strict';
import { BOUNDS } from '../../../src/core/bounds';
import {
  FromPanelSchema,
  FromPanelShape,
  ToPanelSchema,
  ToPanelShape,
  check,
  shape as s,
  type LiveConnection,
} from '../../../src/core/panel/protocol';
import { toZod } from '../../../src/core/panel/zod-shape';

function connection(over: Partial<LiveConnection> = {}): LiveConnection {
  return {
    id: 'c1',
    title: 'BTCUSDT trades',
    environment: 'sandbox',
    url: 'ws://127.0.0.1:8780/ws',
    status: 'open',
    ageMs: 1200,
    now: 1_700_000_000_000,
    meters: {
      streams: { used: 2, limit: 30 },
      messages: { lastSecond: 1, limit: 100, pace: 'at most 80 in 1000 ms', queued: 0 },
    },
    streams: [
      {
        stream: 'spot@public.deals.v3.api@BTCUSDT',
        status: 'subscribed',
        kind: 'deals',
        pushes: 3,
        ratePerSecond: 0.3,
      },
    ],
    counts: {
      pushes: 3,
      replies: 1,
      pongs: 0,
      sent: 1,
      notJson: 0,
      binary: 0,
      unknown: 0,
      tooLarge: 0,
      undecodable: 0,
      textPush: 0,
    },
    notes: [{ at: 1, tone: 'ok', text: 'subscribed spot@public.deals.v3.api@BTCUSDT' }],
    ...over,
  };
}

const live = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'live',
  connection: connection(),
  pushes: [{ at: 1, stream: 'spot@public.deals.v3.api@BTCUSDT', summary: 'buy 0.001 @ 30000', text: '{"c":1}' }],
  books: [{ stream: 'spot@public.limit.depth.v3.api@BTCUSDT@5', at: 2, bids: [['29990', '2']], asks: [] }],
  skipped: 0,
  ...over,
});

const TO_PANEL: [string, unknown][] = [
  ['a state', { type: 'state', state: { history: [], now: 5 } }],
  ['a live message', live()],
  ['a live message with select', live({ select: true })],
  ['forget', { type: 'forget', id: 'c1' }],
  ['extra members (dropped)', { ...live(), evil: '<img>' }],
  ['an unknown type', { type: 'evil', id: 'c1' }],
  ['no type', { id: 'c1' }],
  ['null', null],
  ['a string', 'live'],
  ['an array', [live()]],
  ['a status out of the list', live({ connection: connection({ status: 'pwned' as 'open' }) })],
  ['NaN as a number', live({ skipped: NaN })],
  ['Infinity as a number', live({ skipped: Infinity })],
  [
    'too many pushes',
    live({ pushes: Array.from({ length: BOUNDS.livePushesPerMessage + 1 }, () => ({ at: 1, stream: 's' })) }),
  ],
  ['a push text too long', live({ pushes: [{ at: 1, stream: 's', text: 'x'.repeat(BOUNDS.pushTextChars + 65) }] })],
  ['a level of three', live({ books: [{ stream: 's', at: 1, bids: [['1', '2', '3']], asks: [] }] })],
  ['a level of one', live({ books: [{ stream: 's', at: 1, bids: [['1']], asks: [] }] })],
  ['a missing member', { type: 'live', connection: connection(), pushes: [], books: [] }],
  [
    'too many notes',
    live({ connection: connection({ notes: Array.from({ length: 31 }, () => ({ at: 1, tone: 'ok', text: '' })) }) }),
  ],
];

const FROM_PANEL: [string, unknown][] = [
  ['ready', { type: 'ready' }],
  ['show', { type: 'show', id: 'e1' }],
  ['unsubscribe', { type: 'unsubscribe', id: 'c1', stream: 'spot@public.deals.v3.api@BTCUSDT' }],
  ['sendMessage', { type: 'sendMessage', id: 'c1', text: '{"method":"PING"}' }],
  ['disconnect', { type: 'disconnect', id: 'c1' }],
  ['sendAgain', { type: 'sendAgain', id: 'e1' }],
  ['sendAgain with extra members (dropped)', { type: 'sendAgain', id: 'e1', url: 'https://elsewhere.example' }],
  ['sendAgain without an id', { type: 'sendAgain' }],
  ['sendAgain with an id too long', { type: 'sendAgain', id: 'x'.repeat(101) }],
  ['sendAgain with an id of a number', { type: 'sendAgain', id: 7 }],
  ['a message too long', { type: 'sendMessage', id: 'c1', text: 'x'.repeat(BOUNDS.liveMessageChars + 1) }],
  ['an id too long', { type: 'disconnect', id: 'x'.repeat(101) }],
  ['an id of a number', { type: 'show', id: 7 }],
  ['an unknown type', { type: 'eval', code: '1' }],
  ['compare', { type: 'compare', left: 'e1', right: 'e2', mask: true }],
  ['compare with extra members (dropped)', { type: 'compare', left: 'e1', right: 'e2', mask: false, path: '/etc' }],
  ['compare without mask', { type: 'compare', left: 'e1', right: 'e2' }],
  ['compare with a mask of text', { type: 'compare', left: 'e1', right: 'e2', mask: 'yes' }],
  ['compare with one id', { type: 'compare', left: 'e1', mask: true }],
  ['compare with an id too long', { type: 'compare', left: 'x'.repeat(101), right: 'e2', mask: true }],
  ['compare with an id of an object', { type: 'compare', left: { $ne: '' }, right: 'e2', mask: true }],
  ['compare with ids in a list', { type: 'compare', left: ['e1', 'e2'], right: 'e2', mask: true }],
];

describe('panel protocol: one definition, two validators', () => {
  for (const [name, value] of TO_PANEL) {
    it(`to the panel, ${name}: the page's validator and zod agree`, () => {
      const mine = check(ToPanelShape, value);
      const zod = ToPanelSchema.safeParse(value);
      assert.equal(mine.ok, zod.success, mine.ok ? 'zod refused it' : `refused: ${mine.error}`);
      if (mine.ok && zod.success) assert.deepEqual(mine.value, zod.data);
    });
  }
  for (const [name, value] of FROM_PANEL) {
    it(`from the panel, ${name}: the page's validator and zod agree`, () => {
      const mine = check(FromPanelShape, value);
      const zod = FromPanelSchema.safeParse(value);
      assert.equal(mine.ok, zod.success, mine.ok ? 'zod refused it' : `refused: ${mine.error}`);
      if (mine.ok && zod.success) assert.deepEqual(mine.value, zod.data);
    });
  }

  it('good messages pass and bad ones fail (the table above is not all one way)', () => {
    const verdicts = TO_PANEL.map(([, v]) => check(ToPanelShape, v).ok);
    assert.deepEqual(verdicts, [true, true, true, true, true, ...Array<boolean>(TO_PANEL.length - 5).fill(false)]);
  });

  it('Send again (issue 19, point 1): an entry id and nothing else reaches the extension, in both validators', () => {
    const message = { type: 'sendAgain', id: 'e1', url: 'https://elsewhere.example', request: 'POST /api/v3/order' };
    const mine = check(FromPanelShape, message);
    const zod = FromPanelSchema.safeParse(message);
    assert.deepEqual(mine, { ok: true, value: { type: 'sendAgain', id: 'e1' } });
    assert.ok(zod.success);
    assert.deepEqual(zod.data, { type: 'sendAgain', id: 'e1' });
    for (const bad of [
      { type: 'sendAgain' },
      { type: 'sendAgain', id: 'x'.repeat(101) },
      { type: 'sendAgain', id: null },
    ]) {
      assert.equal(check(FromPanelShape, bad).ok, false, JSON.stringify(bad));
      assert.equal(FromPanelSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });

  it('Compare Two Answers (issue 21): two entry ids and the mask flag reach the extension, nothing else, in both validators', () => {
    const message = { type: 'compare', left: 'e1', right: 'e2', mask: true, uri: 'file:///etc/passwd' };
    const expected = { type: 'compare', left: 'e1', right: 'e2', mask: true };
    assert.deepEqual(check(FromPanelShape, message), { ok: true, value: expected });
    assert.deepEqual(FromPanelSchema.parse(message), expected);
    for (const bad of [
      { type: 'compare', left: 'e1', right: 'e2' },
      { type: 'compare', left: 'e1', right: null, mask: false },
      { type: 'compare', left: 'e1', right: 'e2', mask: 1 },
      { type: 'compare', left: 'e1', right: 'x'.repeat(101), mask: false },
      { type: 'compare', left: 7, right: 'e2', mask: false },
    ]) {
      assert.equal(check(FromPanelShape, bad).ok, false, JSON.stringify(bad));
      assert.equal(FromPanelSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });

  it('Why? (issue 22): an entry id and nothing else reaches the extension, in both validators', () => {
    const message = { type: 'why', id: 'e1', secretKey: 'x', url: 'https://elsewhere.example' };
    assert.deepEqual(check(FromPanelShape, message), { ok: true, value: { type: 'why', id: 'e1' } });
    assert.deepEqual(FromPanelSchema.parse(message), { type: 'why', id: 'e1' });
    for (const bad of [{ type: 'why' }, { type: 'why', id: 'x'.repeat(101) }, { type: 'why', id: ['e1'] }]) {
      assert.equal(check(FromPanelShape, bad).ok, false, JSON.stringify(bad));
      assert.equal(FromPanelSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });

  it('an entry carries the 700003 note, whether it may be sent again, and the reason it was refused, bounded', () => {
    const entry = {
      id: 'e1',
      at: 1,
      title: 'Account',
      environment: 'sandbox',
      request: {
        method: 'GET',
        url: 'http://127.0.0.1:8780/api/v3/account',
        query: '',
        body: '',
        headers: [],
        signed: true,
      },
      outcome: 'rejected',
      summary: '400 rejected: 700003',
      status: 400,
      note: 'The server clock was measured again: your clock is 30002 ms behind the server.',
      sendAgain: true,
      reason: 'The service banned this IP.',
    };
    const state = { type: 'state', state: { current: entry, history: [], now: 5 } };
    const mine = check(ToPanelShape, state);
    assert.ok(mine.ok && mine.value.type === 'state', mine.ok ? '' : mine.error);
    assert.equal(mine.value.state.current?.sendAgain, true);
    assert.equal(mine.value.state.current?.note, entry.note);
    assert.equal(mine.value.state.current?.reason, entry.reason);
    assert.deepEqual(ToPanelSchema.parse(state), mine.value);
    const long = {
      type: 'state',
      state: { current: { ...entry, note: 'x'.repeat(BOUNDS.messageChars + 65) }, history: [], now: 5 },
    };
    assert.equal(check(ToPanelShape, long).ok, false);
    assert.equal(ToPanelSchema.safeParse(long).success, false);
    const notBoolean = { type: 'state', state: { current: { ...entry, sendAgain: 'yes' }, history: [], now: 5 } };
    assert.equal(check(ToPanelShape, notBoolean).ok, false);
  });

  it('drops unknown members, fills defaults and says where a value does not fit', () => {
    const r = check(ToPanelShape, { ...live(), evil: 1 });
    assert.ok(r.ok);
    assert.equal('evil' in r.value, false);
    assert.equal(r.value.type === 'live' && r.value.select, false);
    const bad = check(ToPanelShape, live({ connection: connection({ meters: { streams: { used: 'x' } } as never }) }));
    assert.deepEqual(bad, { ok: false, error: 'connection.meters.streams.used: not a finite number' });
  });

  it('a record shape bounds its members, in both validators', () => {
    const rec = s.record(s.boolean(), 2);
    const zod = toZod(rec);
    for (const v of [{}, { a: true, b: false }, { a: true, b: false, c: true }, { a: 1 }, []])
      assert.equal(check(rec, v).ok, zod.safeParse(v).success, JSON.stringify(v));
  });
});
