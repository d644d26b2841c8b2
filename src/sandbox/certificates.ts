/**
 * The certificates of a TLS sandbox, made at each start: a CA of its own (ECDSA P-256) and the
 * server's certificate it signs for the names of tls.ts. X.509's structures come from
 * @peculiar/asn1-x509 and the keys and signatures from node:crypto (chosen by figures:
 * docs/performance.md, "The TLS sandbox's certificates"). Loaded only for a TLS sandbox (index.ts
 * imports it on use; the command line's bundle of its own, dist/cli/sandbox-certificates.js).
 *
 * No private key leaves memory: the CA's key signs the server's certificate and is dropped; the
 * server's key goes to node:tls as PEM text and is never written anywhere.
 */
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import {
  AlgorithmIdentifier,
  AttributeTypeAndValue,
  AttributeValue,
  AuthorityKeyIdentifier,
  BasicConstraints,
  Certificate,
  ExtendedKeyUsage,
  Extension,
  Extensions,
  GeneralName,
  GeneralSubtree,
  GeneralSubtrees,
  KeyIdentifier,
  KeyUsage,
  KeyUsageFlags,
  Name,
  NameConstraints,
  RelativeDistinguishedName,
  SubjectAlternativeName,
  SubjectKeyIdentifier,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
  id_ce_authorityKeyIdentifier,
  id_ce_basicConstraints,
  id_ce_extKeyUsage,
  id_ce_keyUsage,
  id_ce_nameConstraints,
  id_ce_subjectAltName,
  id_ce_subjectKeyIdentifier,
  id_kp_serverAuth,
} from '@peculiar/asn1-x509';
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import { CERTIFICATE_VALIDITY_DAYS } from './tls';

/** Valid from this long before the start, for a client whose clock is a little behind (a VM, a container). */
const BACKDATE_MS = 60 * 60 * 1000;

const ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';
const COMMON_NAME = '2.5.4.3';

export interface SandboxCertificates {
  /** The CA's certificate (PEM): what a client trusts. No key. */
  readonly caPem: string;
  /** The server's certificate (PEM), signed by the CA. */
  readonly certPem: string;
  /** The server's private key (PEM, PKCS #8), for node:tls alone: kept in memory, never written. */
  readonly keyPem: string;
  /** When both certificates expire. */
  readonly notAfter: Date;
}

interface Draft {
  readonly issuer: Name;
  readonly subject: Name;
  readonly publicKey: KeyObject;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly extensions: readonly Extension[];
}

/** X.509 times are whole seconds: the date the certificate will say. */
function wholeSecond(ms: number): Date {
  return new Date(Math.floor(ms / 1000) * 1000);
}

function commonName(value: string): Name {
  const attribute = new AttributeTypeAndValue({ type: COMMON_NAME, value: new AttributeValue({ utf8String: value }) });
  return new Name([new RelativeDistinguishedName([attribute])]);
}

function extension(extnID: string, critical: boolean, value: unknown): Extension {
  return new Extension({ extnID, critical, extnValue: new OctetString(AsnConvert.serialize(value)) });
}

function spkiOf(key: KeyObject): SubjectPublicKeyInfo {
  return AsnConvert.parse(key.export({ type: 'spki', format: 'der' }), SubjectPublicKeyInfo);
}

/** RFC 5280 4.2.1.2, method 1: the SHA-1 of the public key's bits. */
function keyIdOf(key: KeyObject): Uint8Array {
  return createHash('sha1')
    .update(new Uint8Array(spkiOf(key).subjectPublicKey))
    .digest();
}

function generalName(name: string): GeneralName {
  return isIP(name) === 0 ? new GeneralName({ dNSName: name }) : new GeneralName({ iPAddress: name });
}

/** A name constraint's subtree: a DNS name and its subdomains, or exactly one address. */
function subtree(name: string): GeneralSubtree {
  const base = isIP(name) === 0 ? name : `${name}/${isIP(name) === 4 ? 32 : 128}`;
  return new GeneralSubtree({
    base: isIP(name) === 0 ? new GeneralName({ dNSName: base }) : new GeneralName({ iPAddress: base }),
  });
}

/** The bytes as an ArrayBuffer of their own, as the ASN.1 classes take them. */
function arrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return new Uint8Array(bytes).buffer;
}

