// States and live messages as the extension posts them to the panel (src/core/panel/entry.ts,
// src/core/panel/live.ts), shared by the panel's browser tests (test/webview/).
'use strict';

const T0 = Date.UTC(2025, 2, 14, 13, 2, 11);
const NOW = T0 + 5000;

const HOSTILE_IMG = '<img src=x onerror=alert(1)>';
const HOSTILE_SCRIPT = '</script><script>alert(2)</script>';
const UNKNOWN_SENTENCE = 'The operation may have succeeded: check before retrying.';

const ORIGIN = 'https://api.sandbox.example';

function entry(over) {
  const query =
    'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.0001&price=20000&recvWindow=5000&timestamp=1741957331000';
  const signature = 'c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71';
  return {
    id: 'e-ok',
    at: NOW - 60_000,
    title: 'Place a limit order',
    environment: 'sandbox',
    request: {
      method: 'POST',
      url: `${ORIGIN}/api/v3/order?${query}&signature=${signature}`,
      query: `${query}&signature=${signature}`,
      body: '',
      totalParams: query,
      headers: [
        // As maskApiKey (src/core/env/keys.ts) masks it everywhere: the last four characters.
        ['X-SERVICE-APIKEY', '****3fa2'],
        ['Content-Type', 'application/json'],
        ['User-Agent', 'TradeReq/0.1.0'],
      ],
      signed: true,
    },
    outcome: 'ok',
    summary: '200 ok',
    status: 200,
    statusMeaning: 'Request accepted',
    response: {
      body: JSON.stringify(
        {
          symbol: 'BTCUSDT',
          orderId: '5432101',
          clientOrderId: 'tr-2025-0314-001',
          price: '20000',
          origQty: '0.0001',
          type: 'LIMIT',
          side: 'BUY',
          status: 'NEW',
          isWorking: true,
          transactTime: 1741957331412,
        },
        null,
        2,
      ),
      isJson: true,
      truncated: false,
      bytes: 241,
      headers: [
        ['content-type', 'application/json;charset=UTF-8'],
        ['date', 'Fri, 14 Mar 2025 13:02:11 GMT'],
        ['x-request-id', '7e1c0b7a-51c4-4d3f-9f11-2ab0c1d3e4f5'],
      ],
    },
    timings: { connectMs: 12.4, firstByteMs: 84.2, totalMs: 96.7 },
    expectations: [
      { text: 'status == 200', passed: true, actual: '200' },
      { text: 'body.status in ["NEW", "FILLED"]', passed: true, actual: '"NEW"' },
    ],
    ...over,
  };
}

const HOVER_30002 =
  "30002: Trade volume is below the minimum\n\nUsual cause: The order's quantity, or quantity times price, is under the pair's minimum order size.\n\nWhat to do: Raise the quantity; look up the pair's minimum in exchangeInfo.";

const rejected = entry({
  id: 'e-rej',
  at: NOW - 2_000,
  outcome: 'rejected',
  summary: '400 rejected: 30002 Trade volume is below the minimum',
  status: 400,
  statusMeaning: "Malformed request; the fault is the sender's",
  error: {
    code: 30002,
    meanings: ['Trade volume is below the minimum'],
    // The catalog's words for 30002 (src/core/catalog/errors.ts), as the core puts them in an entry.
    cause: "The order's quantity, or quantity times price, is under the pair's minimum order size.",
    action: "Raise the quantity; look up the pair's minimum in exchangeInfo.",
    hoverText: HOVER_30002,
  },
  msg: 'quantity below minimum',
  response: {
    body: '{\n  "code": 30002,\n  "msg": "quantity below minimum"\n}',
    isJson: true,
    truncated: false,
    bytes: 50,
    headers: [['content-type', 'application/json']],
  },
  timings: { connectMs: 11.9, firstByteMs: 71.3, totalMs: 73.8 },
  expectations: [{ text: 'status == 200', passed: false, actual: '400' }],
});

const twoMeanings = entry({
  id: 'e-two',
  at: NOW - 20_000,
  request: { ...entry({}).request, method: 'GET', url: `${ORIGIN}/api/v3/ticker/price?symbol=BTC-USDT` },
  outcome: 'rejected',
  summary: '400 rejected: 730001 pair not found; also user information error',
  status: 400,
  statusMeaning: "Malformed request; the fault is the sender's",
  error: {
    code: 730001,
    meanings: ['Pair not found', 'User information error'],
    action: 'Check the symbol: upper-case letters with no separator (BTCUSDT).',
    hoverText: '730001 has 2 meanings in the spec (§7.2):\n- Pair not found\n- User information error',
  },
  response: { body: '{"code":730001,"msg":"pair not found"}', isJson: true, truncated: false, bytes: 38, headers: [] },
  expectations: [],
});

