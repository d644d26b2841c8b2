/**
 * A command as the completion scripts of messages.ts take it (src/cli/completion.ts reads it from
 * the command's help). A module of its own: messages.ts imports nothing that imports it back.
 */
export interface CompletionCommand {
  readonly name: string;
  readonly options: readonly string[];
  /** The options that take a value (a file name is completed after them). */
  readonly values: readonly string[];
  readonly subcommands: readonly string[];
}
