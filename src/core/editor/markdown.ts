/** Markdown for hovers and the response panel. Every value that comes from a file or a server is escaped. */
import { t } from '../l10n';
import type { ClockSample } from '../clock/clock';
import { explainTimestampError } from '../clock/clock';
import type { StreamCatalog, StreamDescription } from '../catalog/stream-names';
import type { EndpointInfo, ErrorCodeInfo, ParamInfo, Source } from '../catalog/types';

/** Escapes Markdown and HTML so that text shows as written. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>&~"]/g, (c) => '\\' + c).replace(/\r?\n/g, ' ');
}

/** Punctuation that ends or starts a phrase (Unicode Po: `：，。；.,:;!?`), not brackets or quotes, which belong to the words. */
const EDGE_PUNCTUATION = /^(\p{Po}*)([\s\S]*?)(\p{Po}*)$/u;

/**
 * `text` in bold that closes beside a letter. CommonMark closes `**` after punctuation only before
 * a space or more punctuation (`**原因：**超时` stays literal), so the phrase's own punctuation goes
 * outside the stars: `常见原因：` → `**常见原因**：`. A bracket stays inside (`**提现（旧）**`): after
 * it the stars close before a space or punctuation, as every bold of a hover is followed.
 */
export function bold(text: string): string {
  const [, lead = '', core = '', tail = ''] = EDGE_PUNCTUATION.exec(text) ?? [];
  return core === '' ? text : `${lead}**${core}**${tail}`;
}

/** Inline code for a value of unknown content: a fence longer than any run of backticks inside. */
export function inlineCode(text: string): string {
  // A loop, not Math.max(...runs): a line may hold more runs than the stack holds arguments.
  let longest = 0;
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text.replace(/\r?\n/g, ' ')}${pad}${fence}`;
}

/** The text of an error code for hover and the panel: every meaning, cause, what to do. */
export function errorCodeMarkdown(info: ErrorCodeInfo, clock?: ClockSample): string {
  const lines: string[] = [];
  if (info.meanings.length === 1) {
    lines.push(`**${info.code}**: ${t(info.meanings[0]!)}`);
  } else {
    lines.push(
      t('**{0}** has {1} meanings in the spec (§7.2):', info.code, info.meanings.length),
      '',
      ...info.meanings.map((m) => `- ${t(m)}`),
    );
  }
  if (info.cause) lines.push('', t('**Usual cause:** {0}', t(info.cause)));
  if (info.action) lines.push('', t('**What to do:** {0}', t(info.action)));
  if (info.code === 700003) lines.push('', explainTimestampError(clock));
  return lines.join('\n');
}

/** Whether `p` is required on `endpoint`: always, for some order types, or not at all. */
function requirement(p: ParamInfo, endpoint: EndpointInfo): string {
  if (p.addedBySigner) return t('Added by TradeReq when it signs the request.');
  if (p.required) return t('Required.');
  const needs =
    endpoint.typeRequirements
      ?.filter((r) => r.required.includes(p.name) || r.anyOf?.some((g) => g.includes(p.name)))
      .map((r) => r.type) ?? [];
  return needs.length > 0 ? t('Required for {0} orders.', needs.join(', ')) : t('Optional.');
}

/** A parameter's hover; `list` names the list of orders when `p` is a parameter of each order in it. */
export function paramMarkdown(p: ParamInfo, endpoint: EndpointInfo, list?: string): string {
  const lines = [
    list === undefined
      ? t('**{0}** ({1}) on {2} {3}', p.name, p.type, endpoint.method, endpoint.path)
      : t('**{0}** ({1}) in each order of {2}', p.name, p.type, list),
    '',
    t(p.description),
  ];
  if (p.rule) lines.push('', t('**Rule:** {0}', t(p.rule)));
  lines.push('', requirement(p, endpoint));
  if (p.defaultValue !== undefined) lines.push(t('Default: {0}.', p.defaultValue));
  if (p.enumValues)
    lines.push(
      '',
      t(
        'Values: {0}',
        p.enumValues.map((v) => (v.source === 'assumed' ? t('`{0}` (assumed)', v.value) : `\`${v.value}\``)).join(', '),
      ),
    );
  lines.push('', sourceNote(p.source));
  return lines.join('\n');
}

