/**
 * The starter a new user begins from: the files `tradereq init` writes into a folder, and among
 * which the editor's New Request File picks one, for either deployment. The files themselves live
 * once, in media/starter/ (a deployment's own in media/starter/<id>/), which the npm package and
 * the .vsix both carry; this says where, and what each one shows.
 */
import { deploymentById } from '../catalog/deployment';
import { BUILTIN_SANDBOX, ENV_FILE_NAME } from './constants';

/** The starter's folder, from the root of the package (the folder of package.json). */
export const STARTER_PATH: readonly string[] = ['media', 'starter'];

export interface StarterFile {
  readonly name: string;
  /** What it shows, in a few words: the list `tradereq init` prints, the editor's pick. */
  readonly shows: string;
  /** Its folder in the package, when not STARTER_PATH (a deployment's own file of the same name). */
  readonly from?: readonly string[];
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

const MEXC_PATH: readonly string[] = [...STARTER_PATH, 'mexc'];
const MEXC_BASE_URL = deploymentById('mexc')?.baseUrl ?? '';

/** The mexc starter: its environments name the deployment, its stream file mexc's .pb channels; the REST files are the spec's. */
const MEXC_STARTER_FILES: readonly StarterFile[] = [
  {
    name: ENV_FILE_NAME,
    shows: `environments of deployment mexc: sandbox (${BUILTIN_SANDBOX.baseUrl}) and live (${MEXC_BASE_URL}, asks before every order)`,
    from: MEXC_PATH,
  },
  ...STARTER_REQUESTS.map((f) =>
    f.name === 'stream.tradereq'
      ? { ...f, shows: 'a .pb stream, its binary pushes decoded, with expectations (tradereq listen)', from: MEXC_PATH }
      : f,
  ),
];

/** The deployments a starter is made for: `tradereq init --deployment`, the editor's question. */
export const STARTER_DEPLOYMENTS = ['spec', 'mexc'] as const;
export type StarterDeployment = (typeof STARTER_DEPLOYMENTS)[number];

/** What `tradereq init` writes for a deployment. */
export function starterFiles(deployment: StarterDeployment): readonly StarterFile[] {
  return deployment === 'mexc' ? MEXC_STARTER_FILES : STARTER_FILES;
}

/** Every file of every starter as the package carries it, `/`-separated from its root (the packages carry these). */
export function starterPackagePaths(): string[] {
  const paths = STARTER_DEPLOYMENTS.flatMap((d) =>
    starterFiles(d).map((f) => [...(f.from ?? STARTER_PATH), f.name].join('/')),
  );
  return [...new Set(paths)].sort();
}

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
