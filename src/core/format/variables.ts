/**
 * Variables (docs/format.md, Variables): `{{name}}` from the file, then the environment, then the
 * system variables and fields of earlier responses. Used by resolve, check and hover alike.
 * Pure: time and randomness come in through the context.
 */
import { BOUNDS, formatSize } from '../bounds';
import { t } from '../l10n';
import { nodeCrypto } from '../node-lazy';
import type { NamedEnvironment } from '../env/constants';
import { err, ok, type Result } from '../result';
import { credentialsIn, isCredentialField } from './credentials';
import { jsonPath, jsonValueText, nestsDeeperThan } from './json-value';
import { REQUEST_NAME, type Diagnostic, type TradeReqDocument, type VariableRef } from './model';

export interface ResolveContext {
  readonly environment: NamedEnvironment;
  /** Milliseconds, already corrected by the measured server-clock offset when clock sync is on. */
  now(): number;
  uuid(): string;
  clientOrderId(): string;
  /** The parsed body of the last response of the request named `name`, when there is one. */
  response?(name: string): unknown;
  /** A `# @data` row's values: they win over the file's and the environment's, and are inserted as written. */
  readonly variables?: ReadonlyMap<string, string>;
  /**
   * Whether the `# @expect` lines' variables are resolved too (expect-variables.ts): by a send that
   * judges them. Copy as code, Copy as cURL and Sign only leave the lines as written.
   */
  readonly expectations?: boolean;
}

export const SYSTEM_VARIABLES: readonly { name: string; description: string }[] = [
  { name: '$timestamp', description: 'Now in milliseconds (clock-corrected).' },
  { name: '$uuid', description: 'A random UUID.' },
  { name: '$clientOrderId', description: 'A fresh client order id: 32 characters of A-Z a-z 0-9.' },
];

// {{NAME.response.PATH}}: a field of the last response of the request named NAME.
const RESPONSE_REF = new RegExp(`^(${REQUEST_NAME.source.slice(1, -1)})\\.response\\.(.+)$`);

