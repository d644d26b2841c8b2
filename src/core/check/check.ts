/**
 * The check step: diagnostics for what the service would reject, before anything is sent.
 * Pure: a parsed document and an environment in, diagnostics out.
 */
import { BOUNDS } from '../bounds';
import { DEFAULT_API_KEY_HEADER, type NamedEnvironment } from '../env/constants';
import { looksLikeSecret, secretNameMessage } from '../env/secrets';
import { HEADER_VALUE_RULE, headerNameProblem, isHeaderValue } from '../request/headers';
import { readOptions } from '../format/directives';
import type { Diagnostic, Param, RequestBlock, Severity, TradeReqDocument } from '../format/model';
import { VariableScope, unresolvedRefs, type ResolveContext } from '../format/resolve';
import { lookupError } from '../spec/errors';
import { endpointsAtPath, findEndpoint, findParam } from '../spec/endpoints';
import { LIMITS, MILLISECOND_TIMESTAMP_MIN } from '../spec/limits';
import type { EndpointInfo } from '../spec/types';

export interface CheckOptions {
  readonly environment: NamedEnvironment;
}

const DECIMAL = /^\d+(\.\d+)?$/;
/** The parameters whose value checkParam reads (besides those with enum values). */
const VALUE_RULES = new Set([
  'symbol',
  'quantity',
  'price',
  'quoteOrderQty',
  'recvWindow',
  'timestamp',
  'newClientOrderId',
  'origClientOrderId',
]);
const INTEGER = /^\d+$/;

/** "(the service answers 700005: recvWindow must be less than 60000)". */
function answers(code: number): string {
  const info = lookupError(code);
  return info ? ` (the service answers ${code}: ${info.meanings[0]})` : ` (the service answers ${code})`;
}

/** Stands for a response field, known only at send time; values holding it are not checked. */
const RESPONSE_PLACEHOLDER = '\u0000response\u0000';

/**
 * Scope for checks: real values for file and environment variables, fixed ones for system
 * variables, and a placeholder for the response of any request the file names.
 */
function checkContext(environment: NamedEnvironment, names: Set<string>): ResolveContext {
  const placeholder = new Proxy({}, { get: () => RESPONSE_PLACEHOLDER });
  return {
    environment,
    now: () => Date.now(),
    uuid: () => '00000000-0000-4000-8000-000000000000',
    clientOrderId: () => 'X'.repeat(32),
    response: (name) => (names.has(name) ? placeholder : undefined),
  };
}

/** Appends `items` one by one: a spread of a long list into push() overflows the stack. */
function pushAll<T>(out: T[], items: readonly T[]): void {
  for (const item of items) out.push(item);
}

export function checkDocument(doc: TradeReqDocument, options: CheckOptions): Diagnostic[] {
  const out: Diagnostic[] = [...doc.diagnostics];
  const names = new Set(doc.requests.map((r) => r.name?.text).filter((n): n is string => n !== undefined));
  const scope = new VariableScope(doc, checkContext(options.environment, names));
  pushAll(out, readOptions(doc, undefined).fileDiagnostics);
  pushAll(out, unresolvedRefs(doc.variableRefs, scope));
  for (const v of doc.variables) {
    if (looksLikeSecret(v.name.text)) {
      out.push({
        range: v.name.range,
        severity: 'error',
        message: secretNameMessage(v.name.text, 'this request file'),
        rule: 'secret-in-file',
      });
    }
  }
  for (const request of doc.requests) pushAll(out, checkRequest(doc, request, scope, names, options.environment));
  out.sort((a, b) => a.range.startLine - b.range.startLine || a.range.startChar - b.range.startChar);
  return capped(out);
}

/** At most BOUNDS.diagnosticsPerFile, then one that counts the rest (an error when an error is among them). */
function capped(all: Diagnostic[]): Diagnostic[] {
  const max = BOUNDS.diagnosticsPerFile;
  if (all.length <= max) return all;
  const kept = all.slice(0, max);
  const rest = all.length - max;
  const severity = all.slice(max).some((d) => d.severity === 'error') ? 'error' : 'information';
  kept.push({
    range: kept[max - 1]!.range,
    severity,
    message: `${rest} more problems in this file are not shown: TradeReq reports the first ${max}. Fix these and check again.`,
    rule: 'too-many-problems',
  });
  return kept;
}

