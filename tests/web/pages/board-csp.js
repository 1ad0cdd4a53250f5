// board-csp.html's script (the page's policy allows no inline one): a board, and every
// policy violation noted for the test.
import { board } from '/imagestage-board.js';

window.violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
window.b = board('#board', { items: '.item', slots: '.slot' });
window.b.ready.then(() => { window.started = true; }, (e) => { window.started = e.message; });
