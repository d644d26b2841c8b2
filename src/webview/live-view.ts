/**
 * The stream view of one connection: its state and age, a meter per §8 limit, its streams (each
 * with its last push, its push rate and Unsubscribe), the live book of each depth stream, the log
 * of pushes (newest first, with Pause, a filter by stream and Clear) and a box to send a message.
 * Built once; each animation frame redraws only what changed since the last one.
 */
import { t } from '../core/l10n';
import { BOUNDS, type FromPanel, type LiveConnection } from '../core/panel/protocol';
import { h, newId, setAttr, srOnly, type Child } from './dom';
import { CONNECTION_LABEL, formatCount, formatWait } from './format';
import {
  bookView,
  gapItem,
  logLine,
  meter,
  noteItem,
  moveInLog,
  seqOf,
  streamRow,
  toggleLine,
  updateMeters,
  type BookView,
  type Meter,
  type StreamRow,
} from './live-parts';
import type { LiveStore } from './live-store';

/** Log lines on the page while pushes flow: enough to read, few enough to draw every frame. */
const LIVE_ROWS = 100;

export interface LiveViewHost {
  post(m: FromPanel): void;
  /** Asks for a redraw at the next animation frame. */
  redraw(): void;
}

function button(action: string, label: string, testid: string, primary = false): HTMLButtonElement {
  const cls = `button ${primary ? 'primary' : 'secondary'}`;
  return h('button', { type: 'button', class: cls, 'data-action': action, 'data-testid': testid }, label);
}

export class LiveView {
  readonly root: HTMLElement;
  private readonly head = {
    status: h('span', { class: 'live-status', 'data-testid': 'live-status' }),
    age: h('span', { class: 'live-age', 'data-testid': 'live-age' }),
    meta: h('p', { class: 'section-meta live-meta' }),
    message: h('p', { class: 'live-message', role: 'status', 'data-testid': 'live-message' }),
    counts: h('p', { class: 'section-meta', 'data-testid': 'live-counts' }),
    disconnect: button('disconnect', t('Disconnect'), 'disconnect'),
    forget: button('forget', t('Close'), 'forget'),
  };
  private readonly meters: { streams: Meter; messages: Meter } = {
    streams: meter('meter-streams', t('Streams')),
    messages: meter('meter-messages', t('Client messages')),
  };
  private readonly streamBody = h('tbody');
  private readonly books = h('div', { class: 'books', 'data-testid': 'books' });
  // A list a keyboard can scroll and walk (moveInLog); pushes are never announced as they come.
  private readonly log = h('ol', {
    class: 'push-log',
    tabindex: 0,
    'data-empty': t('No pushes yet.'),
    'data-testid': 'push-log',
  });
  private readonly logCounts = h('span', { class: 'log-counts', 'data-testid': 'log-counts' });
  private readonly pause = button('pause', t('Pause'), 'pause');
  private readonly filter = h('select', { class: 'filter', 'data-testid': 'filter' });
  private readonly notes = h('ol', { class: 'notes', tabindex: 0, 'data-testid': 'notes' });
  private readonly gaps = h('ol', { class: 'notes gaps', tabindex: 0, 'data-testid': 'gaps' });
  private readonly gapsHead = h('h3', null);
  private readonly sendText = h('textarea', {
    class: 'send-text',
    rows: 3,
    spellcheck: 'false',
    maxlength: BOUNDS.liveMessageChars,
    placeholder: '{"method": "PING"}',
    'data-testid': 'send-text',
  });
  private readonly sendButton = button('send', t('Send'), 'send', true);
  private readonly rows = new Map<string, StreamRow>();
  private readonly bookViews = new Map<string, BookView>();
  private drawn: { connection?: LiveConnection; seq: number; books: Map<string, unknown>; filterKey: string } = {
    seq: 0,
    books: new Map(),
    filterKey: '',
  };
  private rebuildLog = true;

