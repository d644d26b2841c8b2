/**
 * Origin binding (docs/format.md, Environments): a key profile is sent only to the origins its owner
 * approved, so a shared file or environment cannot redirect a key to a host of someone else's
 * choosing. A refused request sends nothing at all.
 */
import { err, ok, type Result } from '../result';
import { t } from '../l10n';

/** The scheme, host and port of a URL, as `new URL().origin` writes them; undefined when invalid. */
export function normaliseOrigin(url: string): string | undefined {
  try {
    const u = new URL(url.trim());
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    return u.origin;
  } catch {
    return undefined;
  }
}

/** A key that may not go where a request would take it: why, and the origin whose approval would allow it. */
export interface Unbound {
  readonly message: string;
  /** Absent when no approval would do (a listen key over plain ws:// off loopback). */
  readonly origin?: string;
}

export interface KeyBinding {
  readonly profile: string;
  readonly origins: readonly string[];
  /** Where the binding comes from, for the message ("TRADEREQ_MAIN_ORIGINS", "SecretStorage"). */
  readonly source: string;
  /**
   * The environment variable that lists the profile's origins, when a refusal is cured by setting it
   * (the command line's TRADEREQ_<PROFILE>_ORIGINS); absent where origins are approved otherwise
   * (the editor offers to bind the profile).
   */
  readonly variable?: string;
}

/**
 * Whether `binding` allows its key to go to `origin`; the refusal says why and what to do.
 * `destination` names where it would go when that is not `origin` itself (a listen key's
 * WebSocket origin, approved through its http(s) form: ws/url.ts checkListenKeyBinding).
 */
export function checkBinding(origin: string, binding: KeyBinding, destination = origin): Result<void, string> {
  if (binding.origins.includes(origin)) return ok(undefined);
  // No "Refused:" here: the shells show it after their own "refused:" or "not sent:".
  return err(approval(origin, binding, notBound(origin, binding, destination)));
}

/** Where the key may not go, and where it is bound. */
function notBound(origin: string, binding: KeyBinding, destination: string): string {
  const { profile, source } = binding;
  const bound = binding.origins.join(', ');
  if (destination === origin)
    return bound === ''
      ? t(
          'key profile "{0}" may not be sent to {1} (it is bound to no origin, from {2}). Nothing was sent.',
          profile,
          destination,
          source,
        )
      : t(
          'key profile "{0}" may not be sent to {1} (it is bound to {2}, from {3}). Nothing was sent.',
          profile,
          destination,
          bound,
          source,
        );
  return bound === ''
    ? t(
        'key profile "{0}" may not be sent to {1} ({1} needs {2}; it is bound to no origin, from {3}). Nothing was sent.',
        profile,
        destination,
        origin,
        source,
      )
    : t(
        'key profile "{0}" may not be sent to {1} ({1} needs {2}; it is bound to {3}, from {4}). Nothing was sent.',
        profile,
        destination,
        origin,
        bound,
        source,
      );
}

/** `refusal`, then the next step that would let the key go to `origin`: the variable to set, or the binding to make. */
function approval(origin: string, binding: KeyBinding, refusal: string): string {
  if (binding.variable === undefined) return t('{0} Bind the profile to {1} if you trust it.', refusal, origin);
  const origins = [...new Set([...binding.origins, origin])].join(',');
  return t('{0} If you trust it, set {1}={2} and run again.', refusal, binding.variable, origins);
}