/** A context with the real clock and randomness, for the shells. */
export function defaultContext(environment: NamedEnvironment, extra: Partial<ResolveContext> = {}): ResolveContext {
  return {
    environment,
    now: () => Date.now(),
    uuid: () => nodeCrypto().randomUUID(),
    clientOrderId: newClientOrderId,
    ...extra,
  };
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 32 characters of A-Za-z0-9, within the limit docs/format.md gives for client order ids. */
function newClientOrderId(): string {
  const bytes = nodeCrypto().randomBytes(32);
  let out = '';
  for (const b of bytes) out += ALNUM[b % ALNUM.length];
  return out;
}

/** A resolved variable: its value and how many levels of variables it went through. */
type Resolved = Result<
  { readonly value: string; readonly depth: number },
  { readonly message: string; readonly transient?: true }
>;

const found = (value: string, depth = 0): Resolved => ok({ value, depth });
const failed = (message: string): Resolved => err({ message });

/**
 * Variable lookup shared by resolve and the editor's hover and diagnostics. Each variable is
 * resolved once per scope (memoised), so variables that repeat each other cost linear time; a
 * value may grow to BOUNDS.variableChars, a chain may be BOUNDS.variableDepth deep, and all
 * substitution in the scope may produce BOUNDS.substitutionChars (a shared file is hostile).
 */
export class VariableScope {
  private readonly fileValues = new Map<string, string>();
  private readonly timestamp: number;
  private readonly memo = new Map<string, Resolved>();
  /** The variables being resolved, outermost first: for cycles and the depth bound. */
  private readonly resolving: string[] = [];
  /** Characters produced by substitution in this scope so far. */
  private produced = 0;
  /** Failures that no later value cures (a credential): the request is refused, not kept waiting. */
  private readonly refusals = new Set<string>();

  constructor(
    doc: TradeReqDocument,
    private readonly ctx: ResolveContext,
  ) {
    for (const v of doc.variables) this.fileValues.set(v.name.text, v.value.text);
    // One clock reading per request, so {{$timestamp}} and the added timestamp agree.
    this.timestamp = ctx.now();
  }

  get now(): number {
    return this.timestamp;
  }

  /** Where a name would come from, without resolving nested references. */
  origin(name: string): 'file' | 'environment' | 'system' | 'response' | undefined {
    if (this.fileValues.has(name)) return 'file';
    if (this.ctx.environment.variables && Object.hasOwn(this.ctx.environment.variables, name)) return 'environment';
    if (SYSTEM_VARIABLES.some((s) => s.name === name)) return 'system';
    if (RESPONSE_REF.test(name)) return 'response';
    return undefined;
  }

  /** The value of `{{name}}`, or why it has none. */
  lookup(name: string): Result<string, string> {
    return plain(this.resolve(name));
  }

  /** `text` with every `{{name}}` replaced; the first failure is returned. */
  substitute(text: string, maxChars: number = BOUNDS.variableChars): Result<string, string> {
    return plain(this.expand(text, maxChars, undefined));
  }

  /** A failure of lookup or substitute as a request's diagnostic says it: it waits for the value, or is refused. */
  notSentMessage(error: string): string {
    return this.refusals.has(error) ? error : t('{0}. Nothing is sent until it resolves.', error);
  }

  /** Whether no file, environment, system variable or response defines `name`: a `# @data` column may. */
  definedNowhere(name: string): boolean {
    return !name.startsWith('$') && this.origin(name) === undefined;
  }

  private resolve(name: string): Resolved {
    // A data file's value is text, never a template: its {{...}} are not expanded.
    const row = this.ctx.variables?.get(name);
    if (row !== undefined) return found(row);
    const known = this.memo.get(name);
    if (known) return known;
    const cycleAt = this.resolving.indexOf(name);
    if (cycleAt >= 0)
      return failed(
        t('"{0}" refers to itself through {1}', name, [...this.resolving.slice(cycleAt), name].join(' → ')),
      );
    const raw = this.rawValue(name);
    if (raw === undefined) return this.special(name);
    if (raw.indexOf('{{') < 0) return found(raw);
    if (this.resolving.length >= BOUNDS.variableDepth) return this.tooDeep(name);
    this.resolving.push(name);
    const r = this.expand(raw, BOUNDS.variableChars, name);
    this.resolving.pop();
    const result =
      r.ok && r.value.depth + 1 > BOUNDS.variableDepth
        ? failed(deepMessage(name))
        : r.ok
          ? found(r.value.value, r.value.depth + 1)
          : r;
    // A chain cut at the depth bound is not this variable's fault on its own: not remembered.
    if (result.ok || !result.error.transient) this.memo.set(name, result);
    return result;
  }

  private tooDeep(name: string): Resolved {
    const chain = [...this.resolving, name].join(' → ');
    const message = t(
      '{{{0}}} goes through more than {1} variables ({2} → …): write its value more directly',
      this.resolving[0]!,
      BOUNDS.variableDepth,
      chain,
    );
    return err({ message, transient: true });
  }

  /** The file's value, else the environment's, before substitution. */
  private rawValue(name: string): string | undefined {
    const file = this.fileValues.get(name);
    if (file !== undefined) return file;
    const envVars = this.ctx.environment.variables;
    return envVars && Object.hasOwn(envVars, name) ? String(envVars[name]) : undefined;
  }

  /** System variables (fresh on each use) and response fields; otherwise the reason it is undefined. */
  private special(name: string): Resolved {
    switch (name) {
      case '$timestamp':
        return found(String(this.timestamp));
      case '$uuid':
        return found(this.ctx.uuid());
      case '$clientOrderId':
        return found(this.ctx.clientOrderId());
    }
    const response = RESPONSE_REF.exec(name);
    if (response) return this.responseField(name, response[1]!, response[2]!);
    if (name.startsWith('$'))
      return failed(
        t('Unknown system variable {{{0}}}: known are {1}', name, SYSTEM_VARIABLES.map((s) => s.name).join(', ')),
      );
    return failed(
      t(
        'Undefined variable {{{0}}}: define it with `@{0} = value` at the top of the file or in the environment "{1}" of tradereq.env.json',
        name,
        this.ctx.environment.name,
      ),
    );
  }

  private responseField(name: string, requestName: string, path: string): Resolved {
    const body = this.ctx.response?.(requestName);
    if (body === undefined)
      return failed(
        t('{{{0}}} needs a response of the request named "{1}": send that request first', name, requestName),
      );
    const value = jsonPath(body, path);
    if (value === undefined || value === null)
      return failed(t('The last response of "{0}" has no field {1}', requestName, path));
    // Too deep to write out, jsonValueText gives a note in its place: never sent as the value.
    if (nestsDeeperThan(value, BOUNDS.prettyJsonDepth))
      return failed(
        t(
          'The field {1} of the last response of "{0}" nests deeper than {2} levels: TradeReq does not write it into a request.',
          requestName,
          path,
          BOUNDS.prettyJsonDepth,
        ),
      );
    const text = jsonValueText(value);
    // A listen key goes only where its key may go, through # @listenKey: never into a request (docs/websocket.md).
    const credentials = credentialsIn(body);
    if (namesCredential(path) || credentials.some((c) => text.includes(c))) {
      const message = credentialMessage(name);
      this.refusals.add(message);
      return failed(message);
    }
    return found(text);
  }

  /** `text` with its `{{name}}` replaced, at most `maxChars` long; the value of variable `what`, or a value of the request. */
  private expand(text: string, maxChars: number, what: string | undefined): Resolved {
    if (text.indexOf('{{') < 0) return found(text);
    let out = '';
    let depth = 0;
    let last = 0;
    for (let p = text.indexOf('{{'); p >= 0; p = text.indexOf('{{', last)) {
      const close = text.indexOf('}}', p + 2);
      if (close < 0) break;
      const r = this.resolve(text.slice(p + 2, close).trim());
      if (!r.ok) return r;
      if (out.length + (p - last) + r.value.value.length > maxChars) return failed(tooLongMessage(what, maxChars));
      out += text.slice(last, p) + r.value.value;
      depth = Math.max(depth, r.value.depth);
      last = close + 2;
    }
    if (out.length + text.length - last > maxChars) return failed(tooLongMessage(what, maxChars));
    out += text.slice(last);
    this.produced += out.length;
    if (this.produced > BOUNDS.substitutionChars) {
      return failed(
        t(
          'Substituting variables here produces more than {0} in all: TradeReq stops there. Look for variables that repeat each other',
          formatSize(BOUNDS.substitutionChars),
        ),
      );
    }
    return found(out, depth);
  }
}

function credentialMessage(name: string): string {
  return t(
    '{{{0}}} is a listen key, a credential that never goes into a request: nothing was sent. To use one, write # @listenKey on a WS request, which obtains a listen key and connects with it (docs/format.md, WebSocket requests).',
    name,
  );
}

function deepMessage(name: string): string {
  return t('{{{0}}} goes through more than {1} variables: write its value more directly', name, BOUNDS.variableDepth);
}

/** `name`: the variable whose value grows; undefined: a value of the request. */
function tooLongMessage(name: string | undefined, maxChars: number): string {
  return name === undefined
    ? t(
        'This value grows to more than {0} once its variables are substituted: TradeReq refuses values that large (variables that repeat each other, for example)',
        formatSize(maxChars),
      )
    : t(
        '{{{0}}} grows to more than {1} once its variables are substituted: TradeReq refuses values that large (variables that repeat each other, for example)',
        name,
        formatSize(maxChars),
      );
}

function plain(r: Resolved): Result<string, string> {
  return r.ok ? ok(r.value.value) : err(r.error.message);
}

/** Whether a response PATH names a credential field at any step (`listenKey`, `data[0].listenKey`). */
function namesCredential(path: string): boolean {
  return path.split(/[.[\]]/).some(isCredentialField);
}

/** Whether `name` reads a credential of an earlier response ({{lk.response.listenKey}}), known before any answer. */
export function isCredentialRef(name: string): boolean {
  const response = RESPONSE_REF.exec(name);
  return response !== null && namesCredential(response[2]!);
}

/** Whether `name` reads a field of an earlier response ({{NAME.response.PATH}}); its request's name when so. */
export function responseRequestName(name: string): string | undefined {
  return RESPONSE_REF.exec(name)?.[1];
}

/**
 * The `# @name`s whose answers `request` reads: its own `{{NAME.response.PATH}}`, and those of the
 * file variables it uses, at any depth. Each variable is visited once (a hostile file may chain many).
 */
export function responsesReadBy(
  doc: TradeReqDocument,
  request: { readonly variableRefs: readonly VariableRef[] },
): string[] {
  const values = new Map(doc.variables.map((v) => [v.name.text, v.value.text]));
  const read = new Set<string>();
  const seen = new Set<string>();
  const stack = request.variableRefs.map((r) => r.name);
  for (let name = stack.pop(); name !== undefined; name = stack.pop()) {
    if (seen.has(name)) continue;
    seen.add(name);
    const requestName = responseRequestName(name);
    if (requestName !== undefined) read.add(requestName);
    for (const m of (values.get(name) ?? '').matchAll(/\{\{(.*?)\}\}/gs)) stack.push(m[1]!.trim());
  }
  return [...read];
}

/** Checks every reference and returns a diagnostic for each that cannot be resolved. */
export function unresolvedRefs(
  refs: readonly VariableRef[],
  scope: VariableScope,
  options: { skipResponses?: boolean } = {},
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const ref of refs) {
    if (options.skipResponses && RESPONSE_REF.test(ref.name)) continue;
    const r = scope.lookup(ref.name);
    if (!r.ok)
      out.push({
        range: ref.nameRange,
        severity: 'error',
        message: scope.notSentMessage(r.error),
        rule: 'undefined-variable',
      });
  }
  return out;
}
