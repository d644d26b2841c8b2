/** Files the command line reads: request files and the environment file beside or above them. */
import { lstatSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse } from '../core/format/parser';
import type { RequestBlock, TradeReqDocument } from '../core/format/model';
import type { NamedEnvironment } from '../core/env/constants';
import { chooseEnvironment, envFileCandidates } from '../core/env/lookup';
import type { EnvironmentFile } from '../core/env/schema';
import { BOUNDS, formatSize } from '../core/bounds';
import { fileProblemText, readRepoFileSync, type FileProblem } from '../core/repo-file';
import { INPUT } from './messages';
import { UsageError } from './usage';

export interface LoadedFile {
  readonly path: string;
  /** The path as the user typed it, for messages. */
  readonly displayPath: string;
  readonly text: string;
  readonly doc: TradeReqDocument;
}

/** A request file: a plain file of the folder it is named in (a link may lead only inside it), read within BOUNDS.fileChars. */
export function readRequestFile(path: string, cwd: string): LoadedFile {
  const full = resolve(cwd, path);
  const file = readRepoFileSync(full, dirname(full), BOUNDS.fileChars);
  if (!file.ok) throw new UsageError(requestFileProblem(path, file.error));
  const text = file.value.bytes.toString('utf8');
  return { path: full, displayPath: path, text, doc: parse(text) };
}

function requestFileProblem(path: string, problem: FileProblem): string {
  if (problem.kind === 'missing') return INPUT.noSuchFile(path);
  if (problem.kind === 'too-large') return INPUT.tooLarge(path, problem.bytes, formatSize(BOUNDS.fileChars));
  if (problem.kind === 'unreadable') return INPUT.cannotRead(path, problem.code);
  if (problem.kind === 'not-a-file' && problem.what === 'folder') return INPUT.folderNotRequestFile(path);
  return fileProblemText(path, problem);
}

/**
 * The nearest tradereq.env.json in `fromDir` or above it: whatever is there (a link, a folder, a
 * FIFO) is the one, read or refused, never passed over for one further up.
 */
export function findEnvironmentFile(fromDir: string): string | undefined {
  return envFileCandidates(resolve(fromDir), dirname, join).find((candidate) => {
    try {
      return lstatSync(candidate, { throwIfNoEntry: false }) !== undefined;
    } catch {
      return false;
    }
  });
}

/**
 * The environments of `envPath`, validated: a plain file of its own folder (a link may lead only
 * inside it), read within BOUNDS.envFileBytes; past either, bad input.
 */
export function readEnvironmentFile(envPath: string): EnvironmentFile {
  const file = readRepoFileSync(envPath, dirname(envPath), BOUNDS.envFileBytes);
  if (!file.ok)
    throw new UsageError(
      file.error.kind === 'too-large'
        ? INPUT.envFileTooLarge(envPath, formatSize(BOUNDS.envFileBytes))
        : fileProblemText(envPath, file.error),
    );
  // The schema (and zod with it) loads only when there is a file to validate: a bundle of its own.
  const { parseEnvironmentFile } = require('../core/env/schema') as typeof import('../core/env/schema');
  const parsed = parseEnvironmentFile(file.value.bytes.toString('utf8'));
  if (!parsed.ok) throw new UsageError(`${envPath}: ${parsed.error}`);
  return parsed.value;
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
  const chosen = chooseEnvironment(readEnvironmentFile(envPath), name, envPath);
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