const UNKNOWN_ACTION =
  'The outcome of the operation is unknown and may have succeeded: check before retrying (for an order, query it by orderId or origClientOrderId, or list open orders). Never retry an order blindly: a retry can place it twice.';

const unknown = entry({
  id: 'e-unk',
  at: NOW - 1_000,
  outcome: 'unknown',
  summary: 'outcome unknown: 503 service not available, try again',
  status: 503,
  statusMeaning:
    'Internal error of the service; the outcome of the operation is unknown and may have succeeded: check before retrying, never treat it as a failure',
  error: {
    code: 503,
    meanings: ['Service not available, try again'],
    action: UNKNOWN_ACTION,
    hoverText: `503: Service not available, try again\n\nWhat to do: ${UNKNOWN_ACTION}`,
  },
  response: {
    body: '{"code":503,"msg":"service not available"}',
    isJson: true,
    truncated: false,
    bytes: 42,
    headers: [['content-type', 'application/json']],
  },
  orderRef: { symbol: 'BTCUSDT', origClientOrderId: 'tr-2025-0314-002' },
  timings: { connectMs: 12.1, firstByteMs: 5012.5, totalMs: 5013.0 },
  expectations: [],
});

const unknownNoId = entry({ ...unknown, id: 'e-unk-noid', orderRef: { symbol: 'BTCUSDT' } });

const REFUSAL = `The service asked to back off (429): nothing is sent to ${ORIGIN} for 12 s more (Retry-After). Sending now would get this IP banned (§8 rule 2).`;

const refused = entry({
  id: 'e-ref',
  at: NOW - 500,
  outcome: 'refused',
  summary: `refused: ${REFUSAL}`,
  reason: REFUSAL,
  status: undefined,
  statusMeaning: undefined,
  response: undefined,
  timings: undefined,
  expectations: [],
});

const notSent = entry({
  id: 'e-ns',
  at: NOW - 400,
  outcome: 'not-sent',
  summary: 'not sent: connect ECONNREFUSED 127.0.0.1:8443: start the sandbox or check baseUrl in tradereq.env.json',
  reason: 'connect ECONNREFUSED 127.0.0.1:8443: start the sandbox or check baseUrl in tradereq.env.json',
  status: undefined,
  statusMeaning: undefined,
  response: undefined,
  timings: undefined,
  expectations: [],
});

const okEntry = entry({});

// A 700003 after the server clock moved (issue 19, point 1), as entryFromResult makes it from the sandbox's answer.
const CLOCK_NOTE =
  'The service processes a request only when timestamp < serverTime + 1000 and serverTime − timestamp ≤ recvWindow (5000 ms) (spec §5 rule 9). The server clock was measured again: your clock is 30002 ms behind the server (before: 0 ms behind the server); the next send uses the new offset.';
const ACTION_700003 =
  'Nothing was processed, so sending again is safe: after a 700003 TradeReq measures the server clock offset again at once, for the next send. If it is refused again, leave clock sync on, do not write timestamp by hand, and set the system clock. Keep recvWindow at the default 5000 rather than widening it to hide skew.';

const clockJump = entry({
  id: 'e-700003',
  at: NOW - 1_500,
  title: 'Account',
  request: {
    ...entry({}).request,
    method: 'GET',
    url: `${ORIGIN}/api/v3/account?timestamp=1741957331000&signature=4b3ce56d3a25837901545acf2a11d937d46768f4605e5503b94063a1e09d54cf`,
    body: '',
  },
  outcome: 'rejected',
  summary: `400 rejected: 700003 Timestamp is outside of the recvWindow ${CLOCK_NOTE}`,
  status: 400,
  statusMeaning: "Malformed request; the fault is the sender's",
  error: {
    code: 700003,
    meanings: ['Timestamp is outside of the recvWindow'],
    cause:
      'A request is processed only when timestamp < serverTime + 1000 and serverTime - timestamp <= recvWindow (§5 rule 9).',
    action: ACTION_700003,
    hoverText: `700003: Timestamp is outside of the recvWindow\n\nWhat to do: ${ACTION_700003}`,
  },
  msg: 'Timestamp is outside of the recvWindow. timestamp 1741957331000 is 30012 ms behind the server time 1741957361012 (recvWindow 5000); check the clock offset against GET /api/v3/time.',
  note: CLOCK_NOTE,
  sendAgain: true,
  response: {
    body: '{\n  "code": 700003,\n  "msg": "Timestamp is outside of the recvWindow."\n}',
    isJson: true,
    truncated: false,
    bytes: 204,
    headers: [['content-type', 'application/json']],
  },
  expectations: [],
});

// A 700002 as the sandbox answers it (issue 22): the panel offers Why?, the signature doctor on what TradeReq sent.
const badSignature = entry({
  ...rejected,
  id: 'e-700002',
  summary: '401 rejected: 700002 Signature for this request is not valid',
  status: 401,
  error: {
    code: 700002,
    meanings: ['Signature for this request is not valid'],
    hoverText: '700002: Signature for this request is not valid',
  },
  msg: 'Signature for this request is not valid.',
});

