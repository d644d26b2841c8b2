/**
 * The README as a new user reads it (issue 19, point 10): its first table names every command, it
 * says how to install the extension from the .vsix (and the Quick start points there), it links
 * the service reference kept in the repository, and the `.tradereq` format comes before the editor
 * sections that use it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMAND_NAMES } from '../../../src/cli/main';
import { CAUSE_IDS } from '../../../src/core/doctor/types';
import { ROOT } from '../../support/cli';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The README's top-level headings, in order, code blocks left out. */
function headings(): string[] {
  let fenced = false;
  return README.split('\n').filter((l) => {
    if (l.startsWith('```')) fenced = !fenced;
    return !fenced && l.startsWith('## ');
  });
}

describe('the README, as a new user reads it', () => {
  it('its first table names every command of tradereq --help', () => {
    const table = README.slice(0, README.indexOf('## '));
    const listed = [...table.matchAll(/^\| `tradereq (\w+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual([...listed].sort(), [...COMMAND_NAMES].sort());
  });

  it('says how to install the extension from the .vsix, and the Quick start points there', () => {
    assert.match(README, /\ncode --install-extension tradereq\.vsix/);
    const quickStart = README.slice(
      README.indexOf('## Quick start'),
      README.indexOf('\n## ', README.indexOf('## Quick start') + 1),
    );
    assert.match(quickStart, /\.vsix.*\(#installing\)/s);
  });

  it('links the service reference kept in the repository', () => {
    assert.match(README.slice(0, README.indexOf('## ')), /\]\(docs\/service\.md\)/);
  });

  it('puts the .tradereq format before the editor sections that use it', () => {
    const order = headings();
    const format = order.indexOf('## The `.tradereq` format');
    assert.ok(format >= 0);
    for (const editor of ['## In the editor', '## Sending from the editor', '## The stream view'])
      assert.ok(order.indexOf(editor) > format, `${editor} comes after the format`);
  });

  it("the signature doctor's table names every cause id, and only those", () => {
    const section = README.slice(
      README.indexOf('## The signature doctor'),
      README.indexOf('\n## ', README.indexOf('## The signature doctor') + 1),
    );
    const listed = [...section.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual([...listed].sort(), [...CAUSE_IDS].sort());
  });
});
