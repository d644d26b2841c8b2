/**
 * `tradereq completion bash|zsh|fish`: a completion script for the shell. Its table of commands,
 * options and sub-commands is read from the commands' own --help texts (messages.ts: one home, so
 * an option a command gains is completed once its help names it); request names (after
 * --request) and environment names (after --env) are asked of `tradereq __complete` (complete.ts)
 * on each Tab. The script never evaluates what a file holds: names arrive one a line, are compared
 * as text and added as words.
 */
import type { CompletionCommand } from './completion-command';
import { COMPLETION } from './messages';
import { UsageError, type Io } from './usage';

const SHELLS = ['bash', 'zsh', 'fish'] as const;

export interface CommandEntry {
  readonly name: string;
  /** Every option its help names (--request), and whether it takes a value (--request NAME). */
  readonly options: readonly { readonly name: string; readonly value: boolean }[];
  /** The words its usage lines start with (state show|reset, import curl|postman|http). */
  readonly subcommands: readonly string[];
}

export async function completionCommand(
  args: string[],
  io: Io,
  commands: readonly string[],
  helpOf: (command: string) => Promise<string>,
): Promise<number> {
  const [shell, ...rest] = args;
  if (shell === '--help' || shell === '-h') {
    io.out(COMPLETION.help);
    return 0;
  }
  if (shell === undefined || rest.length > 0 || !(SHELLS as readonly string[]).includes(shell))
    throw new UsageError(COMPLETION.shell(SHELLS));
  const table: CommandEntry[] = [];
  for (const name of commands) table.push(entryOf(name, await helpOf(name)));
  const scripted = table.map(words);
  io.out(shell === 'fish' ? COMPLETION.fish(scripted) : COMPLETION.bash(shell === 'zsh', scripted));
  return 0;
}

/** A command's options and sub-commands, read from its --help: the option lines' first column, and its usage lines. */
export function entryOf(name: string, help: string): CommandEntry {
  const options = new Map<string, boolean>();
  for (const line of help.split('\n')) {
    if (!/^ {2,}(-[a-z], )?--[a-z]/.test(line)) continue;
    const column = line.trim().split(/ {2,}/)[0]!;
    for (const m of column.matchAll(/--([a-z][a-z0-9-]*)( \[?[A-Z])?/g))
      options.set(m[1]!, m[2] !== undefined && !m[2].includes('['));
  }
  const subcommands = new Set<string>();
  for (const m of help.matchAll(new RegExp(`tradereq ${name} \\[?([a-z][a-z|]*)\\]?(?= |$)`, 'gm')))
    for (const word of m[1]!.split('|')) subcommands.add(word);
  return {
    name,
    options: [...options].map(([option, value]) => ({ name: option, value })),
    subcommands: [...subcommands],
  };
}

/** What a script needs of a command: its options' words, the ones that take a value, its sub-commands. */
function words(c: CommandEntry): CompletionCommand {
  return {
    name: c.name,
    options: c.options.map((o) => `--${o.name}`),
    values: c.options.filter((o) => o.value).map((o) => `--${o.name}`),
    subcommands: c.subcommands,
  };
}
