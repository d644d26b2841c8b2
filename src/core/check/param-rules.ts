/** What the check step says about one parameter: its name, its value, the catalog's rule for it (§2.1, §5). */
import { findParam } from '../catalog/endpoints';
import { LIMITS, MILLISECOND_TIMESTAMP_MIN } from '../catalog/limits';
import type { EndpointInfo, ParamInfo } from '../catalog/types';
import { CLIENT_ORDER_ID_FORMAT } from '../catalog/formats';
import type { Param } from '../format/model';
import type { VariableScope } from '../format/variables';
import { answers, Findings } from './findings';
import { effectiveValue, type CheckedValue } from './values';

const DECIMAL = /^\d+(\.\d+)?$/;
const INTEGER = /^\d+$/;

interface ValueCase {
  readonly p: Param;
  readonly name: string;
  readonly v: CheckedValue;
  readonly signed: boolean;
  readonly out: Findings;
}

/** The rules for a parameter's value, by name; each reports at the value's range. */
const VALUE_RULES: Readonly<Record<string, (c: ValueCase) => void>> = {
  symbol: checkSymbol,
  quantity: checkDecimal,
  price: checkDecimal,
  quoteOrderQty: checkDecimal,
  recvWindow: checkRecvWindow,
  timestamp: checkTimestamp,
  newClientOrderId: checkClientOrderId,
  origClientOrderId: checkClientOrderId,
};

export function checkParam(
  p: Param,
  endpoint: EndpointInfo | undefined,
  scope: VariableScope,
  signed: boolean,
  out: Findings,
): void {
  const name = p.name.text;
  if (name === 'signature') {
    const message = `Do not write the signature by hand: TradeReq computes it over exactly what is sent, and a second or stale one makes the request fail${answers(700002)}. Remove this line.`;
    return out.add('manual-signature', p.range, message, { prevents: 700002 });
  }
  if (p.value.text.length === 0) {
    const message = `"${name}" has an empty value: it is sent and signed as "${name}=", which the service may refuse${answers(44444)}. Give it a value or remove the line.`;
    return out.add('empty-value', p.range, message, { prevents: 44444 });
  }
  const info = endpoint ? findParam(endpoint, name) : undefined;
  if (endpoint && !info) {
    const known = endpoint.params
      .filter((x) => !x.addedBySigner)
      .map((x) => x.name)
      .join(', ');
    const message = `"${name}" is not a known parameter of ${endpoint.method} ${endpoint.path}; known: ${known}${answers(33333)}.`;
    out.add('unknown-param', p.name.range, message, { prevents: 33333 });
  }
  // Only values that a rule below looks at are substituted: the rest need not be.
  const rule = VALUE_RULES[name];
  if (!rule && !info?.enumValues) return;
  const v = effectiveValue(p, scope);
  if (!v) return;
  rule?.({ p, name, v, signed, out });
  if (info?.enumValues) checkEnum(p, info, v, out);
}

function checkSymbol({ p, v, out }: ValueCase): void {
  const value = v.value;
  if (/^[A-Z]+$/.test(value)) return;
  const fixed = value.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const onlyDigits = /^[A-Z0-9]+$/.test(value);
  const fix =
    v.literal && fixed && fixed !== value && !onlyDigits
      ? { title: `Change to ${fixed}`, replacement: fixed }
      : undefined;
  const message = `Symbol "${value}" must be upper-case letters (spec §2.1), e.g. ${fixed || 'BTCUSDT'}${answers(10007)}.`;
  out.add('symbol-case', p.value.range, message, { severity: onlyDigits ? 'warning' : 'error', prevents: 10007, fix });
}

function checkDecimal({ p, name, v, out }: ValueCase): void {
  const value = v.value;
  if (!DECIMAL.test(value)) {
    const message = `${name} must be a decimal number written as text, such as 0.001 (spec §2.1), not "${value}"${answers(33333)}.`;
    out.add('decimal', p.value.range, message, { prevents: 33333 });
  } else if (p.origin === 'json' && !p.quoted) {
    // A JSON member written as a number is sent as a number; the spec says decimals go as text (§2.1).
    const message = `${name} is a decimal sent as text (spec §2.1): write "${value}" in quotes so no digits are lost${answers(33333)}.`;
    out.add('decimal-as-text', p.value.range, message, { prevents: 33333 });
  }
}

function checkRecvWindow({ p, v, out }: ValueCase): void {
  const value = v.value;
  const { maxMs: max, defaultMs, recommendedMaxMs } = LIMITS.recvWindow;
  const at = p.value.range;
  if (!INTEGER.test(value)) {
    const message = `recvWindow is a whole number of milliseconds, such as ${defaultMs}, not "${value}"${answers(33333)}.`;
    out.add('recv-window', at, message, { prevents: 33333 });
  } else if (Number(value) > max) {
    const message = `recvWindow ${value} is above the maximum ${max}${answers(700005)}. Use ${defaultMs} or less.`;
    out.add('recv-window', at, message, { prevents: 700005 });
  } else if (Number(value) === max) {
    const message = `recvWindow ${max} is exactly the maximum, which the spec words both ways ("maximum 60000" and "must be less than 60000"): the service may answer 700005. Use ${max - 1} or less.`;
    out.add('recv-window', at, message, { severity: 'warning', prevents: 700005 });
  } else if (Number(value) > recommendedMaxMs) {
    const message = `recvWindow ${value}: ${recommendedMaxMs} or less is recommended (spec §5 rule 8); a long window lets a delayed request through late.`;
    out.add('recv-window', at, message, { severity: 'information' });
  }
}

function checkTimestamp({ p, v, signed, out }: ValueCase): void {
  const value = v.value;
  const at = p.value.range;
  if (!INTEGER.test(value)) {
    const message = `timestamp is Unix time in milliseconds, such as ${Date.UTC(2024, 0, 1)}, not "${value}"${answers(700003)}.`;
    out.add('timestamp', at, message, { prevents: 700003 });
  } else if (Number(value) < MILLISECOND_TIMESTAMP_MIN) {
    const message = `timestamp ${value} looks like seconds: the service counts milliseconds${answers(700003)}. Remove the line and TradeReq adds the current time.`;
    const fix = v.literal ? { title: 'Change to milliseconds', replacement: value + '000' } : undefined;
    out.add('timestamp-seconds', at, message, { prevents: 700003, fix });
  } else if (v.literal && signed) {
    const message = `A fixed timestamp soon falls outside recvWindow${answers(700003)}. Remove the line and TradeReq adds the current time, or write {{$timestamp}}.`;
    out.add('timestamp-fixed', at, message, { prevents: 700003 });
  }
}

function checkClientOrderId({ p, name, v, out }: ValueCase): void {
  if (CLIENT_ORDER_ID_FORMAT.test(v.value)) return;
  const message = `${name} should be at most 32 characters of A-Z a-z 0-9${answers(700008)}.`;
  out.add('client-order-id', p.value.range, message, { prevents: 700008 });
}

function checkEnum(p: Param, info: ParamInfo, v: CheckedValue, out: Findings): void {
  const values = info.enumValues ?? [];
  if (values.some((e) => e.value === v.value)) return;
  const match = values.find((e) => e.value === v.value.toUpperCase());
  const fix = v.literal && match ? { title: `Change to ${match.value}`, replacement: match.value } : undefined;
  const message = `${p.name.text} "${v.value}" is not an allowed value: ${values.map((e) => e.value).join(', ')}${answers(33333)}.`;
  out.add('enum-value', p.value.range, message, { prevents: 33333, fix });
}
