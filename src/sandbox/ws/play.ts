/**
 * How the sandbox plays a deployment's streams: the names it reads (its catalog) and the framing
 * of its pushes, chosen by its stream encoding (the JSON framing is the spec catalog's).
 */
import type { Deployment } from '../../core/catalog/deployment';
import type { Framing } from './frames';
import { JSON_FRAMING } from './frames-json';
import { pbFraming } from './frames-pb';
import { streamReader, type StreamReader } from './names';

export interface StreamPlay {
  readonly reader: StreamReader;
  readonly framing: Framing;
}

export function streamPlay(deployment: Deployment): StreamPlay {
  const framing = deployment.streamEncoding === 'json' ? JSON_FRAMING : pbFraming(deployment);
  return { reader: streamReader(deployment), framing };
}
