/** A diagnosis as text for a terminal or an editor document (the shell escapes it), and as JSON. */
import type { Diagnosis } from './types';

export function reportText(d: Diagnosis): string {
  return d.summary;
}
