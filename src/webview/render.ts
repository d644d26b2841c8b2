/**
 * Builds the panel from a PanelStateSchema. Every string in the state is hostile text (the service's
 * answer, or a file's content): it only ever enters the page through dom.ts, as text nodes or as
 * values of allow-listed attributes.
 */
import { t } from '../core/l10n';
import {
  HISTORY_LIMIT,
  type BudgetState,
  type HistoryItem,
  type PanelEntry,
  type PanelState,
  WHY_CODES,
} from '../core/panel/protocol';
import { append, ariaMeter, h, newId, setAttr, setMeter, srOnly, type Child } from './dom';
import {
  banned,
  counterAt,
  formatBytes,
  formatMs,
  formatTime,
  formatWait,
  isLow,
  isoTime,
  originOf,
  OUTCOME_LABEL,
  OUTCOME_SHORT,
  pathOf,
} from './format';
import { highlightJson } from './json';

/** Called every second with the extension's clock; returns false once it no longer changes. */
export type Ticker = (extNow: number) => boolean;

type Counter = BudgetState['ip'];
type ErrorInfo = NonNullable<PanelEntry['error']>;

// ---------------------------------------------------------------------------------------------
// Banner

/** An answer 418: the IP is banned (§8 rules 2–3), whatever code its body carries. */
function isBan(e: { readonly status?: number }): boolean {
  return e.status === 418;
}

/** A rejection the request's `# @expect` lines asked for, every one met: it passed, and is shown so. */
function asExpected(e: { readonly outcome: PanelEntry['outcome']; readonly expected?: boolean }): boolean {
  return e.outcome === 'rejected' && e.expected === true;
}

/** Send again: a 700003 after which the clock was measured again (never an unknown outcome: it may have been carried out). */
function canSendAgain(e: PanelEntry): boolean {
  return e.outcome === 'rejected' && e.sendAgain === true;
}

/** Why?: a signed request rejected for its signature or timestamp, which the signature doctor explains. */
function canAskWhy(e: PanelEntry): boolean {
  return e.outcome === 'rejected' && e.request.signed && e.error !== undefined && WHY_CODES.includes(e.error.code);
}

/** The one-click query needs an id to look the order up by (§7.2 700004: orderId or origClientOrderId). */
function canQueryOrder(e: PanelEntry): boolean {
  return (
    e.outcome === 'unknown' && e.orderRef !== undefined && Boolean(e.orderRef.orderId || e.orderRef.origClientOrderId)
  );
}

/** The banner is a live region: it is rebuilt only when what it says changes, so it is announced once. */
export function bannerKey(state: PanelState | undefined): string {
  const e = state?.current;
  return JSON.stringify([
    state?.busy ?? false,
    e?.id,
    e?.outcome,
    e?.expected,
    e?.summary,
    e?.status,
    e?.error?.code,
    e?.reason,
    e ? canQueryOrder(e) : false,
    e ? canSendAgain(e) : false,
  ]);
}

export function renderBanner(banner: HTMLElement, state: PanelState | undefined): void {
  const e = state?.current;
  const outcome = e?.outcome ?? 'none';
  const expected = e !== undefined && asExpected(e);
  banner.className = `banner outcome-${outcome}${expected ? ' as-expected' : ''}${state?.busy ? ' is-busy' : ''}`;
  setAttr(banner, 'data-outcome', outcome);
  setAttr(banner, 'data-expected', expected ? 'true' : undefined);
  setAttr(banner, 'data-busy', state?.busy ? 'true' : undefined);
  const frag = document.createDocumentFragment();
  if (state?.busy) append(frag, busyLines(e !== undefined));
  if (e) append(frag, [bannerHead(e), bannerMeta(e, state?.now ?? e.at), ...outcomeLines(e, state?.busy ?? false)]);
  else if (!state?.busy) append(frag, nothingSent());
  banner.replaceChildren(frag);
}

function busyLines(hasPrevious: boolean): Child[] {
  const spinner = h('span', { class: 'spinner', 'aria-hidden': 'true' });
  return [
    h('p', { class: 'busy', 'data-testid': 'busy' }, spinner, t('Sending…')),
    hasPrevious ? h('p', { class: 'previous-note' }, t('Until the answer arrives, the last result:')) : null,
  ];
}

