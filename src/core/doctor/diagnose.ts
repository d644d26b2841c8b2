/** The diagnosis: recompute the signature of §5, try the known mistakes, then check the rest of §5 and §4.1. */
import type { Diagnosis, DoctorInput } from './types';

export function diagnose(input: DoctorInput): Diagnosis {
  void input;
  throw new Error('not written yet');
}
