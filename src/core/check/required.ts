/** Parameters an endpoint and an order type need (§4.2, docs/service.md, Assumptions): missing ones are errors. */
import type { EndpointInfo } from '../catalog/types';
import type { Param, RequestBlock } from '../format/model';
import type { VariableScope } from '../format/variables';
import { t } from '../l10n';
import { answer, either, Findings } from './findings';
import { effectiveValue } from './values';

export function checkRequired(
  request: RequestBlock,
  endpoint: EndpointInfo,
  scope: VariableScope,
  out: Findings,
): void {
  const present = new Map<string, Param>();
  for (const p of request.params) present.set(p.name.text, p);
  const where = request.requestLine.range;
  const name = `${endpoint.method} ${endpoint.path}`;
  for (const p of endpoint.params) {
    if (p.required && !p.addedBySigner && !present.has(p.name)) {
      const message = t('{0} needs "{1}" (the service answers {2}).', name, p.name, answer(44444));
      out.add('missing-param', where, message, { prevents: 44444 });
    }
  }
  for (const group of endpoint.anyOf ?? []) {
    if (!group.some((n) => present.has(n))) {
      const message = t('{0} needs {1} (the service answers {2}).', name, either(group), answer(700004));
      out.add('missing-param', where, message, { prevents: 700004 });
    }
  }
  const typeParam = present.get('type');
  if (typeParam) checkTypeRequirements(typeParam, present, endpoint, scope, out);
}

/** What the order type needs (LIMIT: quantity and price), reported on the type's value. */
function checkTypeRequirements(
  typeParam: Param,
  present: ReadonlyMap<string, Param>,
  endpoint: EndpointInfo,
  scope: VariableScope,
  out: Findings,
): void {
  const type = effectiveValue(typeParam, scope)?.value;
  const requirement = type ? endpoint.typeRequirements?.find((r) => r.type === type) : undefined;
  if (!type || !requirement) return;
  const at = typeParam.value.range;
  for (const n of requirement.required) {
    if (present.has(n)) continue;
    const message = t('A {0} order needs "{1}" (the service answers {2}).', type, n, answer(44444));
    out.add('missing-param', at, message, { prevents: 44444 });
  }
  for (const group of requirement.anyOf ?? []) {
    if (group.some((n) => present.has(n))) continue;
    const message = t('A {0} order needs {1} (the service answers {2}).', type, either(group), answer(44444));
    out.add('missing-param', at, message, { prevents: 44444 });
  }
}