// A 418 as the sandbox answers it (docs/service.md §7.1): an error body whose code is 429.
const ACTION_429 =
  'Stop sending and wait the number of seconds in the Retry-After header. Continuing after 429 leads to an automatic IP ban of 2 minutes up to 3 days (§8 rules 1-4); spread requests out.';

function banned(extNow) {
  return entry({
    ...rejected,
    id: 'e-418',
    at: extNow - 100,
    status: 418,
    summary:
      '418 rejected: The IP is banned because of repeated rate limit violations; Retry-After gives the seconds until the ban ends (Retry-After 118 s)',
    statusMeaning:
      'The IP is banned because of repeated rate limit violations; Retry-After gives the seconds until the ban ends',
    retryAtMs: extNow + 118_000,
    error: {
      code: 429,
      meanings: ['Too many requests'],
      cause: 'The request rate limit was exceeded (§8).',
      action: ACTION_429,
      hoverText: `429: Too many requests\n\nWhat to do: ${ACTION_429}`,
    },
    msg: 'The IP 127.0.0.1 is banned for 118 s (Retry-After) for sending after a 429; bans grow with repeat offences (§8 rules 2-3).',
    response: {
      body: '{\n  "code": 429,\n  "msg": "The IP 127.0.0.1 is banned for 118 s"\n}',
      isJson: true,
      truncated: false,
      bytes: 60,
      headers: [['retry-after', '118']],
    },
    expectations: [],
  });
}

const hostile = entry({
  id: `"><img src=x onerror=alert(3)>`,
  at: NOW - 300,
  title: `${HOSTILE_IMG} ${HOSTILE_SCRIPT}`,
  environment: HOSTILE_SCRIPT,
  outcome: 'rejected',
  summary: `400 rejected: ${HOSTILE_IMG}`,
  status: 400,
  statusMeaning: "Malformed request; the fault is the sender's",
  error: {
    code: 33333,
    meanings: [HOSTILE_IMG],
    cause: HOSTILE_SCRIPT,
    action: HOSTILE_IMG,
    hoverText: `33333: ${HOSTILE_SCRIPT}`,
  },
  msg: `${HOSTILE_IMG}${HOSTILE_SCRIPT}`,
  response: {
    body: `{\n  "code": 33333,\n  "msg": "${HOSTILE_IMG}",\n  "x": "${HOSTILE_SCRIPT}"\n}`,
    isJson: true,
    truncated: true,
    bytes: 123456,
    headers: [
      [HOSTILE_IMG, HOSTILE_SCRIPT],
      ['x-evil', HOSTILE_IMG],
    ],
  },
  expectations: [{ text: HOSTILE_IMG, passed: false, actual: HOSTILE_SCRIPT }],
});

function budget(over = {}) {
  return {
    origin: ORIGIN,
    ip: { mode: 'ip', limit: 500, used: 20, remaining: 480, freesInMs: 7000 },
    uid: { mode: 'uid', limit: 500, used: 470, remaining: 30, freesInMs: 3000 },
    ...over,
  };
}

/** The extension's own historyItem() (src/core/panel/entry.ts), from the harness's bundle (servePanel's `entry`). */
let historyItem;
function useHistoryItem(fn) {
  historyItem = fn;
}

function state(over = {}) {
  const s = {
    current: rejected,
    budget: budget(),
    history: [rejected, okEntry, twoMeanings],
    now: NOW,
    busy: false,
    ...over,
  };
  return {
    ...s,
    history: Array.isArray(s.history) ? s.history.map((e) => (e.request ? historyItem(e) : e)) : s.history,
  };
}

// ---- The stream view: a live connection as src/core/panel/live.ts reports it -----------------------

const DEALS = 'spot@public.deals.v3.api@BTCUSDT';
const DEALS_ETH = 'spot@public.deals.v3.api@ETHUSDT';
const DEPTH = 'spot@public.limit.depth.v3.api@BTCUSDT@5';

function stream(name, over = {}) {
  return { stream: name, status: 'subscribed', kind: 'deals', pushes: 0, ratePerSecond: 0, ...over };
}