function nothingSent(): Child[] {
  return [
    h('p', { class: 'banner-title', 'data-testid': 'outcome' }, t('No request sent yet')),
    h(
      'p',
      { class: 'banner-text' },
      t('Send a request from a .tradereq file: its outcome, the response and the rate limit budget show here.'),
    ),
  ];
}

function bannerHead(e: PanelEntry): HTMLElement {
  return h(
    'div',
    { class: 'banner-head' },
    h(
      'span',
      { class: 'outcome-badge', 'data-testid': 'outcome' },
      h('span', { class: 'outcome-icon' }),
      isBan(e) ? banned() : asExpected(e) ? t('Rejected as expected') : OUTCOME_LABEL[e.outcome](),
    ),
    e.status !== undefined
      ? h('span', { class: 'banner-status', title: e.statusMeaning }, t('HTTP {0}', e.status))
      : null,
    h(
      'span',
      { class: 'request-line' },
      h('span', { class: 'method' }, e.request.method),
      ' ',
      h('span', { class: 'path' }, pathOf(e.request.url)),
    ),
  );
}

function bannerMeta(e: PanelEntry, now: number): HTMLElement {
  const sep = (): HTMLElement => h('span', { class: 'sep', 'aria-hidden': 'true' }, ' · ');
  return h(
    'p',
    { class: 'banner-meta' },
    h('span', { class: 'entry-title' }, e.title),
    sep(),
    h('span', { class: 'environment' }, e.environment),
    sep(),
    h('time', { datetime: isoTime(e.at) }, formatTime(e.at, now)),
  );
}

/** What the banner says under its head: the decoded error, the unknown-outcome sentence, the reason not sent. */
function outcomeLines(e: PanelEntry, busy: boolean): Child[] {
  switch (e.outcome) {
    case 'ok':
      return [];
    case 'rejected':
      if (asExpected(e) && !isBan(e)) return expectedLines(e);
      if (isBan(e))
        return [
          h(
            'p',
            { class: 'banner-text ban', 'data-testid': 'ban' },
            // A 418 (docs/service.md §7.1): said instead of the code in its body (429) and that code's advice.
            t(
              'The service banned this IP for repeated rate limit violations. Sending before the ban ends makes it longer (§8 rules 2–3).',
            ),
          ),
          renderServiceMessage(e.msg),
        ];
      return [
        e.error ? renderErrorCode(e.error) : h('p', { class: 'banner-text' }, e.statusMeaning ?? e.summary),
        renderServiceMessage(e.msg),
        e.note ? h('p', { class: 'clock-note', 'data-testid': 'clock-note' }, e.note) : null,
        renderAdvice(e.error, canSendAgain(e) ? sendAgainStep(e, busy) : undefined),
        canAskWhy(e) ? whyStep(e) : null,
      ];
    case 'unknown':
      return [
        h(
          'p',
          { class: 'unknown-sentence', 'data-testid': 'unknown-sentence' },
          t('The operation may have succeeded: check before retrying.'),
        ),
        renderOrderRef(e),
        e.error ? renderErrorCode(e.error) : null,
        renderServiceMessage(e.msg),
        renderAdvice(e.error),
      ];
    case 'not-sent':
    case 'refused':
      // The badge says "Refused" or "Not sent": the reason follows without saying it again.
      return [
        h('p', { class: 'banner-text', 'data-testid': 'summary' }, e.reason ?? e.summary),
        renderServiceMessage(e.msg),
      ];
  }
}

/**
 * A rejection the request asked for: the expectations that passed first, then the code, the service's
 * message and the cause once (the clock's note repeats the cause's §5 rule; nothing is to be done).
 */
