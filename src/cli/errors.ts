import { ERROR_CODES, formatErrorText, lookupError } from '../core/catalog/errors';
import type { ErrorCodeInfo } from '../core/catalog/types';
import { parseCommand } from './args';
import { ERRORS } from './messages';
import { UsageError, type Io } from './usage';

export function errorsCommand(args: string[], io: Io): number {
  const { values, positionals } = parseCommand('errors', args, { json: { type: 'boolean' } });
  if (values.help) {
    io.out(ERRORS.help);
    return 0;
  }
  const infos: ErrorCodeInfo[] = [];
  for (const raw of positionals) {
    if (!/^-?\d+$/.test(raw)) throw new UsageError(ERRORS.notACode(raw));
    const info = lookupError(Number(raw));
    if (!info) throw new UsageError(ERRORS.notTheServices(raw));
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
