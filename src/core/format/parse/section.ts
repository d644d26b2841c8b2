/** `[query]`, `[body]`, `[json]` (HTTP) and `[subscribe]`, `[message]` (WebSocket): where the lines below go. */
import { t } from '../../l10n';
import type { SectionKind } from '../model';
import { append, type Block } from './block-state';
import { contentEnd } from './source';

const HTTP_SECTIONS: ReadonlySet<string> = new Set(['query', 'body', 'json']);
const WS_SECTIONS: ReadonlySet<string> = new Set(['subscribe', 'message']);

export function section(b: Block, line: string, i: number, first: number): void {
  const close = line.indexOf(']', first);
  const inner = line
    .slice(first + 1, close < 0 ? line.length : close)
    .trim()
    .toLowerCase();
  const r = b.pos.range(i, first, i, contentEnd(line));
  if (!b.requestLine) {
    b.strayBeforeRequest = append(b.strayBeforeRequest, r);
    return;
  }
  const ws = b.isWebSocket();
  if (!HTTP_SECTIONS.has(inner) && !WS_SECTIONS.has(inner)) {
    const written = line.slice(first).trim();
    const message = ws
      ? t('Unknown section "{0}": use [subscribe] or [message].', written)
      : t('Unknown section "{0}": use [query], [body] or [json].', written);
    b.error(r, message, 'unknown-section');
    b.section = undefined;
    return;
  }
  if (ws !== WS_SECTIONS.has(inner)) {
    const message = ws
      ? t('A WebSocket request takes [subscribe] (one stream a line) and [message] (a JSON message), not [{0}].', inner)
      : t('[{0}] belongs to WebSocket requests (WS /ws): an HTTP request takes [query], [body] or [json].', inner);
    b.error(r, message, 'ws-section');
    b.section = undefined;
    return;
  }
  checkBodies(b, inner, r);
  b.sections = append(b.sections, { kind: inner as SectionKind, range: r });
  b.sectionKinds.add(inner as SectionKind);
  b.section = inner as SectionKind;
  b.headersClosed = true;
}

/** A request has one body: one `[json]`, and never `[json]` with `[body]`. */
function checkBodies(b: Block, inner: string, r: ReturnType<Block['pos']['range']>): void {
  const has = (kind: SectionKind): boolean => b.sectionKinds.has(kind);
  if (inner === 'json' && (b.json || has('json'))) {
    b.error(r, t('A request has one JSON body: remove the second [json] section.'), 'json-twice');
  } else if ((inner === 'json' && has('body')) || (inner === 'body' && has('json'))) {
    const message = t(
      'A request has at most one body: [json] and [body] do not mix. Move these parameters into the JSON object or into [query].',
    );
    b.error(r, message, 'json-and-body');
  }
}
