/**
 * The response panel's script (runs inside the webview). It says `ready`, then draws each `state`
 * the extension sends, and the live connections' pushes (live.ts). Every message is checked against
 * the protocol's shapes; anything else is dropped. Everything in a message is hostile text: it
 * reaches the page only through dom.ts (text nodes, allow-listed attributes).
 */
import { t } from '../core/l10n';
import { check, PanelStateShape, shape as s, ToPanelShape, type PanelState } from '../core/panel/protocol';
import { findByAttr, h } from './dom';
import { loadL10n } from './l10n';
import { LivePanel } from './live';
import { bannerKey, renderBanner, renderContent, renderHistory, type CompareChoice, type Ticker } from './render';
import { getSavedState, post, saveState } from './vscode-api';

// The display language first: every word below is looked up in it.
loadL10n(document.documentElement);

const root = document.getElementById('app') ?? document.body.appendChild(h('main', { id: 'app', class: 'app' }));

// Stable regions: a live region must exist before its content changes to be announced.
const banner = h('section', {
  class: 'banner outcome-none',
  role: 'status',
  'aria-live': 'polite',
  'aria-label': t('Outcome'),
  'data-testid': 'banner',
  'data-outcome': 'none',
});
const content = h('div', { class: 'content' });
const history = h('aside', {
  class: 'history-pane',
  'aria-label': t('History'),
  'data-testid': 'history-pane',
  hidden: true,
});
/** What the page says of itself that shows nowhere as a change of text: a wait's start and end, a connection's state. */
const announcer = h('div', { class: 'visually-hidden', role: 'status', 'data-testid': 'announcer' });
root.replaceChildren(banner, content, history);
const live = new LivePanel(root, post, say);
root.before(live.tabs);
root.after(live.host, announcer);

function say(text: string): void {
  announcer.textContent = text;
}

/** Keys already said (a wait's start, its end): a redraw of the same wait says nothing again. */
const announced = new Set<string>();

function announceOnce(key: string, text: string): void {
  if (announced.has(key)) return;
  if (announced.size >= 100) announced.clear();
  announced.add(key);
  say(text);
}

let state: PanelState | undefined;
/** The extension's clock minus ours, taken when a state arrives: countdowns run on the extension's clock. */
let clockOffset = 0;
let shownBannerKey: string | undefined;
let tickers: Ticker[] = [];
let timer: number | undefined;
/** <details> the user opened or closed, by data-section; kept across renders and reloads. */
const openSections = new Map<string, boolean>();
/** After a mouse click on a history item, bring the banner into view when that entry arrives. */
let scrollToTopFor: string | undefined;
/** The history entries ticked for Compare (at most two, the first ticked first) and the mask toggle. */
let compare: CompareChoice = { ticked: [], mask: false };

function extensionNow(): number {
  return Date.now() + clockOffset;
}

function tick(): void {
  const now = extensionNow();
  tickers = tickers.filter((ticker) => ticker(now));
  if (tickers.length === 0 && timer !== undefined) {
    window.clearInterval(timer);
    timer = undefined;
  }
}

function render(): void {
  const focusKey = document.activeElement?.getAttribute('data-focus') ?? undefined;

  const key = bannerKey(state);
  if (key !== shownBannerKey) {
    renderBanner(banner, state);
    shownBannerKey = key;
  }
  const now = extensionNow();
  const next: Ticker[] = [];
  content.replaceChildren(renderContent(state, { open: openSections, extNow: now, announce: announceOnce }, next));
  renderHistoryPane();

  tickers = next;
  if (tickers.length > 0 && timer === undefined) timer = window.setInterval(tick, 1000);
  if (tickers.length === 0 && timer !== undefined) {
    window.clearInterval(timer);
    timer = undefined;
  }

  keepFocus(focusKey);

  if (scrollToTopFor !== undefined && state?.current?.id === scrollToTopFor) {
    scrollToTopFor = undefined;
    window.scrollTo({ top: 0 });
  }
}

/** Keeps the keyboard where it was: the element with the same data-focus in the new DOM. */
function keepFocus(focusKey: string | undefined): void {
  const active = document.activeElement;
  if (focusKey !== undefined && (active === null || active === document.body || !active.isConnected)) {
    findByAttr(root, 'data-focus', focusKey)?.focus({ preventScroll: true });
  }
}

function renderHistoryPane(): void {
  history.hidden = state === undefined;
  history.replaceChildren(state ? renderHistory(state, compare) : '');
}

const SavedShape = s.object({
  v: s.literal(1),
  state: PanelStateShape,
  clockOffset: s.number(),
  open: s.record(s.boolean(), 100),
  compare: s.withDefault(s.object({ ticked: s.array(s.string(100), 2), mask: s.boolean() }), {
    ticked: [],
    mask: false,
  }),
});

