/** Bad input: one clear line on stderr and exit code 2, nothing sent. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A UsageError, also one from another bundle of the command line (each command has its own copy of this class). */
export function isUsageError(e: unknown): e is UsageError {
  return e instanceof Error && e.name === 'UsageError';
}

export type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow';
/** A piece of output: plain text, or text in a style (coloured only on a colour terminal: terminal.ts paint). */
export type Piece = string | { readonly style: Style; readonly text: string };

export interface Io {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Whether standard output takes colour (main.ts decides: a terminal, no NO_COLOR, no --no-color). */
  readonly colour?: boolean;
  /** Writes pieces of text, each made safe, in colour where `colour` (terminal.ts safeIo). */
  readonly paint?: (pieces: readonly Piece[]) => void;
}

export const processIo: Io = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : text + '\n'),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : text + '\n'),
  env: process.env,
  cwd: process.cwd(),
};
