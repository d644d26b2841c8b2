/**
 * The check step in a worker thread (dist/check-worker.js): the editor checks large files here, so
 * that parsing and checking them never holds up typing in the extension host.
 */
import { parentPort } from 'node:worker_threads';
import { parse } from '../format/parser';
import { setL10nBundle } from '../l10n';
import { checkDocument } from './check';
import type { CheckRequest, CheckResponse } from './offload';

parentPort?.on('message', (m: CheckRequest) => {
  if (m.l10n) setL10nBundle(m.l10n.bundle);
  const diagnostics = checkDocument(parse(m.text), { environment: m.environment });
  // Ranges of the parser's tokens are class instances; plain objects cross the thread boundary whole.
  const plain = diagnostics.map((d) => ({
    ...d,
    range: {
      startLine: d.range.startLine,
      startChar: d.range.startChar,
      endLine: d.range.endLine,
      endChar: d.range.endChar,
    },
  }));
  parentPort?.postMessage({ id: m.id, diagnostics: plain } satisfies CheckResponse);
});
