/** The Simplified Chinese bundle as VS Code hands it to the extension, for tests of what the editor shows. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { L10nBundle } from '../../src/core/l10n';

export function zhCnBundle(): L10nBundle {
  return JSON.parse(readFileSync(join(__dirname, '..', '..', 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as L10nBundle;
}

/** The `{N}` placeholders of a message, sorted: a translation must keep every one. */
export function placeholders(message: string): string[] {
  return [...new Set(message.match(/\{\d+\}/g) ?? [])].sort();
}
