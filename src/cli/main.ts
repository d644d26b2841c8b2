/**
 * `tradereq`: the table of commands (the help is in messages.ts, as every message). Each command's module is loaded only when that
 * command runs (in the build, a bundle of its own: dist/cli/<command>.js), so that `--help` and a
 * quick command do not pay for the others.
 */
import { version } from '../../package.json';
import { CLI, MAIN } from './messages';
import { nearest } from './suggest';
import { colourWanted, exitQuietlyOnClosedPipe, safeIo } from './terminal';
import { isUsageError, processIo, UsageError, type Io } from './usage';

type Command = (args: string[], io: Io) => number | Promise<number>;

/** One row per command: `require` of its file, which esbuild.js turns into a bundle of its own. */
const COMMANDS: Record<string, () => Command> = {
  sign: () => (require('./sign') as typeof import('./sign')).signCommand,
  send: () => (require('./send') as typeof import('./send')).sendCommand,
  check: () => (require('./check') as typeof import('./check')).checkCommand,
  errors: () => (require('./errors') as typeof import('./errors')).errorsCommand,
  sandbox: () => (require('./sandbox') as typeof import('./sandbox')).sandboxCommand,
  state: () => (require('./state') as typeof import('./state')).stateCommand,
  import: () => (require('./import') as typeof import('./import')).importCommand,
  code: () => (require('./code') as typeof import('./code')).codeCommand,
  listen: () => (require('./listen') as typeof import('./listen')).listenCommand,
  test: () => (require('./test') as typeof import('./test')).testCommand,
  init: () => (require('./init') as typeof import('./init')).initCommand,
  doctor: () => (require('./doctor') as typeof import('./doctor')).doctorCommand,
  // The completion script is made from the commands' own --help texts, read through this table.
  completion: () => (args, io) =>
    (require('./completion') as typeof import('./completion')).completionCommand(args, io, COMMAND_NAMES, helpOf),
  // What the completion script asks on each Tab (request and environment names): hidden, light.
  __complete: () => (require('./complete') as typeof import('./complete')).completeCommand,
};

/** Every command's name, as `tradereq --help` and the README's first table list them (not the hidden `__complete`). */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS).filter((name) => !name.startsWith('__'));

/** What `tradereq COMMAND --help` prints. */
async function helpOf(command: string): Promise<string> {
  const lines: string[] = [];
  const io: Io = { out: (text) => void lines.push(text), err: () => undefined, env: {}, cwd: process.cwd() };
  await COMMANDS[command]!()(['--help'], io);
  return lines.join('\n');
}

export async function main(argv: string[], rawIo: Io = processIo): Promise<number> {
  // --no-color is every command's: taken out here, before the command reads its options.
  const end = argv.includes('--') ? argv.indexOf('--') : argv.length;
  const noColor = argv.slice(0, end).includes('--no-color');
  const args = noColor ? [...argv.slice(0, end).filter((a) => a !== '--no-color'), ...argv.slice(end)] : argv;
  const colour = rawIo === processIo && colourWanted(rawIo.env, noColor);
  const io = safeIo({ ...rawIo, colour });
  const [command, ...rest] = args;
  if (command === '--help' || command === '-h' || command === 'help') {
    io.out(MAIN.help);
    return 0;
  }
  if (command === '--version' || command === '-v') {
    io.out(MAIN.version(version));
    return 0;
  }
  const load = command === undefined || !Object.hasOwn(COMMANDS, command) ? undefined : COMMANDS[command];
  try {
    if (command === undefined) throw new UsageError(MAIN.needsCommand(COMMAND_NAMES));
    if (!load) throw new UsageError(MAIN.unknownCommand(command, nearest(command, COMMAND_NAMES), COMMAND_NAMES));
    return await load()(rest, io);
  } catch (e) {
    if (isUsageError(e)) {
      io.err(CLI.said(e.message));
      return 2;
    }
    io.err(MAIN.unexpected(e instanceof Error ? e.message : String(e)));
    return 3;
  }
}

if (require.main === module) {
  exitQuietlyOnClosedPipe([process.stdout, process.stderr]);
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
