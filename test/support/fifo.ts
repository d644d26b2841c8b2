/**
 * FIFOs for the tests of files a repository names (core/repo-file.ts): made with mkfifo where the
 * system has one, and a deadline that opens a writer should the code under test wait for one, so a
 * regression fails instead of hanging the run.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** A FIFO at `path`, made with mkfifo; false where there is none (Windows). */
export function madeFifo(path: string): boolean {
  if (process.platform === 'win32') return false;
  try {
    execFileSync('mkfifo', [path]);
    return true;
  } catch {
    return false;
  }
}

/**
 * `work` (synchronous), with a worker thread that opens a writer on `fifo` after 10 s should `work`
 * wait in open() for one: a regression then fails (`released`) instead of hanging the run.
 */
export function releasingSync<T>(fifo: string, work: () => T): { value: T; released: boolean } {
  const state = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
     const fs = require('node:fs');
     if (Atomics.wait(workerData.state, 0, 0, 10000) === 'timed-out') {
       Atomics.store(workerData.state, 1, 1);
       try { fs.closeSync(fs.openSync(workerData.fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK)); } catch {}
     }`,
    { eval: true, workerData: { state, fifo } },
  );
  try {
    const value = work();
    return { value, released: Atomics.load(state, 1) === 1 };
  } finally {
    Atomics.store(state, 0, 1);
    Atomics.notify(state, 0);
    void worker.terminate();
  }
}

/** As releasingSync, for work that does not block the thread (a timer suffices). */
export async function releasing<T>(fifo: string, work: () => Promise<T>): Promise<{ value: T; released: boolean }> {
  let released = false;
  const deadline = setTimeout(() => {
    released = true;
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // No reader waits: nothing to release.
    }
  }, 10_000);
  try {
    const value = await work();
    return { value, released };
  } finally {
    clearTimeout(deadline);
  }
}
