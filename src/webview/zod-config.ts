/**
 * Imported first by main.ts: zod decides at schema construction whether to compile parsers with
 * `new Function`, which the panel's CSP (no 'unsafe-eval') refuses and reports as a violation.
 */
import { config } from 'zod';

config({ jitless: true });
