import { parseArgs, type ParseArgsConfig } from 'node:util';
import { OPTION_MAX, clip } from '../core/bounds';
import { OPTIONS } from './messages';
import { nearest } from './suggest';
import { UsageError } from './usage';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * node:util parseArgs with its errors turned into one-line usage errors that name the command's
 * help. An empty argument or option value is bad input: `tradereq test "$FILE"` with FILE unset
 * must not run every file of the folder.
 */
export function parseCommand<T extends Options>(command: string, args: string[], options: T, allowPositionals = true) {
  const parsed = parseAll(command, args, options, allowPositionals);
  for (const token of parsed.tokens) {
    if (token.kind === 'positional' && token.value === '')
      throw new UsageError(OPTIONS.seeHelp(OPTIONS.emptyArgument, command));
    if (token.kind === 'option' && token.value === '')
      throw new UsageError(OPTIONS.seeHelp(OPTIONS.emptyValue(token.name), command));
  }
  return parsed;
}

function parseAll<T extends Options>(command: string, args: string[], options: T, allowPositionals: boolean) {
  const all = { ...options, help: { type: 'boolean', short: 'h' } } as const;
  try {
    return parseArgs({
      args: withNegativeNumbers(args, all),
      options: all,
      allowPositionals,
      strict: true,
      // In the order given: `tradereq test` pairs each --output with the --reporter before it.
      tokens: true,
    });
  } catch (e) {
    const failure = parseFailure(e, Object.keys(all));
    throw new UsageError(OPTIONS.seeHelp(failure, command));
  }
}

const NEGATIVE_NUMBER = /^-\d+(\.\d+)?$/;

/**
 * `--timeout -5` gives -5 to --timeout (whose check then says what it takes), and a negative number
 * elsewhere is a positional (`tradereq errors -1013`): parseArgs reads both as options.
 */
function withNegativeNumbers(args: readonly string[], options: Options): string[] {
  const out: string[] = [];
  const negatives: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    const next = args[i + 1];
    if (
      arg.startsWith('--') &&
      options[arg.slice(2)]?.type === 'string' &&
      next !== undefined &&
      NEGATIVE_NUMBER.test(next)
    ) {
      out.push(`${arg}=${next}`);
      i++;
    } else if (NEGATIVE_NUMBER.test(arg)) negatives.push(arg);
    else out.push(arg);
  }
  if (negatives.length === 0) return out;
  return out.includes('--') ? [...out, ...negatives] : [...out, '--', ...negatives];
}

/** parseArgs's error in one line, in the command line's own words: a missing value, an unknown option and its likely spelling. */
function parseFailure(e: unknown, known: readonly string[]): string {
  const message = e instanceof Error ? e.message : String(e);
  const option = /'(-[^' ]*)/.exec(message)?.[1] ?? '';
  if (/argument missing|argument is ambiguous/.test(message)) return OPTIONS.needsValue(option);
  if ((e as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const guess = option.startsWith('--') ? nearest(option.slice(2), known) : undefined;
    return OPTIONS.unknownOption(option, guess);
  }
  // Node appends advice about "--" to some messages; the first sentence, in the case of the others.
  const first = message.split('\n')[0]!.split('. ')[0]!.replace(/\.$/, '');
  return first.charAt(0).toLowerCase() + first.slice(1);
}

/**
 * A whole-number option from `min` to `max` (each option's --help line names its max, which lives in
 * core/bounds.ts OPTION_MAX or the catalog); undefined when absent, a usage error otherwise.
 */
export function integerFlag(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  // The digits' count first: Number() of a long run of digits is no longer exact.
  if (!/^\d{1,16}$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(OPTIONS.wholeNumber(name, clip(value, 40), min, max));
  }
  return Number(value);
}

/** --timeout or --connect-timeout of send and test, in ms. */
export function timeoutFlag(name: 'timeout' | 'connect-timeout', value: string | undefined): number | undefined {
  return integerFlag(name, value, 1, OPTION_MAX.timeoutMs);
}
