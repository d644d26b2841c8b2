/**
 * One frame from the server, told apart: a reply, a push of a known stream (JSON text, or a binary
 * Protocol Buffers push decoded by pb.ts where the deployment sends those), or a problem (too
 * large, binary where JSON is sent, not JSON, not a message the catalog knows, not a push wrapper,
 * a JSON push where binary is sent). Frames are hostile: their size is checked before they are
 * parsed, and nothing here throws.
 */
import { BOUNDS, clip } from '../bounds';
import { t } from '../l10n';
import { classifyServerMessage, type Push, type Reply, type StreamKind } from '../catalog/streams';
import { nestsDeeperThan } from '../format/json-value';
import type { StreamEncoding } from '../catalog/deployment';
import { WS_RULES } from '../catalog/ws-limits';
import { decodePush, MAX_PUSH_BYTES, type PushProblem } from './pb';
import type { FrameProblem } from './types';

/** Frames above this are dropped unparsed (counted): the decoder's bound (pb.ts), one for text and binary frames. */
export const MAX_FRAME_BYTES = MAX_PUSH_BYTES;
/** What a problem event shows of the frame. */
const SAMPLE_CHARS = 200;
/** What a problem event shows of a binary frame: its first bytes, in hex. */
const HEX_SAMPLE_BYTES = 32;

export type Frame =
  | { readonly type: 'reply'; readonly reply: Reply }
  | {
      readonly type: 'push';
      readonly encoding: 'json';
      readonly push: Push;
      readonly kind: StreamKind;
      readonly json: unknown;
      /** The frame's text when it nests too deeply to be written out again (see pushText). */
      readonly text?: string;
    }
  | {
      readonly type: 'push';
      readonly encoding: 'protobuf';
      /** The wrapper's channel. */
      readonly stream: string;
      /** The body's field name in the wrapper, its key in `json`. */
      readonly body: string;
      /** The decoded push as docs/websocket.md shows it: the wrapper's fields and the body under its name. */
      readonly json: DecodedPushJson;
    }
  | { readonly type: 'problem'; readonly problem: FrameProblem; readonly why: string; readonly sample?: string };

/** A decoded push as JSON: `{channel, symbol?, symbolId?, createTime?, sendTime?, <body name>: {…}}`. */
type DecodedPushJson = Readonly<Record<string, unknown>>;

/** Text from the server for a message: clipped, control characters shown as spaces. */
export function serverText(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  return clip(text.replace(/[\u0000-\u001f\u007f]/g, ' ').trim(), BOUNDS.messageChars);
}

/** "1 MiB", "16 KiB", "300 bytes": a size in bytes as people read it. */
export function bytesText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return t('{0} bytes', bytes);
}

function sample(text: string): string {
  return serverText(text.slice(0, SAMPLE_CHARS));
}

/**
 * A push nested deeper than an answer may be to be pretty-printed (BOUNDS.prettyJsonDepth, as REST
 * answers are): its text as received, since JSON.stringify recurses and would overflow the stack on
 * it. Undefined for every other push, which is shown as JSON.
 */
function pushText(json: unknown, data: string): string | undefined {
  return nestsDeeperThan(json, BOUNDS.prettyJsonDepth) ? data : undefined;
}

/**
 * `data`: a text frame as a string, a binary one as its bytes (an ArrayBuffer or a view of one).
 * `encoding`: how the environment's deployment sends its pushes (catalog/deployment.ts): JSON text,
 * or Protocol Buffers binary frames, whose replies and PONG are JSON text all the same.
 */
export function readFrame(data: unknown, maxBytes: number = MAX_FRAME_BYTES, encoding: StreamEncoding = 'json'): Frame {
  if (typeof data === 'string') return readText(data, maxBytes, encoding);
  const bytes = asBytes(data);
  if (encoding === 'json')
    return {
      type: 'problem',
      problem: 'binary',
      why: t('a binary frame of {0} bytes; the service sends JSON text: dropped', bytes.byteLength),
    };
  if (bytes.byteLength > maxBytes) return tooLarge(bytes.byteLength, maxBytes);
  return readBinary(bytes, maxBytes);
}

