/**
 * The starter's pure parts (core/env/starter.ts): the free name New Request File offers. What init
 * writes and the editor command are tested as they run: test/e2e/init.test.ts and
 * test/integration/environment.test.ts.
 */
import assert from 'node:assert/strict';
import { freeFileName } from '../../../src/core/env/starter';

describe('the starter: the name New Request File offers', () => {
  it('the starter file name when it is free, else -2, -3, … before the extension; taken names compared in lower case', () => {
    const taken = (names: string[]) => (n: string) => names.includes(n);
    assert.equal(freeFileName('orders.tradereq', taken([])), 'orders.tradereq');
    assert.equal(freeFileName('orders.tradereq', taken(['orders.tradereq'])), 'orders-2.tradereq');
    assert.equal(freeFileName('Orders.tradereq', taken(['orders.tradereq', 'orders-2.tradereq'])), 'Orders-3.tradereq');
    assert.equal(freeFileName('notes', taken(['notes'])), 'notes-2');
  });
});
