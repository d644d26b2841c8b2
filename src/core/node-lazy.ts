/**
 * Node's modules that cost milliseconds to load (node:crypto about 5 ms, node:worker_threads about
 * 6 ms on the project's machine), loaded when first used, so the extension's activation does not
 * pay for what only a send, a stream or a large file needs.
 */
type NodeCrypto = typeof import('node:crypto');
type NodeWorkers = typeof import('node:worker_threads');

let crypto: NodeCrypto | undefined;
let workers: NodeWorkers | undefined;

export function nodeCrypto(): NodeCrypto {
  return (crypto ??= require('node:crypto') as NodeCrypto);
}

export function nodeWorkers(): NodeWorkers {
  return (workers ??= require('node:worker_threads') as NodeWorkers);
}

/** Milliseconds from a monotonic clock, without loading node:perf_hooks. */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