function connection(over = {}) {
  return {
    id: 'c1',
    title: 'BTCUSDT trades and the best 5 levels',
    environment: 'sandbox',
    url: 'ws://127.0.0.1:8780/ws',
    status: 'open',
    ageMs: 65_000,
    now: T0,
    meters: {
      streams: { used: 3, limit: 30 },
      messages: { lastSecond: 2, limit: 100, pace: 'at most 80 in 1000 ms', queued: 0 },
    },
    streams: [
      stream(DEALS, { pushes: 12, ratePerSecond: 1.2, lastPushAt: T0 - 300 }),
      stream(DEALS_ETH),
      stream(DEPTH, { kind: 'depth', pushes: 4, ratePerSecond: 0.4, lastPushAt: T0 - 200 }),
    ],
    counts: {
      pushes: 16,
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
    notes: [
      { at: T0 - 2000, tone: 'ok', text: 'Connected to ws://127.0.0.1:8780/ws.' },
      { at: T0 - 1900, tone: 'ok', text: `Subscribed ${DEALS}.` },
    ],
    ...over,
  };
}

const book = (over = {}) => ({
  stream: DEPTH,
  at: T0,
  version: '42',
  bids: [
    ['29990.00', '2.000'],
    ['29980.00', '1.500'],
    ['29970.00', '0.750'],
  ],
  asks: [
    ['30010.00', '1.999'],
    ['30020.00', '3.250'],
  ],
  ...over,
});

function live(over = {}) {
  return { type: 'live', pushes: [], books: [], skipped: 0, ...over, connection: connection(over.connection) };
}

/**
 * What a trader keeps open: BTCUSDT trades and its best 5 levels, ETHUSDT trades; prices that move
 * a step at a time, both sides, the pushes as the sandbox sends them.
 */
function tradingScene() {
  const trades = [];
  for (let i = 0; i < 36; i++) {
    const eth = i % 4 === 3;
    const symbol = eth ? 'ETHUSDT' : 'BTCUSDT';
    const side = (i * 7) % 5 < 2 ? 2 : 1;
    const price = eth ? (2000 + ((i * 3) % 7) - 3).toFixed(2) : (30000 + 10 * (((i * 5) % 9) - 4)).toFixed(2);
    const qty = eth ? '0.050' : ['0.001', '0.012', '0.250', '0.004', '0.030'][i % 5];
    const at = T0 + 400 * i;
    const c = `spot@public.deals.v3.api@${symbol}`;
    trades.push({
      at,
      stream: c,
      summary: `${side === 1 ? 'BUY' : 'SELL'} ${qty} @ ${price}`,
      text: `{"c":"${c}","s":"${symbol}","t":${at},"d":{"deals":[{"S":${side},"p":"${price}","v":"${qty}","t":${at}}],"e":"spot@public.deals.v3.api"}}`,
    });
  }
  const levels = (from, step, qtys) => qtys.map((q, i) => [(from + step * i).toFixed(2), q]);
  return live({
    select: true,
    pushes: trades,
    books: [
      book({
        at: T0 + 400 * 35,
        version: '1187',
        bids: levels(29990, -10, ['2.000', '1.750', '4.120', '0.500', '2.000']),
        asks: levels(30000, 10, ['0.318', '2.000', '1.250', '3.000', '2.000']),
      }),
    ],
    connection: {
      ageMs: 14 * 60_000 + 23_000,
      meters: {
        streams: { used: 3, limit: 30 },
        messages: { lastSecond: 0, limit: 100, pace: 'at most 80 in 1250 ms', queued: 0 },
      },
      streams: [
        stream(DEALS, { pushes: 1268, ratePerSecond: 2.1, lastPushAt: T0 + 400 * 34 }),
        stream(DEALS_ETH, { pushes: 402, ratePerSecond: 0.7, lastPushAt: T0 + 400 * 35 }),
        stream(DEPTH, { kind: 'depth', pushes: 3105, ratePerSecond: 4.9, lastPushAt: T0 + 400 * 35 }),
      ],
      counts: {
        pushes: 4775,
        replies: 2,
        pongs: 14,
        sent: 2,
        notJson: 0,
        binary: 0,
        unknown: 0,
        tooLarge: 0,
        undecodable: 0,
        textPush: 0,
      },
      notes: [
        { at: T0 - 2000, tone: 'ok', text: 'Connected to ws://127.0.0.1:8780/ws.' },
        { at: T0 - 1900, tone: 'ok', text: `Subscribed ${DEALS}.` },
        { at: T0 - 1900, tone: 'ok', text: `Subscribed ${DEALS_ETH}.` },
        { at: T0 - 1900, tone: 'ok', text: `Subscribed ${DEPTH}.` },
      ],
    },
  });
}

module.exports = {
  T0,
  NOW,
  HOSTILE_IMG,
  HOSTILE_SCRIPT,
  UNKNOWN_SENTENCE,
  ORIGIN,
  HOVER_30002,
  rejected,
  twoMeanings,
  unknown,
  unknownNoId,
  REFUSAL,
  refused,
  notSent,
  okEntry,
  ACTION_700003,
  clockJump,
  badSignature,
  banned,
  hostile,
  budget,
  useHistoryItem,
  state,
  DEALS,
  DEALS_ETH,
  DEPTH,
  connection,
  book,
  live,
  tradingScene,
};
