/**
 * Everything the command line prints goes through terminalSafe, by construction (safeIo wraps the
 * writers every command gets): request files, tradereq.env.json and server answers are hostile,
 * and an escape sequence among them could rewrite the terminal. Control characters are shown as
 * \u escapes; line breaks and tabs stay. JSON output stays valid JSON (\uXXXX is a JSON escape).
 */
import type { Io, Piece, Style } from './usage';

export function terminalSafe(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'),
  );
}

const SGR: Readonly<Record<Style, string>> = { bold: '1', dim: '2', red: '31', green: '32', yellow: '33' };

/** The pieces as text: each made safe first, so that colour codes are the only escapes written. */
export function paintText(pieces: readonly Piece[], colour: boolean): string {
  return pieces
    .map((p) =>
      typeof p === 'string'
        ? terminalSafe(p)
        : colour
          ? `\x1b[${SGR[p.style]}m${terminalSafe(p.text)}\x1b[0m`
          : terminalSafe(p.text),
    )
    .join('');
}

/** `io` whose writers make every line safe for a terminal; `paint` adds colour where `io.colour` allows. */
export function safeIo(io: Io): Io {
  return {
    ...io,
    out: (text) => io.out(terminalSafe(text)),
    err: (text) => io.err(terminalSafe(text)),
    paint: (pieces) => io.out(paintText(pieces, io.colour === true)),
  };
}

/** Standard output in colour: a terminal, no NO_COLOR (https://no-color.org), no --no-color, not TERM=dumb. */
export function colourWanted(env: NodeJS.ProcessEnv, noColorFlag: boolean): boolean {
  return !noColorFlag && !env['NO_COLOR'] && env['TERM'] !== 'dumb' && process.stdout.isTTY === true;
}

/** Writes `pieces` through `io.paint`, or as plain text where the io has none. */
export function paint(io: Io, pieces: readonly Piece[]): void {
  if (io.paint) io.paint(pieces);
  else io.out(paintText(pieces, false));
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
