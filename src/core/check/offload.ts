/**
 * Runs the check step in a worker thread (worker.ts, built as dist/check-worker.js): one worker,
 * started on first use, answering requests in order. Used by the editor for large files.
 */
import type { Worker } from 'node:worker_threads';
import type { NamedEnvironment } from '../env/constants';
import type { Diagnostic } from '../format/model';
import { l10nBundle, type L10nBundle } from '../l10n';
import { nodeWorkers } from '../node-lazy';

export interface CheckRequest {
  readonly id: number;
  readonly text: string;
  readonly environment: NamedEnvironment;
  /** Sent when the display language's bundle differs from the worker's (a bundle of undefined: English). */
  readonly l10n?: { readonly bundle: L10nBundle | undefined };
}

export interface CheckResponse {
  readonly id: number;
  readonly diagnostics: Diagnostic[];
}

export class OffloadedChecker {
  private worker: Worker | undefined;
  /** The bundle the worker speaks (a new worker speaks English until told). */
  private workerBundle: L10nBundle | undefined;
  private next = 1;
  private readonly pending = new Map<number, { resolve: (d: Diagnostic[]) => void; reject: (e: Error) => void }>();

  /** `script` is the path of the built worker (dist/check-worker.js). */
  constructor(private readonly script: string) {}

  check(text: string, environment: NamedEnvironment): Promise<Diagnostic[]> {
    const worker = this.start();
    const id = this.next++;
    // The messages are worded in the worker: it speaks the language of this thread's t().
    const bundle = l10nBundle();
    const l10n = bundle !== this.workerBundle ? { bundle } : undefined;
    this.workerBundle = bundle;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, text, environment, l10n } satisfies CheckRequest);
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new (nodeWorkers().Worker)(this.script);
    this.workerBundle = undefined;
    worker.on('message', (m: CheckResponse) => {
      this.pending.get(m.id)?.resolve(m.diagnostics);
      this.pending.delete(m.id);
    });
    // A worker that fails takes its pending checks with it; the next check starts a new one.
    const fail = (e: Error): void => {
      if (this.worker === worker) this.worker = undefined;
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the check worker stopped (exit ${code})`)));
    this.worker = worker;
    return worker;
  }

  async dispose(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }
}