function expectedLines(e: PanelEntry): Child[] {
  const shown = e.expectations.map((x) => x.text).join(', ');
  return [
    h(
      'p',
      { class: 'banner-text expected-pass', 'data-testid': 'expected-pass' },
      h('span', { class: 'mark', 'aria-hidden': 'true' }, '✔ '),
      e.expectations.length === 1
        ? t('Passed: the service rejected the request as its expectation says ({0}).', shown)
        : t(
            'Passed: the service rejected the request as its {0} expectations say ({1}).',
            e.expectations.length,
            shown,
          ),
    ),
    e.error ? renderErrorCode(e.error) : h('p', { class: 'banner-text' }, e.statusMeaning ?? e.summary),
    renderServiceMessage(e.msg),
    e.error?.cause ? renderAdvice({ ...e.error, action: undefined }) : null,
  ];
}

/** What to do after a 700003 measured the clock again, in the editor: the Send again button. */
function sendAgainStep(e: PanelEntry, busy: boolean): Child[] {
  const button = h(
    'button',
    {
      type: 'button',
      class: 'button primary send-again',
      'data-action': 'sendAgain',
      'data-id': e.id,
      'data-testid': 'send-again',
      'data-focus': 'send-again',
      disabled: busy,
    },
    t('Send again'),
  );
  const step = t('Nothing was processed, so sending again is safe: Send again sends it with the new offset.');
  return [step, ' ', button];
}

/** Why?: the signature doctor on what TradeReq signed and sent; its report opens beside the panel. */
function whyStep(e: PanelEntry): HTMLElement {
  const button = h(
    'button',
    {
      type: 'button',
      class: 'button secondary why',
      'aria-label': t('Why? Explain this rejection with the signature doctor'),
      'data-action': 'why',
      'data-id': e.id,
      'data-testid': 'why',
      'data-focus': 'why',
    },
    t('Why?'),
  );
  return h(
    'p',
    { class: 'why-step' },
    button,
    ' ',
    h(
      'span',
      { class: 'muted' },
      t('Checks what TradeReq signed and sent against the key profile and the server clock.'),
    ),
  );
}

/**
 * The code as a button: its title and its accessible description are the editor's hover text on
 * that code; pressing it shows that text in place (for keyboard and touch, where a title never
 * shows). Then every meaning the spec gives for the code (§7.2).
 */
function renderErrorCode(err: ErrorInfo): HTMLElement {
  const descId = newId('hover');
  // hidden, not visually hidden: still the button's description, but not read twice in the live region.
  const desc = h('div', { id: descId, class: 'hover-text', hidden: true, 'data-testid': 'hover-text' }, err.hoverText);
  const code = h(
    'button',
    {
      type: 'button',
      class: 'error-code',
      title: err.hoverText,
      'aria-describedby': descId,
      'aria-controls': descId,
      'aria-expanded': 'false',
      'data-action': 'toggle-hover',
      'data-testid': 'error-code',
      'data-focus': 'error-code',
    },
    srOnly(`${t('Error code')} `),
    String(err.code),
  );
  const meanings: Child =
    err.meanings.length === 0
      ? h('span', { class: 'meaning muted' }, t('Not in the spec’s list of codes'))
      : err.meanings.length === 1
        ? h('span', { class: 'meaning', 'data-testid': 'meanings' }, err.meanings[0] ?? '')
        : h(
            'div',
            { class: 'meanings', 'data-testid': 'meanings' },
            h('span', { class: 'meaning-intro' }, t('The spec gives {0} meanings for this code:', err.meanings.length)),
            h('ul', null, ...err.meanings.map((m) => h('li', { class: 'meaning' }, m))),
          );
  return h('div', { class: 'error-block' }, h('div', { class: 'error-row' }, code, meanings), desc);
}

function renderServiceMessage(msg: string | undefined): Child {
  if (msg === undefined || msg === '') return null;
  return h(
    'p',
    { class: 'service-msg' },
    h('span', { class: 'label' }, t('Service message')),
    h('q', { 'data-testid': 'msg' }, msg),
  );
}

/** Cause and what to do; `step` replaces the spec's advice with the editor's own next step. */
function renderAdvice(err: ErrorInfo | undefined, step?: Child[]): Child {
  const action = step ?? (err?.action ? [err.action] : undefined);
  if (!err?.cause && !action) return null;
  return h(
    'dl',
    { class: 'advice' },
    err?.cause ? h('dt', null, t('Cause')) : null,
    err?.cause ? h('dd', { 'data-testid': 'cause' }, err.cause) : null,
    action ? h('dt', null, t('What to do')) : null,
    action ? h('dd', { 'data-testid': 'action' }, ...action) : null,
  );
}

