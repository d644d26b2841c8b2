/**
 * What the stream view holds of one connection, without DOM: its latest view, the pushes kept (at
 * most BOUNDS.streamViewPushes, newest kept, the rest counted), the latest book of each depth
 * stream, and the view's own settings (paused, filter). Messages from the extension only add to
 * it; the drawing (live-view.ts) reads it once per animation frame.
 */
import {
  BOUNDS,
  MAX_BOOKS,
  type Book,
  type LiveConnection,
  type LiveMessage,
  type PushLine,
} from '../core/panel/protocol';

/** A push as kept: its line and its number among the pushes this view received. */
export interface KeptLine {
  readonly seq: number;
  readonly line: PushLine;
}

/** A fixed-size ring of the newest lines. */
class LineRing {
  private readonly items: (KeptLine | undefined)[];
  private next = 0;
  private size = 0;

  constructor(readonly capacity: number) {
    this.items = new Array<KeptLine | undefined>(capacity);
  }

  get length(): number {
    return this.size;
  }

  /** Adds a line; returns true when the oldest one made room for it. */
  push(line: KeptLine): boolean {
    const full = this.size === this.capacity;
    this.items[this.next] = line;
    this.next = (this.next + 1) % this.capacity;
    if (!full) this.size++;
    return full;
  }

  /** The i-th newest (0: the newest). */
  newest(i: number): KeptLine | undefined {
    if (i < 0 || i >= this.size) return undefined;
    return this.items[(this.next - 1 - i + this.capacity) % this.capacity];
  }

  clear(): void {
    this.items.fill(undefined);
    this.next = 0;
    this.size = 0;
  }
}

export class LiveStore {
  connection: LiveConnection;
  readonly lines = new LineRing(BOUNDS.streamViewPushes);
  /** Every push this view was told of (shown, or counted only). */
  received = 0;
  /** Pushes kept once, then dropped to stay under the cap. */
  dropped = 0;
  /** Pushes the extension counted but did not send (over one message's cap). */
  skipped = 0;
  /** Pushes cleared by the user. */
  cleared = 0;
  /** The latest book of each depth stream, in the order first seen. */
  readonly books = new Map<string, Book>();
  paused = false;
  /** Pushes received since Pause. */
  sincePause = 0;
  /** The stream whose pushes the log shows; undefined: all. */
  filter: string | undefined;
  /** Streams that pushed, for the filter, in the order first seen (bounded like the books). */
  readonly seen = new Set<string>();
  private seq = 0;

  constructor(connection: LiveConnection) {
    this.connection = connection;
  }

  /** Takes one message from the extension. */
  apply(m: LiveMessage): void {
    this.connection = m.connection;
    this.skipped += m.skipped;
    this.received += m.skipped;
    for (const line of m.pushes) {
      this.received++;
      if (this.paused) this.sincePause++;
      if (this.seen.size < 200) this.seen.add(line.stream);
      if (this.lines.push({ seq: ++this.seq, line })) this.dropped++;
    }
    for (const book of m.books) {
      if (!this.books.has(book.stream) && this.books.size >= MAX_BOOKS) continue;
      this.books.set(book.stream, book);
    }
  }

  /** The number of the newest line kept (0 before any). */
  get lastSeq(): number {
    return this.seq;
  }

  matches(line: PushLine): boolean {
    return this.filter === undefined || line.stream === this.filter;
  }

  /** The kept lines the log shows, newest first, at most `max`. */
  shown(max: number = this.lines.capacity): KeptLine[] {
    const out: KeptLine[] = [];
    for (let i = 0; i < this.lines.length && out.length < max; i++) {
      const k = this.lines.newest(i)!;
      if (this.matches(k.line)) out.push(k);
    }
    return out;
  }

  /** Lines newer than `seq` that the log shows, newest first. */
  newerThan(seq: number): KeptLine[] {
    const out: KeptLine[] = [];
    for (let i = 0; i < this.lines.length; i++) {
      const k = this.lines.newest(i)!;
      if (k.seq <= seq) break;
      if (this.matches(k.line)) out.push(k);
    }
    return out;
  }

  /** The oldest line still kept, by number (lines below it were dropped). */
  get oldestSeq(): number {
    return this.lines.newest(this.lines.length - 1)?.seq ?? this.seq + 1;
  }

  clear(): void {
    this.cleared += this.lines.length;
    this.lines.clear();
  }

  setPaused(paused: boolean): void {
    this.paused = paused;
    this.sincePause = 0;
  }
}
