import { z } from 'zod';

/** A key profile as kept in SecretStorage: the keys and the origins its owner approved. */
const StoredKey = z.object({
  apiKey: z.string().min(1),
  secretKey: z.string().min(1),
  origins: z.array(z.string()),
});

export type StoredKeyT = z.infer<typeof StoredKey>;

export function parseStoredKey(text: string | undefined): StoredKeyT | undefined {
  if (text === undefined) return undefined;
  try {
    const r = StoredKey.safeParse(JSON.parse(text));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

export function parseProfileIndex(text: string | undefined): string[] {
  if (text === undefined) return [];
  try {
    const r = z.array(z.string()).safeParse(JSON.parse(text));
    return r.success ? r.data : [];
  } catch {
    return [];
  }
}