function asBytes(data: unknown): Uint8Array {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return new Uint8Array(0);
}

function tooLarge(bytes: number, maxBytes: number): Frame {
  return {
    type: 'problem',
    problem: 'too-large',
    why: t("a frame of {0} bytes, over the client's cap of {1}: dropped unparsed", bytes, bytesText(maxBytes)),
  };
}

function readText(data: string, maxBytes: number, encoding: StreamEncoding): Frame {
  // Each UTF-16 unit is at most 3 UTF-8 bytes: most frames need no count.
  const bytes = data.length * 3 <= maxBytes ? data.length : Buffer.byteLength(data, 'utf8');
  if (bytes > maxBytes) return tooLarge(bytes, maxBytes);
  let json: unknown;
  try {
    json = JSON.parse(data) as unknown;
  } catch {
    return {
      type: 'problem',
      problem: 'not-json',
      why: t('a text frame that is not valid JSON'),
      sample: sample(data),
    };
  }
  const m = classifyServerMessage(json);
  if (m.type === 'reply') return { type: 'reply', reply: { ...m.reply, msg: serverText(m.reply.msg) } };
  // Under Protocol Buffers only replies come as text: a push in JSON is not what this deployment sends.
  if (encoding === 'protobuf')
    return {
      type: 'problem',
      problem: 'text-push',
      why: t('a text frame that is not a reply, where this deployment sends its pushes as Protocol Buffers: dropped'),
      sample: sample(data),
    };
  if (m.type === 'push') {
    const text = pushText(json, data);
    return {
      type: 'push',
      encoding: 'json',
      push: m.push,
      kind: m.info.kind,
      json,
      ...(text !== undefined && { text }),
    };
  }
  return { type: 'problem', problem: 'unknown', why: serverText(m.why), sample: sample(data) };
}

/** A binary frame as one push wrapper (pb.ts), its channel bounded as a JSON push's `c` is. */
function readBinary(bytes: Uint8Array, maxBytes: number): Frame {
  const decoded = decodePush(bytes, maxBytes);
  if (!decoded.ok)
    return { type: 'problem', problem: 'undecodable', why: pushProblemText(decoded.error), sample: hexSample(bytes) };
  const { body, ...wrapper } = decoded.value;
  if (wrapper.channel.length > WS_RULES.maxStreamNameLength)
    return {
      type: 'problem',
      problem: 'undecodable',
      why: t(
        'a push whose channel has {0} characters, over the {1} a stream name may have: dropped',
        wrapper.channel.length,
        WS_RULES.maxStreamNameLength,
      ),
      sample: sample(wrapper.channel),
    };
  return {
    type: 'push',
    encoding: 'protobuf',
    stream: wrapper.channel,
    body: body.name,
    json: { ...wrapper, [body.name]: body.value },
  };
}

/** Why a binary frame is not a push, for people. */
function pushProblemText(p: PushProblem): string {
  switch (p.kind) {
    case 'too-large':
      return t("a frame of {0} bytes, over the client's cap of {1}: dropped unparsed", p.bytes, bytesText(p.max));
    case 'malformed':
      return t('a binary frame that is not a Protocol Buffers push ({0}): dropped', serverText(p.detail));
    case 'unknown-body':
      return t('a push whose body (field {0}) this client does not know: dropped', p.field);
    case 'no-body':
      return t('a push with no body: dropped');
  }
}

/** The start of a binary frame as hex bytes ("0a 01 78 …"): nothing of it is shown as text. */
function hexSample(bytes: Uint8Array): string {
  const shown = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, HEX_SAMPLE_BYTES));
  const hex = shown.toString('hex').replace(/(..)(?!$)/g, '$1 ');
  return bytes.byteLength > HEX_SAMPLE_BYTES ? `${hex} …` : hex;
}
