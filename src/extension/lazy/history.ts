import { PanelEntry, type PanelEntryT } from '../../core/panel/protocol';

/** The stored history, validated: entries that do not fit the schema are dropped. */
export function parseHistory(raw: unknown): PanelEntryT[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((e) => {
    const r = PanelEntry.safeParse(e);
    return r.success ? [r.data] : [];
  });
}
