/**
 * Postman variables in TradeReq's places: collection variables as file variables, environment
 * variables in `tradereq.env.json`, the base URL as the environment's `baseUrl`. Secrets stay
 * behind: the notes say which key profile to create instead.
 */
import { BUILTIN_SANDBOX } from '../env/constants';
import { environmentPlace } from './deployment-env';
import type { Deployment } from '../catalog/deployment';
import { profileEnvPrefix } from '../env/keys';
import { EnvironmentFileSchema, type WrittenEnvironment, type WrittenEnvironmentFile } from '../env/schema';
import { scalarText, type PostmanKeyValue } from './postman-schema';
import { isCredentialName } from './credential-like';
import { Notes } from './common';

interface Variable {
  readonly name: string;
  readonly value: string;
}

export interface VariableSets {
  readonly collection: Variable[];
  readonly environment: Variable[];
  /** Names not copied because they hold a credential. */
  readonly secrets: string[];
}

/** Set by the family's signing script; TradeReq adds its own. */
const SIGNER_VARIABLES = new Set(['timestamp', 'signature']);

function keep(
  list: readonly PostmanKeyValue[] | undefined,
  from: string,
  sets: VariableSets,
  notes: Notes,
): Variable[] {
  const out: Variable[] = [];
  for (const v of list ?? []) {
    const name = v.key ?? '';
    if (name.length === 0) continue;
    if (v.disabled === true || v.enabled === false)
      notes.add(`the ${from} variable "${name}" is disabled and is left out.`);
    else if (SIGNER_VARIABLES.has(name))
      notes.add(
        `the ${from} variable "${name}" is set by the signing script; TradeReq adds its own ${name}, so it is left out.`,
      );
    else if (v.type === 'secret' || isCredentialName(name)) sets.secrets.push(name);
    else out.push({ name, value: scalarText(v.value) });
  }
  return out;
}

export function readVariables(
  collection: readonly PostmanKeyValue[] | undefined,
  environment: readonly PostmanKeyValue[] | undefined,
  notes: Notes,
): VariableSets {
  const sets: VariableSets = { collection: [], environment: [], secrets: [] };
  for (const v of keep(environment, 'environment', sets, notes)) sets.environment.push(v);
  const shadowed = new Set(sets.environment.map((v) => v.name));
  for (const v of keep(collection, 'collection', sets, notes)) {
    if (shadowed.has(v.name))
      notes.add(
        `the collection variable "${v.name}" is also in the environment, whose value Postman uses; only the environment's is kept.`,
      );
    else sets.collection.push(v);
  }
  return sets;
}

/** The value of `{{name}}` as Postman resolves it: environment first, then collection. */
export function lookup(sets: VariableSets, name: string): string | undefined {
  return (sets.environment.find((v) => v.name === name) ?? sets.collection.find((v) => v.name === name))?.value;
}

export function keyProfileNote(profile: string, secrets: readonly string[]): string {
  const prefix = profileEnvPrefix(profile);
  const which = secrets.length > 0 ? `The secrets ${secrets.map((s) => `"${s}"`).join(', ')} are not copied. ` : '';
  return `${which}Create the key profile "${profile}" with "TradeReq: Add API Key" in VS Code, or set ${prefix}API_KEY and ${prefix}SECRET_KEY for the command line; tradereq.env.json names it ("key": "${profile}").`;
}

export interface EnvironmentDraft {
  readonly name: string;
  readonly baseUrl: string | undefined;
  readonly profile: string;
  readonly apiKeyHeader: string | undefined;
  /** The deployment the source talks to, when its host or its key header says so. */
  readonly deployment?: Deployment;
  readonly variables: readonly Variable[];
}

/** The environment for tradereq.env.json, validated with the schema the extension uses; what it refuses is noted and left out. */
export function buildEnvironment(draft: EnvironmentDraft, notes: Notes): WrittenEnvironmentFile {
  if (draft.baseUrl === undefined)
    notes.add(
      `no base URL is known: the environment "${draft.name}" points at the sandbox (${BUILTIN_SANDBOX.baseUrl}); set its baseUrl.`,
    );
  const variables: Record<string, string> = {};
  for (const v of draft.variables) variables[v.name] = v.value;
  const env: WrittenEnvironment = {
    ...environmentPlace(
      draft.baseUrl ?? BUILTIN_SANDBOX.baseUrl,
      draft.profile,
      draft.apiKeyHeader || undefined,
      draft.deployment,
    ),
    ...(draft.variables.length > 0 ? { variables } : {}),
  };
  for (let attempt = 0; attempt <= draft.variables.length + 1; attempt++) {
    const result = EnvironmentFileSchema.safeParse({ [draft.name]: env });
    if (result.success) return result.data;
    const issue = result.error.issues[0]!;
    const [, field, variable] = issue.path.map(String);
    if (field === 'variables' && variable !== undefined && env.variables) {
      notes.add(`the variable "${variable}" is left out of tradereq.env.json: ${issue.message}`);
      delete env.variables[variable];
    } else if (field === 'baseUrl') {
      notes.add(
        `the base URL ${JSON.stringify(env.baseUrl)} is not an http(s) URL; the environment points at the sandbox: set its baseUrl.`,
      );
      env.baseUrl = BUILTIN_SANDBOX.baseUrl;
    } else {
      notes.add(`tradereq.env.json could not be written: ${issue.message}`);
      return {};
    }
  }
  return {};
}
