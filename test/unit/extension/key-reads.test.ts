/**
 * The key store's reads of SecretStorage (src/extension/key-reads.ts): each entry read once at a
 * time and kept for the session, a key or "none"; what a change forgets is never answered again
 * from memory, not even by a read that was under way; a read that fails is no answer. The store
 * here is a map whose reads answer when the test says, so that each order of events is played out.
 */
import assert from 'node:assert/strict';
import { SecretReads } from '../../../src/extension/key-reads';

interface Key {
  readonly apiKey: string;
}

/** A SecretStorage in memory: each get() waits until release() (or fail()) answers it with the value of that moment. */
class HeldStore {
  readonly values = new Map<string, string>();
  readonly reads: string[] = [];
  private readonly held: { key: string; answer: () => void; fail: (e: Error) => void }[] = [];

  get(key: string): Promise<string | undefined> {
    this.reads.push(key);
    return new Promise((resolve, reject) =>
      this.held.push({ key, answer: () => resolve(this.values.get(key)), fail: reject }),
    );
  }

  /** Answers the oldest read still held (or the newest), with the value stored now. */
  release(which: 'oldest' | 'newest' = 'oldest'): void {
    const read = which === 'oldest' ? this.held.shift() : this.held.pop();
    assert.ok(read, 'a read is held');
    read.answer();
  }

  /** Fails the oldest read still held. */
  fail(): void {
    const read = this.held.shift();
    assert.ok(read, 'a read is held');
    read.fail(new Error('the keyring is locked'));
  }

  get heldCount(): number {
    return this.held.length;
  }
}

const parse = (text: string): Key | undefined => {
  try {
    const v = JSON.parse(text) as { apiKey?: unknown };
    return typeof v.apiKey === 'string' ? { apiKey: v.apiKey } : undefined;
  } catch {
    return undefined;
  }
};

const ENTRY = 'tradereq.key.live';
const stored = (apiKey: string): string => JSON.stringify({ apiKey });

/** Lets every promise callback already due run (the reads' own bookkeeping), without any timer. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function setup(): { store: HeldStore; reads: SecretReads<Key>; ahead: boolean[] } {
  const store = new HeldStore();
  const ahead: boolean[] = [];
  const reads = new SecretReads<Key>(store, parse, (_key, a) => ahead.push(a));
  return { store, reads, ahead };
}

describe('the key store reads SecretStorage once per entry and session', () => {
  it('two gets at once share one read', async () => {
    const { store, reads } = setup();
    store.values.set(ENTRY, stored('A1'));
    const both = Promise.all([reads.get(ENTRY), reads.get(ENTRY)]);
    await settle();
    assert.equal(store.reads.length, 1, 'one read for both');
    store.release();
    assert.deepEqual(await both, [{ apiKey: 'A1' }, { apiKey: 'A1' }]);
  });

  it('a get after a read ahead (warm) awaits that read and reads nothing more; the answer is kept', async () => {
    const { store, reads, ahead } = setup();
    store.values.set(ENTRY, stored('A1'));
    reads.warm(ENTRY);
    const got = reads.get(ENTRY);
    await settle();
    store.release();
    assert.deepEqual(await got, { apiKey: 'A1' });
    assert.deepEqual(await reads.get(ENTRY), { apiKey: 'A1' });
    assert.equal(reads.state(ENTRY), 'memory');
    assert.deepEqual(ahead, [true], 'one read, the one ahead');
  });

  it('"none" is an answer: an entry that is not stored is read once', async () => {
    const { store, reads } = setup();
    reads.warm(ENTRY);
    store.release();
    await settle();
    assert.equal(await reads.get(ENTRY), undefined);
    assert.equal(await reads.get(ENTRY), undefined);
    assert.equal(store.reads.length, 1);
  });
});

describe('the key store never answers a deleted or replaced key from memory', () => {
  it('a key deleted while a read ahead was under way: the get after forget() reads again and finds none', async () => {
    const { store, reads } = setup();
    store.values.set(ENTRY, stored('OLD'));
    reads.warm(ENTRY);
    await settle();
    // The read has seen the old key but not answered yet; then the key is deleted and the change told.
    const answerOld = store.values.get(ENTRY);
    store.values.delete(ENTRY);
    reads.forget();
    const got = reads.get(ENTRY);
    await settle();
    assert.equal(store.reads.length, 2, 'the get did not share the read started before the change');
    // The new read answers first; the old one last, as it read before the delete: its answer is not kept.
    store.release('newest');
    assert.equal(await got, undefined, 'the deleted key is not used');
    store.values.set(ENTRY, answerOld!);
    store.release();
    store.values.delete(ENTRY);
    await settle();
    assert.equal(await reads.get(ENTRY), undefined, 'nor kept from the read that the change overtook');
  });

  it('a key kept in memory, then replaced: the next get reads the new key', async () => {
    const { store, reads } = setup();
    store.values.set(ENTRY, stored('OLD'));
    const first = reads.get(ENTRY);
    store.release();
    assert.deepEqual(await first, { apiKey: 'OLD' });
    store.values.set(ENTRY, stored('NEW'));
    reads.forget();
    const second = reads.get(ENTRY);
    await settle();
    store.release();
    assert.deepEqual(await second, { apiKey: 'NEW' });
    assert.equal(store.reads.length, 2);
  });

  it('"none" kept in memory, then a key stored: the next get reads it', async () => {
    const { store, reads } = setup();
    const first = reads.get(ENTRY);
    store.release();
    assert.equal(await first, undefined);
    store.values.set(ENTRY, stored('NEW'));
    reads.forget();
    const second = reads.get(ENTRY);
    await settle();
    store.release();
    assert.deepEqual(await second, { apiKey: 'NEW' });
  });
});

describe('a read that fails, or a text that does not parse, is no answer', () => {
  it('a read ahead that fails: the get that awaited it reads again', async () => {
    const { store, reads } = setup();
    store.values.set(ENTRY, stored('A1'));
    reads.warm(ENTRY);
    const got = reads.get(ENTRY);
    await settle();
    store.fail();
    await settle();
    assert.equal(store.heldCount, 1, 'the get read again');
    store.release();
    assert.deepEqual(await got, { apiKey: 'A1' });
  });

  it('a get that fails rejects, and the next get reads again', async () => {
    const { store, reads } = setup();
    store.values.set(ENTRY, stored('A1'));
    const failed = reads.get(ENTRY);
    await settle();
    store.fail();
    await assert.rejects(failed, /keyring/);
    const again = reads.get(ENTRY);
    await settle();
    store.release();
    assert.deepEqual(await again, { apiKey: 'A1' });
    assert.equal(store.reads.length, 2);
  });

  it('a damaged text is not kept as "none": the next get reads again', async () => {
    const { store, reads } = setup();
    store.values.set(ENTRY, '{"apiKey":');
    const damaged = reads.get(ENTRY);
    store.release();
    assert.equal(await damaged, undefined);
    store.values.set(ENTRY, stored('A1'));
    const again = reads.get(ENTRY);
    await settle();
    store.release();
    assert.deepEqual(await again, { apiKey: 'A1' });
  });
});
