/** "Did you mean …?" for a mistyped command or option: the nearest known word, when it is near enough. */

/** Edits (insert, delete, substitute, swap two neighbours) between `a` and `b`, or more than `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  // Rows of the Damerau–Levenshtein (optimal string alignment) table; words here are short.
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    before = previous;
    previous = row;
  }
  return previous[b.length]!;
}

/** The known word nearest `word` (case aside): at most 1 edit for short words, 2 for longer ones. */
export function nearest(word: string, known: readonly string[]): string | undefined {
  const typed = word.toLowerCase().slice(0, 64);
  const max = typed.length <= 4 ? 1 : 2;
  let best: { word: string; d: number } | undefined;
  for (const k of known) {
    const d = distance(typed, k.toLowerCase(), max);
    if (d <= max && (!best || d < best.d)) best = { word: k, d };
  }
  return best?.word;
}
