import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage';

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs with its errors turned into one-line usage errors that name the command's help. */
export function parseCommand<T extends Options>(command: string, args: string[], options: T, allowPositionals = true) {
  try {
    return parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals,
      strict: true,
      // In the order given: `tradereq test` pairs each --output with the --reporter before it.
      tokens: true,
    });
  } catch (e) {
    // Node appends advice about "--" to unknown options; the first sentence is the message.
    const message = e instanceof Error ? e.message.split('\n')[0]!.split('. ')[0]!.replace(/\.$/, '') : String(e);
    throw new UsageError(`${message}. See: tradereq ${command} --help`);
  }
}

export function integerFlag(name: string, value: string | undefined, min = 0): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min)
    throw new UsageError(`--${name} takes a whole number${min > 0 ? ` of at least ${min}` : ''}, not "${value}"`);
  return Number(value);
}
