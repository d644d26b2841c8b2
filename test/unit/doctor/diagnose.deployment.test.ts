/** The signature doctor on a request to a deployment's host (issue 33): its key header and its catalog. */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { deploymentById } from '../../../src/core/catalog/deployment';
import { diagnose } from '../../../src/core/doctor/diagnose';
import type { DoctorInput, SentRequest } from '../../../src/core/doctor/types';

const KEY = { profile: 'live', apiKey: 'mx0vglDoctorTestKey1', secretKey: 'doctor-test-secret' };

// One clock for the request and the diagnosis: the timestamp is judged against `now`.
const NOW = 1_764_000_000_000;

function sent(url: string, header: string): SentRequest {
  const query = `coin=USDT&timestamp=${NOW}`;
  const signature = createHmac('sha256', KEY.secretKey).update(query).digest('hex');
  return {
    method: 'GET',
    url,
    query: `${query}&signature=${signature}`,
    body: '',
    headers: [{ name: header, value: KEY.apiKey }],
    form: 'curl',
  };
}

function keyCheck(input: DoctorInput): string {
  const check = diagnose(input).checks.find((c) => c.id === 'api-key-header');
  assert.ok(check);
  return `${check.ok ? 'ok' : 'fail'}: ${check.text}`;
}

describe('doctor: the deployment a request went to', () => {
  const base = { key: KEY, otherKeys: [], now: NOW };

  it("reads the key from the deployment's header when the URL is its host", () => {
    const input = { ...base, sent: sent('https://api.mexc.com/api/v3/capital/deposit/address', 'X-MEXC-APIKEY') };
    assert.match(keyCheck(input), /^ok: X-MEXC-APIKEY carries the API key/);
    assert.equal(diagnose(input).cause, 'none');
  });

  it("elsewhere the spec's header is the key's, unless the environment's deployment says otherwise", () => {
    const elsewhere = sent('https://api.example.com/api/v3/capital/deposit/address', 'X-MEXC-APIKEY');
    assert.match(keyCheck({ ...base, sent: elsewhere }), /^fail: No X-SERVICE-APIKEY header was sent/);
    const named = { ...base, sent: elsewhere, deployment: deploymentById('mexc')! };
    assert.match(keyCheck(named), /^ok: X-MEXC-APIKEY carries/);
  });
});
