/**
 * `tradereq code`: a request of a file as a complete program (Python, Node, Go, shell) that builds
 * the same query and body, signs at run time with keys from environment variables, and sends.
 * Nothing is sent and no key is read here: the program holds no secret.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CODE_LANGUAGES, codeRequestFrom, generateCode, isCodeLanguage, programNeeds } from '../core/codegen';
import { parseCommand } from './args';
import { failureMessage, loadTarget } from './prepare';
import { UsageError, type Io } from './usage';

const LANGUAGE_LIST = CODE_LANGUAGES.map((l) => `  ${l.id.padEnd(16)}${l.label}`).join('\n');

const CODE_HELP = `Usage: tradereq code FILE [--request NAME|INDEX] --lang LANG [--env NAME] [--base-url URL]
                     [--out FILE] [--force]

Prints a complete program that sends a request of FILE as tradereq send would: the same query
string and body (strict percent-encoding, same order, same placement), the timestamp taken and
the HMAC-SHA256 signature computed when the program runs, with the keys read from environment
variables. The program holds no secret; it prints the status, then the body.

  --lang LANG           the language:
${LANGUAGE_LIST}
  --request NAME|INDEX  the request named by "# @name NAME", or its position (1 is the first);
                        needed when the file holds more than one request
  --env NAME            environment of tradereq.env.json whose variables and base URL are used
                        (default: TRADEREQ_ENV, the file's only environment, or "sandbox")
  --base-url URL        the base URL written into the program (TRADEREQ_BASE_URL overrides it
                        when the program runs)
  --out FILE            write the program here instead of standard output
  --force               overwrite FILE when it exists
  -h, --help            this help

Keys: the program reads TRADEREQ_<PROFILE>_API_KEY and TRADEREQ_<PROFILE>_SECRET_KEY of the
request's key profile (TRADEREQ_API_KEY and TRADEREQ_SECRET_KEY without one). {{$timestamp}},
{{$uuid}} and {{$clientOrderId}} are made when it runs; {{NAME.response.PATH}} becomes an argument
of the program.

A request that asks before it goes (# @confirm, or an order to an environment with "confirm": true)
becomes a program that asks too: it shows the order and asks y/N in a terminal, and without one
sends only when run with --yes (exit code 4 otherwise, nothing sent).

Exit codes: 0 the program was printed or written; 2 bad input (the request cannot become a program,
or --out exists without --force).`;

const CODE_OPTIONS = {
  request: { type: 'string' },
  lang: { type: 'string' },
  env: { type: 'string' },
  'base-url': { type: 'string' },
  out: { type: 'string' },
  force: { type: 'boolean' },
} as const;

export function codeCommand(args: string[], io: Io): number {
  const { values, positionals } = parseCommand('code', args, CODE_OPTIONS);
  if (values.help) {
    io.out(CODE_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('code takes one FILE. See: tradereq code --help');
  const language = values.lang;
  const known = CODE_LANGUAGES.map((l) => l.id).join(', ');
  if (language === undefined) throw new UsageError(`code needs --lang: one of ${known}`);
  if (!isCodeLanguage(language)) throw new UsageError(`--lang must be one of ${known}, not "${language}"`);
  const target = loadTarget(io, {
    file: positionals[0]!,
    request: values.request,
    env: values.env,
    baseUrl: values['base-url'],
  });
  const model = codeRequestFrom(target.file.doc, target.requests[0]!, target.environment);
  if (!model.ok) throw new UsageError(failureMessage(target.file, model.error));
  const program = generateCode(model.value, language);
  if (!program.ok) throw new UsageError(`this request cannot become a program: ${program.error}`);
  if (values.out === undefined) {
    io.out(program.value);
    io.err(programNeeds(model.value));
    return 0;
  }
  writeProgram(resolve(io.cwd, values.out), program.value, values.force === true);
  io.err(`Wrote ${values.out}. ${programNeeds(model.value)}`);
  return 0;
}

function writeProgram(path: string, text: string, force: boolean): void {
  if (!force && existsSync(path)) throw new UsageError(`${path} exists: choose another --out or add --force`);
  try {
    // Executable for its owner: the scripts start with #! lines.
    writeFileSync(path, text, { encoding: 'utf8', mode: 0o755 });
  } catch (e) {
    throw new UsageError(`cannot write ${path} (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
}