function renderOrderRef(e: PanelEntry): Child {
  const ref = e.orderRef;
  if (!ref) return null;
  // Each name stays with its value when the line wraps.
  const item = (name: string, value: string) =>
    h('span', { class: 'ref-item' }, h('span', { class: 'label' }, name), ' ', h('code', null, value));
  const parts: Child[] = [item(t('Order'), ref.symbol)];
  if (ref.orderId) parts.push(item('orderId', ref.orderId));
  if (ref.origClientOrderId) parts.push(item('origClientOrderId', ref.origClientOrderId));
  if (canQueryOrder(e)) {
    parts.push(
      h(
        'button',
        {
          type: 'button',
          class: 'button primary',
          'data-action': 'queryOrder',
          'data-id': e.id,
          'data-testid': 'query-order',
          'data-focus': 'query-order',
        },
        t('Query the order'),
      ),
    );
  } else {
    parts.push(
      h('span', { class: 'muted' }, ' ', t('No id was sent to look it up by: list the open orders of the symbol.')),
    );
  }
  return h('p', { class: 'order-ref' }, ...parts);
}

// ---------------------------------------------------------------------------------------------
// Countdown

interface Wait {
  readonly kind: 'ban' | 'retry';
  readonly untilMs: number;
}

/**
 * The gate's block on the origin first (the budget's view), else a 429 wait or 418 ban recorded on
 * the entry shown. A wait for room in the budget is no block: its meters say when room frees up.
 */
function waitOf(state: PanelState | undefined): Wait | undefined {
  const blocked = state?.budget?.blocked;
  if (blocked) return { kind: blocked.status === 418 ? 'ban' : 'retry', untilMs: blocked.untilMs };
  const e = state?.current;
  if (e?.retryAtMs !== undefined && (e.status === 418 || e.status === 429))
    return { kind: isBan(e) ? 'ban' : 'retry', untilMs: e.retryAtMs };
  return undefined;
}

function countdownText(wait: Wait, extNow: number): string {
  const left = formatWait(wait.untilMs - extNow);
  return wait.kind === 'ban' ? t('Banned: {0} left', left) : t('Retry-After: {0}', left);
}

/** What the countdown adds to its figure; why the service blocks is the banner's to say. */
function waitNote(wait: Wait, origin: string): string {
  return wait.kind === 'ban'
    ? t('Nothing is sent to {0} until the ban ends.', origin)
    : t('Nothing is sent to {0} until the wait ends: sending during it gets the IP banned.', origin);
}

/**
 * The countdown of a wait in force, in `host` (the budget's place). Its ticker says when the wait is
 * over, then shows the meters of `budget` (if known) and keeps them ticking. The wait's start and
 * end are announced (once each, whatever the redraws); its ticks are not.
 */
function renderCountdown(
  host: HTMLElement,
  wait: Wait,
  origin: string,
  meters: (now: number, tickers: Ticker[]) => HTMLElement | undefined,
  opts: ContentOptions,
): Ticker {
  const extNow = opts.extNow;
  const key = `${wait.kind}:${wait.untilMs}`;
  opts.announce(`start:${key}`, `${countdownText(wait, extNow)}. ${waitNote(wait, origin)}`);
  const text = h('strong', { class: 'countdown-text', 'data-testid': 'countdown' }, countdownText(wait, extNow));
  const note = h('span', { class: 'countdown-note' }, waitNote(wait, origin));
  // role=timer is not announced on each tick; a screen reader user reads it when they want.
  const region = h(
    'div',
    {
      class: `countdown countdown-${wait.kind}`,
      role: 'timer',
      'aria-atomic': 'true',
      'data-testid': 'countdown-region',
    },
    h('span', { class: 'countdown-icon', 'aria-hidden': 'true' }),
    text,
    note,
  );
  host.append(region);
  let after: Ticker[] | undefined;
  return (now: number) => {
    if (after === undefined) {
      if (wait.untilMs > now) {
        text.textContent = countdownText(wait, now);
        return true;
      }
      region.className = 'countdown countdown-over';
      text.textContent = t('Wait over: requests may be sent again.');
      opts.announce(`end:${key}`, text.textContent);
      note.remove();
      after = [];
      const shown = meters(now, after);
      if (shown) host.append(shown);
    }
    after = after.filter((ticker) => ticker(now));
    return after.length > 0;
  };
}

