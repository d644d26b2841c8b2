/**
 * Parts of the stream view that are redrawn in place: a stream's row, a depth stream's book, a
 * log line, the meters. Every value is hostile text (stream names, pushes, the server's messages):
 * it enters the page through dom.ts only, as text nodes.
 */
import { t } from '../core/l10n';
import type { Book, LiveConnection, LiveGap, LiveNote, LiveStream } from '../core/panel/protocol';
import { ariaMeter, h, newId, setAttr, setMeter } from './dom';
import { formatClock, formatCount, formatRate, shortStream } from './format';
import type { KeptLine } from './live-store';

/** Sets an element's text only when it changed: an unchanged number is not laid out again. */
function setText(el: Element, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

/** Levels a book table shows on each side. */
const BOOK_ROWS = 10;

const STATUS_LABEL: Readonly<Record<LiveStream['status'], () => string>> = {
  pending: () => t('subscribing…'),
  subscribed: () => t('subscribed'),
  refused: () => t('refused'),
  unsubscribing: () => t('unsubscribing…'),
};

// ---------------------------------------------------------------------------------------------
// Meters (§8)

export interface Meter {
  readonly root: HTMLElement;
  /** `valueText` is what a screen reader says of the meter ("3 of 30 streams held"). */
  update(used: number, limit: number, label: string, note: string, valueText: string): void;
}

export function meter(testid: string, name: string): Meter {
  const id = newId('meter');
  const count = h('span', { class: 'budget-count' });
  const note = h('span', { class: 'budget-frees' });
  const el = h('meter', { id, min: 0, max: 1, value: 0 });
  const label = h(
    'label',
    { for: id, class: 'budget-label' },
    h('span', { class: 'budget-name' }, name),
    ' ',
    count,
    note,
  );
  const box = ariaMeter(el, label);
  const root = h('div', { class: 'budget live-meter', 'data-testid': testid }, label, box);
  return {
    root,
    update(used, limit, labelText, text, valueText) {
      setText(count, labelText);
      setText(note, text);
      // The warning colour from 80 % of the limit on (a meter's "high").
      setAttr(el, 'high', limit * 0.8);
      setAttr(el, 'optimum', 0);
      setMeter(box, el, Math.min(used, limit), limit, valueText);
      root.classList.toggle('low', used >= limit * 0.8);
    },
  };
}

export function updateMeters(streams: Meter, messages: Meter, c: LiveConnection): void {
  const s = c.meters.streams;
  streams.update(
    s.used,
    s.limit,
    `${s.used}/${s.limit}`,
    ` ${t('held on this connection')}`,
    t('{0} of {1} streams held on this connection', s.used, s.limit),
  );
  const m = c.meters.messages;
  const waiting = m.queued > 0 ? ` · ${t('{0} waiting', formatCount(m.queued))}` : '';
  messages.update(
    m.lastSecond,
    m.limit,
    `${m.lastSecond}/${m.limit}`,
    ` ${t('in the last second · paced {0}', m.pace)}${waiting}`,
    t('{0} of {1} messages in the last second', m.lastSecond, m.limit),
  );
}

// ---------------------------------------------------------------------------------------------
// Streams

export interface StreamRow {
  readonly tr: HTMLTableRowElement;
  update(s: LiveStream, open: boolean): void;
}

export function streamRow(s: LiveStream): StreamRow {
  const status = h('td', { class: 'stream-status' });
  const pushes = h('td', { class: 'num' });
  const rate = h('td', { class: 'num' });
  const last = h('td', { class: 'num' });
  const button = h(
    'button',
    {
      type: 'button',
      class: 'button secondary small',
      'data-action': 'unsubscribe',
      'data-stream': s.stream,
      'data-testid': 'unsubscribe',
      'aria-label': t('Unsubscribe {0}', s.stream),
    },
    t('Unsubscribe'),
  );
  const tr = h(
    'tr',
    { 'data-testid': 'stream-row', 'data-stream': s.stream },
    h('th', { scope: 'row', class: 'stream-name' }, s.stream),
    status,
    pushes,
    rate,
    last,
    h('td', null, button),
  );
  return {
    tr,
    update(v, open) {
      setAttr(tr, 'data-status', v.status);
      const why = v.status === 'refused' ? `: ${v.code !== undefined ? `${v.code} ` : ''}${v.msg ?? ''}` : '';
      setText(status, STATUS_LABEL[v.status]() + why);
      setText(pushes, formatCount(v.pushes));
      setText(rate, formatRate(v.ratePerSecond));
      setText(last, v.lastPushAt === undefined ? '–' : formatClock(v.lastPushAt));
      button.disabled = !open || v.status !== 'subscribed';
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Depth books

export interface BookView {
  readonly root: HTMLElement;
  update(b: Book): void;
}

export function bookView(stream: string): BookView {
  const tbody = h('tbody');
  const meta = h('span', { class: 'book-meta' });
  const root = h(
    'figure',
    { class: 'book', 'data-testid': 'book', 'data-stream': stream },
    h('figcaption', null, h('span', { class: 'book-name', title: stream }, shortStream(stream)), meta),
    h(
      'table',
      { class: 'book-table', 'aria-label': t('Order book of {0}', shortStream(stream)) },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'col', class: 'num' }, t('Bid qty')),
          h('th', { scope: 'col', class: 'num bid' }, t('Bid')),
          h('th', { scope: 'col', class: 'num ask' }, t('Ask')),
          h('th', { scope: 'col', class: 'num' }, t('Ask qty')),
        ),
      ),
      tbody,
    ),
  );
  return {
    root,
    update(b) {
      meta.textContent = ` · ${formatClock(b.at)}${b.version !== undefined ? ` · ${t('r {0}', b.version)}` : ''}`;
      const n = Math.min(BOOK_ROWS, Math.max(b.bids.length, b.asks.length));
      const cells = (i: number): string[] => [
        b.bids[i]?.[1] ?? '',
        b.bids[i]?.[0] ?? '',
        b.asks[i]?.[0] ?? '',
        b.asks[i]?.[1] ?? '',
      ];
      if (tbody.rows[0]?.cells.length === 1) tbody.replaceChildren();
      while (tbody.rows.length > n) tbody.deleteRow(-1);
      while (tbody.rows.length < n)
        tbody.append(
          h(
            'tr',
            null,
            h('td', { class: 'num' }),
            h('td', { class: 'num bid' }),
            h('td', { class: 'num ask' }),
            h('td', { class: 'num' }),
          ),
        );
      for (let i = 0; i < n; i++) {
        const values = cells(i);
        const row = tbody.rows[i]!;
        for (let j = 0; j < 4; j++) setText(row.cells[j]!, values[j]!);
      }
      if (n === 0) tbody.append(h('tr', null, h('td', { colspan: 4, class: 'muted' }, t('The book is empty.'))));
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Log lines and notes

const lineOf = new WeakMap<Element, KeptLine>();
/** What a line shows of a push until it is opened: enough for one line, and cheap to lay out. */
const LINE_CHARS = 200;

const oneLine = (text: string): string => (text.length > LINE_CHARS ? `${text.slice(0, LINE_CHARS)}…` : text);

export function logLine(k: KeptLine): HTMLElement {
  const l = k.line;
  const li = h(
    'li',
    { class: 'push', tabindex: -1 },
    h('time', { class: 'push-time' }, formatClock(l.at)),
    h('span', { class: 'push-stream', title: l.stream }, shortStream(l.stream)),
    l.summary !== undefined ? h('span', { class: 'push-summary', 'data-side': sideOf(l.summary) }, l.summary) : null,
    l.text !== undefined ? h('code', { class: 'push-text' }, oneLine(l.text)) : null,
  );
  lineOf.set(li, k);
  return li;
}

/** A trade's or fill's side, for its colour (the summary's own words: "BUY …", "fill SELL …"). */
function sideOf(summary: string): 'buy' | 'sell' | undefined {
  const m = /^(?:fill )?(BUY|SELL) /.exec(summary);
  return m === null ? undefined : m[1] === 'BUY' ? 'buy' : 'sell';
}

/** The number of the push a log line shows. */
export function seqOf(el: Element): number {
  return lineOf.get(el)?.seq ?? 0;
}

/** Opens a log line to the whole push, or closes it to one line again. */
export function toggleLine(li: Element): void {
  const text = lineOf.get(li)?.line.text;
  const open = li.classList.toggle('expanded');
  const code = li.querySelector('code.push-text');
  if (code !== null && text !== undefined) code.textContent = open ? text : oneLine(text);
}

/**
 * The keyboard in the log: the arrows, Home and End move from line to line, Enter or Space opens a
 * line to the whole push (as a click does) or closes it again.
 */
export function moveInLog(log: HTMLElement, event: KeyboardEvent): void {
  const active = document.activeElement;
  const line = active instanceof HTMLElement && active.parentElement === log ? active : undefined;
  let to: Element | null;
  switch (event.key) {
    case 'ArrowDown':
      to = line ? line.nextElementSibling : log.firstElementChild;
      break;
    case 'ArrowUp':
      to = line ? (line.previousElementSibling ?? log) : null;
      break;
    case 'Home':
      to = log.firstElementChild;
      break;
    case 'End':
      to = log.lastElementChild;
      break;
    case 'Enter':
    case ' ':
      if (line === undefined) return;
      toggleLine(line);
      to = null;
      break;
    default:
      return;
  }
  if (to instanceof HTMLElement) to.focus();
  event.preventDefault();
}

export function noteItem(n: LiveNote): HTMLElement {
  return h(
    'li',
    { class: `note tone-${n.tone}` },
    h('time', { class: 'push-time' }, formatClock(n.at)),
    h('span', { class: 'note-text' }, n.text),
  );
}

/** One gap of the connection: when, how long, why, and what it may have cost (an estimate, said as one). */
export function gapItem(g: LiveGap, now: number): HTMLElement {
  const ended = g.endedAt === undefined ? t('still reconnecting') : formatClock(g.endedAt);
  // A gap that lasts is as long as it is by the extension's clock when the view was made.
  const seconds = (Math.max(0, (g.endedAt ?? now) - g.startedAt) / 1000).toFixed(1);
  const outcome =
    g.endedAt === undefined
      ? t('{0} attempts so far', g.attempts)
      : g.resumed === true
        ? t(
            'about {0} pushes may have been missed (an estimate from {1} a second before the gap)',
            g.missedEstimate ?? 0,
            g.ratePerSecond.toFixed(1),
          )
        : t('not reconnected');
  return h(
    'li',
    { class: `gap ${g.endedAt === undefined ? 'tone-warn' : g.resumed === true ? 'tone-ok' : 'tone-info'}` },
    h('time', { class: 'push-time' }, formatClock(g.startedAt)),
    ' – ',
    h('time', { class: 'push-time' }, ended),
    ' ',
    h('span', { class: 'note-text' }, t('{0} s, code {1}: {2}; {3}', seconds, g.code ?? '—', g.reason, outcome)),
  );
}
