import { parseArgs, type ParseArgsConfig } from 'node:util';
import { OPTION_MAX, clip } from '../core/bounds';
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

/**
 * A whole-number option from `min` to `max` (each option's --help line names its max, which lives in
 * core/bounds.ts OPTION_MAX or the catalog); undefined when absent, a usage error otherwise.
 */
export function integerFlag(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  // The digits' count first: Number() of a long run of digits is no longer exact.
  if (!/^\d{1,16}$/.test(value) || Number(value) < min || Number(value) > max) {
    const range = min > 0 ? `of at least ${min} and at most ${max}` : `of at most ${max}`;
    throw new UsageError(`--${name} takes a whole number ${range}, not "${clip(value, 40)}"`);
  }
  return Number(value);
}

/** --timeout or --connect-timeout of send and test, in ms. */
export function timeoutFlag(name: 'timeout' | 'connect-timeout', value: string | undefined): number | undefined {
  return integerFlag(name, value, 1, OPTION_MAX.timeoutMs);
}
