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

import { numberedRules, numberedSection, readDoc, repositoryFiles } from '../../support/docs';
import { ROOT } from '../../support/cli';

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
function prose(file: string, text: string): string[] {
  if (CODE.test(file)) return comments(text);
  if (file.endsWith('.md')) return [text];
  return text.split('\n').filter((l) => /^\s*(?:#|\/\/)/.test(l));
}

const EXTENSIONS = 'ts|js|mjs|cjs|json|md|tradereq|ya?ml|css|svg|png|sh|py|go|html';
// A path with a folder (`docs/format.md`, `core/request/origin-binding.ts`, `.ci/run`, `test/support/`) or
// a file's name alone (`ARCHITECTURE.md`, `build.ts`).
const CITED = new RegExp(
  String.raw`(?<![\w.$/@~-])((?:\.\.?\/)*(?:\.?[\w-][\w.-]*\/)+(?:[\w-][\w.-]*\.(?:${EXTENSIONS})|run)?|[\w-][\w.-]*\.(?:${EXTENSIONS}))(?![\w/*<{-])`,
  'g',
);

const TREE = repositoryFiles();
const FOLDERS = new Set(TREE.flatMap((f) => f.split('/').slice(0, -1)));
const NAMES = new Set(TREE.map((f) => f.slice(f.lastIndexOf('/') + 1)));

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

/** Whether `cited`, cited in `file`, leads to a file or folder of the repository, or is not its to check. */
function leadsSomewhere(file: string, cited: string): boolean {
  const bare = !cited.includes('/');
  const first = cited.replace(/^(?:\.\.?\/)+/, '').split('/')[0]!;
  // A source or a document named alone is one of the repository's; other names alone (a bundle, a
  // picture, the user's settings.json) may be what a build, a test or a user makes.
  if (bare) return NAMES.has(cited) || !/\.(?:ts|md)$/.test(cited);
  // dist/ is the build's: checked where a build is there to check against; out/, reports/, a
  // folder beside the checkout: not the repository's.
  if (first === 'dist') return !existsSync(join(ROOT, 'dist')) || existsSync(join(ROOT, cited));
  if (!FOLDERS.has(first)) return true;
  return bases(file).some((b) => inRepository(resolve(ROOT, b, cited)) && existsSync(resolve(ROOT, b, cited)));
}

/** The citations in `texts` (what `file` says) that name a repository file or folder but lead nowhere. */
function brokenCitations(file: string, texts: readonly string[]): string[] {
  const broken = new Set<string>();
  for (const text of texts)
    for (const [whole, path] of text.matchAll(CITED)) {
      if (whole.endsWith('/') && !path!.slice(0, -1).includes('/')) continue; // `lazy/`, `bin/` alone: too little to check
      const cited = path!.replace(/\/$/, '');
      if (!leadsSomewhere(file, cited)) broken.add(cited);
    }
  return [...broken];
}

// `docs/format.md, Signing`, `docs/format.md "Lines"`, `docs/service.md §5 rule 4`,
// `docs/service.md, Assumptions: Two readings`, `docs/format.md, Signing step 1`.
const SECTION_CITED =
  /docs\/(\w+\.md)(?:,? "([^"]+)"| §(\d+(?:\.\d+)?)(?: rule (\d+))?|, ([A-Z][\w' ]*[\w'])(?:: ([A-Z][\w' ]*[\w']))?)/g;

/** The headings of a Markdown document (code blocks left out), without their `#`s and `§N` numbers. */
function headings(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/^#{1,4} (?:§[\d.]+ )?(.+)$/gm)].map((m) => m[1]!.trim());
}

function hasSection(markdown: string, number: string): boolean {
  return new RegExp(`^#{2,4} §${number.replace('.', '\\.')} `, 'm').test(markdown);
}

/** A heading of `markdown`, or a heading and a step of its numbered list (`Signing step 1`). */
function hasHeading(markdown: string, name: string): boolean {
  const step = /^(.+) step (\d+)$/.exec(name);
  if (step === null) return headings(markdown).includes(name);
  if (!headings(markdown).includes(step[1]!)) return false;
  const body = markdown.slice(markdown.indexOf(`## ${step[1]}\n`)).split(/\n## /)[0]!;
  return numberedRules(body).has(Number(step[2]));
}

/** The docs/ sections cited in `texts` that do not exist. */
function brokenSections(texts: readonly string[]): string[] {
  const broken: string[] = [];
  for (const text of texts)
    for (const [cite, doc, quoted, number, rule, heading, sub] of text.matchAll(SECTION_CITED)) {
      if (!existsSync(join(ROOT, 'docs', doc!))) {
        broken.push(cite);
        continue;
      }
      const markdown = readDoc(doc!);
      const ok =
        number !== undefined
          ? hasSection(markdown, number) &&
            (rule === undefined || numberedRules(numberedSection(markdown, number)).has(Number(rule)))
          : hasHeading(markdown, (quoted ?? heading)!) && (sub === undefined || hasHeading(markdown, sub));
      if (!ok) broken.push(cite);
    }
  return broken;
}

const READ = TREE.filter((f) => CODE.test(f) || TEXT.test(f)).map((file) => {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return { file, text, prose: prose(file, text) };
});

describe('the repository stands on its own', () => {
  it('every repository file a comment or a document cites exists', () => {
    assert.ok(READ.length > 200, `only ${READ.length} files read`);
    const broken = READ.flatMap(({ file, prose }) => brokenCitations(file, prose).map((c) => `${file}: ${c}`));
    assert.deepEqual(broken, []);
  });

  it('every section of docs/ a comment, a document or a test title cites exists: a heading, a step, §N, §N rule M', () => {
    // Code's whole text: a section cited in a test's title or message is checked too.
    const broken = READ.filter(({ file }) => file !== 'test/unit/repo/citations.test.ts') // its own cases below
      .flatMap(({ file, text, prose }) => brokenSections(CODE.test(file) ? [text] : prose).map((c) => `${file}: ${c}`));
    assert.deepEqual(broken, []);
  });

  it('the checks find a citation that leads nowhere, and pass one that leads somewhere', () => {
    const text = [
      '// see docs/nowhere.md, notes-nowhere.md and nonce.ts; src/core/rules.ts and build.ts exist',
      '// docs/service.md §5 rule 13, §5 rule 12; docs/format.md, Signing step 9; docs/format.md, Signing step 1',
      '// docs/service.md, Assumptions: Nowhere; docs/service.md, Assumptions: Two readings; docs/format.md, Nowhere',
    ];
    assert.deepEqual(brokenCitations('src/core/request/x.ts', text), [
      'docs/nowhere.md',
      'notes-nowhere.md',
      'nonce.ts',
    ]);
    assert.deepEqual(brokenSections(text), [
      'docs/service.md §5 rule 13',
      'docs/format.md, Signing step 9',
      'docs/service.md, Assumptions: Nowhere',
      'docs/format.md, Nowhere',
    ]);
  });
});
