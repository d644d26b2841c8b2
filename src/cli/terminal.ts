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

/** FORCE_COLOR's values that turn colour on (Node's: 16 colours, 256, 16 million; "" and "true" as 1). */
const FORCED_ON: ReadonlySet<string> = new Set(['', '1', '2', '3', 'true']);

/**
 * Standard output in colour. --no-color first (the command line says it, for this run); then
 * FORCE_COLOR as Node's own tty.WriteStream#getColorDepth reads it: empty, 1, 2, 3 or true turn
 * colour on, even piped, over NO_COLOR and TERM=dumb (as https://force-color.org orders them); any
 * other value (0, false) turns it off; else a terminal without NO_COLOR (https://no-color.org: any
 * non-empty value) and not TERM=dumb.
 */
export function colourWanted(
  env: NodeJS.ProcessEnv,
  noColorFlag: boolean,
  isTerminal = process.stdout.isTTY === true,
): boolean {
  if (noColorFlag) return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return FORCED_ON.has(force);
  return !env['NO_COLOR'] && env['TERM'] !== 'dumb' && isTerminal;
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
