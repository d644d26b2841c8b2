import type { Budget } from '../budget/budget';
import { joinUrl } from '../format/resolve';
import { roundTrip } from '../net/round-trip';
import type { Sender } from '../net/send';
import type { PreparedRequest } from '../net/send';
import { SPEC_ENDPOINTS, type EndpointCatalog } from '../catalog/endpoints';
import * as z from '../zod-mini';
import { sampleFrom, type ClockSample } from './clock';
import type { ClockSync } from './sync';

// Made on the first measurement: most signed sends find a recent offset and measure nothing.
const ServerTimeSchema = z.onFirstUse(() => z.object({ serverTime: z.int().check(z.nonnegative()) }));

/**
 * Measures the server-clock offset of `baseUrl` with GET /api/v3/time (counted in the IP budget),
 * weighed as the deployment's catalog says (`endpoints`; the spec's when not given).
 */
export async function measureClock(
  baseUrl: string,
  deps: { sender: Sender; budget: Budget; clock: ClockSync; now?: () => number; endpoints?: EndpointCatalog },
): Promise<ClockSample | undefined> {
  const now = deps.now ?? Date.now;
  const time =
    (deps.endpoints ?? SPEC_ENDPOINTS).find('GET', '/api/v3/time') ?? SPEC_ENDPOINTS.find('GET', '/api/v3/time')!;
  const url = joinUrl(baseUrl, time.path);
  const prepared: PreparedRequest = {
    method: 'GET',
    url,
    origin: new URL(url).origin,
    path: time.path,
    query: '',
    body: '',
    headers: [],
    signed: false,
    weight: time.weight,
    mode: time.mode,
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
