/**
 * "Copy as code" and `tradereq code`: a complete program that sends one request the way
 * `tradereq send` does (docs/format.md, Signing), signing at run time with keys read from the
 * environment. Pure: text in, text out.
 */
import { generateGo } from './go';
import { CODE_LANGUAGES, type CodeLanguage, type CodeRequest } from './program-model';
import { generateNode } from './node';
import { CodegenError, planProgram } from './plan';
import { err, ok, type Result } from '../result';
import { generatePython } from './python';
import { generateShell } from './shell';
import { generateStreamProgram, type StreamCodeRequest } from './stream-program';

export { CODE_LANGUAGES, type CodeLanguage, type CodeRequest } from './program-model';
export type { NamedValue, Piece, Value } from './program-model';
export { codeRequestFrom, programNeeds } from './adapter';
export type { StreamCodeRequest } from './stream-program';

export function isCodeLanguage(id: string): id is CodeLanguage {
  return CODE_LANGUAGES.some((l) => l.id === id);
}

/**
 * The program's source text in `language`, or why the request cannot become a program (a name
 * that is not an identifier, a header that cannot be sent, and so on).
 */
export function generateCode(request: CodeRequest | StreamCodeRequest, language: CodeLanguage): Result<string, string> {
  if ('kind' in request) return generateStreamProgram(request, language);
  try {
    return ok(program(request, language));
  } catch (e) {
    // The planner unwinds with CodegenError from deep inside; the refusal becomes a value here.
    if (e instanceof CodegenError) return err(e.message);
    throw e;
  }
}

function program(request: CodeRequest, language: CodeLanguage): string {
  const plan = planProgram(request);
  switch (language) {
    case 'python':
      return generatePython(plan, false);
    case 'python-requests':
      return generatePython(plan, true);
    case 'node':
      return generateNode(plan);
    case 'go':
      return generateGo(plan);
    case 'shell':
      return generateShell(plan);
  }
}
