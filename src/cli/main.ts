import { checkCommand } from './check';
import { codeCommand } from './code';
import { errorsCommand } from './errors';
import { importCommand } from './import';
import { listenCommand } from './listen';
import { sandboxCommand } from './sandbox';
import { sendCommand } from './send';
import { signCommand } from './sign';
import { stateCommand } from './state';
import { testCommand } from './test';
import { exitQuietlyOnClosedPipe, safeIo } from './terminal';
import { UsageError, processIo, type Io } from './usage';

const HELP = `Usage: tradereq COMMAND [options]

Craft, sign and check requests to the trading service from .tradereq files.

Commands:
  send FILE     sign and send requests; print the decoded answer and the budget left
  listen FILE   connect a WebSocket request (WS /ws), print its pushes, check its expectations
  sign FILE     print a request exactly as it would be sent (signed), without sending it
  check FILE... report what the service would reject, before anything is sent
  test [PATH]   run request files as tests (CI: --sandbox, --reporter junit)
  errors [CODE] explain the service's error codes
  sandbox       run the sandbox exchange on loopback, with demo keys
  state         show or reset the rate-limit state (budgets, waits, bans)
  import KIND   turn a cURL command, a Postman collection or a .http file into .tradereq files
  code FILE     print a program (Python, Node, Go, shell) that signs and sends a request

Run tradereq COMMAND --help for the options of a command.`;

const COMMANDS: Record<string, (args: string[], io: Io) => number | Promise<number>> = {
  sign: signCommand,
  send: sendCommand,
  check: checkCommand,
  errors: errorsCommand,
  sandbox: sandboxCommand,
  state: stateCommand,
  import: importCommand,
  code: codeCommand,
  listen: listenCommand,
  test: testCommand,
};

export async function main(argv: string[], rawIo: Io = processIo): Promise<number> {
  const io = safeIo(rawIo);
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    io.out(HELP);
    return 0;
  }
  const run = command === undefined ? undefined : COMMANDS[command];
  try {
    if (command === undefined)
      throw new UsageError(`a command is needed: ${Object.keys(COMMANDS).join(', ')}. See: tradereq --help`);
    if (!run)
      throw new UsageError(
        `unknown command "${command}": use ${Object.keys(COMMANDS).join(', ')}. See: tradereq --help`,
      );
    return await run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`tradereq: ${e.message}`);
      return 2;
    }
    io.err(`tradereq: unexpected failure: ${e instanceof Error ? e.message : String(e)}`);
    return 3;
  }
}

if (require.main === module) {
  exitQuietlyOnClosedPipe([process.stdout, process.stderr]);
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