  constructor(
    readonly store: LiveStore,
    private readonly host: LiveViewHost,
    tabId: string,
  ) {
    this.root = h(
      'section',
      {
        class: 'live',
        role: 'tabpanel',
        'aria-labelledby': tabId,
        'data-testid': 'live',
        'data-id': store.connection.id,
      },
      this.header(),
      h('div', { class: 'meters' }, this.meters.streams.root, this.meters.messages.root),
      this.streamsSection(),
      this.books,
      this.logSection(),
      this.sendSection(),
    );
    this.root.addEventListener('click', (e) => this.onClick(e));
    this.log.addEventListener('keydown', (e) => moveInLog(this.log, e));
    this.filter.addEventListener('change', () => {
      this.store.filter = this.filter.value === '' ? undefined : this.filter.value;
      this.rebuildLog = true;
      this.host.redraw();
    });
  }

  get id(): string {
    return this.store.connection.id;
  }

  private header(): HTMLElement {
    const titleId = newId('h');
    const { status, age, meta, message, counts, disconnect, forget } = this.head;
    return h(
      'header',
      { class: 'live-head' },
      h(
        'div',
        { class: 'section-head' },
        h('h2', { id: titleId, class: 'live-title', 'data-testid': 'live-title' }, this.store.connection.title),
        status,
        age,
        disconnect,
        forget,
      ),
      meta,
      message,
      counts,
    );
  }

