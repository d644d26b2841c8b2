/**
 * Every text of the catalog that the editor and the panel show in the display language (each
 * translated where it is shown, `t(entry.text)`): the catalog itself stays English data, as
 * `tradereq errors` prints it. The completeness test requires a translation of each in every bundle.
 */
import { ENDPOINTS } from './endpoints';
import { MEXC_ENDPOINTS, MEXC_UNDOCUMENTED } from './mexc-endpoints';
import { ERROR_CODES } from './errors';
import { HTTP_STATUSES, OTHER_STATUS_MEANINGS } from './statuses';
import { DEPLOYMENTS } from './deployment';
import type { ParamInfo } from './types';

function paramTexts(p: ParamInfo): string[] {
  return [
    p.description,
    ...(p.rule === undefined ? [] : [p.rule]),
    ...(p.enumValues ?? []).map((v) => v.description),
    ...(p.itemParams ?? []).flatMap(paramTexts),
  ];
}

export function shownCatalogTexts(): string[] {
  const texts = [
    ...ERROR_CODES.flatMap((e) => [
      ...e.meanings,
      ...(e.cause === undefined ? [] : [e.cause]),
      ...(e.action ? [e.action] : []),
    ]),
    ...HTTP_STATUSES.map((s) => s.meaning),
    ...Object.values(OTHER_STATUS_MEANINGS),
    ...[...ENDPOINTS, ...MEXC_ENDPOINTS].flatMap((e) => [e.title, e.description, ...e.params.flatMap(paramTexts)]),
    ...MEXC_UNDOCUMENTED.map((u) => u.reason),
    ...DEPLOYMENTS.flatMap((d) => d.streams).flatMap((s) => [
      s.title,
      s.description,
      ...s.params.flatMap((p) => [p.description, p.rule, ...(p.values ?? []).map((v) => v.description)]),
      ...s.fields.map((f) => f.description),
    ]),
  ];
  return [...new Set(texts)].sort();
}