/** A positive serial number of 16 bytes (RFC 5280 4.1.2.2: at most 20), unpredictable. */
function serialNumber(): ArrayBuffer {
  return arrayBuffer(Buffer.concat([Buffer.from([0x01]), randomBytes(15)]));
}

function signed(draft: Draft, signer: KeyObject): Certificate {
  const algorithm = new AlgorithmIdentifier({ algorithm: ECDSA_WITH_SHA256 });
  const tbsCertificate = new TBSCertificate({
    version: Version.v3,
    serialNumber: serialNumber(),
    signature: algorithm,
    issuer: draft.issuer,
    subject: draft.subject,
    validity: new Validity({ notBefore: draft.notBefore, notAfter: draft.notAfter }),
    subjectPublicKeyInfo: spkiOf(draft.publicKey),
    extensions: new Extensions([...draft.extensions]),
  });
  // ECDSA's signature as X.509 carries it: DER (r, s), node:crypto's default for an EC key.
  const signature = sign('sha256', new Uint8Array(AsnConvert.serialize(tbsCertificate)), signer);
  return new Certificate({ tbsCertificate, signatureAlgorithm: algorithm, signatureValue: arrayBuffer(signature) });
}

function pem(certificate: Certificate): string {
  const base64 = Buffer.from(AsnConvert.serialize(certificate)).toString('base64');
  return `-----BEGIN CERTIFICATE-----\n${base64.replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`;
}

/** The CA: it may sign server certificates for `names` only (a name constraint), and none below them. */
function caExtensions(key: KeyObject, names: readonly string[]): Extension[] {
  return [
    extension(id_ce_basicConstraints, true, new BasicConstraints({ cA: true, pathLenConstraint: 0 })),
    extension(id_ce_keyUsage, true, new KeyUsage(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign)),
    extension(id_ce_subjectKeyIdentifier, false, new SubjectKeyIdentifier(keyIdOf(key))),
    extension(
      id_ce_nameConstraints,
      true,
      new NameConstraints({ permittedSubtrees: new GeneralSubtrees(names.map(subtree)) }),
    ),
  ];
}

function serverExtensions(caKey: KeyObject, names: readonly string[]): Extension[] {
  return [
    extension(id_ce_basicConstraints, true, new BasicConstraints({ cA: false })),
    extension(id_ce_keyUsage, true, new KeyUsage(KeyUsageFlags.digitalSignature)),
    extension(id_ce_extKeyUsage, false, new ExtendedKeyUsage([id_kp_serverAuth])),
    extension(id_ce_subjectAltName, false, new SubjectAlternativeName(names.map(generalName))),
    extension(
      id_ce_authorityKeyIdentifier,
      false,
      new AuthorityKeyIdentifier({ keyIdentifier: new KeyIdentifier(keyIdOf(caKey)) }),
    ),
  ];
}

/** A fresh CA and the server's certificate it signs for `names` (tls.ts has checked them), valid from `now`. */
export function makeCertificates(names: readonly string[], now: number): SandboxCertificates {
  const notBefore = wholeSecond(now - BACKDATE_MS);
  const notAfter = wholeSecond(now + CERTIFICATE_VALIDITY_DAYS * 24 * 60 * 60 * 1000);
  const ca = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const server = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  // Named by its key, so two sandboxes' CAs are told apart in a trust store.
  const caName = commonName(`TradeReq sandbox CA ${Buffer.from(keyIdOf(ca.publicKey)).toString('hex').slice(0, 8)}`);
  const caCertificate = signed(
    {
      issuer: caName,
      subject: caName,
      publicKey: ca.publicKey,
      notBefore,
      notAfter,
      extensions: caExtensions(ca.publicKey, names),
    },
    ca.privateKey,
  );
  const serverCertificate = signed(
    {
      issuer: caName,
      subject: commonName(names[0] ?? 'localhost'),
      publicKey: server.publicKey,
      notBefore,
      notAfter,
      extensions: serverExtensions(ca.publicKey, names),
    },
    ca.privateKey,
  );
  return {
    caPem: pem(caCertificate),
    certPem: pem(serverCertificate),
    keyPem: server.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    notAfter,
  };
}
