/**
 * zod's light form for what loads where people wait (the command line): zod/mini's functions keep
 * a bundle to the parts it uses (tens of KB instead of zod's 450 KB), and zod's English messages,
 * which zod/mini leaves out, keep every message as zod words it. Import it as a namespace,
 * `import * as z from '../zod-mini'`: re-exporting one `z` object would bundle all of zod/mini.
 */
import { en } from 'zod/locales';
import { config } from 'zod/mini';

config(en());

export * from 'zod/mini';

/** A schema made on its first use, for one that only some runs need (each costs its making at load). */
export function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}
