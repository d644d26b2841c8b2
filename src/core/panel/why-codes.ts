/**
 * The codes the panel's Why? explains with the signature doctor: an invalid signature (602, 700002;
 * docs/service.md §5 rule 10) and a timestamp outside recvWindow (700003; docs/service.md §5 rule 9).
 * And Why?'s own advice on a request whose file writes its `timestamp`. A file of its own, free of
 * zod, so the extension's activation bundle can read it.
 */
import { t } from '../l10n';

export const WHY_CODES: readonly number[] = [602, 700002, 700003];

/** The doctor's causes (core/doctor/types.ts CauseId) that a timestamp written in the file explains. */
const TIMESTAMP_CAUSES: readonly string[] = ['clock-window', 'timestamp-seconds'];

/** What Why? may change of the doctor's diagnosis (core/doctor/types.ts Diagnosis). */
interface Advice {
  readonly cause: string;
  readonly causes: readonly string[];
  readonly fix: string;
  readonly snippets: object;
}

/** What Why? reads of a panel entry (protocol.ts PanelEntry): its title and the timestamp its file writes. */
interface WhyEntry {
  readonly title: string;
  readonly request: { readonly ownTimestamp?: { readonly line: number; readonly value: string } };
}

/**
 * The doctor's diagnosis of a send of the history, as Why? shows it: when the file wrote the
 * timestamp that the window refused, the fix is to delete that line (TradeReq adds one itself,
 * docs/format.md, Signing), not clock code for a program.
 */
export function whyAdvice<D extends Advice>(d: D, entry: WhyEntry): D {
  const own = entry.request.ownTimestamp;
  if (!d.causes.some((c) => TIMESTAMP_CAUSES.includes(c))) return d;
  // TradeReq wrote the timestamp: the clock is the cause, not a line to delete or a program to fix.
  if (!own)
    return d.cause === 'clock-window'
      ? {
          ...d,
          fix: t(
            "TradeReq wrote this timestamp from this machine's clock: leave clock sync on, so that it is corrected by the offset measured against the server, and set the system clock (§5 rule 9).",
          ),
          snippets: {},
        }
      : d;
  const fix = t(
    'Line {0} of "{1}" writes its own timestamp ({2}): delete that line. TradeReq adds timestamp itself when it signs, on a clock kept in step with the server.',
    own.line,
    entry.title,
    own.value,
  );
  return TIMESTAMP_CAUSES.includes(d.cause) ? { ...d, fix, snippets: {} } : { ...d, fix: `${d.fix} ${fix}` };
}
