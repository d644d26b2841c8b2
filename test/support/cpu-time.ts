/**
 * Time bounds measured in CPU time of this process, not wall time: a busy machine (other
 * processes on the same cores) stretches the wall clock of synchronous work, not its CPU time,
 * so a bound that catches a quadratic parser holds however loaded the machine is.
 */

/** Runs `work` and returns its value with the CPU milliseconds (user and system) it took. */
export function cpuTime<T>(work: () => T): { value: T; ms: number } {
  const before = process.cpuUsage();
  const value = work();
  const used = process.cpuUsage(before);
  return { value, ms: (used.user + used.system) / 1000 };
}
