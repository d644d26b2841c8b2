/**
 * The stream names a deployment's clients subscribe to, read through the deployment's stream
 * catalog (src/core/catalog/stream-names.ts): the spec's JSON names, mexc's `.pb` ones. The
 * sandbox plays every stream of the catalog but the book increments (aggreDepth,
 * increaseDepthBatch: it keeps no diff of its books), which are refused as not played.
 */
import type { Deployment } from '../../core/catalog/deployment';
import {
  exampleStreamName,
  readStreamName,
  streamOfKind,
  type ParsedStream,
  type StreamKind,
} from '../../core/catalog/stream-names';
import { err, ok, type Result } from '../../core/result';

/** A stream the sandbox plays, as its name says. */
export type PlayedStream = ParsedStream;

export interface StreamReader {
  /** What `name` is, or why it is not a stream the sandbox plays (one or two sentences). */
  read(name: string): Result<PlayedStream, string>;
  /** A name to show in a usage hint. */
  readonly example: string;
}

/** Kinds of the catalogs the sandbox does not push. */
const NOT_PLAYED: ReadonlySet<StreamKind> = new Set(['aggreDepth', 'increaseDepthBatch']);

/** The reader of `deployment`'s stream names. */
export function streamReader(deployment: Deployment): StreamReader {
  const deals = streamOfKind('deals', deployment);
  return {
    read: (name) => {
      const r = readStreamName(name, deployment);
      if (!r.ok) return err(r.error.message);
      if (NOT_PLAYED.has(r.value.stream.kind))
        return err(`${r.value.info.channel} is a stream of ${deployment.title} that the sandbox does not play.`);
      return ok(r.value.stream);
    },
    example: deals === undefined ? '' : exampleStreamName(deals),
  };
}
