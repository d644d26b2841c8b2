import * as z from '../../core/zod-mini';

/**
 * A key profile as kept in SecretStorage: the keys, the origins its owner approved, and whether
 * trades signed with it ask first (`confirm`: absent or true, they ask; false, the owner said not to).
 */
const StoredKeySchema = z.object({
  apiKey: z.string().check(z.minLength(1)),
  secretKey: z.string().check(z.minLength(1)),
  origins: z.array(z.string()),
  confirm: z.optional(z.boolean()),
});

export type StoredKey = z.infer<typeof StoredKeySchema>;

export function parseStoredKey(text: string | undefined): StoredKey | undefined {
  if (text === undefined) return undefined;
  try {
    const r = StoredKeySchema.safeParse(JSON.parse(text));
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
