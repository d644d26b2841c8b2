/**
 * The sandbox exchange's demo accounts. Their keys are public (docs/sandbox.md lists them) and only
 * ever sent to loopback origins; they exist so anyone can try every request without an account.
 */
import type { KeyPair } from './keys';

export interface DemoAccount extends KeyPair {
  readonly name: 'trade' | 'readonly' | 'ipbound';
  readonly permissions: readonly ('read' | 'trade')[];
  /** IPs the key is bound to; empty means any. */
  readonly ips: readonly string[];
  readonly description: string;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    name: 'trade',
    apiKey: 'sbxTradeDemoKey00000000000000001',
    secretKey: 'sbxTradeDemoSecret0000000000000000000000000000000000000000000001',
    permissions: ['read', 'trade'],
    ips: [],
    description: 'can read and trade',
  },
  {
    name: 'readonly',
    apiKey: 'sbxReadonlyDemoKey00000000000002',
    secretKey: 'sbxReadonlyDemoSecret0000000000000000000000000000000000000000002',
    permissions: ['read'],
    ips: [],
    description: 'no trade permission: orders answer 700007',
  },
  {
    name: 'ipbound',
    apiKey: 'sbxIpboundDemoKey000000000000003',
    secretKey: 'sbxIpboundDemoSecret00000000000000000000000000000000000000000003',
    permissions: ['read', 'trade'],
    ips: ['203.0.113.7'],
    description: 'bound to an IP that is not loopback: every signed request answers 700006',
  },
];

/** The key profile name of the built-in sandbox environment; it uses the `trade` demo account. */
export const SANDBOX_PROFILE = 'sandbox';

export function isLoopbackOrigin(origin: string): boolean {
  try {
    const host = new URL(origin).hostname;
    return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
  } catch {
    return false;
  }
}

/**
 * How a report or the panel names where requests went. An environment's name is the repository's
 * word: one that says "sandbox" is shown only for a loopback origin (the embedded sandbox's kind);
 * anywhere else the origin speaks instead.
 */
export function environmentLabel(name: string, origin: string): string {
  if (isLoopbackOrigin(origin)) return name;
  return /sandbox/i.test(name) ? origin : `${name} at ${origin}`;
}

/** Whether `key` is one of the sandbox's published demo keys: nothing real is at stake with it. */
export function isDemoKey(key: KeyPair): boolean {
  return DEMO_ACCOUNTS.some((a) => a.apiKey === key.apiKey && a.secretKey === key.secretKey);
}

/** The demo key of the sandbox profile, for loopback origins only. */
export function demoKeyFor(profile: string | undefined, origin: string): KeyPair | undefined {
  if (profile !== SANDBOX_PROFILE || !isLoopbackOrigin(origin)) return undefined;
  return DEMO_ACCOUNTS[0];
}