function persist(): void {
  if (state === undefined) return;
  saveState({ v: 1, state, clockOffset, open: Object.fromEntries(openSections), compare });
}

function accept(next: PanelState, offset: number): void {
  // A new send (an id the history did not hold) brings its banner into view, however far the panel was scrolled.
  const id = next.current?.id;
  if (id !== undefined && state !== undefined && id !== state.current?.id && !state.history.some((e) => e.id === id))
    scrollToTopFor = id;
  state = next;
  clockOffset = offset;
  // A send that left the history cannot be compared.
  compare = { ...compare, ticked: compare.ticked.filter((t) => next.history.some((e) => e.id === t)) };
  render();
  persist();
}

window.addEventListener('message', (event: MessageEvent) => {
  const parsed = check(ToPanelShape, event.data);
  if (!parsed.ok) return; // unknown or malformed: dropped
  const msg = parsed.value;
  switch (msg.type) {
    case 'state':
      accept(msg.state, msg.state.now - Date.now());
      break;
    case 'live':
      live.apply(msg);
      break;
    case 'forget':
      live.forget(msg.id);
      break;
  }
});

root.addEventListener('click', (event: MouseEvent) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-action]') : null;
  if (!(button instanceof HTMLButtonElement) || button.disabled) return;
  const action = button.getAttribute('data-action');
  if (action === 'toggle-hover') {
    // Local only: shows or hides the hover text of an error code in place.
    const target = document.getElementById(button.getAttribute('aria-controls') ?? '');
    if (target) {
      target.hidden = !target.hidden;
      button.setAttribute('aria-expanded', String(!target.hidden));
    }
    return;
  }
  if (action === 'compare') return postCompare();
  const id = button.getAttribute('data-id') ?? '';
  if (
    action === 'show' ||
    action === 'queryOrder' ||
    action === 'copyBody' ||
    action === 'sendAgain' ||
    action === 'why'
  ) {
    // detail is 0 for a click made with the keyboard: then the focus stays where the user is.
    if (action === 'show' && event.detail > 0) scrollToTopFor = id;
    // Pressed once, sent once: a second press before the extension answers sends nothing.
    if (action === 'sendAgain') button.disabled = true;
    post({ type: action, id });
  }
});

/** Compare: the two ticked, the older send on the left. */
function postCompare(): void {
  const [a, b] = compare.ticked.map((id) => state?.history.find((e) => e.id === id));
  if (!a || !b) return;
  const [left, right] = a.at <= b.at ? [a, b] : [b, a];
  post({ type: 'compare', left: left.id, right: right.id, mask: compare.mask });
}

// A tick for Compare: a third one unticks the first; the mask toggle is remembered.
history.addEventListener('change', (event: Event) => {
  const box = event.target;
  if (!(box instanceof HTMLInputElement)) return;
  const id = box.getAttribute('data-compare');
  if (box.hasAttribute('data-compare-mask')) compare = { ...compare, mask: box.checked };
  else if (id !== null) {
    const others = compare.ticked.filter((t) => t !== id);
    compare = { ...compare, ticked: box.checked ? [...others, id].slice(-2) : others };
  } else return;
  const focusKey = box.getAttribute('data-focus') ?? undefined;
  renderHistoryPane();
  keepFocus(focusKey);
  persist();
});

// Arrow keys move along the history list (each item is also a Tab stop).
history.addEventListener('keydown', (event: KeyboardEvent) => {
  if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key)) return;
  const items = Array.from(history.querySelectorAll<HTMLButtonElement>('button.history-item'));
  const at = items.indexOf(document.activeElement as HTMLButtonElement);
  if (at < 0 || items.length === 0) return;
  const to =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? items.length - 1
        : Math.min(items.length - 1, Math.max(0, at + (event.key === 'ArrowDown' ? 1 : -1)));
  items[to]?.focus();
  event.preventDefault();
});

// `toggle` does not bubble: listen in the capture phase.
document.addEventListener(
  'toggle',
  (event: Event) => {
    const details = event.target;
    if (!(details instanceof HTMLDetailsElement)) return;
    const name = details.getAttribute('data-section');
    if (name === null) return;
    openSections.set(name, details.open);
    persist();
  },
  true,
);

// After a reload (the panel hidden and shown again) show what was there until the extension answers.
const saved = check(SavedShape, getSavedState());
if (saved.ok) {
  for (const [name, isOpen] of Object.entries(saved.value.open)) openSections.set(name, isOpen);
  compare = saved.value.compare;
  accept({ ...saved.value.state, busy: false }, saved.value.clockOffset);
} else {
  render();
}

post({ type: 'ready' });
