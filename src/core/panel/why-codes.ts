/**
 * The codes the panel's Why? explains with the signature doctor: an invalid signature (602, 700002;
 * docs/service.md §5 rule 10) and a timestamp outside recvWindow (700003; docs/service.md §5 rule 9).
 * A file of its own, free of zod, so the extension's activation bundle can read it.
 */
export const WHY_CODES: readonly number[] = [602, 700002, 700003];
