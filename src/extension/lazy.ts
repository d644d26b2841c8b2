import type * as Lazy from './lazy/index';

let loaded: typeof Lazy | undefined;

/** The parts loaded on first use (dist/lazy.js, built beside dist/extension.js). */
export function lazy(): typeof Lazy {
  return (loaded ??= require('./lazy.js') as typeof Lazy);
}
