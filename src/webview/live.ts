/**
 * The panel's live connections: a tab for the response and one for each connection, each with its
 * stream view. Messages from the extension only add to the stores; the page is redrawn at most
 * once per animation frame, however fast pushes arrive.
 */
import { t } from '../core/l10n';
import type { FromPanel, LiveConnection, LiveMessage } from '../core/panel/protocol';
import { h, newId, setAttr } from './dom';
import { CONNECTION_LABEL } from './format';
import { LiveStore } from './live-store';
import { LiveView } from './live-view';

interface Entry {
  readonly store: LiveStore;
  readonly view: LiveView;
  readonly tab: HTMLButtonElement;
  /** The state last said in the live region (a change of state is announced, a redraw is not). */
  said?: LiveConnection['status'];
}

export class LivePanel {
  readonly tabs = h('div', {
    class: 'view-tabs',
    role: 'tablist',
    'aria-label': t('Response and live connections'),
    'data-testid': 'view-tabs',
    hidden: true,
  });
  readonly host = h('div', { class: 'live-host', 'data-testid': 'live-host' });
  private readonly entries = new Map<string, Entry>();
  private readonly responseTab: HTMLButtonElement;
  private selected: string | undefined;
  private frame: number | undefined;

  constructor(
    /** The response view (banner, content, history): shown while its tab is selected. */
    private readonly response: HTMLElement,
    private readonly post: (m: FromPanel) => void,
    /** Says a connection's new state in the page's live region. */
    private readonly announce: (text: string) => void,
  ) {
    this.responseTab = this.tab(newId('tab'), t('Response'));
    setAttr(this.responseTab, 'data-id', '');
    setAttr(this.responseTab, 'aria-controls', response.id || undefined);
    this.tabs.append(this.responseTab);
    this.tabs.addEventListener('click', (e) => {
      const tab = e.target instanceof Element ? e.target.closest('[role="tab"]') : null;
      if (tab instanceof HTMLButtonElement) this.select(tab.getAttribute('data-id') || undefined);
    });
    this.tabs.addEventListener('keydown', (e) => this.onKey(e));
    this.show();
  }

  private tab(id: string, label: string): HTMLButtonElement {
    return h('button', { type: 'button', role: 'tab', id, class: 'view-tab', 'data-testid': 'view-tab' }, label);
  }

  apply(m: LiveMessage): void {
    let e = this.entries.get(m.connection.id);
    if (e === undefined) {
      const store = new LiveStore(m.connection);
      const tabId = newId('tab');
      const view = new LiveView(store, { post: this.post, redraw: () => this.redraw() }, tabId);
      const tab = this.tab(tabId, '');
      setAttr(tab, 'data-id', m.connection.id);
      setAttr(tab, 'aria-controls', newId('live'));
      setAttr(view.root, 'id', tab.getAttribute('aria-controls'));
      e = { store, view, tab };
      this.entries.set(m.connection.id, e);
      this.tabs.append(tab);
      this.host.append(view.root);
      this.show();
    }
    e.store.apply(m);
    if (m.select) this.select(m.connection.id);
    else this.redraw();
  }

  forget(id: string): void {
    const e = this.entries.get(id);
    if (e === undefined) return;
    e.tab.remove();
    e.view.root.remove();
    this.entries.delete(id);
    if (this.selected === id) this.select(undefined);
    else this.redraw();
  }

  /** Shows a connection's view, or the response (undefined). */
  select(id: string | undefined): void {
    this.selected = id !== undefined && this.entries.has(id) ? id : undefined;
    this.show();
    this.redraw();
  }

  redraw(): void {
    this.frame ??= requestAnimationFrame(() => {
      this.frame = undefined;
      this.draw();
    });
  }

  private show(): void {
    this.tabs.hidden = this.entries.size === 0;
    // The response is one of the tabs' panels only while there are tabs.
    setAttr(this.response, 'role', this.tabs.hidden ? undefined : 'tabpanel');
    setAttr(this.response, 'aria-labelledby', this.tabs.hidden ? undefined : this.responseTab.id);
    this.response.hidden = this.selected !== undefined;
    this.host.hidden = this.selected === undefined;
    for (const [id, e] of this.entries) e.view.root.hidden = id !== this.selected;
    const tabs = [this.responseTab, ...[...this.entries.values()].map((e) => e.tab)];
    for (const t of tabs) {
      const on = (t.getAttribute('data-id') || undefined) === this.selected;
      setAttr(t, 'aria-selected', on ? 'true' : 'false');
      setAttr(t, 'tabindex', on ? 0 : -1);
    }
  }

  private draw(): void {
    for (const e of this.entries.values()) {
      const c = e.store.connection;
      const label = `${c.title} · ${CONNECTION_LABEL[c.status]()}`;
      if (e.tab.textContent !== label) {
        e.tab.textContent = label;
        setAttr(e.tab, 'data-status', c.status);
      }
      if (e.said !== c.status) {
        e.said = c.status;
        this.announce(label);
      }
    }
    const e = this.selected === undefined ? undefined : this.entries.get(this.selected);
    e?.view.draw();
  }

  private onKey(event: KeyboardEvent): void {
    if (!['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) return;
    const tabs = Array.from(this.tabs.querySelectorAll<HTMLButtonElement>('[role="tab"]'));
    const at = tabs.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    const last = tabs.length - 1;
    const to = { ArrowLeft: Math.max(0, at - 1), ArrowRight: Math.min(last, at + 1), Home: 0, End: last }[
      event.key as 'Home'
    ];
    const tab = tabs[to]!;
    tab.focus();
    this.select(tab.getAttribute('data-id') || undefined);
    event.preventDefault();
  }
}
