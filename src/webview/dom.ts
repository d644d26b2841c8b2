/**
 * The only way the panel builds DOM: elements by tag, attributes from an allow-list, text as text
 * nodes. No innerHTML anywhere, so a value from the server can only ever show as text.
 */

export type Child = Node | string | number | null | undefined | false;
export type AttrValue = string | number | boolean | null | undefined;
export type Attrs = Readonly<Record<string, AttrValue>>;

// No on* handlers, no style, no src/href/action: nothing that runs code, loads or navigates.
const SAFE_ATTRIBUTE =
  /^(?:class|id|role|title|tabindex|type|lang|dir|for|scope|colspan|open|hidden|disabled|datetime|value|min|max|low|high|optimum|rows|spellcheck|maxlength|placeholder|aria-[a-z]+|data-[a-z][a-z0-9-]*)$/;

export function setAttr(el: Element, name: string, value: AttrValue): void {
  if (!SAFE_ATTRIBUTE.test(name)) throw new Error(`attribute not allowed in the panel: ${name}`);
  if (value === undefined || value === null || value === false) el.removeAttribute(name);
  else el.setAttribute(name, value === true ? '' : String(value));
}

export function append(parent: Node & ParentNode, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    // ParentNode.append turns a string into a Text node: never parsed as markup.
    parent.append(typeof child === 'number' ? String(child) : child);
  }
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (attrs) for (const name of Object.keys(attrs)) setAttr(el, name, attrs[name]);
  append(el, children);
  return el;
}

let idSequence = 0;

/** A fresh element id; never derived from data. */
export function newId(prefix: string): string {
  idSequence += 1;
  return `${prefix}-${idSequence}`;
}

/**
 * A meter as a screen reader reads it: role=meter with its values and `valueText` in words, around the
 * native bar (hidden from the accessibility tree, since Chromium ignores aria-valuetext on <meter>).
 */
export function ariaMeter(bar: HTMLMeterElement, label: HTMLElement): HTMLElement {
  setAttr(bar, 'aria-hidden', 'true');
  label.id ||= newId('meter-label');
  return h('div', { class: 'meter', role: 'meter', 'aria-labelledby': label.id, 'aria-valuemin': 0 }, bar);
}

/** Sets a meter of ariaMeter: the bar's value and maximum, and what it says. */
export function setMeter(box: HTMLElement, bar: HTMLMeterElement, value: number, max: number, valueText: string): void {
  setAttr(bar, 'max', max);
  setAttr(bar, 'value', value);
  setAttr(box, 'aria-valuemax', max);
  setAttr(box, 'aria-valuenow', value);
  setAttr(box, 'aria-valuetext', valueText);
}

/** Text for screen readers only. */
export function srOnly(text: string): HTMLSpanElement {
  return h('span', { class: 'visually-hidden' }, text);
}

/** The elements under root that carry attribute name with exactly value (no selector built from data). */
export function findByAttr(root: ParentNode, name: string, value: string): HTMLElement | undefined {
  const all = root.querySelectorAll<HTMLElement>(`[${name}]`);
  for (let i = 0; i < all.length; i++) {
    const el = all[i];
    if (el && el.getAttribute(name) === value) return el;
  }
  return undefined;
}