// ---------------------------------------------------------------------------------------------
// Content below the banner

export interface ContentOptions {
  /** Open state of each <details>, by its data-section; absent means its default. */
  readonly open: ReadonlyMap<string, boolean>;
  readonly extNow: number;
  /** Says `text` in the page's live region, once for each `key` (a redraw does not say it again). */
  readonly announce: (key: string, text: string) => void;
}

function section(name: string, title: string, ...children: Child[]): HTMLElement {
  const headingId = newId('h');
  return h(
    'section',
    { class: `section section-${name}`, 'data-section': name, 'aria-labelledby': headingId },
    h('h2', { id: headingId }, title),
    ...children,
  );
}

function collapsible(
  name: string,
  open: ReadonlyMap<string, boolean>,
  summary: Child[],
  ...children: Child[]
): HTMLElement {
  return h(
    'details',
    { class: `section section-${name}`, 'data-section': name, open: open.get(name) ?? false },
    h('summary', { 'data-focus': `summary:${name}` }, ...summary),
    h('div', { class: 'details-body' }, ...children),
  );
}

/** A two-column table of names and values (headers). */
function pairsTable(caption: string, pairs: readonly (readonly [string, string])[], testid: string): HTMLElement {
  if (pairs.length === 0) return h('p', { class: 'muted' }, t('None'));
  return h(
    'table',
    { class: 'pairs', 'data-testid': testid },
    h('caption', { class: 'visually-hidden' }, caption),
    h(
      'tbody',
      null,
      ...pairs.map(([name, value]) => h('tr', null, h('th', { scope: 'row' }, name), h('td', null, value))),
    ),
  );
}

export function renderContent(
  state: PanelState | undefined,
  opts: ContentOptions,
  tickers: Ticker[],
): DocumentFragment {
  const frag = document.createDocumentFragment();
  const e = state?.current;
  if (e) {
    append(frag, [renderStatus(e), renderExpectations(e)]);
  }
  if (state) append(frag, [renderBudget(state, opts, tickers)]);
  if (e) {
    append(frag, [
      renderBody(e),
      e.response
        ? collapsible(
            'response-headers',
            opts.open,
            [t('Response headers'), ' ', h('span', { class: 'count' }, `(${e.response.headers.length})`)],
            pairsTable(t('Response headers'), e.response.headers, 'response-headers'),
          )
        : null,
      renderTimings(e),
      renderRequest(e, opts.open),
    ]);
  }
  return frag;
}

function renderStatus(e: PanelEntry): HTMLElement {
  const testid = { 'data-testid': 'status' };
  if (e.status === undefined) {
    return section(
      'status',
      t('Status'),
      h(
        'p',
        { class: 'status-line', ...testid },
        h('span', { class: 'status-code muted' }, t('No HTTP status')),
        h(
          'span',
          { class: 'status-meaning' },
          e.statusMeaning ??
            (e.outcome === 'unknown' ? t('No answer was received') : t('Nothing was sent to the service')),
        ),
      ),
    );
  }
  return section(
    'status',
    t('Status'),
    h(
      'p',
      { class: `status-line status-${Math.floor(e.status / 100)}xx`, ...testid },
      h('span', { class: 'status-code' }, String(e.status)),
      h('span', { class: 'status-meaning' }, e.statusMeaning ?? ''),
    ),
  );
}

