/**
 * The last answer of each named request of a file, kept in the state folder between runs of the
 * command line, so that `send FILE --request cancel` can read `{{buy.response.orderId}}` from an
 * earlier `send FILE --request buy`. Kept per file, environment and origin (an answer of the sandbox
 * never feeds a live request), bounded in count and size, with listen keys masked: a kept answer
 * holds no secret. A file that cannot be read is ignored with a warning: it gates nothing.
 */
import { resolve } from 'node:path';
import { BOUNDS } from '../bounds';
import { nestsDeeperThan } from '../format/json-value';
import { LockedFile, type StateUnavailable } from '../budget/locked-file';
import { hideListenKeys, listenKeysInAnswer } from './listen-keys';
import { err, ok, type Result } from '../result';
import * as z from '../zod-mini';

export const KEPT_ANSWERS = {
  /** Answers kept in all; the oldest goes first. */
  count: 200,
  /** An answer's JSON text longer than this is not kept (a warning says so when it comes). */
  answerChars: 64 * 1024,
  /** The file is read only up to this size: count × answerChars, with room for the rest. */
  fileBytes: 16 * 1024 * 1024,
} as const;

/** Where an answer belongs: the request file (absolute), the environment, the origin, the `# @name`. */
export interface AnswerKey {
  readonly file: string;
  readonly environment: string;
  readonly origin: string;
  readonly name: string;
}

export interface KeptAnswer extends AnswerKey {
  /** When it was received, in ms. */
  readonly at: number;
  readonly json: unknown;
}

// Made on first use: a send that reads no kept answer does not pay for making them.
const FileSchema = z.onFirstUse(() =>
  z.object({
    version: z.literal(1),
    answers: z
      .array(
        z.object({
          file: z.string().check(z.maxLength(4096)),
          environment: z.string().check(z.maxLength(256)),
          origin: z.string().check(z.maxLength(2048)),
          name: z.string().check(z.maxLength(256)),
          at: z.number().check(z.nonnegative()),
          // Written out again when the next answer is kept, by JSON.stringify, which recurses.
          json: z.unknown().check(z.refine((json) => !nestsDeeperThan(json, BOUNDS.prettyJsonDepth))),
        }),
      )
      .check(z.maxLength(KEPT_ANSWERS.count)),
  }),
);

type AnswersFile = z.infer<ReturnType<typeof FileSchema>>;

function sameKey(a: AnswerKey, b: AnswerKey): boolean {
  return a.file === b.file && a.environment === b.environment && a.origin === b.origin && a.name === b.name;
}

/** Why an answer is not kept: its JSON text is past KEPT_ANSWERS.answerChars, or it nests past BOUNDS.prettyJsonDepth. */
type NotKept = 'too-large' | 'too-deep';

/**
 * The answer as kept: every listen key it holds masked (listen-keys.ts), everywhere it occurs;
 * undefined when masking left no JSON (a hostile answer whose "listen key" is a `}`): not kept.
 */
function masked(json: unknown): unknown {
  const keys = listenKeysInAnswer(json);
  if (keys.length === 0) return json;
  try {
    return JSON.parse(hideListenKeys(JSON.stringify(json), keys)) as unknown;
  } catch {
    return undefined;
  }
}

export class KeptAnswers {
  private readonly file: LockedFile;

  constructor(dir: string) {
    this.file = new LockedFile(dir, 'answers.json');
  }

  get location(): string {
    return this.file.path;
  }

  /** The answers kept, or why they cannot be read (then none is used, and the next one kept replaces them). */
  private load(): Result<AnswersFile, string> {
    const text = this.file.read(KEPT_ANSWERS.fileBytes);
    if (!text.ok) return err(text.error);
    if (text.value === undefined) return ok({ version: 1, answers: [] });
    try {
      const parsed = FileSchema().safeParse(JSON.parse(text.value));
      return parsed.success ? ok(parsed.data) : err('it does not have the expected shape');
    } catch {
      return err('it is not valid JSON');
    }
  }