function checkRequest(
  doc: TradeReqDocument,
  request: RequestBlock,
  scope: VariableScope,
  names: Set<string>,
  environment: NamedEnvironment,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const add = (d: Omit<Diagnostic, 'severity'> & { severity?: Severity }, severity: Severity): void => {
    out.push({ ...d, severity });
  };

  // File directives apply here too, but their own problems are reported once per document.
  const { options, diagnostics } = readOptions(doc, request);
  pushAll(out, diagnostics);

  // Response references resolve at send time; here it is enough that the named request exists.
  for (const ref of request.variableRefs) {
    const m = /^([A-Za-z_][\w-]*)\.response\./.exec(ref.name);
    if (m && !names.has(m[1]!)) {
      add(
        {
          range: ref.nameRange,
          message: `No request in this file is named "${m[1]}": add \`# @name ${m[1]}\` to the request whose response this reads.`,
          rule: 'undefined-variable',
        },
        'error',
      );
    }
  }
  pushAll(out, unresolvedRefs(request.variableRefs, scope, { skipResponses: true }));

  const method = request.requestLine.method.text.toUpperCase();
  const pathText = request.requestLine.path.text;
  const pathResolved = pathText.includes('{{')
    ? undefined
    : pathText.startsWith('/')
      ? pathText
      : safePathname(pathText);
  const endpoint = pathResolved ? findEndpoint(method, pathResolved) : undefined;
  if (pathResolved && !endpoint) {
    const others = endpointsAtPath(pathResolved);
    const message =
      others.length > 0
        ? `${method} ${pathResolved} is not a known endpoint: this path is known with ${others.map((e) => e.method).join(', ')}.`
        : `${pathResolved} is not in TradeReq's endpoint catalog: parameters are not checked. Say how to send it with # @signed or # @unsigned, and its rate limit with # @weight N and # @mode ip|uid.`;
    add({ range: request.requestLine.path.range, message, rule: 'unknown-endpoint' }, 'warning');
  }

  const signed = options.signed ?? endpoint?.signed ?? false;
  if (endpoint?.signed && options.signed === false) {
    add(
      {
        range: request.requestLine.range,
        message: `${endpoint.method} ${endpoint.path} is a signed endpoint: with # @unsigned it goes without API key and signature${answers(400)}.`,
        rule: 'unsigned-signed-endpoint',
      },
      'warning',
    );
  }
  if (
    options.signaturePlacement === 'body' &&
    (request.json || !request.params.some((p) => p.placement === 'body' && p.origin !== 'json'))
  ) {
    const d =
      request.directives.find((x) => x.name.text === 'signature') ??
      doc.fileDirectives.find((x) => x.name.text === 'signature');
    if (d)
      add(
        {
          range: d.range,
          message:
            '`# @signature body` needs a form body ([body] parameters): the signature is put at the end of the query string otherwise.',
          rule: 'signature-placement',
        },
        'error',
      );
  }

  if (method === 'GET') {
    for (const p of request.params) {
      if (p.placement === 'body') {
        add(
          {
            range: p.origin === 'json' ? request.json!.range : p.range,
            message:
              'GET sends all parameters in the query string (spec §4.1 rule 2): put them under [query] or remove the section line.',
            rule: 'get-body',
          },
          'error',
        );
        break;
      }
    }
  }

  const apiKeyHeader = (environment.apiKeyHeader ?? DEFAULT_API_KEY_HEADER).toLowerCase();
  for (const h of request.headers) {
    const problem = headerNameProblem(h.name.text);
    if (problem) add({ range: h.range, message: `${problem}.`, rule: 'forbidden-header' }, 'error');
    else if (!isHeaderValue(h.value.text))
      add(
        {
          range: h.value.range,
          message: `The value of ${h.name.text} cannot be sent: ${HEADER_VALUE_RULE}.`,
          rule: 'header-value',
        },
        'error',
      );
    if (
      h.name.text.toLowerCase() === apiKeyHeader ||
      h.name.text.toLowerCase() === DEFAULT_API_KEY_HEADER.toLowerCase()
    ) {
      add(
        {
          range: h.range,
          message: `Do not write the API key header by hand: TradeReq sets ${h.name.text} from the key profile, and a key written here is shared with the file. Remove this line and use # @key PROFILE or the environment's "key".`,
          rule: 'api-key-header',
        },
        'warning',
      );
    }
  }

  const seen = new Map<string, Param>();
  for (const p of request.params) {
    const key = p.placement + ' ' + p.name.text;
    const previous = seen.get(key);
    if (previous) {
      add(
        {
          range: p.name.range,
          message: `"${p.name.text}" is already in the ${p.placement} (line ${previous.range.startLine + 1}): both are sent and signed; remove one.`,
          rule: 'duplicate-param',
        },
        'warning',
      );
    } else {
      seen.set(key, p);
    }
    pushAll(out, checkParam(p, endpoint, scope, signed));
  }
  for (const p of request.params) {
    const other = p.placement === 'body' ? seen.get('query ' + p.name.text) : undefined;
    if (other) {
      add(
        {
          range: p.name.range,
          message: `"${p.name.text}" is also in the query string (line ${other.range.startLine + 1}): the service uses the query value (spec §4.1 rule 5).`,
          rule: 'query-and-body',
        },
        'information',
      );
    }
  }

  if (endpoint) pushAll(out, checkRequired(request, endpoint, scope));
  return out;
}

