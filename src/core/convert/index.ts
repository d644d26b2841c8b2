/**
 * Import into `.tradereq` files: cURL commands, Postman collections v2.1 (with an environment)
 * and `.http` / `.rest` files. Pure functions (no file system, no vscode); the shells write the
 * files and show the notes. Input that cannot be imported at all is the failure, in one sentence.
 */
import { err, ok, type Result } from '../result';
import { curlImport, type CurlOptions } from './curl';
import { httpImport, type HttpImportOptions } from './http';
import { postmanImport } from './postman';
import { ConvertError, type ImportResult } from './import-result';

export type { CurlOptions } from './curl';
export type { HttpImportOptions } from './http';
export { IMPORT_LIMITS, type ImportResult } from './import-result';
export { importEnvironments } from './base-url';

/** The importers read hostile input and unwind with ConvertError from deep inside: caught here, once. */
function converting(run: () => ImportResult): Result<ImportResult, string> {
  try {
    return ok(run());
  } catch (e) {
    if (e instanceof ConvertError) return err(e.message);
    throw e;
  }
}

export function importCurl(input: string | readonly string[], options: CurlOptions = {}): Result<ImportResult, string> {
  return converting(() => curlImport(input, options));
}

export function importPostman(collectionText: string, environmentText?: string): Result<ImportResult, string> {
  return converting(() => postmanImport(collectionText, environmentText));
}

export function importHttpFile(text: string, options: HttpImportOptions = {}): Result<ImportResult, string> {
  return converting(() => httpImport(text, options));
}
