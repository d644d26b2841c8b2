/**
 * The sandbox's rule for IPs cut for the WebSocket message rate (§8: "repeatedly disconnected IPs
 * may be banned"; the numbers are the sandbox's, docs/websocket.md): an IP cut CUTS_BEFORE_BAN
 * times within CUT_WINDOW_MS is banned, and its upgrade requests are answered 418 with
 * Retry-After, for the escalating durations of the REST bans (× banScale).
 */
import { startBan, type Bans } from '../limits';

export const CUTS_BEFORE_BAN = 3;
export const CUT_WINDOW_MS = 10 * 60_000;
// IP records are pruned when there are more than this many.
const PRUNE_AT = 10_000;

interface IpRecord extends Bans {
  cuts: number[];
}

export class CutGuard {
  private ips = new Map<string, IpRecord>();

  constructor(private readonly banScale: number) {}

  reset(): void {
    this.ips = new Map();
  }

  /** Ms left of `ip`'s ban, or 0. */
  bannedFor(ip: string, now: number): number {
    const r = this.ips.get(ip);
    return r !== undefined && now < r.banUntil ? r.banUntil - now : 0;
  }

  /** Records a cut; returns the ban it starts (ms), or 0. */
  cut(ip: string, now: number): number {
    let r = this.ips.get(ip);
    if (r === undefined) {
      if (this.ips.size >= PRUNE_AT) this.prune(now);
      r = { cuts: [], banUntil: 0, offences: 0 };
      this.ips.set(ip, r);
    }
    r.cuts = r.cuts.filter((t) => now - t < CUT_WINDOW_MS);
    r.cuts.push(now);
    if (r.cuts.length < CUTS_BEFORE_BAN) return 0;
    r.cuts = [];
    return startBan(r, now, this.banScale);
  }

  private prune(now: number): void {
    // An IP that was banned keeps its record, so repeat bans keep growing.
    for (const [ip, r] of this.ips)
      if (r.offences === 0 && r.cuts.every((t) => now - t >= CUT_WINDOW_MS)) this.ips.delete(ip);
  }
}