function renderExpectations(e: PanelEntry): Child {
  if (e.expectations.length === 0) return null;
  // A check a send does not run (`# @expect snapshot`) is neither passed nor failed.
  const judged = e.expectations.filter((x) => x.checked !== false);
  const passed = judged.filter((x) => x.passed).length;
  return section(
    'expectations',
    t('Expectations'),
    h('p', { class: 'section-meta' }, t('{0} of {1} passed', passed, judged.length)),
    h(
      'ul',
      { class: 'expectations', 'data-testid': 'expectations' },
      ...e.expectations.map((x) => (x.checked === false ? notChecked(x.text) : expectationItem(x))),
    ),
  );
}

/** A check Send does not run: a dash, and where it is compared (its text says). */
function notChecked(text: string): HTMLElement {
  return h(
    'li',
    { class: 'not-checked' },
    h('span', { class: 'mark', 'aria-hidden': 'true' }, '–'),
    srOnly(`${t('Not checked by Send:')} `),
    h('span', { class: 'expect-text' }, text),
  );
}

function expectationItem(x: PanelEntry['expectations'][number]): HTMLElement {
  return h(
    'li',
    { class: x.passed ? 'pass' : 'fail' },
    h('span', { class: 'mark', 'aria-hidden': 'true' }, x.passed ? '✔' : '✘'),
    srOnly(`${x.passed ? t('Passed:') : t('Failed:')} `),
    h('span', { class: 'expect-text' }, x.text),
    x.passed
      ? null
      : h(
          'span',
          { class: 'expect-actual' },
          h('span', { class: 'muted' }, ` ${t('got')} `),
          h('code', null, x.actual),
        ),
  );
}

/** The budget's meters, or while a 429 wait or 418 ban holds, its countdown in their place. */
function renderBudget(state: PanelState, opts: ContentOptions, tickers: Ticker[]): Child {
  const extNow = opts.extNow;
  const budget = state.budget;
  const wait = waitOf(state);
  const holding = wait !== undefined && wait.untilMs > extNow ? wait : undefined;
  const origin = budget?.origin ?? (state.current ? originOf(state.current.request.url) : undefined);
  if (origin === undefined || (!budget && !holding)) return null;
  const meters = (now: number, into: Ticker[]): HTMLElement | undefined =>
    budget ? renderMeters(budget, state.now, now, into) : undefined;
  const body = h('div', { class: 'budget-body' });
  if (holding) tickers.push(renderCountdown(body, holding, origin, meters, opts));
  else append(body, [meters(extNow, tickers)]);
  return section(
    'budget',
    t('Rate limit budget'),
    h('p', { class: 'section-meta' }, t('per 10 s window'), ' · ', h('span', { class: 'origin' }, origin)),
    budget?.damaged !== undefined
      ? h('p', { class: 'budget-damaged', role: 'alert', 'data-testid': 'budget-damaged' }, budget.damaged)
      : null,
    body,
  );
}

function renderMeters(budget: BudgetState, stateNow: number, extNow: number, tickers: Ticker[]): HTMLElement {
  const rows = [renderCounter('ip', t('IP'), budget.ip, stateNow, extNow, tickers)];
  if (budget.uid) rows.push(renderCounter('uid', t('Account'), budget.uid, stateNow, extNow, tickers));
  return h('div', { class: 'meters' }, ...rows);
}

function renderCounter(
  mode: 'ip' | 'uid',
  name: string,
  c: Counter,
  stateNow: number,
  extNow: number,
  tickers: Ticker[],
): HTMLElement {
  const meterId = newId('meter');
  const count = h('span', { class: 'budget-count' });
  const frees = h('span', { class: 'budget-frees' });
  const warn = h('span', { class: 'budget-warn' });
  const label = h(
    'label',
    { for: meterId, class: 'budget-label' },
    h('span', { class: 'budget-name' }, name),
    ' ',
    count,
    warn,
    frees,
  );
  const lowMark = c.limit * 0.1;
  const meter = h('meter', { id: meterId, min: 0, low: lowMark, high: lowMark, optimum: c.limit });
  const box = ariaMeter(meter, label);
  const row = h('div', { class: 'budget', 'data-testid': `budget-${mode}` }, label, box);

  const update = (now: number): boolean => {
    const v = counterAt(c, stateNow, now);
    const low = isLow(v.remaining, c.limit);
    row.classList.toggle('low', low);
    count.textContent = t('{0}/{1} left', `${v.remaining}${v.atLeast ? '+' : ''}`, c.limit);
    warn.textContent = low ? ` · ${t('low')}` : '';
    frees.textContent = v.frees ? ` · ${v.frees}` : '';
    const said = v.atLeast
      ? t('at least {0} of {1} left', v.remaining, c.limit)
      : t('{0} of {1} left', v.remaining, c.limit);
    setMeter(box, meter, v.remaining, c.limit, said);
    return v.changesInMs !== undefined;
  };
  if (update(extNow)) tickers.push(update);
  return row;
}

