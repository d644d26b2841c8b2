/** Markdown for hovers and the response panel. Every value that comes from a file or a server is escaped. */
import type { ClockSample } from '../clock/clock';
import { explainTimestampError } from '../clock/clock';
import { describeSource } from '../catalog/endpoints';
import type { StreamDescription } from '../catalog/stream-names';
import type { EndpointInfo, ErrorCodeInfo, ParamInfo } from '../catalog/types';

/** Escapes Markdown and HTML so that text shows as written. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>&~"]/g, (c) => '\\' + c).replace(/\r?\n/g, ' ');
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
    lines.push(`**${info.code}**: ${info.meanings[0]}`);
  } else {
    lines.push(
      `**${info.code}** has ${info.meanings.length} meanings in the spec (§7.2):`,
      '',
      ...info.meanings.map((m) => `- ${m}`),
    );
  }
  if (info.cause) lines.push('', `**Usual cause:** ${info.cause}`);
  if (info.action) lines.push('', `**What to do:** ${info.action}`);
  if (info.code === 700003) lines.push('', explainTimestampError(clock));
  return lines.join('\n');
}

export function paramMarkdown(p: ParamInfo, endpoint: EndpointInfo): string {
  const lines = [`**${p.name}** (${p.type}) on ${endpoint.method} ${endpoint.path}`, '', p.description];
  if (p.rule) lines.push('', `**Rule:** ${p.rule}`);
  const needs =
    endpoint.typeRequirements
      ?.filter((t) => t.required.includes(p.name) || t.anyOf?.some((g) => g.includes(p.name)))
      .map((t) => t.type) ?? [];
  lines.push(
    '',
    p.addedBySigner
      ? 'Added by TradeReq when it signs the request.'
      : p.required
        ? 'Required.'
        : needs.length > 0
          ? `Required for ${needs.join(', ')} orders.`
          : 'Optional.',
  );
  if (p.defaultValue !== undefined) lines.push(`Default: ${p.defaultValue}.`);
  if (p.enumValues)
    lines.push(
      '',
      'Values: ' + p.enumValues.map((v) => `\`${v.value}\`${v.source === 'assumed' ? ' (assumed)' : ''}`).join(', '),
    );
  lines.push('', `_${capitalise(describeSource(p.source))}._`);
  return lines.join('\n');
}

export function endpointMarkdown(e: EndpointInfo): string {
  return [
    `**${e.title}**: ${e.method} ${e.path}`,
    '',
    e.description,
    '',
    `${e.signed ? 'Signed (timestamp and signature added by TradeReq)' : 'Unsigned'} · weight ${e.weight}${e.weightSource === 'assumed' ? ' (assumed)' : ''} · counted per ${e.mode === 'ip' ? 'IP' : 'account'}`,
    '',
    `_${capitalise(describeSource(e.source))}._`,
  ].join('\n');
}

/** What a stream pushes, whether it needs a listen key, its parameters and push fields; `name` as written (escaped). */
export function streamMarkdown(info: StreamDescription, name?: string): string {
  const lines = [
    `**${info.title}** (${info.visibility} stream): ${inlineCode(name ?? info.template)}`,
    '',
    info.description,
    '',
    info.visibility === 'private'
      ? 'Private: the connection needs a listen key. Add `# @listenKey` to the request; TradeReq obtains one with its key profile, keeps it alive and closes it.'
      : 'Public: no key needed.',
  ];
  if (info.params.length > 0)
    lines.push('', ...info.params.map((p) => `- **${p.name}**: ${p.description} (${p.rule})`));
  lines.push(
    '',
    '**Each push** `{"c", "s", "t", "d"}`; in `d`:',
    '',
    ...info.fields.map((f) => `- \`${f.path}\` (${f.type}): ${f.description}`),
  );
  lines.push(
    '',
    `_${capitalise(describeSource(info.source))}: §6 shows no stream names; this follows the API family._`,
  );
  return lines.join('\n');
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
