/**
 * The answers `{{NAME.response.PATH}}` reads in the editor (docs/format.md, Variables): the latest
 * JSON answer of each named request, kept in memory per request file, environment and origin (the
 * command line's AnswerKey, kept-answers.ts), so that a request reads only an answer of its own
 * file, sent in the environment and to the origin it is resolved for now. Bounded in count and
 * size, listen keys masked (format/credentials.ts): it holds no secret. The editor's Send, Sign
 * only, Copy as cURL and Connect share one store for the session; each file's run in the Testing
 * view has a store of its own, as `tradereq test` starts each file with no answers.
 */
import type { NamedEnvironment } from '../env/constants';
import type { AnswerKey } from './kept-answers';
import { hideListenKeys, listenKeysInAnswer } from './listen-keys';
import { normaliseOrigin } from './origin-binding';

const MiB = 1024 * 1024;

export const ANSWER_STORE = {
  /** Answers kept in all; past it the oldest goes first. */
  count: 200,
  /** An answer whose JSON text is longer is not kept: as much as a send keeps of a response body. */
  answerChars: 1 * MiB,
  /** The JSON text of all answers kept together; past it the oldest go first. */
  totalChars: 16 * MiB,
} as const;

/** Where a request file's answers are kept and read: its key but the `# @name`. */
export type AnswerPlace = Omit<AnswerKey, 'name'>;

/** The answers of one place, as the send pipeline reads and keeps them (PipelineDeps.responses). */
export interface PlacedAnswers {
  get(name: string): unknown;
  set(name: string, json: unknown): void;
}

/** Where the answers of `file` (as the shell names it) are kept when it is sent in `environment`. */
export function answerPlace(file: string, environment: NamedEnvironment): AnswerPlace {
  const origin = normaliseOrigin(environment.baseUrl) ?? environment.baseUrl;
  return { file, environment: environment.name, origin };
}

interface Kept {
  /** A copy of the answer as kept (listen keys masked), parsed from `chars` characters of JSON text. */
  readonly json: unknown;
  readonly chars: number;
}

export class AnswerStore {
  /** By key, oldest first (a Map keeps the order of insertion). */
  private readonly kept = new Map<string, Kept>();
  private chars = 0;

  /** The latest answer of `key`; undefined when none is kept. */
  get(key: AnswerKey): unknown {
    return this.kept.get(keyText(key))?.json;
  }

  /**
   * Keeps `json` as the latest answer of `key`, listen keys masked; false when it is too large to
   * keep. Then the older answer of `key` goes too: a later request never reads one that is not the last.
   */
  keep(key: AnswerKey, json: unknown): boolean {
    const id = keyText(key);
    this.forget(id);
    const masked = maskedCopy(json);
    if (masked === undefined) return false;
    this.kept.set(id, masked);
    this.chars += masked.chars;
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= ANSWER_STORE.count && this.chars <= ANSWER_STORE.totalChars) break;
      this.forget(oldest);
    }
    return true;
  }

  /** The answers of `place`; `notKept` is told the name of each answer too large to keep. */
  at(place: AnswerPlace, notKept?: (name: string) => void): PlacedAnswers {
    return {
      get: (name) => this.get({ ...place, name }),
      set: (name, json) => {
        if (!this.keep({ ...place, name }, json)) notKept?.(name);
      },
    };
  }

  private forget(id: string): void {
    const old = this.kept.get(id);
    if (old === undefined) return;
    this.kept.delete(id);
    this.chars -= old.chars;
  }
}

/** One text per key, whatever characters its parts hold. */
function keyText(key: AnswerKey): string {
  return JSON.stringify([key.file, key.environment, key.origin, key.name]);
}

/**
 * A copy of the answer with every listen key it holds masked, everywhere it occurs; undefined when
 * its JSON text is longer than ANSWER_STORE.answerChars, or it is nested deeper than JSON.stringify
 * can write, or masking left no JSON (a hostile answer whose "listen key" is a `}`).
 */
function maskedCopy(json: unknown): Kept | undefined {
  try {
    const text = JSON.stringify(json) as string | undefined;
    if (text === undefined || text.length > ANSWER_STORE.answerChars) return undefined;
    const keys = listenKeysInAnswer(json);
    const masked = keys.length === 0 ? text : hideListenKeys(text, keys);
    return masked.length > ANSWER_STORE.answerChars ? undefined : { json: JSON.parse(masked), chars: masked.length };
  } catch {
    // Too deep for the stack (a RangeError), or not JSON once masked: not kept.
    return undefined;
  }
}