function renderBody(e: PanelEntry): Child {
  const r = e.response;
  if (!r) return null;
  const meta = h(
    'span',
    { class: 'section-meta' },
    r.isJson ? 'JSON' : t('Text'),
    ' · ',
    formatBytes(r.bytes),
    r.truncated ? h('span', { class: 'chip warn' }, t('truncated')) : null,
  );
  const headingId = newId('h');
  const pre =
    r.body === ''
      ? h('p', { class: 'muted', 'data-testid': 'body' }, t('Empty body'))
      : h(
          'pre',
          {
            class: 'code body',
            tabindex: 0,
            'aria-labelledby': headingId,
            'data-testid': 'body',
            'data-focus': 'body',
          },
          r.isJson ? highlightJson(r.body) : r.body,
        );
  return h(
    'section',
    { class: 'section section-body', 'data-section': 'body', 'aria-labelledby': headingId },
    h(
      'div',
      { class: 'section-head' },
      h('h2', { id: headingId }, t('Response body')),
      meta,
      h(
        'button',
        {
          type: 'button',
          class: 'button secondary',
          'data-action': 'copyBody',
          'data-id': e.id,
          'data-testid': 'copy-body',
          'data-focus': 'copy-body',
          disabled: r.body === '',
        },
        t('Copy body'),
      ),
    ),
    pre,
  );
}

function renderTimings(e: PanelEntry): Child {
  const times = e.timings;
  if (!times) return null;
  const stat = (name: string, ms: number) =>
    h('div', { class: 'stat' }, h('dt', null, name), h('dd', null, formatMs(ms)));
  return section(
    'timings',
    t('Timings'),
    h(
      'dl',
      { class: 'stats', 'data-testid': 'timings' },
      stat(t('Connect'), times.connectMs),
      stat(t('First byte'), times.firstByteMs),
      stat(t('Total'), times.totalMs),
    ),
  );
}

function block(name: string, text: string | undefined, testid: string): Child[] {
  if (text === undefined) return [];
  return [
    h('h3', null, name),
    text === '' ? h('p', { class: 'muted' }, t('Empty')) : h('pre', { class: 'code', 'data-testid': testid }, text),
  ];
}

function renderRequest(e: PanelEntry, open: ReadonlyMap<string, boolean>): HTMLElement {
  const r = e.request;
  return collapsible(
    'request',
    open,
    [
      r.signed ? t('Signed request') : t('Request (unsigned)'),
      ' ',
      h('span', { class: 'count' }, `${r.method} ${pathOf(r.url)}`),
    ],
    h('pre', { class: 'code url', 'data-testid': 'request-url' }, h('span', { class: 'method' }, r.method), ' ', r.url),
    h('h3', null, t('Headers'), ' ', h('span', { class: 'muted' }, t('(API key masked)'))),
    pairsTable(t('Request headers (API key masked)'), r.headers, 'request-headers'),
    ...block(t('Query'), r.query, 'request-query'),
    ...block(t('Body'), r.body, 'request-body'),
    ...block(t('totalParams (the signed text)'), r.totalParams, 'request-total-params'),
  );
}

/** What the history's compare controls show: the entries ticked (at most two) and whether to mask volatile fields. */
export interface CompareChoice {
  readonly ticked: readonly string[];
  readonly mask: boolean;
}