/** "Signed (…) · weight 1 · counted per account": how an endpoint is signed and counted. */
function endpointTerms(e: EndpointInfo): string {
  const own = e.weightSource === 'assumed' ? t('weight {0} (assumed)', e.weight) : t('weight {0}', e.weight);
  const without = e.weightWithout;
  const weight = without ? t('{0}, {1} without {2}', own, without.weight, without.param) : own;
  const counted = e.mode === 'ip' ? t('counted per IP') : t('counted per account');
  const signed = e.signed ? t('Signed (timestamp and signature added by TradeReq)') : t('Unsigned');
  return `${signed} · ${weight} · ${counted}`;
}

export function endpointMarkdown(e: EndpointInfo): string {
  return [
    `${bold(t(e.title))}: ${e.method} ${e.path}`,
    '',
    t(e.description),
    '',
    endpointTerms(e),
    ...deploymentNotes(e),
    '',
    sourceNote(e.source),
  ].join('\n');
}

/** What a deployment's documentation says beyond the spec's terms: its permission, its own counting label, a hidden or old page. */
function deploymentNotes(e: EndpointInfo): string[] {
  const notes: string[] = [];
  if (e.permissionName) notes.push(t('Permission: {0}.', inlineCode(e.permissionName)));
  if (e.documentedMode)
    notes.push(
      e.documentedMode === 'ip'
        ? t('The documentation labels its weight per IP; signed, it is counted per account (§8).')
        : t('The documentation labels its weight both per IP and per account.'),
    );
  if (e.docStatus === 'hidden')
    notes.push(t('Documented in a part of the page its readers do not see: it may be withdrawn.'));
  if (e.docStatus === 'deprecated') notes.push(t('The documentation says it is to be withdrawn.'));
  return notes.length === 0 ? [] : ['', ...notes];
}

/**
 * What a stream pushes, whether it needs a listen key, its parameters and push fields; `name` as
 * written (escaped); `deployment` is the one whose stream it is (a binary push is shown decoded).
 */
export function streamMarkdown(
  info: StreamDescription,
  name?: string,
  deployment?: Pick<StreamCatalog, 'title'>,
): string {
  const code = inlineCode(name ?? info.template);
  const lines = [
    info.visibility === 'private'
      ? t('**{0}** (private stream): {1}', t(info.title), code)
      : t('**{0}** (public stream): {1}', t(info.title), code),
    '',
    t(info.description),
    '',
    info.visibility === 'private'
      ? t(
          'Private: the connection needs a listen key. Add `# @listenKey` to the request; TradeReq obtains one with its key profile, keeps it alive and closes it.',
        )
      : t('Public: no key needed.'),
  ];
  if (info.params.length > 0)
    lines.push('', ...info.params.map((p) => `- **${p.name}**: ${t(p.description)} (${t(p.rule)})`));
  lines.push(
    '',
    info.body === undefined
      ? t('**Each push** `{"c", "s", "t", "d"}`; in `d`:')
      : t(
          '**Each push** is binary (Protocol Buffers, body {0} {1}), shown decoded as `{channel, symbol, createTime, sendTime, {2}}`; in `{2}`:',
          info.body.field,
          info.body.message,
          info.body.name,
        ),
    '',
    ...info.fields.map((f) => `- \`${f.path}\` (${f.type}): ${t(f.description)}`),
  );
  lines.push('', streamSourceNote(info, deployment));
  return lines.join('\n');
}

function streamSourceNote(info: StreamDescription, deployment: Pick<StreamCatalog, 'title'> | undefined): string {
  if (info.source === 'deployment')
    return t('_Documented by the deployment {0} in its own documentation, not by the spec._', deployment?.title ?? '');
  return info.source === 'spec'
    ? t('_Documented by the service: §6 shows no stream names; this follows the API family._')
    : t('_Assumed (not documented by the service): §6 shows no stream names; this follows the API family._');
}

/** Where a fact comes from, as the last line of a hover (italic). */
export function sourceNote(source: Source): string {
  return source === 'spec' ? t('_Documented by the service._') : t('_Assumed (not documented by the service)._');
}
