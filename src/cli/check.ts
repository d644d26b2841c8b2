import { checkDocument } from '../core/check/check';
import { parseCommand } from './args';
import { readRequestFile, selectEnvironment } from './workspace';
import { UsageError, type Io } from './usage';

export const CHECK_HELP = `Usage: tradereq check FILE... [--env NAME]

Reports what the service would reject, before anything is sent, as
FILE:LINE:COLUMN: SEVERITY: MESSAGE. Exits 1 when there is an error, 0 otherwise.

  --env NAME   environment whose variables resolve {{name}} (default as for sign)
  -h, --help   this help`;

export function checkCommand(args: string[], io: Io): number {
  const { values, positionals } = parseCommand('check', args, { env: { type: 'string' } });
  if (values.help) {
    io.out(CHECK_HELP);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('check needs at least one FILE. See: tradereq check --help');
  // Read every file first, so a missing one fails before anything is reported.
  const files = positionals.map((p) => ({ name: p, file: readRequestFile(p, io.cwd) }));
  let errors = 0;
  const lines: string[] = [];
  for (const { name, file } of files) {
    const environment = selectEnvironment(file.path, values.env, io.env);
    for (const d of checkDocument(file.doc, { environment })) {
      if (d.severity === 'error') errors++;
      lines.push(`${name}:${d.range.startLine + 1}:${d.range.startChar + 1}: ${d.severity}: ${d.message}`);
    }
  }
  if (lines.length > 0) io.out(lines.join('\n'));
  return errors > 0 ? 1 : 0;
}
