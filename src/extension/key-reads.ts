/**
 * The diagnostics channel where the key store (keys.ts) tells each read of a profile from
 * SecretStorage (`read`, then `answered` with its time) and each wait of a get() (`get`), for
 * `npm run bench:send` and the integration tests to count: entry and profile names and times,
 * never a value.
 */
export const KEY_STORE_CHANNEL = 'tradereq.keyStore';

/** What the reads go to: VS Code's SecretStorage (its get), or a test's store in memory. */
export interface SecretSource {
  get(key: string): Thenable<string | undefined>;
}

/** A read under way: whether a read ahead (warm) started it, whose failure the next get() does not share. */
interface Pending<T> {
  readonly promise: Promise<T | undefined>;
  readonly ahead: boolean;
}

/**
 * Reads of SecretStorage entries for one session, in memory only: each entry read once at a time
 * (a get() while a read is under way awaits that read), and its answer kept, a value or "none",
 * until forget(). A read that fails, or a text that does not parse, is not kept: the next get()
 * reads again. A read that a forget() overtook is not kept, and no get() after a forget() shares
 * a read started before it: a value deleted or replaced is never answered from memory.
 */
export class SecretReads<T> {
  private readonly known = new Map<string, { readonly value: T | undefined }>();
  private readonly pending = new Map<string, Pending<T>>();
  /** Counts forget()s, so that a read a forget() overtook is not kept. */
  private generation = 0;

  constructor(
    private readonly source: SecretSource,
    /** The value a stored text holds; undefined when it does not parse (damaged: not kept). */
    private readonly parse: (text: string) => T | undefined,
    /** Told each time the source is read (what a benchmark or a test counts). */
    private readonly onRead: (key: string, ahead: boolean) => void = () => undefined,
  ) {}

  /** The entry `key`: from memory, from the read under way, or read now. Rejects when the read fails. */
  async get(key: string): Promise<T | undefined> {
    const known = this.known.get(key);
    if (known) return known.value;
    const pending = this.pending.get(key);
    if (pending?.ahead) {
      // A read ahead that fails is no answer: this get() reads again.
      const settled = await pending.promise.then(
        (value) => ({ value }),
        () => undefined,
      );
      if (settled) return settled.value;
    }
    const now = this.pending.get(key);
    return (now && !now.ahead ? now : this.start(key, false)).promise;
  }

  /** Starts reading `key` unless it is known or being read; never rejects (get() reads again after a failure). */
  warm(key: string): void {
    if (this.known.has(key) || this.pending.has(key)) return;
    this.start(key, true).promise.catch(() => undefined);
  }

  /** Where a get() of `key` now would find its answer: in memory (a value or "none"), in a read under way, or in the store (a read now). */
  state(key: string): 'memory' | 'reading' | 'store' {
    if (this.known.has(key)) return 'memory';
    return this.pending.has(key) ? 'reading' : 'store';
  }

  /** Forgets every answer, and every read under way for the gets to come. */
  forget(): void {
    this.generation++;
    this.known.clear();
    this.pending.clear();
  }

  private start(key: string, ahead: boolean): Pending<T> {
    const generation = this.generation;
    this.onRead(key, ahead);
    const promise = (async () => {
      const text = await this.source.get(key);
      const value = text === undefined ? undefined : this.parse(text);
      // "None" is an answer; a text that does not parse is not (it is read again).
      if (generation === this.generation && (text === undefined || value !== undefined)) this.known.set(key, { value });
      return value;
    })();
    const pending = { promise, ahead };
    this.pending.set(key, pending);
    const done = (): void => {
      if (this.pending.get(key) === pending) this.pending.delete(key);
    };
    promise.then(done, done);
    return pending;
  }
}
