/** Files the command line reads: request files and the environment file beside or above them. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse } from '../core/format/parser';
import type { RequestBlock, TradeReqDocument } from '../core/format/model';
import type { NamedEnvironment } from '../core/env/constants';
import { chooseEnvironment, envFileCandidates } from '../core/env/lookup';
import { BOUNDS, formatSize } from '../core/bounds';
import { INPUT } from './messages';
import { UsageError } from './usage';

export interface LoadedFile {
  readonly path: string;
  /** The path as the user typed it, for messages. */
  readonly displayPath: string;
  readonly text: string;
  readonly doc: TradeReqDocument;
}

export function readRequestFile(path: string, cwd: string): LoadedFile {
  const full = resolve(cwd, path);
  let text: string;
  try {
    const stat = statSync(full);
    if (stat.isDirectory()) throw new UsageError(INPUT.folderNotRequestFile(path));
    if (stat.size > BOUNDS.fileChars)
      throw new UsageError(INPUT.tooLarge(path, stat.size, formatSize(BOUNDS.fileChars)));
    text = readFileSync(full, 'utf8');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? INPUT.noSuchFile(path) : INPUT.cannotRead(path, code ?? String(e)));
  }
  return { path: full, displayPath: path, text, doc: parse(text) };
}

/** The nearest tradereq.env.json in the file's folder or above it. */
function findEnvironmentFile(fromDir: string): string | undefined {
  return envFileCandidates(resolve(fromDir), dirname, join).find((candidate) => existsSync(candidate));
}

/**
 * The environment to use: --env, else TRADEREQ_ENV, else the only one the file defines, else
 * `sandbox` (the file's or the built-in one).
 */
export function selectEnvironment(
  requestPath: string,
  wanted: string | undefined,
  envVars: NodeJS.ProcessEnv,
): NamedEnvironment {
  const envPath = findEnvironmentFile(dirname(requestPath));
  const name = wanted ?? envVars['TRADEREQ_ENV'];
  if (!envPath) {
    const builtin = chooseEnvironment(undefined, name, requestPath);
    if (builtin.ok) return builtin.value;
    throw unknownEnvironment(builtin.error, wanted);
  }
  if (statSync(envPath).size > BOUNDS.envFileBytes)
    throw new UsageError(INPUT.envFileTooLarge(envPath, formatSize(BOUNDS.envFileBytes)));
  // The schema (and zod with it) loads only when there is a file to validate: a bundle of its own.
  const { parseEnvironmentFile } = require('../core/env/schema') as typeof import('../core/env/schema');
  const parsed = parseEnvironmentFile(readFileSync(envPath, 'utf8'));
  if (!parsed.ok) throw new UsageError(`${envPath}: ${parsed.error}`);
  const chosen = chooseEnvironment(parsed.value, name, envPath);
  if (chosen.ok) return chosen.value;
  throw unknownEnvironment(chosen.error, wanted);
}

/** An environment name that names none: where the name came from (--env, else TRADEREQ_ENV) and how to pick another. */
function unknownEnvironment(error: string, flag: string | undefined): UsageError {
  return new UsageError(flag !== undefined ? INPUT.unknownEnvFlag(flag, error) : INPUT.unknownEnvVariable(error));
}

/** --request NAME or a 1-based INDEX; without it the file must hold exactly one request. */
export function selectRequest(file: LoadedFile, wanted: string | undefined): RequestBlock {
  const requests = file.doc.requests;
  const list = (): string => requests.map((r, i) => `${i + 1}${r.name ? ` (${r.name.text})` : ''}`).join(', ');
  if (requests.length === 0) throw new UsageError(INPUT.noRequest(file.displayPath));
  if (wanted === undefined) {
    if (requests.length === 1) return requests[0]!;
    throw new UsageError(INPUT.chooseRequest(file.displayPath, requests.length, list()));
  }
  if (/^\d+$/.test(wanted)) {
    const r = requests[Number(wanted) - 1];
    if (!r) throw new UsageError(INPUT.noRequestAt(wanted, file.displayPath, requests.length, list()));
    return r;
  }
  const r = requests.find((x) => x.name?.text === wanted);
  if (!r) throw new UsageError(INPUT.noRequestNamed(wanted, file.displayPath, list()));
  return r;
}
