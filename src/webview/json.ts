/** Colours a pretty-printed JSON body by wrapping its tokens in spans. Text only: never parsed as HTML. */

const TOKEN = /("(?:[^"\\\n]|\\.)*")(\s*:)?|\b(?:true|false|null)\b|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
// Beyond this the body shows plain: a huge response should not become a million spans.
const MAX_HIGHLIGHT = 256 * 1024;

function span(cls: string, text: string): HTMLSpanElement {
  const s = document.createElement('span');
  s.className = cls;
  s.textContent = text;
  return s;
}

export function highlightJson(text: string): DocumentFragment {
  const frag = document.createDocumentFragment();
  if (text.length > MAX_HIGHLIGHT) {
    frag.append(text);
    return frag;
  }
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    const start = m.index ?? 0;
    if (start > last) frag.append(text.slice(last, start));
    const [whole, str, colon] = m;
    if (str !== undefined) {
      frag.append(span(colon ? 'j-key' : 'j-str', str));
      if (colon) frag.append(colon);
    } else if (whole === 'true' || whole === 'false' || whole === 'null') {
      frag.append(span('j-lit', whole));
    } else {
      frag.append(span('j-num', whole));
    }
    last = start + whole.length;
  }
  if (last < text.length) frag.append(text.slice(last));
  return frag;
}
