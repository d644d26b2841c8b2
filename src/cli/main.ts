/**
 * `tradereq`: the help and the table of commands. Each command's module is loaded only when that
 * command runs (in the build, a bundle of its own: dist/cli/<command>.js), so that `--help` and a
 * quick command do not pay for the others.
 */
import { version } from '../../package.json';
import { nearest } from './suggest';
import { colourWanted, exitQuietlyOnClosedPipe, safeIo } from './terminal';
import { isUsageError, processIo, UsageError, type Io } from './usage';

const HELP = `Usage: tradereq COMMAND [options]

Craft, sign and check requests to the trading service from .tradereq files.

Commands:
  init [DIR]    write a starter: tradereq.env.json and request files that pass test --sandbox
  send FILE     sign and send requests; print the decoded answer and the budget left
  listen FILE   connect a WebSocket request (WS /ws), print its pushes, check its expectations
  sign FILE     print a request exactly as it would be sent (signed), without sending it
  check PATH... report what the service would reject, before anything is sent
  test [PATH]   run request files as tests (CI: --sandbox, --reporter junit)
  errors [CODE] explain the service's error codes
  doctor [FILE] explain why the service refused what your own program sent (signature, timestamp)
  sandbox       run the sandbox exchange on loopback, with demo keys
  state         show or reset the rate-limit state (budgets, waits, bans)
  import KIND   turn a cURL command, a Postman collection or a .http file into .tradereq files
  code FILE     print a program (Python, Node, Go, shell) that signs and sends a request

Options of every command: --no-color (no colour even on a terminal; so does NO_COLOR), -h/--help.
Run tradereq COMMAND --help for the options of a command; tradereq --version prints the version.

Exit codes: 0 ok; 1 a request was rejected, an expectation or a check failed; 2 bad input (nothing
sent); 3 an outcome is unknown (it may have succeeded: never retry an order blindly); 4 refused
before sending (rate-limit budget, ban, origin binding, no confirmation). Each command's --help
says which it uses.`;

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
};

/** Every command's name, as `tradereq --help` and the README's first table list them. */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

export async function main(argv: string[], rawIo: Io = processIo): Promise<number> {
  // --no-color is every command's: taken out here, before the command reads its options.
  const end = argv.includes('--') ? argv.indexOf('--') : argv.length;
  const noColor = argv.slice(0, end).includes('--no-color');
  const args = noColor ? [...argv.slice(0, end).filter((a) => a !== '--no-color'), ...argv.slice(end)] : argv;
  const colour = rawIo === processIo && colourWanted(rawIo.env, noColor);
  const io = safeIo({ ...rawIo, colour });
  const [command, ...rest] = args;
  if (command === '--help' || command === '-h' || command === 'help') {
    io.out(HELP);
    return 0;
  }
  if (command === '--version' || command === '-v') {
    io.out(`tradereq ${version}`);
    return 0;
  }
  const load = command === undefined || !Object.hasOwn(COMMANDS, command) ? undefined : COMMANDS[command];
  try {
    if (command === undefined)
      throw new UsageError(`a command is needed: ${Object.keys(COMMANDS).join(', ')}. See: tradereq --help`);
    if (!load) throw new UsageError(unknownCommand(command));
    return await load()(rest, io);
  } catch (e) {
    if (isUsageError(e)) {
      io.err(`tradereq: ${e.message}`);
      return 2;
    }
    io.err(`tradereq: unexpected failure: ${e instanceof Error ? e.message : String(e)}`);
    return 3;
  }
}

function unknownCommand(command: string): string {
  const guess = nearest(command, Object.keys(COMMANDS));
  const known = `use ${Object.keys(COMMANDS).join(', ')}`;
  return `unknown command "${command}": ${guess ? `did you mean "${guess}"? Else ${known}` : known}. See: tradereq --help`;
}

if (require.main === module) {
  exitQuietlyOnClosedPipe([process.stdout, process.stderr]);
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
