// A small site's own code, bundled by esbuild from node_modules as a user's would be.
import { viewer, version } from 'imagestage/viewer';
import { board, version as boardVersion } from 'imagestage/board';

window.events = [];
window.versions = [version, boardVersion];
const v = viewer('pano', { panorama: 'sample.jpg', autoLoad: true, hfov: 90 });
v.on('load', () => window.events.push({ type: 'load', yaw: v.getYaw() }));
v.on('error', (message) => window.events.push({ type: 'error', message }));
const b = board('#places', { items: '.photo', slots: '.place' });
b.on('drop', (e) => window.events.push({ type: 'drop', itemId: e.itemId, slotId: e.slotId }));
b.ready.then(() => { window.boardReady = true; }, (e) => window.events.push({ type: 'error', message: e.message }));
