/** Directives (format.md): what each `# @word args` means for a request, and what is wrong with one. */
import { PROFILE_NAME_PATTERN } from '../env/keys';
import type { Diagnostic, Directive, RequestBlock, TradeReqDocument } from './model';

export type Expectation =
  | { readonly kind: 'status'; readonly status: number; readonly directive: Directive }
  | { readonly kind: 'code'; readonly code: number; readonly directive: Directive }
  | { readonly kind: 'json'; readonly path: string; readonly value: string; readonly directive: Directive };

export interface RequestOptions {
  readonly name?: string;
  /** From `@signed` / `@unsigned`; undefined leaves it to the endpoint catalog. */
  readonly signed?: boolean;
  readonly keyProfile?: string;
  readonly weight?: number;
  readonly mode?: 'ip' | 'uid';
  readonly confirm: boolean;
  readonly signaturePlacement: 'query' | 'body';
  readonly expectations: readonly Expectation[];
}

export interface DirectiveInfo {
  readonly name: string;
  readonly usage: string;
  readonly description: string;
}

export const DIRECTIVES: readonly DirectiveInfo[] = [
  {
    name: 'name',
    usage: '@name NAME',
    description: 'Names the request, for chaining ({{NAME.response.PATH}}) and for `tradereq sign --request NAME`.',
  },
  {
    name: 'signed',
    usage: '@signed',
    description: 'Signs the request even if the endpoint catalog does not mark it signed.',
  },
  { name: 'unsigned', usage: '@unsigned', description: 'Sends the request without timestamp, signature and API key.' },
  { name: 'key', usage: '@key PROFILE', description: "Uses this key profile instead of the environment's." },
  { name: 'weight', usage: '@weight N', description: 'Rate-limit weight of an endpoint the catalog does not know.' },
  {
    name: 'mode',
    usage: '@mode ip | @mode uid',
    description: 'Rate-limit counter of an endpoint the catalog does not know: per IP or per account.',
  },
  { name: 'confirm', usage: '@confirm', description: 'Always asks before sending this request.' },
  {
    name: 'signature',
    usage: '@signature body',
    description: 'Puts the signature at the end of the form body instead of the query string.',
  },
  {
    name: 'expect',
    usage: '@expect status 200 | @expect code 30002 | @expect json PATH == VALUE',
    description: 'A check on the response; the command line exits non-zero when one fails.',
  },
];

const KNOWN = new Set(DIRECTIVES.map((d) => d.name));

/**
 * Options of `request`: the file's directives first, then the request's own, which win.
 * Problems with arguments are returned as diagnostics; the options leave such directives out.
 */
export function readOptions(
  doc: TradeReqDocument,
  request: RequestBlock | undefined,
): { options: RequestOptions; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  let signed: boolean | undefined;
  let keyProfile: string | undefined;
  let weight: number | undefined;
  let mode: 'ip' | 'uid' | undefined;
  let confirm = false;
  let signaturePlacement: 'query' | 'body' = 'query';
  const expectations: Expectation[] = [];
  const bad = (d: Directive, message: string, severity: Diagnostic['severity'] = 'error'): void => {
    diagnostics.push({ range: d.range, severity, message, rule: 'bad-directive' });
  };
  const all = request ? [...doc.fileDirectives, ...request.directives] : doc.fileDirectives;
  for (const d of all) {
    const args = d.args?.text ?? '';
    switch (d.name.text) {
      case 'name':
        if (!/^[A-Za-z_][\w-]*$/.test(args))
          bad(d, 'Write `# @name NAME` with a name of letters, digits, `_` and `-`.');
        break;
      case 'signed':
        signed = true;
        break;
      case 'unsigned':
        signed = false;
        break;
      case 'key':
        if (PROFILE_NAME_PATTERN.test(args)) keyProfile = args;
        else
          bad(
            d,
            'Write `# @key PROFILE` with the name of a key profile (letters, digits, `_` and `-`), never the key itself.',
          );
        break;
      case 'weight': {
        const n = Number(args);
        if (/^\d+$/.test(args) && n > 0) weight = n;
        else bad(d, 'Write `# @weight N` with a positive whole number.');
        break;
      }
      case 'mode':
        if (args === 'ip' || args === 'uid') mode = args;
        else bad(d, 'Write `# @mode ip` (counted per IP) or `# @mode uid` (counted per account).');
        break;
      case 'confirm':
        confirm = true;
        break;
      case 'signature':
        if (args === 'body' || args === 'query') signaturePlacement = args;
        else
          bad(
            d,
            'Write `# @signature body` to put the signature at the end of the form body (the query string is the default).',
          );
        break;
      case 'expect': {
        const e = readExpectation(d, args);
        if (e) expectations.push(e);
        else bad(d, 'Write `# @expect status 200`, `# @expect code 30002` or `# @expect json PATH == VALUE`.');
        break;
      }
      default:
        if (!KNOWN.has(d.name.text)) {
          diagnostics.push({
            range: d.name.range,
            severity: 'warning',
            message: `Unknown directive @${d.name.text}: known are ${DIRECTIVES.map((x) => '@' + x.name).join(', ')}. Write a plain comment without "@".`,
            rule: 'unknown-directive',
          });
        }
    }
  }
  return {
    options: { name: request?.name?.text, signed, keyProfile, weight, mode, confirm, signaturePlacement, expectations },
    diagnostics,
  };
}

function readExpectation(d: Directive, args: string): Expectation | undefined {
  const m = /^(status|code)\s+(-?\d+)$/.exec(args);
  if (m) {
    return m[1] === 'status'
      ? { kind: 'status', status: Number(m[2]), directive: d }
      : { kind: 'code', code: Number(m[2]), directive: d };
  }
  const j = /^json\s+(\S+)\s*==\s*(.*)$/.exec(args);
  if (j) return { kind: 'json', path: j[1]!, value: j[2]!.trim(), directive: d };
  return undefined;
}
