import { ERROR_CODES, formatErrorText, lookupError } from '../core/catalog/errors';
import type { ErrorCodeInfo } from '../core/catalog/types';
import { parseCommand } from './args';
import { UsageError, type Io } from './usage';

export const ERRORS_HELP = `Usage: tradereq errors [CODE...] [--json]

Explains the service's error codes (spec §7.2): every meaning, and for the common ones the usual
cause and what to do next. Without CODE, lists every code.

  --json       print an array of objects: code, meanings, cause, action, category
  -h, --help   this help

Exit codes: 0 explained; 2 a CODE that is not a number or not one of the service's.`;

export function errorsCommand(args: string[], io: Io): number {
  const { values, positionals } = parseCommand('errors', args, { json: { type: 'boolean' } });
  if (values.help) {
    io.out(ERRORS_HELP);
    return 0;
  }
  const infos: ErrorCodeInfo[] = [];
  for (const raw of positionals) {
    if (!/^-?\d+$/.test(raw)) throw new UsageError(`"${raw}" is not an error code: give numbers such as 700003`);
    const info = lookupError(Number(raw));
    if (!info)
      throw new UsageError(
        `${raw} is not an error code of the service (spec §7.2). Run tradereq errors to list them all`,
      );
    infos.push(info);
  }
  const list = infos.length > 0 ? infos : ERROR_CODES;
  if (values.json) {
    io.out(
      JSON.stringify(
        list.map((i) => ({
          code: i.code,
          meanings: i.meanings,
          cause: i.cause ?? null,
          action: i.action ?? null,
          category: i.category,
        })),
        null,
        2,
      ),
    );
  } else {
    io.out(list.map(formatErrorText).join('\n\n'));
  }
  return 0;
}
