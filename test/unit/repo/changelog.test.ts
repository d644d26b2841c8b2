/**
 * CHANGELOG.md has an entry per release (issue 23): the version package.json gives the packages is
 * its newest heading, every heading is a version and a date or "Unreleased" above them, and no two
 * name the same version. The .vsix shows it as the extension's Changelog tab.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..', '..');
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8').replace(/\r\n/g, '\n');

function releases(): string[] {
  return [...read('CHANGELOG.md').matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
}

describe('CHANGELOG.md: an entry per release', () => {
  it("the package's version is the newest release, under any Unreleased heading", () => {
    const { version } = JSON.parse(read('package.json')) as { version: string };
    const headings = releases().filter((h) => h !== 'Unreleased');
    assert.match(headings[0] ?? '', new RegExp(`^${version.replace(/\./g, '\\.')}\\b`), headings.join(' | '));
  });

  it('every heading is a version, with its date once released, and each version appears once', () => {
    const headings = releases();
    for (const [i, h] of headings.entries())
      assert.ok(/^\d+\.\d+\.\d+(?: - \d{4}-\d{2}-\d{2})?$/.test(h) || (h === 'Unreleased' && i === 0), h);
    const versions = headings.map((h) => h.split(' ')[0]);
    assert.equal(new Set(versions).size, versions.length, versions.join(', '));
  });
});
