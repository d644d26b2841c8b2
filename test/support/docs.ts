/**
 * The repository's own references as data for the tests: sections and tables of the Markdown
 * documents in docs/ (docs/service.md keeps the published spec's section numbers and tables), and
 * the signing vectors of test/fixtures/vectors/signing.json. Nothing here reads outside the
 * repository; only test/unit/repo/spec-crosscheck.test.ts compares these with the published spec.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ROOT } from './cli';

/** Folders that hold what the build, the tests or npm write, never sources. */
const GENERATED = new Set(['node_modules', 'dist', 'out', 'test-results', '.vscode-test', '.git']);

/** Every file of the working tree (repository-relative, `/`-separated), generated folders left out. */
export function repositoryFiles(dir = ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return GENERATED.has(e.name) ? [] : repositoryFiles(full);
    return [relative(ROOT, full).split(sep).join('/')];
  });
}

/** A document of docs/, by its file name. */
export function readDoc(name: string): string {
  return readFileSync(join(ROOT, 'docs', name), 'utf8');
}

/**
 * The body of the section whose heading is `§N` (docs/service.md) or `N.` (the published spec):
 * from the line after its heading to the next heading of the same level or above.
 */
export function numberedSection(markdown: string, number: string): string {
  const escaped = number.replace(/\./g, '\\.');
  const heading = new RegExp(`^(#{2,4}) (?:§${escaped}|${escaped}\\.?) `, 'm');
  const found = heading.exec(markdown);
  assert.ok(found, `no heading for section ${number}`);
  const rest = markdown.slice(markdown.indexOf('\n', found.index) + 1);
  const end = new RegExp(`^#{1,${found[1]!.length}} `, 'm').exec(rest);
  return end ? rest.slice(0, end.index) : rest;
}

/** The cells of each row of the Markdown tables in `section`, header and separator rows left out. */
export function tableRows(section: string): string[][] {
  const rows: string[][] = [];
  let header = true;
  for (const line of section.split('\n')) {
    if (!line.startsWith('|')) {
      header = true; // the next table starts with its header
      continue;
    }
    const cells = line
      .slice(1, line.trimEnd().endsWith('|') ? line.trimEnd().length - 1 : undefined)
      .split('|')
      .map((c) => c.trim());
    if (header) header = false;
    else if (!cells.every((c) => /^:?-+:?$/.test(c))) rows.push(cells);
  }
  return rows;
}

/** The items of the numbered lists of `section` by their number, continuation lines joined. */
export function numberedRules(section: string): Map<number, string> {
  const rules = new Map<number, string>();
  for (const m of section.matchAll(/^(\d+)\. (.+(?:\n[ \t]+\S.*)*)/gm))
    rules.set(Number(m[1]), m[2]!.replace(/\s+/g, ' '));
  return rules;
}

export interface ErrorRow {
  readonly code: number;
  readonly meaning: string;
}

/** The §7.2 table of error codes, in its order, as written. */
export function errorTable(markdown: string): ErrorRow[] {
  return tableRows(numberedSection(markdown, '7.2'))
    .filter((cells) => /^-?\d+$/.test(cells[0] ?? ''))
    .map(([code, meaning]) => ({ code: Number(code), meaning: meaning ?? '' }));
}

/** docs/service.md, the service as TradeReq understands it. */
export function serviceDoc(): string {
  return readDoc('service.md');
}

export interface SigningVector {
  readonly name: string;
  readonly secretKey: string;
  readonly query: string;
  readonly body: string;
  readonly signature: string;
}

/** The published signing vectors (test/fixtures/vectors/signing.json). */
export function signingVectors(): readonly SigningVector[] {
  const file = join(ROOT, 'test', 'fixtures', 'vectors', 'signing.json');
  const data = JSON.parse(readFileSync(file, 'utf8')) as { vectors?: unknown };
  assert.ok(Array.isArray(data.vectors), `${file} holds a list of vectors`);
  for (const v of data.vectors as Record<string, unknown>[])
    for (const k of ['name', 'secretKey', 'query', 'body', 'signature'])
      assert.equal(typeof v[k], 'string', `${file}: every vector has a string ${k}`);
  return data.vectors as SigningVector[];
}