function safePathname(url: string): string | undefined {
  try {
    return new URL(url).pathname;
  } catch {
    return undefined;
  }
}

/** The value to check: the literal, or the substituted value when it uses variables (no quick fix then). */
function effectiveValue(p: Param, scope: VariableScope): { value: string; literal: boolean } | undefined {
  if (p.value.text.indexOf('{{') < 0) return { value: p.value.text, literal: true };
  const r = scope.substitute(p.value.text);
  // An unclosed `{{` is reported by the parser; the half-typed value is not checked.
  return r.ok && !r.value.includes(RESPONSE_PLACEHOLDER) && !r.value.includes('{{')
    ? { value: r.value, literal: false }
    : undefined;
}

function checkParam(p: Param, endpoint: EndpointInfo | undefined, scope: VariableScope, signed: boolean): Diagnostic[] {
  const out: Diagnostic[] = [];
  const name = p.name.text;
  const range = p.value.range;
  const add = (severity: Severity, message: string, rule: string, prevents?: number, fix?: Diagnostic['fix']): void => {
    out.push({ range, severity, message, rule, prevents, fix });
  };

  if (name === 'signature') {
    out.push({
      range: p.range,
      severity: 'error',
      message: `Do not write the signature by hand: TradeReq computes it over exactly what is sent, and a second or stale one makes the request fail${answers(700002)}. Remove this line.`,
      rule: 'manual-signature',
      prevents: 700002,
    });
    return out;
  }
  if (p.value.text.length === 0) {
    out.push({
      range: p.range,
      severity: 'warning',
      message: `"${name}" has an empty value: it is sent and signed as "${name}=", which the service may refuse${answers(44444)}. Give it a value or remove the line.`,
      rule: 'empty-value',
      prevents: 44444,
    });
    return out;
  }

  const info = endpoint ? findParam(endpoint, name) : undefined;
  if (endpoint && !info) {
    out.push({
      range: p.name.range,
      severity: 'warning',
      message: `"${name}" is not a known parameter of ${endpoint.method} ${endpoint.path}; known: ${endpoint.params
        .filter((x) => !x.addedBySigner)
        .map((x) => x.name)
        .join(', ')}${answers(33333)}.`,
      rule: 'unknown-param',
      prevents: 33333,
    });
  }

  // Only values that a rule below looks at are substituted: the rest need not be.
  if (!VALUE_RULES.has(name) && !info?.enumValues) return out;
  const v = effectiveValue(p, scope);
  if (!v) return out;
  const value = v.value;
  // A JSON member written as a number is sent as a number; the spec says decimals go as text (§2.1).
  const jsonNumber = p.origin === 'json' && !p.quoted;

  switch (name) {
    case 'symbol':
      if (!/^[A-Z]+$/.test(value)) {
        const fixed = value.toUpperCase().replace(/[^A-Z0-9]/g, '');
        const onlyDigits = /^[A-Z0-9]+$/.test(value);
        add(
          onlyDigits ? 'warning' : 'error',
          `Symbol "${value}" must be upper-case letters (spec §2.1), e.g. ${fixed || 'BTCUSDT'}${answers(10007)}.`,
          'symbol-case',
          10007,
          v.literal && fixed && fixed !== value && !onlyDigits
            ? { title: `Change to ${fixed}`, replacement: fixed }
            : undefined,
        );
      }
      break;
    case 'quantity':
    case 'price':
    case 'quoteOrderQty':
      if (!DECIMAL.test(value)) {
        add(
          'error',
          `${name} must be a decimal number written as text, such as 0.001 (spec §2.1), not "${value}"${answers(33333)}.`,
          'decimal',
          33333,
        );
      } else if (jsonNumber) {
        add(
          'warning',
          `${name} is a decimal sent as text (spec §2.1): write "${value}" in quotes so no digits are lost${answers(33333)}.`,
          'decimal-as-text',
          33333,
        );
      }
      break;
    case 'recvWindow': {
      const max = LIMITS.recvWindow.maxMs;
      if (!INTEGER.test(value))
        add(
          'error',
          `recvWindow is a whole number of milliseconds, such as ${LIMITS.recvWindow.defaultMs}, not "${value}"${answers(33333)}.`,
          'recv-window',
          33333,
        );
      else if (Number(value) > max)
        add(
          'error',
          `recvWindow ${value} is above the maximum ${max}${answers(700005)}. Use ${LIMITS.recvWindow.defaultMs} or less.`,
          'recv-window',
          700005,
        );
      else if (Number(value) === max)
        add(
          'warning',
          `recvWindow ${max} is exactly the maximum, which the spec words both ways ("maximum 60000" and "must be less than 60000"): the service may answer 700005. Use ${max - 1} or less.`,
          'recv-window',
          700005,
        );
      else if (Number(value) > LIMITS.recvWindow.recommendedMaxMs)
        add(
          'information',
          `recvWindow ${value}: ${LIMITS.recvWindow.recommendedMaxMs} or less is recommended (spec §5 rule 8); a long window lets a delayed request through late.`,
          'recv-window',
        );
      break;
    }
    case 'timestamp':
      if (!INTEGER.test(value))
        add(
          'error',
          `timestamp is Unix time in milliseconds, such as ${Date.UTC(2024, 0, 1)}, not "${value}"${answers(700003)}.`,
          'timestamp',
          700003,
        );
      else if (Number(value) < MILLISECOND_TIMESTAMP_MIN)
        add(
          'error',
          `timestamp ${value} looks like seconds: the service counts milliseconds${answers(700003)}. Remove the line and TradeReq adds the current time.`,
          'timestamp-seconds',
          700003,
          v.literal ? { title: 'Change to milliseconds', replacement: value + '000' } : undefined,
        );
      else if (v.literal && signed)
        add(
          'information',
          `A fixed timestamp soon falls outside recvWindow${answers(700003)}. Remove the line and TradeReq adds the current time, or write {{$timestamp}}.`,
          'timestamp-fixed',
          700003,
        );
      break;
    case 'newClientOrderId':
    case 'origClientOrderId':
      if (!/^[A-Za-z0-9]{1,32}$/.test(value))
        add(
          'warning',
          `${name} should be at most 32 characters of A-Z a-z 0-9${answers(700008)}.`,
          'client-order-id',
          700008,
        );
      break;
  }

  if (info?.enumValues && !info.enumValues.some((e) => e.value === value)) {
    const upper = value.toUpperCase();
    const match = info.enumValues.find((e) => e.value === upper);
    add(
      'error',
      `${name} "${value}" is not an allowed value: ${info.enumValues.map((e) => e.value).join(', ')}${answers(33333)}.`,
      'enum-value',
      33333,
      v.literal && match ? { title: `Change to ${match.value}`, replacement: match.value } : undefined,
    );
  }
  return out;
}

