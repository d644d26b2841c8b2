/**
 * Everything the command line prints goes through terminalSafe, by construction (safeIo wraps the
 * writers every command gets): request files, tradereq.env.json and server answers are hostile,
 * and an escape sequence among them could rewrite the terminal. Control characters are shown as
 * \u escapes; line breaks and tabs stay. JSON output stays valid JSON (\uXXXX is a JSON escape).
 */
import type { Io } from './usage';

export function terminalSafe(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'),
  );
}

/** `io` whose writers make every line safe for a terminal. */
export function safeIo(io: Io): Io {
  return { ...io, out: (text) => io.out(terminalSafe(text)), err: (text) => io.err(terminalSafe(text)) };
}

/**
 * A closed pipe (`tradereq check big.tradereq | head`) ends the command quietly, with the exit code
 * it had so far, instead of an EPIPE stack.
 */
export function exitQuietlyOnClosedPipe(streams: readonly NodeJS.WriteStream[]): void {
  for (const stream of streams) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      process.exit(e.code === 'EPIPE' ? (typeof process.exitCode === 'number' ? process.exitCode : 0) : 3);
    });
  }
}
