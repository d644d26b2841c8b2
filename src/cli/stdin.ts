/** Standard input for the commands that read it (`import curl`, `doctor`, `check -`, `test -`), bounded in size and time. */
import { resolve } from 'node:path';
import { BOUNDS, formatSize } from '../core/bounds';
import { parse } from '../core/format/parser';
import { err, type Result } from '../core/result';
import type { DataSource } from '../core/format/directives';
import type { DataTable } from '../core/testing/data';
import { INPUT } from './messages';
import { UsageError, type Io } from './usage';
import type { LoadedFile } from './workspace';

const STDIN_TIMEOUT_MS = 10_000;

export interface StdinRead {
  /** Up to this many bytes; more is bad input. */
  readonly maxBytes: number;
  /** Said when standard input is a terminal: how to give the input instead. */
  readonly onTerminal: string;
  /** Said when the input is longer than maxBytes. */
  readonly tooLong: string;
}

export async function readStdin(read: StdinRead): Promise<string> {
  const stdin = process.stdin;
  if (stdin.isTTY) throw new UsageError(read.onTerminal);
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(
      () => finish(new UsageError(INPUT.stdinTimeout(STDIN_TIMEOUT_MS / 1000))),
      STDIN_TIMEOUT_MS,
    );
    const finish = (error?: Error): void => {
      clearTimeout(timer);
      stdin.removeAllListeners('data').removeAllListeners('end').removeAllListeners('error');
      stdin.pause();
      if (error) reject(error);
      else resolvePromise(Buffer.concat(chunks).toString('utf8'));
    };
    stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > read.maxBytes) finish(new UsageError(read.tooLong));
      else chunks.push(chunk);
    });
    stdin.on('end', () => finish());
    stdin.on('error', (e) => finish(new UsageError(INPUT.stdinFailed(e.message))));
  });
}

/** A request file named `-`: read from standard input (`tradereq check -`, `tradereq test -`). */
export const STDIN_PATH = '-';

/**
 * A request file read from standard input, within the bound of a file (BOUNDS.fileChars, while
 * reading). It has no folder of its own: it stands in the current folder as "-", so its
 * environment is the current folder's tradereq.env.json (or one above it), as for a file there;
 * a `# @data` file is never read for it (stdinDataRefused): the text may come from anywhere, and
 * would otherwise choose a file of the current folder to send.
 */
export async function readRequestStdin(io: Io): Promise<LoadedFile> {
  const most = formatSize(BOUNDS.fileChars);
  const text = await readStdin({
    maxBytes: BOUNDS.fileChars,
    onTerminal: INPUT.stdinIsTerminal,
    tooLong: INPUT.stdinTooLarge(most),
  });
  return { path: resolve(io.cwd, STDIN_PATH), displayPath: STDIN_PATH, text, doc: parse(text) };
}

/** The rows of a `# @data` file of a request file read from standard input: refused (readRequestStdin). */
export function stdinDataRefused(source: DataSource): Result<DataTable, string> {
  return err(INPUT.dataFromStdin(source.path));
}
