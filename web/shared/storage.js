// Saved values in localStorage, the way every ImageStage page keeps them: under
// `imagestage.NAME`, and a value that no longer reads is never deleted but kept aside
// (`….corrupt-TIME`, or `….aside-TIME` when the user starts afresh). Storage that is blocked
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

/** Moves `name`'s value (`text`) aside, kept; returns the key it is kept under. */
export function keepAside(name, text) {
  const aside = `${PREFIX}${name}.corrupt-${Date.now()}`;
  try {
    localStorage.setItem(aside, text);
    localStorage.removeItem(PREFIX + name);
  } catch { /* storage full or blocked: the value stays where it was */ }
  return aside;
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
