/**
 * What was sent, taken apart as the service takes it apart (docs/service.md §4.1 and §5): the
 * signature and where it was, totalParams, the raw pairs of each part, the effective values.
 */
import { BOUNDS } from '../bounds';
import { nestsDeeperThan } from '../format/json-value';
import { formWithoutSignature, isJsonBody, jsonWithoutSignature } from '../signing/total-params';
import type { SentRequest } from './types';
import { DEFAULT_DEPLOYMENT, deploymentOfUrl, type Deployment } from '../catalog/deployment';
import { endpointCatalogOf } from '../catalog/endpoint-catalogs';
import type { EndpointInfo } from '../catalog/types';

/** A `name=value` pair as it stood on the wire, and its decoded name and value. */
export interface RawPair {
  readonly raw: string;
  readonly name: string;
  readonly value: string;
}

export interface Wire {
  readonly sent: SentRequest;
  /** The signature as sent, and where it was. */
  readonly signature?: string;
  readonly signatureIn?: 'query' | 'body';
  /** The query string without the signature pair. */
  readonly query: string;
  /** The body without the signature (pair or JSON member). */
  readonly body: string;
  readonly json: boolean;
  /** The JSON body's members (signature left out), when the body is a JSON object. */
  readonly members?: Readonly<Record<string, unknown>>;
  readonly queryPairs: readonly RawPair[];
  /** The form body's pairs; empty for a JSON body. */
  readonly bodyPairs: readonly RawPair[];
  /** totalParams as the service computes it (§5 rule 4). */
  readonly totalParams: string;
  /** Effective values: the query string's where a name is in both places (§4.1 rule 5). */
  readonly values: ReadonlyMap<string, string>;
  /** The deployment it went to: the environment's, else the one whose host the URL names, else the spec. */
  readonly deployment: Deployment;
  /** The catalog's endpoint it went to, in that deployment's catalog. */
  readonly endpoint?: EndpointInfo;
}

function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function splitForm(text: string): RawPair[] {
  if (text.length === 0) return [];
  return text
    .split('&')
    .filter((raw) => raw.length > 0)
    .map((raw) => {
      const eq = raw.indexOf('=');
      const name = decodeComponent(eq < 0 ? raw : raw.slice(0, eq));
      return { raw, name, value: eq < 0 ? '' : decodeComponent(raw.slice(eq + 1)) };
    });
}

/** The JSON body's members; none when it is not a JSON object, or nests too deeply to be written out again (variants.ts does). */
function parseMembers(body: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    if (!nestsDeeperThan(parsed, BOUNDS.prettyJsonDepth)) return parsed as Record<string, unknown>;
  } catch {
    // Not JSON: the checks say so; the variants that need members are skipped.
  }
  return undefined;
}

export function memberText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

function signatureOf(queryPairs: RawPair[], bodyPairs: RawPair[], all: Record<string, unknown> | undefined) {
  const inQuery = queryPairs.find((p) => p.name === 'signature');
  if (inQuery) return { signature: inQuery.value, signatureIn: 'query' as const };
  const inBody = bodyPairs.find((p) => p.name === 'signature');
  if (inBody) return { signature: inBody.value, signatureIn: 'body' as const };
  const member = all?.['signature'];
  if (typeof member === 'string') return { signature: member, signatureIn: 'body' as const };
  return {};
}

/** The catalog's endpoint a request went to, in `deployment`'s catalog. */
function sentEndpoint(sent: SentRequest, deployment: Deployment): EndpointInfo | undefined {
  try {
    return endpointCatalogOf(deployment).find(sent.method, new URL(sent.url).pathname);
  } catch {
    return undefined;
  }
}

/** The request taken apart; `deployment` is the environment's, when the shell knows it. */
export function readWire(sent: SentRequest, deployment?: Deployment): Wire {
  // Pasted text names no environment: the URL's host tells the deployment.
  const which = deployment ?? deploymentOfUrl(sent.url) ?? DEFAULT_DEPLOYMENT;
  const json = isJsonBody(sent.body);
  const allMembers = json ? parseMembers(sent.body) : undefined;
  const allQuery = splitForm(sent.query);
  const allBody = json ? [] : splitForm(sent.body);
  const query = formWithoutSignature(sent.query);
  const body = json ? (jsonWithoutSignature(sent.body) ?? sent.body) : formWithoutSignature(sent.body);
  const members = allMembers === undefined ? undefined : withoutKey(allMembers, 'signature');
  const values = new Map<string, string>();
  for (const p of allQuery) if (!values.has(p.name)) values.set(p.name, p.value);
  for (const p of allBody) if (!values.has(p.name)) values.set(p.name, p.value);
  for (const [k, v] of Object.entries(allMembers ?? {})) if (!values.has(k)) values.set(k, memberText(v));
  return {
    sent,
    ...signatureOf(allQuery, allBody, allMembers),
    query,
    body,
    json,
    ...(members !== undefined ? { members } : {}),
    queryPairs: allQuery.filter((p) => p.name !== 'signature'),
    bodyPairs: allBody.filter((p) => p.name !== 'signature'),
    totalParams: query + body,
    values,
    deployment: which,
    endpoint: sentEndpoint(sent, which),
  };
}

function withoutKey(o: Record<string, unknown>, key: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (k !== key) out[k] = v;
  return out;
}

/** The header's value, by a case-blind name. */
export function headerValue(sent: SentRequest, name: string): string | undefined {
  const lower = name.toLowerCase();
  return sent.headers.find((h) => h.name.toLowerCase() === lower)?.value;
}
