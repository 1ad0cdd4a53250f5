// Saved values in localStorage, the way every ImageStage page keeps them: under
// `imagestage.NAME`, and a value that no longer reads is kept aside (`….corrupt-TIME`, or
// `….aside-TIME` when the user starts afresh), deleted only where storage cannot hold it. Storage that is blocked
// or full is an answer (null, or an error to show), never an exception that stops the page.

const PREFIX = 'imagestage.';

/** The stored text of `name`, or null (none, or storage blocked). */
export function storedText(name) {
  try { return localStorage.getItem(PREFIX + name); } catch { return null; }
}

/** Stores `text` under `name`; the error's message when storage refuses, else null. */
export function store(name, text) {
  try {
    localStorage.setItem(PREFIX + name, text);
    return null;
  } catch (e) {
    return e.message;
  }
}

/**
 * Moves `name`'s value (`text`, read once) aside; returns the key it is kept under, or null
 * where even so it could not be kept. It leaves its own key first: a value too big for a
 * second copy beside it (storage nearly full) then fits in the room it leaves, and one that
 * still does not fit is dropped, never left to be read and refused at every load.
 */
export function keepAside(name, text) {
  const aside = `${PREFIX}${name}.corrupt-${Date.now()}`;
  try { localStorage.removeItem(PREFIX + name); } catch { return null; }
  try {
    localStorage.setItem(aside, text);
    return aside;
  } catch {
    return null;
  }
}

/** Moves every stored ImageStage value aside (kept, under a new name), for a fresh start. */
export function setEverythingAside() {
  const stamp = Date.now();
  try {
    for (const key of Object.keys(localStorage)) {
      if (!key.startsWith(PREFIX) || /\.(corrupt|aside)-\d+$/.test(key)) continue;
      localStorage.setItem(`${key}.aside-${stamp}`, localStorage.getItem(key));
      localStorage.removeItem(key);
    }
  } catch { /* storage blocked: nothing to move */ }
}