  private streamsSection(): HTMLElement {
    const col = (name: Child, cls?: string) => h('th', { scope: 'col', class: cls }, name);
    const headingId = newId('h');
    return h(
      'section',
      { class: 'section live-streams', 'aria-labelledby': headingId },
      h('h3', { id: headingId }, t('Streams')),
      h(
        'table',
        { class: 'streams-table', 'aria-labelledby': headingId, 'data-testid': 'streams' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            col(t('Stream')),
            col(t('Status')),
            col(t('Pushes'), 'num'),
            col(t('Rate'), 'num'),
            col(t('Last push'), 'num'),
            col(srOnly(t('Actions'))),
          ),
        ),
        this.streamBody,
      ),
    );
  }

  private logSection(): HTMLElement {
    const filterId = newId('filter');
    const pushesId = newId('h');
    const notesId = newId('h');
    setAttr(this.log, 'aria-labelledby', pushesId);
    setAttr(this.notes, 'aria-labelledby', notesId);
    return h(
      'section',
      { class: 'section live-log' },
      h(
        'div',
        { class: 'section-head log-controls' },
        h('h3', { id: pushesId }, t('Pushes')),
        this.pause,
        h('label', { for: filterId, class: 'filter-label' }, t('Stream'), ' '),
        this.filterWithId(filterId),
        button('clear', t('Clear'), 'clear'),
        this.logCounts,
      ),
      this.log,
      this.gapsHead,
      this.gaps,
      h('h3', { id: notesId }, t('Messages and events')),
      this.notes,
    );
  }

  private filterWithId(id: string): HTMLSelectElement {
    setAttr(this.filter, 'id', id);
    return this.filter;
  }

  private sendSection(): HTMLElement {
    const id = newId('send');
    setAttr(this.sendText, 'id', id);
    return h(
      'section',
      { class: 'section live-send' },
      h('label', { for: id }, h('h3', null, t('Send a message'))),
      this.sendText,
      h(
        'div',
        { class: 'send-row' },
        this.sendButton,
        h('span', { class: 'muted' }, t('JSON, through the connection’s pacer (§8: at most 100 messages a second).')),
      ),
    );
  }

  private onClick(e: MouseEvent): void {
    const target = e.target instanceof Element ? e.target : null;
    const line = target?.closest('li.push');
    // A click on a line shows the whole push (or one line of it again): local only.
    if (line) return toggleLine(line);
    const el = target?.closest('button[data-action]');
    if (!(el instanceof HTMLButtonElement) || el.disabled) return;
    const id = this.id;
    switch (el.getAttribute('data-action')) {
      case 'disconnect':
        return this.host.post({ type: 'disconnect', id });
      case 'forget':
        return this.host.post({ type: 'forget', id });
      case 'unsubscribe':
        return this.host.post({ type: 'unsubscribe', id, stream: el.getAttribute('data-stream') ?? '' });
      case 'send':
        if (this.sendText.value.trim() !== '') this.host.post({ type: 'sendMessage', id, text: this.sendText.value });
        return;
      case 'pause':
        this.store.setPaused(!this.store.paused);
        this.rebuildLog = true;
        return this.host.redraw();
      case 'clear':
        this.store.clear();
        this.rebuildLog = true;
        return this.host.redraw();
    }
  }

  /** Redraws what changed since the last draw. */
  draw(): void {
    const c = this.store.connection;
    if (c !== this.drawn.connection) {
      this.drawHead(c);
      updateMeters(this.meters.streams, this.meters.messages, c);
      this.drawStreams(c);
      this.drawNotes(c);
      this.drawGaps(c);
      this.drawFilter(c);
      this.drawn.connection = c;
    }
    this.drawBooks();
    this.drawLog();
  }

  private drawHead(c: LiveConnection): void {
    const { status, age, meta, message, counts, disconnect, forget } = this.head;
    status.className = `live-status status-${c.status}`;
    setAttr(status, 'data-status', c.status);
    status.textContent = CONNECTION_LABEL[c.status]();
    age.textContent = ageText(c);
    meta.textContent = [c.environment, c.url, c.listenKey !== undefined ? `listenKey ${c.listenKey}` : undefined]
      .filter((x) => x !== undefined)
      .join(' · ');
    message.textContent = c.message ?? '';
    message.hidden = c.message === undefined;
    const n = c.counts;
    const problems = n.notJson + n.binary + n.unknown + n.tooLarge + n.undecodable + n.textPush;
    counts.textContent = [
      t('{0} pushes', formatCount(n.pushes)),
      t('{0} replies', formatCount(n.replies)),
      t('{0} messages sent', formatCount(n.sent)),
      problems > 0 ? t('{0} frames dropped', formatCount(problems)) : undefined,
    ]
      .filter((x) => x !== undefined)
      .join(' · ');
    disconnect.hidden = !(c.status === 'open' || c.status === 'connecting');
    forget.hidden = c.status !== 'closed';
    this.sendButton.disabled = c.status !== 'open';
  }

  private drawStreams(c: LiveConnection): void {
    const open = c.status === 'open';
    const names = new Set(c.streams.map((s) => s.stream));
    for (const [name, row] of this.rows)
      if (!names.has(name)) {
        row.tr.remove();
        this.rows.delete(name);
      }
    this.streamBody.querySelector('tr.empty')?.remove();
    c.streams.forEach((s, i) => {
      let row = this.rows.get(s.stream);
      if (row === undefined) {
        row = streamRow(s);
        this.rows.set(s.stream, row);
      }
      row.update(s, open);
      // In the connection's order; a row already in place is not moved (that would lay it out again).
      const at = this.streamBody.rows[i];
      if (at !== row.tr) this.streamBody.insertBefore(row.tr, at ?? null);
    });
    if (c.streams.length === 0) this.streamBody.append(emptyRow());
  }

  private drawNotes(c: LiveConnection): void {
    const last = c.notes.at(-1);
    const key = `${c.notes.length}:${last?.at ?? ''}:${last?.text ?? ''}`;
    if (this.notes.getAttribute('data-key') === key) return;
    setAttr(this.notes, 'data-key', key);
    // Newest first, like the log.
    this.notes.replaceChildren(...[...c.notes].reverse().map(noteItem));
  }

  /** The gaps, newest first; the section is hidden while there is none. */
  private drawGaps(c: LiveConnection): void {
    const gaps = c.gaps ?? [];
    const last = gaps.at(-1);
    // A gap that lasts grows with the view's clock: redrawn with each view while it does.
    const growing = last !== undefined && last.endedAt === undefined ? c.now : '';
    const key = `${gaps.length}:${c.gapsForgotten ?? 0}:${last?.startedAt ?? ''}:${last?.endedAt ?? ''}:${growing}`;
    if (this.gaps.getAttribute('data-key') === key) return;
    setAttr(this.gaps, 'data-key', key);
    const none = gaps.length === 0;
    this.gaps.hidden = none;
    this.gapsHead.hidden = none;
    const forgotten = c.gapsForgotten ?? 0;
    this.gapsHead.textContent =
      forgotten > 0
        ? t('Gaps without a connection ({0}, and {1} older)', gaps.length, forgotten)
        : t('Gaps without a connection ({0})', gaps.length);
    this.gaps.replaceChildren(...[...gaps].reverse().map((g) => gapItem(g, c.now)));
  }

  private drawFilter(c: LiveConnection): void {
    const names = [...new Set([...c.streams.map((s) => s.stream), ...this.store.seen])];
    const key = names.join('\n');
    if (key === this.drawn.filterKey) return;
    this.drawn.filterKey = key;
    const current = this.store.filter ?? '';
    this.filter.replaceChildren(
      h('option', { value: '' }, t('All streams')),
      ...names.map((n) => h('option', { value: n }, n)),
    );
    this.filter.value = names.includes(current) ? current : '';
  }

  private drawBooks(): void {
    for (const [stream, book] of this.store.books) {
      if (this.drawn.books.get(stream) === book) continue;
      let view = this.bookViews.get(stream);
      if (view === undefined) {
        view = bookView(stream);
        this.bookViews.set(stream, view);
        this.books.append(view.root);
      }
      view.update(book);
      this.drawn.books.set(stream, book);
    }
  }

  /** While live, the newest LIVE_ROWS lines; paused, every line kept (to scroll through at leisure). */
  private drawLog(): void {
    const s = this.store;
    if (s.paused && !this.rebuildLog) return this.drawLogCounts();
    const max = s.paused ? s.lines.capacity : LIVE_ROWS;
    if (this.rebuildLog || s.lastSeq - this.drawn.seq > max) {
      const frag = document.createDocumentFragment();
      for (const k of s.shown(max)) frag.append(logLine(k));
      this.log.replaceChildren(frag);
      this.rebuildLog = false;
    } else if (s.lastSeq > this.drawn.seq) {
      const frag = document.createDocumentFragment();
      for (const k of s.newerThan(this.drawn.seq)) frag.append(logLine(k));
      this.log.prepend(frag);
      // Past the window, or no longer kept: the line leaves the page.
      const oldest = s.oldestSeq;
      for (
        let el = this.log.lastElementChild;
        el !== null && (this.log.childElementCount > max || seqOf(el) < oldest);
        el = this.log.lastElementChild
      )
        el.remove();
    }
    this.drawn.seq = s.lastSeq;
    this.drawLogCounts();
  }

  private drawLogCounts(): void {
    const s = this.store;
    this.pause.textContent = s.paused ? t('Resume') : t('Pause');
    setAttr(this.pause, 'aria-pressed', s.paused ? 'true' : 'false');
    setAttr(this.logCounts, 'data-kept', s.lines.length);
    setAttr(this.logCounts, 'data-dropped', s.dropped);
    setAttr(this.logCounts, 'data-received', s.received);
    const shown = this.log.childElementCount;
    const parts = [t('{0} kept (the newest {1})', formatCount(s.lines.length), formatCount(s.lines.capacity))];
    if (shown < s.lines.length)
      parts.unshift(
        s.paused ? t('{0} shown', formatCount(shown)) : t('{0} shown (Pause to see all)', formatCount(shown)),
      );
    setAttr(this.logCounts, 'data-shown', shown);
    if (s.dropped > 0) parts.push(t('{0} older not kept', formatCount(s.dropped)));
    if (s.skipped > 0) parts.push(t('{0} skipped', formatCount(s.skipped)));
    if (s.cleared > 0) parts.push(t('{0} cleared', formatCount(s.cleared)));
    if (s.paused) parts.unshift(t('Paused: {0} new', formatCount(s.sincePause)));
    this.logCounts.textContent = parts.join(' · ');
  }
}

function emptyRow(): HTMLTableRowElement {
  return h('tr', { class: 'empty' }, h('td', { colspan: 6, class: 'muted' }, t('No streams on this connection.')));
}

/** How long the connection has been open ("for 1 min 5 s"), or lasted once closed. */
function ageText(c: LiveConnection): string {
  if (c.ageMs === undefined) return '';
  return c.status === 'closed' ? t('lasted {0}', formatWait(c.ageMs)) : t('for {0}', formatWait(c.ageMs));
}
