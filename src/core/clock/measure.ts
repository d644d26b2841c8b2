import type { Budget } from '../budget/budget';
import { joinUrl } from '../format/resolve';
import { roundTrip } from '../net/round-trip';
import type { Sender } from '../net/send';
import type { PreparedRequest } from '../net/send';
import { findEndpoint } from '../catalog/endpoints';
import * as z from '../zod-mini';
import { sampleFrom, type ClockSample } from './clock';
import type { ClockSync } from './sync';

// Made on the first measurement: most signed sends find a recent offset and measure nothing.
const ServerTimeSchema = z.onFirstUse(() => z.object({ serverTime: z.int().check(z.nonnegative()) }));

const TIME = findEndpoint('GET', '/api/v3/time')!;

/** Measures the server-clock offset of `baseUrl` with GET /api/v3/time (counted in the IP budget). */
export async function measureClock(
  baseUrl: string,
  deps: { sender: Sender; budget: Budget; clock: ClockSync; now?: () => number },
): Promise<ClockSample | undefined> {
  const now = deps.now ?? Date.now;
  const url = joinUrl(baseUrl, TIME.path);
  const prepared: PreparedRequest = {
    method: 'GET',
    url,
    origin: new URL(url).origin,
    path: TIME.path,
    query: '',
    body: '',
    headers: [],
    signed: false,
    weight: TIME.weight,
    mode: TIME.mode,
  };
  const t0 = now();
  const report = await roundTrip(prepared, deps);
  const t1 = now();
  if (report.outcome !== 'ok' || !report.decoded) return undefined;
  const parsed = ServerTimeSchema().safeParse(report.decoded.json);
  if (!parsed.success) return undefined;
  const sample = sampleFrom(parsed.data.serverTime, t0, t1);
  await deps.clock.record(prepared.origin, sample);
  return sample;
}
