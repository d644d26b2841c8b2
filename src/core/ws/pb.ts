/**
 * The public deployment's binary pushes (issue 33): one frame is one `PushDataV3ApiWrapper`
 * (src/core/ws/proto/push.proto, the project's own description of the published field numbers),
 * decoded with `@bufbuild/protobuf` (chosen by figures: smaller bundle, typed, keeps unknown
 * fields so an unknown body is named; see test/bench/protobuf.bench.ts) into the shape a JSON push
 * has: the wrapper's channel, symbol and times, and the body under its message's name.
 *
 * int64 values (times) become numbers when they are safe integers (every millisecond time is, until
 * the year 287,396), so `# @expect message` compares them as it compares a JSON push's `t`; a value
 * past 2^53 - 1 becomes its decimal text, never a rounded number. Decimals stay text, as sent.
 * Never throws: a frame too large, not a wrapper, or with a body this project does not know is a
 * `PushProblem`.
 */
import { fromBinary, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { err, ok, type Result } from '../result';
import { PushDataV3ApiWrapperSchema, type PushDataV3ApiWrapper } from './proto/push_pb';

/** A decoded value as JSON would carry it. */
type PushValue = string | number | boolean | readonly PushValue[] | { readonly [name: string]: PushValue };
type PushObject = { readonly [name: string]: PushValue };

export interface DecodedPush {
  readonly channel: string;
  readonly symbol?: string;
  readonly symbolId?: string;
  readonly createTime?: number | string;
  readonly sendTime?: number | string;
  /** `name` is the body's field name in the wrapper, e.g. `publicAggreDeals`. */
  readonly body: { readonly name: string; readonly value: PushObject };
}

/** Why a frame is not a push; the shells word it (counted and shown, never fatal). */
export type PushProblem =
  | { readonly kind: 'too-large'; readonly bytes: number; readonly max: number }
  | { readonly kind: 'malformed'; readonly detail: string }
  | { readonly kind: 'unknown-body'; readonly field: number }
  | { readonly kind: 'no-body' };

/** What a malformed frame's detail keeps of the library's message. */
const DETAIL_CHARS = 200;

/**
 * Frames above this are not read: the service's pushes are a few KiB at most. The connection's frame
 * cap for text and binary frames alike (frames.ts MAX_FRAME_BYTES is this bound).
 */
export const MAX_PUSH_BYTES = 1024 * 1024;

/** `maxBytes`: the connection's own cap when it sets a lower one; held before anything is read. */
export function decodePush(bytes: Uint8Array, maxBytes: number = MAX_PUSH_BYTES): Result<DecodedPush, PushProblem> {
  if (bytes.byteLength > maxBytes) return err({ kind: 'too-large', bytes: bytes.byteLength, max: maxBytes });
  let wrapper: PushDataV3ApiWrapper;
  try {
    wrapper = fromBinary(PushDataV3ApiWrapperSchema, bytes);
  } catch (e) {
    // The library throws on truncated varints, bad wire types, lengths past the end.
    return err({ kind: 'malformed', detail: String(e instanceof Error ? e.message : e).slice(0, DETAIL_CHARS) });
  }
  const { body } = wrapper;
  if (body.case === undefined) return err(missingBody(wrapper));
  const field = PushDataV3ApiWrapperSchema.fields.find((f) => f.localName === body.case);
  if (field?.message === undefined) return err({ kind: 'malformed', detail: `body ${body.case}` });
  return ok({
    channel: wrapper.channel,
    ...(wrapper.symbol !== undefined && { symbol: wrapper.symbol }),
    ...(wrapper.symbolId !== undefined && { symbolId: wrapper.symbolId }),
    ...(wrapper.createTime !== undefined && { createTime: int64(wrapper.createTime) }),
    ...(wrapper.sendTime !== undefined && { sendTime: int64(wrapper.sendTime) }),
    body: { name: field.name, value: plain(field.message, body.value) },
  });
}

/** A wrapper without a known body: a field number past the wrapper's own is a body this schema lacks. */
function missingBody(wrapper: PushDataV3ApiWrapper): PushProblem {
  const known = new Set(PushDataV3ApiWrapperSchema.fields.map((f) => f.number));
  const unknown = (wrapper.$unknown ?? []).find((u) => !known.has(u.no));
  return unknown === undefined ? { kind: 'no-body' } : { kind: 'unknown-body', field: unknown.no };
}

function int64(v: bigint): number | string {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v.toString();
}

function scalar(v: unknown): PushValue {
  if (typeof v === 'bigint') return int64(v);
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return String(v); // bytes fields: none in the schema today
}

/** The message as plain JSON, every field present (proto3 cannot tell a default from an absent one). */
function plain(desc: DescMessage, message: object): PushObject {
  const source = message as Record<string, unknown>;
  const out: Record<string, PushValue> = {};
  for (const f of desc.fields) {
    const v = source[f.localName];
    if (v !== undefined) out[f.name] = fieldValue(f, v);
  }
  return out;
}

function fieldValue(f: DescField, v: unknown): PushValue {
  switch (f.fieldKind) {
    case 'message':
      return plain(f.message, v as object);
    case 'list':
      return (v as unknown[]).map((x) => (f.listKind === 'message' ? plain(f.message, x as object) : scalar(x)));
    case 'map':
      return Object.fromEntries(
        Object.entries(v as object).map(([k, x]) => [
          k,
          f.mapKind === 'message' ? plain(f.message, x as object) : scalar(x),
        ]),
      );
    default:
      return scalar(v);
  }
}
