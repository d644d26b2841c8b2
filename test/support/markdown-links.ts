/**
 * The links and images of a Markdown page and the anchors of its headings, as GitHub reads them:
 * the repository's pages (test/unit/repo/links.test.ts) and the README inside the .vsix
 * (test/e2e/tarball.test.ts) are checked with the same reading. Links inside code are not links.
 */

export const IMAGE = /\.(?:png|jpe?g|gif|webp)$/i;
// [text](target) or ![alt](target "title"); the text may hold one level of brackets.
const INLINE = /(!?)\[((?:[^[\]]|\[[^\]]*\])*)\]\(\s*<?([^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)>?(?:\s+"[^"]*")?\s*\)/g;
const DEFINITION = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm;
const AUTOLINK = /<((?:https?|mailto):[^\s>]+)>/g;
// Markdown passes HTML through: an <img>, <video> or <a> of the page links as much as its Markdown does.
const HTML = /<(img|video|a)\b[^>]*?\s(?:src|href)\s*=\s*["']([^"']*)["']/gi;

/** The text of `markdown` as prose: fenced blocks blanked and code spans replaced, so line numbers stay. */
function prose(markdown: string): string {
  let fenced = false;
  return markdown
    .split(/\r?\n/)
    .map((line) => {
      if (/^ {0,3}(?:```|~~~)/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line.replace(/(`+)(?:(?!\1).)+?\1/g, 'code');
    })
    .join('\n');
}

/** GitHub's anchor of a heading: its text without markup, lower case, punctuation dropped, spaces as `-`. */
export function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown page: one per heading outside code, repeated slugs numbered as GitHub does. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  let fenced = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (/^ {0,3}(?:```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    found.add(n === 0 ? base : `${base}-${n}`);
  }
  return found;
}

export interface Link {
  readonly line: number;
  readonly target: string;
  readonly image: boolean;
}

/** The links and images of `markdown`, in the order of their lines. */
export function links(markdown: string): Link[] {
  const text = prose(markdown);
  const lineOf = (index: number): number => text.slice(0, index).split('\n').length;
  return [
    ...[...text.matchAll(INLINE)].map((m) => ({ line: lineOf(m.index), target: m[3]!, image: m[1] === '!' })),
    ...[...text.matchAll(DEFINITION)].map((m) => ({ line: lineOf(m.index), target: m[1]!, image: false })),
    ...[...text.matchAll(AUTOLINK)].map((m) => ({ line: lineOf(m.index), target: m[1]!, image: false })),
    ...[...text.matchAll(HTML)].map((m) => ({
      line: lineOf(m.index),
      target: m[2]!,
      image: m[1]!.toLowerCase() !== 'a',
    })),
  ].sort((a, b) => a.line - b.line);
}
