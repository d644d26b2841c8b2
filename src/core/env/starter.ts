/**
 * The starter a new user begins from: the files `tradereq init` writes into a folder, and among
 * which the editor's New Request File picks one. The files themselves live once, in media/starter/,
 * which the npm package and the .vsix both carry; this says where, and what each one shows.
 */
import { BUILTIN_SANDBOX, ENV_FILE_NAME } from './constants';

/** The starter's folder, from the root of the package (the folder of package.json). */
export const STARTER_PATH: readonly string[] = ['media', 'starter'];

export interface StarterFile {
  readonly name: string;
  /** What it shows, in a few words: the list `tradereq init` prints, the editor's pick. */
  readonly shows: string;
}

/** The request files, in the order `tradereq test` runs them (by name). */
export const STARTER_REQUESTS: readonly StarterFile[] = [
  { name: 'market.tradereq', shows: 'public market data: unsigned, no key needed' },
  { name: 'orders.tradereq', shows: 'a signed order, then its cancel by the orderId of the answer' },
  { name: 'rejections.tradereq', shows: 'rejections the service is expected to give (# @expect code)' },
  { name: 'stream.tradereq', shows: 'a WebSocket stream with an expectation (tradereq listen)' },
];

/** Everything `tradereq init` writes: the environments, then the request files. */
export const STARTER_FILES: readonly StarterFile[] = [
  {
    name: ENV_FILE_NAME,
    shows: `environments: sandbox (${BUILTIN_SANDBOX.baseUrl}) and live (asks before every order)`,
  },
  ...STARTER_REQUESTS,
];

/**
 * `name`, else `stem-2.ext`, `stem-3.ext`, …: the first that `taken` does not hold (it is asked
 * with the name in lower case, as macOS and Windows compare names).
 */
export function freeFileName(name: string, taken: (lowerCaseName: string) => boolean): string {
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  let candidate = name;
  for (let n = 2; taken(candidate.toLowerCase()); n++) candidate = `${stem}-${n}${extension}`;
  return candidate;
}