export function renderHistory(state: PanelState, compare: CompareChoice): DocumentFragment {
  // Newest first, whatever order arrives (the schema refuses more than HISTORY_LIMIT).
  const entries = [...state.history].sort((a, b) => b.at - a.at).slice(0, HISTORY_LIMIT);
  const currentId = state.current?.id;
  const list =
    entries.length === 0
      ? h('p', { class: 'muted' }, t('No sends yet in this workspace.'))
      : h(
          'ol',
          { class: 'history', 'data-testid': 'history' },
          ...entries.map((x) =>
            h(
              'li',
              null,
              compareBox(x, state.now, compare.ticked.includes(x.id)),
              historyButton(x, state.now, currentId),
            ),
          ),
        );
  const frag = document.createDocumentFragment();
  append(frag, [
    h('h2', null, t('History')),
    h(
      'p',
      { class: 'section-meta' },
      entries.length === 1
        ? t('1 send of this workspace, newest first (last {0} kept)', HISTORY_LIMIT)
        : t('{0} sends of this workspace, newest first (last {1} kept)', entries.length, HISTORY_LIMIT),
    ),
    entries.length >= 2 ? compareBar(compare) : null,
    list,
  ]);
  return frag;
}

function historyButton(x: HistoryItem, now: number, currentId: string | undefined): HTMLElement {
  return h(
    'button',
    {
      type: 'button',
      class: `history-item outcome-${x.outcome}${asExpected(x) ? ' as-expected' : ''}`,
      'data-action': 'show',
      'data-id': x.id,
      'data-testid': 'history-item',
      'data-focus': `history:${x.id}`,
      'data-outcome': x.outcome,
      'aria-current': x.id === currentId ? 'true' : undefined,
      title: x.environment === undefined ? x.summary : `${x.summary} (${x.environment})`,
    },
    h('time', { class: 'h-time', datetime: isoTime(x.at) }, formatTime(x.at, now)),
    h('span', { class: 'h-method method' }, x.method),
    h('span', { class: 'h-path' }, x.path),
    h(
      'span',
      { class: 'h-outcome' },
      h('span', { class: 'outcome-icon' }),
      isBan(x) ? banned() : asExpected(x) ? t('As expected') : OUTCOME_SHORT[x.outcome](),
    ),
    h('span', { class: 'h-status' }, x.status !== undefined ? String(x.status) : '–'),
  );
}

/** The tick that picks an entry for Compare; its name says which send it is, for a screen reader. */
function compareBox(x: HistoryItem, now: number, ticked: boolean): HTMLElement {
  const where = x.environment === undefined ? '' : `, ${x.environment}`;
  const box = h('input', {
    type: 'checkbox',
    class: 'h-compare',
    'data-compare': x.id,
    'data-testid': 'compare-tick',
    'data-focus': `compare:${x.id}`,
    'aria-label': t('Compare {0}', `${x.method} ${x.path}${where}, ${formatTime(x.at, now)}`),
  });
  box.checked = ticked;
  return box;
}

/** Compare (enabled once two entries are ticked) and whether to mask the volatile fields (orderId, times). */
function compareBar(compare: CompareChoice): HTMLElement {
  const hintId = newId('compare-hint');
  const ready = compare.ticked.length === 2;
  const mask = h('input', {
    type: 'checkbox',
    'data-compare-mask': '',
    'data-testid': 'compare-mask',
    'data-focus': 'compare-mask',
  });
  mask.checked = compare.mask;
  return h(
    'div',
    { class: 'compare-bar', 'data-testid': 'compare-bar' },
    h(
      'button',
      {
        type: 'button',
        class: 'button secondary small',
        'data-action': 'compare',
        'data-testid': 'compare',
        'data-focus': 'compare',
        'aria-describedby': hintId,
        disabled: !ready,
      },
      t('Compare answers'),
    ),
    h('label', { class: 'compare-mask' }, mask, ' ', t('Mask volatile fields')),
    h(
      'p',
      { id: hintId, class: 'section-meta compare-hint', 'data-testid': 'compare-hint' },
      ready
        ? t('Opens the two answers ticked in VS Code’s diff editor, the older on the left.')
        : t('Tick two sends to compare their answers ({0} of 2 ticked).', compare.ticked.length),
    ),
  );
}
