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
import { CODE } from './messages';
import { UsageError, type Io } from './usage';

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
    io.out(CODE.help(CODE_LANGUAGES));
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(CODE.takesOneFile);
  const language = values.lang;
  const known = CODE_LANGUAGES.map((l) => l.id);
  if (language === undefined) throw new UsageError(CODE.needsLang(known));
  if (!isCodeLanguage(language)) throw new UsageError(CODE.unknownLang(known, language));
  const target = loadTarget(io, {
    file: positionals[0]!,
    request: values.request,
    env: values.env,
    baseUrl: values['base-url'],
  });
  const model = codeRequestFrom(target.file.doc, target.requests[0]!, target.environment);
  if (!model.ok) throw new UsageError(failureMessage(target.file, model.error));
  const program = generateCode(model.value, language);
  if (!program.ok) throw new UsageError(CODE.cannotBecomeProgram(program.error));
  if (values.out === undefined) {
    io.out(program.value);
    io.err(programNeeds(model.value));
    return 0;
  }
  writeProgram(resolve(io.cwd, values.out), program.value, values.force === true);
  io.err(CODE.wrote(values.out, programNeeds(model.value)));
  return 0;
}

function writeProgram(path: string, text: string, force: boolean): void {
  if (!force && existsSync(path)) throw new UsageError(CODE.exists(path));
  try {
    // Executable for its owner: the scripts start with #! lines.
    writeFileSync(path, text, { encoding: 'utf8', mode: 0o755 });
  } catch (e) {
    throw new UsageError(CODE.cannotWrite(path, (e as NodeJS.ErrnoException).code ?? String(e)));
  }
}
