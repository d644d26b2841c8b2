/**
 * The README as a new user reads it (issue 19, point 10; issue 23, a front door): its first table
 * names every command, it says how to install the extension from the .vsix (and the Quick start
 * points there), it links the service reference kept in the repository, it stays short, and it
 * leads to the pages of docs/ that hold the manual: the `.tradereq` format before the editor that
 * uses it, and the signature doctor's causes on the command line's page.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMAND_NAMES } from '../../../src/cli/main';
import { CAUSE_IDS } from '../../../src/core/doctor/types';
import { ROOT } from '../../support/cli';

/** A Markdown file of the repository, with LF line ends whatever the checkout's. */
const read = (...path: string[]): string => readFileSync(join(ROOT, ...path), 'utf8').replace(/\r\n/g, '\n');
const README = read('README.md');
const page = (name: string): string => read('docs', name);

/** A page's headings of `level` (`## `), in order, code blocks left out. */
function headings(markdown: string, level = '## '): string[] {
  let fenced = false;
  return markdown.split('\n').filter((l) => {
    if (l.startsWith('```')) fenced = !fenced;
    return !fenced && l.startsWith(level);
  });
}

/** The section of `markdown` under `heading`, up to the next heading of its level. */
function section(markdown: string, heading: string): string {
  const at = markdown.indexOf(`\n${heading}\n`);
  assert.ok(at >= 0, `no section ${heading}`);
  const next = markdown.indexOf('\n## ', at + heading.length + 2);
  return markdown.slice(at, next < 0 ? undefined : next);
}

describe('the README, as a new user reads it', () => {
  it('its first table names every command of tradereq --help', () => {
    const table = README.slice(0, README.indexOf('## '));
    const listed = [...table.matchAll(/^\| `tradereq (\w+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual([...listed].sort(), [...COMMAND_NAMES].sort());
  });

  it('says how to install the extension from the .vsix, and the Quick start points there', () => {
    assert.match(README, /\ncode --install-extension tradereq\.vsix/);
    assert.match(section(README, '## Quick start'), /\.vsix.*\(#installing\)/s);
    assert.ok(headings(README).includes('## Installing'));
  });

  it('links the service reference kept in the repository', () => {
    assert.match(README.slice(0, README.indexOf('## ')), /\]\(docs\/service\.md\)/);
  });

  it('is a front door: at most 150 lines, with a screenshot, the test command and a link to every page of docs/', () => {
    assert.ok(README.split('\n').length <= 150, `${README.split('\n').length} lines`);
    assert.match(README.slice(0, README.indexOf('## ')), /!\[[^\]]+\]\(docs\/images\/panel\.png\)/);
    assert.match(README, /\nnpm test {2,}# /);
    for (const name of ['guide', 'editor', 'cli', 'sandbox', 'security', 'performance', 'development', 'format'])
      assert.match(README, new RegExp(`\\]\\(docs/${name}\\.md\\)`), `docs/${name}.md is linked`);
  });

  it('leads to the .tradereq format before the editor that uses it, and the editor page has its sections', () => {
    const docs = section(README, '## Documentation');
    const guide = docs.indexOf('](docs/guide.md)');
    assert.ok(guide >= 0 && guide < docs.indexOf('](docs/editor.md)'), 'the format comes first');
    assert.match(page('editor.md'), /\]\(guide\.md\)/, 'the editor page sends a reader to the format');
    const order = headings(page('editor.md'));
    for (const editor of ['## The language mode', '## Sending from the editor', '## The stream view'])
      assert.ok(order.includes(editor), `docs/editor.md has ${editor}`);
  });

  it("the signature doctor's table (docs/cli.md, tradereq doctor) names every cause id, and only those", () => {
    const listed = [...section(page('cli.md'), '## `tradereq doctor`').matchAll(/^\| `([a-z-]+)` \|/gm)].map(
      (m) => m[1],
    );
    assert.deepEqual([...listed].sort(), [...CAUSE_IDS].sort());
  });
});
