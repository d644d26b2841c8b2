/**
 * How the sandbox plays a deployment's streams, chosen by its stream encoding: the names it
 * reads and the framing of its pushes.
 */
import type { StreamEncoding } from '../../core/catalog/deployment';
import type { Framing } from './frames';
import { JSON_FRAMING } from './frames-json';
import { PB_FRAMING } from './frames-pb';
import { JSON_STREAM_READER, type StreamReader } from './names';
import { PB_STREAM_READER } from './names-pb';

export interface StreamPlay {
  readonly reader: StreamReader;
  readonly framing: Framing;
}

const PLAYS: Readonly<Record<StreamEncoding, StreamPlay>> = {
  json: { reader: JSON_STREAM_READER, framing: JSON_FRAMING },
  protobuf: { reader: PB_STREAM_READER, framing: PB_FRAMING },
};

export function streamPlay(encoding: StreamEncoding): StreamPlay {
  return PLAYS[encoding];
}
