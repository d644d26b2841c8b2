/** Standard input for the commands that read it (`import curl`, `doctor`), bounded in size and time. */
import { INPUT } from './messages';
import { UsageError } from './usage';

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
