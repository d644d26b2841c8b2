/**
 * Masking an answer's volatile fields: the built-in rules (ids and times the service assigns, a
 * client order id only when the service made it up), `# @mask` paths with `[*]`, credentials
 * always (as members, inside texts, in member names), order kept, and a hostile answer (deep,
 * wide) walked without recursion.
 */
import assert from 'node:assert/strict';
import { maskVolatile, placeholder } from '../../../src/core/testing/mask';

const PLACED = {
  symbol: 'BTCUSDT',
  orderId: '1000001',
  orderListId: -1,
  clientOrderId: 'sbx1000001',
  price: '20000',
  origQty: '0.001',
  status: 'NEW',
  type: 'LIMIT',
  side: 'BUY',
  transactTime: 1700000000123,
};

describe('maskVolatile', () => {
  it('masks the ids and times the service assigns, keeps the rest, in the order received', () => {
    const { value, paths } = maskVolatile(PLACED);
    assert.deepEqual(value, {
      ...PLACED,
      orderId: '<orderId>',
      clientOrderId: '<clientOrderId>',
      transactTime: '<transactTime>',
    });
    assert.deepEqual(Object.keys(value as object), Object.keys(PLACED), 'order as received');
    assert.deepEqual(paths, ['orderId', 'clientOrderId', 'transactTime']);
    assert.equal(PLACED.orderId, '1000001', 'the answer itself is left as it was');
  });

  it('times and ids at any depth (a list of order records, a time answer); orderListId only when it is not -1', () => {
    const records = [
      { orderId: '7', orderListId: 12, time: 1, updateTime: '1700000000000', workingTime: 2, price: '1' },
      { orderId: 8, orderListId: '-1', time: 'not a time' },
    ];
    const { value, paths } = maskVolatile({ serverTime: 1700000000000, list: records });
    assert.deepEqual(value, {
      serverTime: '<serverTime>',
      list: [
        {
          orderId: '<orderId>',
          orderListId: '<orderListId>',
          time: '<time>',
          updateTime: '<updateTime>',
          workingTime: '<workingTime>',
          price: '1',
        },
        { orderId: '<orderId>', orderListId: '-1', time: 'not a time' },
      ],
    });
    assert.deepEqual(paths.slice(0, 3), ['serverTime', 'list[0].orderId', 'list[0].orderListId']);
  });

  it('a client order id the request sent itself is kept (newClientOrderId, origClientOrderId), as a whole word only', () => {
    const answer = { clientOrderId: 'my-order-1', origClientOrderId: 'my-order' };
    const sent = ['symbol', 'BTCUSDT', 'my-order-1'];
    assert.deepEqual(maskVolatile(answer, { sent }).value, {
      clientOrderId: 'my-order-1',
      origClientOrderId: '<origClientOrderId>',
    });
    assert.deepEqual(maskVolatile(answer, { sent: ['{"newClientOrderId":"my-order"}'] }).value, {
      clientOrderId: '<clientOrderId>',
      origClientOrderId: 'my-order',
    });
  });

  it('# @mask paths: members, indexes, [*] over a list (also at the top), a whole subtree; a bad path masks nothing', () => {
    const answer = {
      fills: [
        { price: '1', qty: '2', tradeId: 5 },
        { price: '3', qty: '4', tradeId: 6 },
      ],
      balances: { BTC: { free: '1' } },
      msg: 'x',
    };
    const { value, paths } = maskVolatile(answer, { paths: ['fills[*].price', 'balances', 'fills.1.qty', 'a..b'] });
    assert.deepEqual(value, {
      fills: [
        { price: '<price>', qty: '2', tradeId: '<tradeId>' },
        { price: '<price>', qty: '<qty>', tradeId: '<tradeId>' },
      ],
      balances: '<balances>',
      msg: 'x',
    });
    assert.deepEqual(paths, [
      'fills[0].price',
      'fills[0].tradeId',
      'fills[1].price',
      'fills[1].qty',
      'fills[1].tradeId',
      'balances',
    ]);
    assert.deepEqual(maskVolatile([{ a: 1 }, { a: 2 }], { paths: ['[*].a'] }).value, [{ a: '<a>' }, { a: '<a>' }]);
    assert.deepEqual(maskVolatile([1, 2], { paths: ['[*]'] }).value, ['<masked>', '<masked>']);
  });

  it('a member named __proto__ (as JSON.parse makes it) stays a member of the copy, masked like any other', () => {
    const answer = JSON.parse('{"__proto__": {"orderId": "1", "x": 2}, "y": 3}') as unknown;
    const { value } = maskVolatile(answer);
    assert.equal(JSON.stringify(value), '{"__proto__":{"orderId":"<orderId>","x":2},"y":3}');
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
  });

  it('builtIn: false leaves the volatile fields (only the paths given are masked)', () => {
    assert.deepEqual(maskVolatile(PLACED, { builtIn: false, paths: ['price'] }).value, {
      ...PLACED,
      price: '<price>',
    });
  });

  it('credentials are always masked: a listen key field, and any credential or API key inside a text or a member name', () => {
    const listenKey = 'a'.repeat(64);
    const apiKey = 'DemoApiKey0123456789';
    const answer = {
      listenKey,
      msg: `key ${listenKey} and ${apiKey} echoed`,
      [apiKey]: 1,
      nested: [{ note: apiKey }],
    };
    const masked = maskVolatile(answer, { builtIn: false, secrets: [{ name: 'apiKey', value: apiKey }] });
    const text = JSON.stringify(masked.value);
    assert.ok(!text.includes(listenKey) && !text.includes(apiKey), text);
    assert.deepEqual(masked.value, {
      listenKey: '<listenKey>',
      msg: 'key <listenKey> and <apiKey> echoed',
      '<apiKey>': 1,
      nested: [{ note: '<apiKey>' }],
    });
    assert.equal(
      maskVolatile(`plain ${apiKey}`, { secrets: [{ name: 'apiKey', value: apiKey }] }).value,
      'plain <apiKey>',
    );
  });

  it('a hostile answer: 20,000 levels deep, walked without recursion; the list of paths masked is bounded', () => {
    let deep: unknown = { orderId: '1' };
    for (let i = 0; i < 20_000; i++) deep = [deep];
    assert.deepEqual(maskVolatile(deep).paths, ['[0]'.repeat(20_000) + '.orderId']);
    const wide = Array.from({ length: 3_000 }, (_, i) => ({ orderId: String(i) }));
    const many = maskVolatile(wide);
    assert.equal(many.paths.length, 1_000, 'listed up to its bound');
    assert.equal((many.value as { orderId: string }[])[2_999]!.orderId, '<orderId>', 'masked all the same');
  });

  it('placeholder', () => {
    assert.equal(placeholder('orderId'), '<orderId>');
  });
});
