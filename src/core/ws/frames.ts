/**
 * One frame from the server, told apart: a reply, a push of a known stream, or a problem (too
 * large, binary, not JSON, not a message the catalog knows). Frames are hostile: their size is
 * checked before they are parsed, and nothing here throws.
 */
import { BOUNDS, clip } from '../bounds';
import { t } from '../l10n';
import { classifyServerMessage, type Push, type Reply, type StreamKind } from '../catalog/streams';
import { nestsDeeperThan } from '../format/json-value';
import type { FrameProblem } from './types';

/** Frames above this are dropped unparsed (counted); the service's pushes are a few KiB at most. */
export const MAX_FRAME_BYTES = 1024 * 1024;
/** What a problem event shows of the frame. */
const SAMPLE_CHARS = 200;

export type Frame =
  | { readonly type: 'reply'; readonly reply: Reply }
  | {
      readonly type: 'push';
      readonly push: Push;
      readonly kind: StreamKind;
      readonly json: unknown;
      /** The frame's text when it nests too deeply to be written out again (see pushText). */
      readonly text?: string;
    }
  | { readonly type: 'problem'; readonly problem: FrameProblem; readonly why: string; readonly sample?: string };

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

/** `data`: a text frame as a string, a binary one as its bytes (an ArrayBuffer or a view of one). */
export function readFrame(data: unknown, maxBytes: number = MAX_FRAME_BYTES): Frame {
  if (typeof data !== 'string') {
    const bytes = data instanceof ArrayBuffer || ArrayBuffer.isView(data) ? data.byteLength : 0;
    return {
      type: 'problem',
      problem: 'binary',
      why: t('a binary frame of {0} bytes; the service sends JSON text: dropped', bytes),
    };
  }
  // Each UTF-16 unit is at most 3 UTF-8 bytes: most frames need no count.
  const bytes = data.length * 3 <= maxBytes ? data.length : Buffer.byteLength(data, 'utf8');
  if (bytes > maxBytes)
    return {
      type: 'problem',
      problem: 'too-large',
      why: t("a frame of {0} bytes, over the client's cap of {1}: dropped unparsed", bytes, bytesText(maxBytes)),
    };
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
  if (m.type === 'push') {
    const text = pushText(json, data);
    return { type: 'push', push: m.push, kind: m.info.kind, json, ...(text !== undefined && { text }) };
  }
  return { type: 'problem', problem: 'unknown', why: serverText(m.why), sample: sample(data) };
}
