// The check every board mode makes of the option names a page wrote, in JS (issue 37: words at
// the edge, so the engine's wasm carries no strings): a name that is no option is refused with
// the one it is closest to, an `onNAME` that names no event with the events, and SortableJS's
// names with what to use instead. Each mode passes its own tables. docs/board.md.

/** The event an `onNAME` key names (lowercased), or null for any other key. */
export function eventOf(key) {
  return key.startsWith('on') && key.length > 2 ? key.slice(2).toLowerCase() : null;
}

/** Why `key` is refused, or null when it is one of `allowed` or an `on` + one of `events`.
 * `sortableJS`: [names, hint] pairs, SortableJS's names the mode does not take. */
export function optionProblem(key, allowed, events, sortableJS) {
  if (allowed.includes(key)) return null;
  const event = eventOf(key);
  if (event && events.includes(event)) return null;
  const hint = sortableJS.find(([names]) => names.includes(key))?.[1];
  if (hint) return `SortableJS's name, not the board's: ${hint}`;
  if (event) return `not an event${suggestion(event, events, 'on')}; the events are ${events.join(', ')}`;
  return `not an option${suggestion(key, allowed)} (docs/board.md lists them)`;
}

/** " (did you mean NAME?)" for the name nearest a misspelt one, or ''. Compared without case. */
export function suggestion(name, names, prefix = '') {
  const lower = name.toLowerCase();
  let best = null, bestDistance = Infinity;
  for (const candidate of names) {
    const d = editDistance(lower, candidate.toLowerCase());
    if (d <= Math.max(2, Math.floor(lower.length / 3)) && d < lower.length && d < bestDistance) { best = candidate; bestDistance = d; }
  }
  return best == null ? '' : ` (did you mean ${prefix}${best}?)`;
}

function editDistance(a, b) {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 0; i < a.length; i++) {
    let previous = row[0];
    row[0] = i + 1;
    for (let j = 0; j < b.length; j++) {
      const above = row[j + 1];
      row[j + 1] = Math.min(row[j + 1] + 1, row[j] + 1, previous + (a[i] === b[j] ? 0 : 1));
      previous = above;
    }
  }
  return row[b.length];
}