function checkRequired(request: RequestBlock, endpoint: EndpointInfo, scope: VariableScope): Diagnostic[] {
  const out: Diagnostic[] = [];
  const present = new Map<string, Param>();
  for (const p of request.params) present.set(p.name.text, p);
  const where = request.requestLine.range;
  for (const p of endpoint.params) {
    if (p.required && !p.addedBySigner && !present.has(p.name)) {
      out.push({
        range: where,
        severity: 'error',
        message: `${endpoint.method} ${endpoint.path} needs "${p.name}"${answers(44444)}.`,
        rule: 'missing-param',
        prevents: 44444,
      });
    }
  }
  for (const group of endpoint.anyOf ?? []) {
    if (!group.some((n) => present.has(n))) {
      out.push({
        range: where,
        severity: 'error',
        message: `${endpoint.method} ${endpoint.path} needs ${group.join(' or ')}${answers(700004)}.`,
        rule: 'missing-param',
        prevents: 700004,
      });
    }
  }
  const typeParam = present.get('type');
  const type = typeParam ? effectiveValue(typeParam, scope)?.value : undefined;
  const requirement = type ? endpoint.typeRequirements?.find((t) => t.type === type) : undefined;
  if (requirement) {
    for (const n of requirement.required) {
      if (!present.has(n))
        out.push({
          range: present.get('type')!.value.range,
          severity: 'error',
          message: `A ${type} order needs "${n}"${answers(44444)}.`,
          rule: 'missing-param',
          prevents: 44444,
        });
    }
    for (const group of requirement.anyOf ?? []) {
      if (!group.some((n) => present.has(n)))
        out.push({
          range: present.get('type')!.value.range,
          severity: 'error',
          message: `A ${type} order needs ${group.join(' or ')}${answers(44444)}.`,
          rule: 'missing-param',
          prevents: 44444,
        });
    }
  }
  return out;
}
