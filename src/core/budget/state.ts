/**
 * State that the command line, the editor and a restart share: rate-limit counters, Retry-After
 * and ban deadlines, clock offsets. Kept as JSON in an OS-appropriate state folder; validated on
 * load, written atomically. Holds no key: accounts are named by a hash of the API key.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

const Entry = z.tuple([z.number(), z.number()]);

const OriginState = z.object({
  /** [time ms, weight] of each request counted against the IP (§8: per IP for unsigned endpoints). */
  ip: z.array(Entry).default([]),
  /** Per account (API key hash): [time ms, weight] (§8: per account for signed endpoints). */
  accounts: z.record(z.string(), z.array(Entry)).default({}),
  /** After a 429 or 418: no request to this origin until `until` (§8 rules 1–4). */
  blocked: z.object({ until: z.number(), status: z.number().int(), since: z.number() }).optional(),
  /** The last measured offset of the server clock (see src/core/clock). */
  clock: z.object({ offsetMs: z.number(), roundTripMs: z.number(), measuredAt: z.number() }).optional(),
});

export const StateSchema = z.object({
  version: z.literal(1),
  origins: z.record(z.string(), OriginState).default({}),
});

export type State = z.infer<typeof StateSchema>;
export type OriginStateT = z.infer<typeof OriginState>;

export function emptyState(): State {
  return { version: 1, origins: {} };
}

export function originState(state: State, origin: string): OriginStateT {
  return (state.origins[origin] ??= { ip: [], accounts: {} });
}

/** Storage of the state; a test or the editor can pass its own. */
export interface StateStore {
  read(): State;
  /** Reads the latest state, applies `change`, writes it back, and returns what `change` returned. */
  update<T>(change: (state: State) => T): T;
}

export class MemoryStateStore implements StateStore {
  private state = emptyState();
  read(): State {
    return structuredClone(this.state);
  }
  update<T>(change: (state: State) => T): T {
    return change(this.state);
  }
}

/** `TRADEREQ_STATE_DIR`, else the platform's state folder. */
export function defaultStateDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env['TRADEREQ_STATE_DIR']) return env['TRADEREQ_STATE_DIR'];
  if (platform === 'win32') return join(env['LOCALAPPDATA'] ?? join(homedir(), 'AppData', 'Local'), 'TradeReq');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'TradeReq');
  return join(env['XDG_STATE_HOME'] ?? join(homedir(), '.local', 'state'), 'tradereq');
}

export class FileStateStore implements StateStore {
  readonly path: string;

  constructor(readonly dir: string = defaultStateDir()) {
    this.path = join(dir, 'state.json');
  }

  read(): State {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return emptyState();
    }
    try {
      const parsed = StateSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : emptyState();
    } catch {
      return emptyState();
    }
  }

  update<T>(change: (state: State) => T): T {
    const state = this.read();
    const result = change(state);
    mkdirSync(this.dir, { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(state), { mode: 0o600 });
    renameSync(tmp, this.path);
    return result;
  }
}

/** Names an account in the state without storing its API key. */
export function accountId(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
}
