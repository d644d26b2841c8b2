/**
 * The check step: diagnostics for what the service would reject, before anything is sent.
 * Pure: a parsed document and an environment in, diagnostics out. A short driver over the rules
 * of a request (request-rules.ts), of a parameter (param-rules.ts) and of what is required (required.ts).
 */
import { BOUNDS } from '../bounds';
import type { NamedEnvironment } from '../env/constants';
import { looksLikeSecret, secretNameMessage } from '../env/secrets';
import { readOptions, type Expectation } from '../format/directives';
import { refsOfExpectations } from '../format/expect-variables';
import { findParam } from '../catalog/endpoints';
import { deploymentOf, type Deployment } from '../catalog/deployment';
import { t } from '../l10n';
import { isWebSocket, type Diagnostic, type RequestBlock, type TradeReqDocument } from '../format/model';
import { VariableScope, unresolvedRefs } from '../format/variables';
import { Findings } from './findings';
import { checkParam } from './param-rules';
import {
  checkEndpoint,
  checkGetBody,
  checkHeaders,
  checkPlacements,
  checkResponseRefs,
  checkSigning,
} from './request-rules';
import { checkRequired } from './required';
import { checkContext } from './values';
import { checkOrderList } from './batch-rules';
import { checkDirectiveKinds, checkWsRequest } from './ws-rules';

export interface CheckOptions {
  readonly environment: NamedEnvironment;
}

export function checkDocument(doc: TradeReqDocument, options: CheckOptions): Diagnostic[] {
  // One more than shown, so that the last line shown can be the count of the rest.
  const out = new Findings(BOUNDS.diagnosticsPerFile + 1);
  out.addAll(doc.diagnostics);
  const names = new Set(doc.requests.map((r) => r.name?.text).filter((n): n is string => n !== undefined));
  const scope = new VariableScope(doc, checkContext(options.environment, names));
  const deployment = deploymentOf(options.environment);
  const file = readOptions(doc, undefined);
  out.addAll(file.fileDiagnostics);
  out.addAll(unresolvedRefs(doc.variableRefs, scope));
  checkFileExpectations(doc, file.options.expectations, { scope, names }, out);
  for (const v of doc.variables) {
    if (looksLikeSecret(v.name.text))
      out.add('secret-in-file', v.name.range, secretNameMessage(v.name.text, 'request file'));
  }
  for (const request of doc.requests)
    checkRequest(
      doc,
      request,
      { scope, names, environment: options.environment, deployment, fileExpectations: file.options.expectations },
      out,
    );
  out.expecting(NO_CODES);
  return capped(out.list, out.left);
}

interface RequestContext {
  readonly scope: VariableScope;
  readonly names: ReadonlySet<string>;
  readonly environment: NamedEnvironment;
  readonly deployment: Deployment;
  /** The file's own `# @expect` lines, checked once (checkFileExpectations), not again per request. */
  readonly fileExpectations: readonly Expectation[];
}

const NO_CODES: ReadonlySet<number> = new Set();
/** Per list of expectations: the file's list is shared by every request without its own, so read once. */
const EXPECTED_CODES = new WeakMap<readonly Expectation[], ReadonlySet<number>>();

/** The service error codes of `# @expect code N` lines (not of `code != N`). */
function expectedCodes(expectations: readonly Expectation[]): ReadonlySet<number> {
  let codes = EXPECTED_CODES.get(expectations);
  if (codes === undefined) {
    codes = new Set(expectations.flatMap((e) => (e.kind === 'code' && e.check.op === '==' ? [e.code] : [])));
    EXPECTED_CODES.set(expectations, codes);
  }
  return codes;
}

function checkRequest(doc: TradeReqDocument, request: RequestBlock, ctx: RequestContext, out: Findings): void {
  // File directives apply here too, but their own problems are reported once per document.
  const { options, diagnostics } = readOptions(doc, request);
  out.expecting(expectedCodes(options.expectations));
  out.addAll(diagnostics);
  // Its own `# @expect` lines' variables resolve as its request's (the file's lines are checked once, above).
  // readOptions puts a request's own expectations after the file's: only those are read here.
  const own = options.expectations.slice(ctx.fileExpectations.length);
  const expectRefs = refsOfExpectations(own);
  const read = expectRefs.length > 0 ? [...request.variableRefs, ...expectRefs] : request.variableRefs;
  checkResponseRefs(read, ctx.names, out);
  // A `# @data` file's columns define names the check step cannot see: the shells that read it report those (testing/data.ts).
  const refs = options.data ? read.filter((r) => !ctx.scope.definedNowhere(r.name)) : read;
  out.addAll(unresolvedRefs(refs, ctx.scope, { skipResponses: true }));
  checkDirectiveKinds(request, out);
  if (isWebSocket(request)) return checkWsRequest(request, options, ctx.scope, out, ctx.environment);
  const endpoint = checkEndpoint(request, ctx.deployment, out);
  checkSigning(doc, request, endpoint, options, out);
  checkGetBody(request, out);
  checkHeaders(request, ctx.environment, out);
  checkPlacements(request, out);
  const signed = options.signed ?? endpoint?.signed ?? false;
  for (const p of request.params) {
    checkParam(p, endpoint, ctx.scope, signed, out);
    const info = endpoint && findParam(endpoint, p.name.text);
    if (info?.type === 'orderList') checkOrderList(p, info, ctx.scope, out);
  }
  if (endpoint) checkRequired(request, endpoint, ctx.scope, out);
}

/**
 * The variables of the file's `# @expect` lines, which every request without its own reads: checked
 * once. A name no file or environment defines may be a `# @data` column when a request reads one.
 */
function checkFileExpectations(
  doc: TradeReqDocument,
  expectations: readonly Expectation[],
  ctx: Pick<RequestContext, 'scope' | 'names'>,
  out: Findings,
): void {
  const refs = refsOfExpectations(expectations);
  if (refs.length === 0) return;
  checkResponseRefs(refs, ctx.names, out);
  const rows = doc.requests.some((r) => readOptions(doc, r).options.data !== undefined);
  const defined = rows ? refs.filter((r) => !ctx.scope.definedNowhere(r.name)) : refs;
  out.addAll(unresolvedRefs(defined, ctx.scope, { skipResponses: true }));
}

/** At most BOUNDS.diagnosticsPerFile, then one that counts the rest (an error when an error is among them). */
function capped(all: Diagnostic[], left: Findings['left']): Diagnostic[] {
  const max = BOUNDS.diagnosticsPerFile;
  if (all.length <= max) return all;
  const kept = all.slice(0, max);
  const rest = all.length - max + left.count;
  const error = left.error || all.slice(max).some((d) => d.severity === 'error');
  const message = t(
    '{0} more problems in this file are not shown: TradeReq reports the first {1}. Fix these and check again.',
    rest,
    max,
  );
  kept.push({
    range: kept[max - 1]!.range,
    severity: error ? 'error' : 'information',
    message,
    rule: 'too-many-problems',
  });
  return kept;
}
