/**
 * The repository stands on its own: every file of the repository that a comment or a document
 * cites exists (a comment that says "docs/format.md, Signing" must lead somewhere), and so does
 * every section of docs/ it names. Reads the working tree, not git: it also runs on a `git archive`
 * unpacked with nothing beside it. (That only the spec cross-check reads outside the repository is
 * checked in spec-crosscheck.test.ts.)
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import ts from 'typescript';

import { numberedRules, numberedSection, readDoc, repositoryFiles, ROOT } from '../support/docs';

const CODE = /\.(?:ts|js|mjs|cjs)$/;
const TEXT = /\.(?:md|tradereq|ya?ml)$/;

const K = ts.SyntaxKind;
/** Tokens after which a `/` starts a regular expression, not a division. */
const BEFORE_REGEX = new Set([
  ...[K.OpenParenToken, K.OpenBracketToken, K.OpenBraceToken, K.CloseBraceToken, K.CommaToken, K.SemicolonToken],
  ...[K.EqualsToken, K.ColonToken, K.QuestionToken, K.ExclamationToken, K.EqualsGreaterThanToken, K.ReturnKeyword],
  ...[K.AmpersandAmpersandToken, K.BarBarToken, K.QuestionQuestionToken, K.PlusToken, K.MinusToken, K.BarToken],
]);

/**
 * The comments of a TypeScript or JavaScript file, found by the compiler's scanner (strings,
 * templates and regular expressions left out): as complete as a walk of the syntax tree, and fast.
 */
function comments(text: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const found: string[] = [];
  const templates: number[] = []; // the brace depth outside each open template's `${`
  let depth = 0;
  let previous: ts.SyntaxKind = K.OpenBraceToken;
  for (let kind = scanner.scan(); kind !== K.EndOfFileToken; kind = scanner.scan()) {
    if (kind === K.SingleLineCommentTrivia || kind === K.MultiLineCommentTrivia) {
      found.push(scanner.getTokenText());
      continue;
    }
    if (kind === K.WhitespaceTrivia || kind === K.NewLineTrivia) continue;
    if ((kind === K.SlashToken || kind === K.SlashEqualsToken) && BEFORE_REGEX.has(previous))
      kind = scanner.reScanSlashToken();
    if (kind === K.TemplateHead) {
      templates.push(depth);
      depth = 0;
    } else if (kind === K.OpenBraceToken) depth++;
    else if (kind === K.CloseBraceToken && depth === 0 && templates.length > 0) {
      kind = scanner.reScanTemplateToken(false);
      if (kind === K.TemplateTail) depth = templates.pop()!;
    } else if (kind === K.CloseBraceToken) depth--;
    previous = kind;
  }
  return found;
}

/** What a file says in words: a code file's comments; a document's text; a request file's comment lines. */
function prose(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  if (CODE.test(file)) return comments(text);
  if (file.endsWith('.md')) return [text];
  return text.split('\n').filter((l) => /^\s*(?:#|\/\/)/.test(l));
}

// A path with a folder (`docs/format.md`, `core/request/gate.ts`, `test/support/`) or a bare
// Markdown file name (`ARCHITECTURE.md`).
const CITED =
  /(?<![\w.$/@~-])((?:\.\.?\/)?(?:[\w-][\w.-]*\/)+(?:[\w-][\w.-]*\.(?:ts|js|mjs|json|md|tradereq|ya?ml|css|svg|png))?|[\w-]+\.md)(?![\w/*<{-])/g;

const TREE = repositoryFiles();
const FOLDERS = new Set(TREE.flatMap((f) => f.split('/').slice(0, -1)));

/** Where a citation in `file` may be read from: the root, src/, src/core/ and the file's own folders. */
function bases(file: string): string[] {
  const own: string[] = [];
  for (let d = dirname(file); d !== '.'; d = dirname(d)) own.push(d);
  return ['', 'src', 'src/core', ...own];
}

/** True for a path inside the checkout (what lies beside it is no file of the repository). */
function inRepository(path: string): boolean {
  return path === ROOT || path.startsWith(ROOT + sep);
}

/** The citations in `file` that name a repository folder but lead nowhere. */
function brokenCitations(file: string): string[] {
  const broken = new Set<string>();
  for (const text of prose(file))
    for (const [, path] of text.matchAll(CITED)) {
      const cited = path!.replace(/\/$/, '');
      const first = cited.replace(/^(?:\.\.?\/)+/, '').split('/')[0]!;
      const bare = !cited.includes('/');
      if (bare && path!.endsWith('/')) continue; // a folder's name alone (`lazy/`, `bin/`) says too little to check
      if (!bare && !FOLDERS.has(first)) continue; // dist/, reports/, a folder beside the checkout: not the repository's
      if (bases(file).some((b) => inRepository(resolve(ROOT, b, cited)) && existsSync(resolve(ROOT, b, cited))))
        continue;
      broken.add(cited);
    }
  return [...broken];
}

// `docs/format.md, Signing`, `docs/format.md "Lines"`, `docs/service.md §5 rule 4`, `docs/service.md, Assumptions`.
const SECTION_CITED = /docs\/(\w+\.md)(?:,? "([^"]+)"| §(\d+(?:\.\d+)?)(?: rule (\d+))?|, ([A-Z][\w' ]*[\w']))/g;

/** The headings of a Markdown document, without their `#`s and `§N` numbers. */
function headings(markdown: string): string[] {
  return [...markdown.matchAll(/^#{1,4} (?:§[\d.]+ )?(.+)$/gm)].map((m) => m[1]!.trim());
}

function hasSection(markdown: string, number: string): boolean {
  return new RegExp(`^#{2,4} §${number.replace('.', '\\.')} `, 'm').test(markdown);
}

describe('the repository stands on its own', () => {
  it('every repository file a comment or a document cites exists', () => {
    const cited = TREE.filter((f) => CODE.test(f) || TEXT.test(f));
    assert.ok(cited.length > 200, `only ${cited.length} files read`);
    const broken = cited.flatMap((f) => brokenCitations(f).map((c) => `${f}: ${c}`));
    assert.deepEqual(broken, []);
  });

  it('every section of docs/ a comment or a document cites exists: a heading, §N, §N rule M', () => {
    const broken: string[] = [];
    for (const file of TREE.filter((f) => CODE.test(f) || TEXT.test(f)))
      for (const text of prose(file))
        for (const m of text.matchAll(SECTION_CITED)) {
          const [cite, doc, quoted, number, rule, heading] = m;
          const markdown = readDoc(doc!);
          const ok =
            number !== undefined
              ? hasSection(markdown, number) &&
                (rule === undefined || numberedRules(numberedSection(markdown, number)).has(Number(rule)))
              : headings(markdown).some((h) => (quoted ?? heading!).startsWith(h));
          if (!ok) broken.push(`${file}: ${cite}`);
        }
    assert.deepEqual(broken, []);
  });

  it('the check finds a citation that leads nowhere', () => {
    assert.deepEqual(
      [...'// see docs/nowhere.md and service-notes.md; src/core/rules.ts exists'.matchAll(CITED)].map((m) => m[1]),
      ['docs/nowhere.md', 'service-notes.md', 'src/core/rules.ts'],
    );
  });
});
