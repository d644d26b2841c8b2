/**
 * `tradereq __complete requests|envs [FILE]`: the names the completion script (completion.ts)
 * offers on a Tab, one a line: the `# @name`s of a request file, or the environments of the
 * tradereq.env.json a request file (or the current folder) uses. Hidden, and light: the parser
 * and the env file's reading only. Names come from files that may be hostile: only those made of
 * letters, digits and `._:-` are printed, so nothing a shell could read as syntax reaches it.
 */
import { dirname, resolve } from 'node:path';
import { findEnvironmentFile, readEnvironmentFile, readRequestFile } from './workspace';
import { isUsageError, type Io } from './usage';

/** A name the completion offers: plain, and short (a longer one is typed, not completed). */
const SAFE_NAME = /^[\p{L}\p{N}._:-]{1,100}$/u;

export function completeCommand(args: string[], io: Io): number {
  const [kind, file] = args;
  try {
    const names =
      kind === 'requests' && file !== undefined ? requestNames(file, io) : kind === 'envs' ? envNames(file, io) : [];
    const safe = names.filter((n) => SAFE_NAME.test(n));
    if (safe.length > 0) io.out(safe.join('\n'));
  } catch (e) {
    // A file that cannot be read offers nothing: a Tab never prints an error into the command line.
    if (!isUsageError(e)) throw e;
  }
  return 0;
}

function requestNames(file: string, io: Io): string[] {
  return readRequestFile(file, io.cwd).doc.requests.flatMap((r) => (r.name ? [r.name.text] : []));
}

function envNames(file: string | undefined, io: Io): string[] {
  const envPath = findEnvironmentFile(file === undefined ? io.cwd : dirname(resolve(io.cwd, file)));
  return envPath === undefined ? [] : Object.keys(readEnvironmentFile(envPath));
}
