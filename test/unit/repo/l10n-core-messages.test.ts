/**
 * The core's messages the editor and the panel show (issue 23): the Simplified Chinese bundle
 * translates every `t('…')` message of the folders below, keeping its `{N}` placeholders (a `t` of
 * a data table's text, `t(entry.text)`, is checked by the lists of catalog/texts.ts and
 * editor/shown-texts.ts). The bundle itself is a flat object sorted by key.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { l10nCalls, placeholders, zhCnBundle } from '../../support/l10n';

const ROOT = join(__dirname, '..', '..', '..');
const FOLDERS = ['editor', 'catalog', 'panel', 'request', 'budget', 'clock', 'net', 'ws'];

/** The messages of `file`: the string literals that are the first argument of a call of `t`. */
function messagesOf(file: string): string[] {
  return l10nCalls(file, readFileSync(file, 'utf8')).flatMap((c) => (c.key === undefined ? [] : [c.key]));
}

function sources(): string[] {
  return FOLDERS.flatMap((folder) => {
    const dir = join(ROOT, 'src', 'core', folder);
    return readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join(dir, f));
  });
}

describe("l10n: the core's messages of the editor and the panel", () => {
  const literals = [...new Set(sources().flatMap(messagesOf))];

  it('are found (the folders hold messages) and each has a translation with the same placeholders', () => {
    assert.ok(literals.length > 250, `${literals.length} messages`);
    const bundle = zhCnBundle();
    assert.deepEqual(
      literals.filter((m) => !bundle[m]?.trim()),
      [],
      'messages with no Simplified Chinese translation',
    );
    for (const m of literals) assert.deepEqual(placeholders(bundle[m]!), placeholders(m), m);
  });

  it('the bundle is a flat object of strings, sorted by key', () => {
    const bundle = zhCnBundle();
    const keys = Object.keys(bundle);
    assert.ok(Object.values(bundle).every((v) => typeof v === 'string'));
    assert.deepEqual(keys, [...keys].sort());
  });
});
