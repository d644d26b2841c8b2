/** What the check step says about one parameter: its name, its value, the catalog's rule for it (§2.1, §5). */
import { findParam } from '../catalog/endpoints';
import { LIMITS, MILLISECOND_TIMESTAMP_MIN } from '../catalog/limits';
import type { EndpointInfo, ParamInfo } from '../catalog/types';
import { CLIENT_ORDER_ID_FORMAT } from '../catalog/formats';
import type { Param } from '../format/model';
import type { VariableScope } from '../format/variables';
import { t } from '../l10n';
import { answer, Findings } from './findings';
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
    const message = t(
      'Do not write the signature by hand: TradeReq computes it over exactly what is sent, and a second or stale one makes the request fail (the service answers {0}). Remove this line.',
      answer(700002),
    );
    return out.add('manual-signature', p.range, message, { prevents: 700002 });
  }
  if (p.value.text.length === 0) {
    const message = t(
      '"{0}" has an empty value: it is sent and signed as "{0}=", which the service may refuse (the service answers {1}). Give it a value or remove the line.',
      name,
      answer(44444),
    );
    return out.add('empty-value', p.range, message, { prevents: 44444 });
  }
  const info = endpoint ? findParam(endpoint, name) : undefined;
  if (endpoint && !info) {
    const known = endpoint.params
      .filter((x) => !x.addedBySigner)
      .map((x) => x.name)
      .join(', ');
    const message = t(
      '"{0}" is not a known parameter of {1} {2}; known: {3} (the service answers {4}).',
      name,
      endpoint.method,
      endpoint.path,
      known,
      answer(33333),
    );
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
      ? { title: t('Change to {0}', fixed), replacement: fixed }
      : undefined;
  const message = t(
    'Symbol "{0}" must be upper-case letters (spec §2.1), e.g. {1} (the service answers {2}).',
    value,
    fixed || 'BTCUSDT',
    answer(10007),
  );
  out.add('symbol-case', p.value.range, message, { severity: onlyDigits ? 'warning' : 'error', prevents: 10007, fix });
}

function checkDecimal({ p, name, v, out }: ValueCase): void {
  const value = v.value;
  if (!DECIMAL.test(value)) {
    const message = t(
      '{0} must be a decimal number written as text, such as 0.001 (spec §2.1), not "{1}" (the service answers {2}).',
      name,
      value,
      answer(33333),
    );
    out.add('decimal', p.value.range, message, { prevents: 33333 });
  } else if (p.origin === 'json' && !p.quoted) {
    // A JSON member written as a number is sent as a number; the spec says decimals go as text (§2.1).
    const message = t(
      '{0} is a decimal sent as text (spec §2.1): write "{1}" in quotes so no digits are lost (the service answers {2}).',
      name,
      value,
      answer(33333),
    );
    out.add('decimal-as-text', p.value.range, message, { prevents: 33333 });
  }
}

function checkRecvWindow({ p, v, out }: ValueCase): void {
  const value = v.value;
  const { maxMs: max, defaultMs, recommendedMaxMs } = LIMITS.recvWindow;
  const at = p.value.range;
  if (!INTEGER.test(value)) {
    const message = t(
      'recvWindow is a whole number of milliseconds, such as {0}, not "{1}" (the service answers {2}).',
      defaultMs,
      value,
      answer(33333),
    );
    out.add('recv-window', at, message, { prevents: 33333 });
  } else if (Number(value) > max) {
    const message = t(
      'recvWindow {0} is above the maximum {1} (the service answers {2}). Use {3} or less.',
      value,
      max,
      answer(700005),
      defaultMs,
    );
    out.add('recv-window', at, message, { prevents: 700005 });
  } else if (Number(value) === max) {
    const message = t(
      'recvWindow {0} is exactly the maximum, which the spec words both ways ("maximum 60000" and "must be less than 60000"): the service may answer 700005. Use {1} or less.',
      max,
      max - 1,
    );
    out.add('recv-window', at, message, { severity: 'warning', prevents: 700005 });
  } else if (Number(value) > recommendedMaxMs) {
    const message = t(
      'recvWindow {0}: {1} or less is recommended (spec §5 rule 8); a long window lets a delayed request through late.',
      value,
      recommendedMaxMs,
    );
    out.add('recv-window', at, message, { severity: 'information' });
  }
}

function checkTimestamp({ p, v, signed, out }: ValueCase): void {
  const value = v.value;
  const at = p.value.range;
  if (!INTEGER.test(value)) {
    const message = t(
      'timestamp is Unix time in milliseconds, such as {0}, not "{1}" (the service answers {2}).',
      Date.UTC(2024, 0, 1),
      value,
      answer(700003),
    );
    out.add('timestamp', at, message, { prevents: 700003 });
  } else if (Number(value) < MILLISECOND_TIMESTAMP_MIN) {
    const message = t(
      'timestamp {0} looks like seconds: the service counts milliseconds (the service answers {1}). Remove the line and TradeReq adds the current time.',
      value,
      answer(700003),
    );
    const fix = v.literal ? { title: t('Change to milliseconds'), replacement: value + '000' } : undefined;
    out.add('timestamp-seconds', at, message, { prevents: 700003, fix });
  } else if (v.literal && signed) {
    const message = t(
      'A fixed timestamp soon falls outside recvWindow (the service answers {0}). Remove the line and TradeReq adds the current time, or write {{$timestamp}}.',
      answer(700003),
    );
    out.add('timestamp-fixed', at, message, { prevents: 700003 });
  }
}

function checkClientOrderId({ p, name, v, out }: ValueCase): void {
  if (CLIENT_ORDER_ID_FORMAT.test(v.value)) return;
  const message = t(
    '{0} should be at most 32 characters of A-Z a-z 0-9 (the service answers {1}).',
    name,
    answer(700008),
  );
  out.add('client-order-id', p.value.range, message, { prevents: 700008 });
}

function checkEnum(p: Param, info: ParamInfo, v: CheckedValue, out: Findings): void {
  const values = info.enumValues ?? [];
  if (values.some((e) => e.value === v.value)) return;
  const match = values.find((e) => e.value === v.value.toUpperCase());
  const fix = v.literal && match ? { title: t('Change to {0}', match.value), replacement: match.value } : undefined;
  const message = t(
    '{0} "{1}" is not an allowed value: {2} (the service answers {3}).',
    p.name.text,
    v.value,
    values.map((e) => e.value).join(', '),
    answer(33333),
  );
  out.add('enum-value', p.value.range, message, { prevents: 33333, fix });
}
