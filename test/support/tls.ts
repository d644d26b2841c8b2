/**
 * Clients for the TLS sandbox's tests: a GET over HTTPS and a WebSocket PING over WSS that trust
 * only the CA they are given (none: Node's own roots), naming the server by `servername` when a
 * test reaches it by a name that does not resolve here.
 */
import { X509Certificate } from 'node:crypto';
import https from 'node:https';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import { WebSocket } from 'ws';

export interface TlsTrust {
  /** The only CA trusted (PEM); undefined trusts Node's own roots. */
  readonly ca?: string;
  /** The name the certificate must hold, sent in SNI and Host; default the URL's host. */
  readonly servername?: string;
}

export interface HttpsAnswer {
  readonly status: number;
  readonly body: string;
  readonly peer: PeerCertificate;
}

/** A GET of `url`; rejects with Node's error (its `code` says why the server was not trusted). */
export function httpsGet(url: string, trust: TlsTrust = {}): Promise<HttpsAnswer> {
  const u = new URL(url);
  const headers = trust.servername === undefined ? {} : { host: `${trust.servername}:${u.port}` };
  return new Promise((resolve, reject) => {
    const req = https.get(url, { ca: trust.ca, servername: trust.servername, headers, agent: false }, (res) => {
      const peer = (res.socket as TLSSocket).getPeerCertificate();
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, peer }));
    });
    req.on('error', reject);
  });
}

/** The error code of a GET that must fail, or a failure of the test when it answers. */
export async function httpsFailure(url: string, trust: TlsTrust = {}): Promise<string | undefined> {
  try {
    const answer = await httpsGet(url, trust);
    throw new Error(`answered ${answer.status} where it should have failed`);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code;
  }
}

/** Opens `wsUrl` trusting `ca` alone, sends PING and resolves with the reply's text. */
export function wssPing(wsUrl: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { ca });
    ws.once('open', () => ws.send(JSON.stringify({ method: 'PING' })));
    ws.once('message', (data: Buffer) => {
      resolve(data.toString('utf8'));
      ws.close();
    });
    ws.once('error', reject);
  });
}

/** The CA certificates of a PEM text, in order. */
export function certificatesOf(pem: string): X509Certificate[] {
  return [...pem.matchAll(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g)].map(
    (m) => new X509Certificate(m[0]),
  );
}

/** An EC key's public point (the bytes any written form of its private key carries too). */
export function publicPoint(certificate: X509Certificate): Buffer {
  const spki = certificate.publicKey.export({ type: 'spki', format: 'der' });
  // P-256's uncompressed point, 0x04 || x || y, ends the SubjectPublicKeyInfo.
  return spki.subarray(spki.length - 65);
}
