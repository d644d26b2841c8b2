/**
 * The stream names a deployment's clients subscribe to, read through the deployment's stream
 * catalog (src/core/catalog/stream-names.ts): the spec's JSON names, mexc's `.pb` ones. The
 * sandbox plays every stream of the catalog but the book increments (aggreDepth,
 * increaseDepthBatch: it keeps no diff of its books), which are refused as not played.
 */
import type { Deployment } from '../../core/catalog/deployment';
import { exampleStreamName, readStreamName, streamOfKind, type ParsedStream } from '../../core/catalog/stream-names';
import { err, ok, type Result } from '../../core/result';

/** A stream the sandbox plays, as its name says. */
export type PlayedStream = ParsedStream;

export interface StreamReader {
  /** What `name` is, or why it is not a stream of the deployment (one or two sentences). */
  read(name: string): Result<PlayedStream, string>;
  /** A name to show in a usage hint. */
  readonly example: string;
}

/** The reader of `deployment`'s stream names. */
export function streamReader(deployment: Deployment): StreamReader {
  const deals = streamOfKind('deals', deployment);
  return {
    read: (name) => {
      const r = readStreamName(name, deployment);
      return r.ok ? ok(r.value.stream) : err(r.error.message);
    },
    example: deals === undefined ? '' : exampleStreamName(deals),
  };
}
