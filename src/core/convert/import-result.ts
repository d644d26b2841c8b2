/**
 * What every importer returns, and its limits. Importers are pure: text in, files and notes out;
 * the shells (command line, editor) read and write the files.
 */
import type { WrittenEnvironmentFile } from '../env/schema';

export interface ImportedFile {
  /** Relative to the folder the user chose, e.g. `account.tradereq`. */
  readonly path: string;
  readonly text: string;
}

export interface ImportResult {
  readonly files: readonly ImportedFile[];
  /** Environments for a `tradereq.env.json` (never a secret), when the source named a base URL or variables. */
  readonly environment?: WrittenEnvironmentFile;
  /** Everything that was not carried over as it was, one sentence each: nothing is dropped silently. */
  readonly notes: readonly string[];
  /** How many requests the files hold. */
  readonly requestCount: number;
}

/** Input that cannot be imported at all: one clear sentence, shown as is (exit 2 on the command line). */
export class ConvertError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConvertError';
  }
}

/** Bounds on hostile input, so an import takes little time and memory whatever it is given. */
export const IMPORT_LIMITS = {
  /** Characters of one input (a cURL line, a collection, an environment, a .http file). */
  maxInputChars: 4 * 1024 * 1024,
  /** Requests in one import. */
  maxRequests: 5000,
  /** Nesting of JSON values and of Postman folders. */
  maxDepth: 64,
  /** Characters of one Postman test script read for checks to write as `# @expect` lines (postman-checks.ts). */
  maxScriptChars: 64 * 1024,
  /** Checks read from one Postman test script. */
  maxChecks: 100,
  /** Characters of one check of a Postman test script. */
  maxCheckChars: 500,
} as const;

export function checkInputSize(what: string, text: string): void {
  if (text.length > IMPORT_LIMITS.maxInputChars)
    throw new ConvertError(
      `${what} is ${text.length} characters long, more than the ${IMPORT_LIMITS.maxInputChars} an import reads: split it`,
    );
}