  /** Every kept answer; or why they cannot be read. */
  read(): Result<readonly KeptAnswer[], string> {
    const loaded = this.load();
    return loaded.ok ? ok(loaded.value.answers) : loaded;
  }

  /** Keeps `json` as the last answer for `key` (undefined), or says why not: not kept, or the file cannot be written. */
  keep(key: AnswerKey, json: unknown, at: number): Result<NotKept | undefined, StateUnavailable> {
    // Walked without recursion first: masking and writing it out use JSON.stringify, which recurses.
    const answer = nestsDeeperThan(json, BOUNDS.prettyJsonDepth) ? undefined : masked(json);
    const notKept: NotKept | undefined =
      answer === undefined
        ? 'too-deep'
        : JSON.stringify(answer).length > KEPT_ANSWERS.answerChars
          ? 'too-large'
          : undefined;
    // Not kept: the older answer goes too, so that a later run never reads one that is not the last.
    return this.file.update(() => {
      const loaded = this.load();
      const others = loaded.ok ? loaded.value.answers.filter((a) => !sameKey(a, key)) : [];
      const answers = notKept ? others : [...others, { ...key, at, json: answer }].slice(-KEPT_ANSWERS.count);
      return { text: JSON.stringify({ version: 1, answers }), result: notKept };
    });
  }
}

/** An answer read from an earlier run: which request, and when it came. */
export interface UsedAnswer {
  readonly name: string;
  readonly at: number;
}

/**
 * The responses a run of the command line chains from: the run's own, and for a request that is
 * not part of the run, the answer an earlier run kept. Each answer the run receives is kept.
 */
export class ChainedResponses {
  private readonly run = new Map<string, unknown>();
  /** The answers earlier runs kept, read once per run (the file may be megabytes; resolving asks per variable). */
  private kept: Result<readonly KeptAnswer[], string> | undefined;
  /** Answers of earlier runs read since the last `take()`. */
  private used = new Map<string, UsedAnswer>();
  /** Why kept answers could not be read or written: each told once. */
  private readonly warned = new Set<string>();
  private warnings: string[] = [];

  constructor(
    private readonly store: KeptAnswers,
    private readonly where: Omit<AnswerKey, 'name'>,
    /** The `# @name`s of the requests this run sends: their answers come from this run only. */
    private readonly runNames: ReadonlySet<string>,
    private readonly now: () => number = Date.now,
  ) {}

  get(name: string): unknown {
    if (this.runNames.has(name)) return this.run.get(name);
    this.kept ??= this.store.read();
    if (!this.kept.ok) {
      this.warn(`kept answers in ${this.store.location} are not used: ${this.kept.error}`);
      return undefined;
    }
    const found = this.kept.value.find((a) => sameKey(a, { ...this.where, name }));
    if (found) this.used.set(name, { name, at: found.at });
    return found?.json;
  }

  set(name: string, json: unknown): void {
    this.run.set(name, json);
    const kept = this.store.keep({ ...this.where, name }, json, this.now());
    if (!kept.ok) this.warn(`the answer of "${name}" is not kept in ${kept.error.location} (${kept.error.reason})`);
    else if (kept.value === 'too-large')
      this.warn(
        `the answer of "${name}" is larger than ${KEPT_ANSWERS.answerChars} characters: not kept for later runs`,
      );
    else if (kept.value === 'too-deep')
      this.warn(`the answer of "${name}" nests deeper than ${BOUNDS.prettyJsonDepth} levels: not kept for later runs`);
  }

  private warn(message: string): void {
    if (!this.warned.has(message)) this.warnings.push(message);
    this.warned.add(message);
  }

  /** The earlier runs' answers read, and the new warnings, since the last call. */
  take(): { used: UsedAnswer[]; warnings: string[] } {
    const taken = { used: [...this.used.values()], warnings: this.warnings };
    this.used = new Map();
    this.warnings = [];
    return taken;
  }
}

/** A request file's key: its absolute path, as every run spells it. */
export function answerFile(path: string): string {
  return resolve(path);
}
