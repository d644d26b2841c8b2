/**
 * How a request ended, in one place for the core, the command line, the panel and its protocol.
 * The status outcomes are what an HTTP status says about the operation (§7.1): a 5XX leaves it
 * unknown, never failed. A send can also end before any status: nothing left this machine
 * (not-sent), or the gate kept it back (refused).
 */
const STATUS_OUTCOMES = ['ok', 'rejected', 'unknown'] as const;
export type Outcome = (typeof STATUS_OUTCOMES)[number];

export const SEND_OUTCOMES = [...STATUS_OUTCOMES, 'not-sent', 'refused'] as const;
export type SendOutcome = (typeof SEND_OUTCOMES)[number];
