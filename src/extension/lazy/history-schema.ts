import { PanelEntrySchema, type PanelEntry } from '../../core/panel/protocol';

/** The stored history, validated: entries that do not fit the schema are dropped. */
export function parseHistory(raw: unknown): PanelEntry[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((e) => {
    const r = PanelEntrySchema.safeParse(e);
    return r.success ? [r.data] : [];
  });
}
