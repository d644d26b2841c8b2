/**
 * The one shape of a failure in the core: a value, never an exception (exceptions are for bugs,
 * and for the shells' edges). `error` says what went wrong in the terms the caller needs.
 */
export type Result<T, E> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

export function err<E>(error: E): { readonly ok: false; readonly error: E } {
  return { ok: false, error };
}
