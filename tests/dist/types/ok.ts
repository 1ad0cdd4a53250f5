// Uses the declarations as a TypeScript site would; must compile under tsc --strict.
import { viewer, Viewer, ViewerConfig, HotSpot, version } from 'imagestage/viewer';
import { board, Board, BoardOptions, BoardEventDetail } from 'imagestage/board';

const spots: HotSpot[] = [
  { pitch: -5, yaw: 30, type: 'scene', sceneId: 'hall', targetYaw: 'sameAzimuth', text: 'To the hall' },
  { pitch: 10, yaw: -40, text: 'A door', clickHandlerFunc: (e, args) => console.log(e.type, args), clickHandlerArgs: { id: 1 } },
];
const tour: ViewerConfig = {
  default: { firstScene: 'lake', sceneFadeDuration: 1000, autoLoad: true },
  scenes: {
    lake: { panorama: 'lake.jpg', hfov: 110, hotSpots: spots, mouseZoom: 'ctrl', lens: 'stereographic' },
    hall: { type: 'multires', multiRes: { path: '/%l/%s%y_%x', extension: 'jpg', tileResolution: 512, maxLevel: 4, cubeResolution: 4096 } },
    cube: { type: 'cubemap', cubeMap: ['f.jpg', 'r.jpg', 'b.jpg', 'l.jpg', 'u.jpg', null] },
  },
};
const v: Viewer = viewer('pano', tour);
v.on('load', () => console.log(v.getYaw().toFixed(1), version))
  .on('scenechange', (id: string) => console.log(id.toUpperCase()))
  .on('animatefinished', ({ pitch, yaw, hfov }) => console.log(pitch + yaw + hfov))
  .on('mousedown', (e) => console.log(e.clientX, v.mouseEventToCoords(e)[1]));
v.setPitch(10).setYaw(20, false).lookAt(0, 90, 80, 500, () => v.recenter()).setLens('fisheye');
const [min, max]: [number, number] = v.getHfovBounds();
v.loadScene('hall', 'same', 'sameAzimuth', min + max);
v.ready.then(() => v.memory().jsHeapBytes ?? 0);
const removed: boolean = v.removeHotSpot('door');

const options: BoardOptions = {
  items: '.photo', slots: '.place', mode: 'locations', maxDistance: 60, curve: 'spring',
  touch: { delay: 150 }, accepts: (item, slot) => item.dataset.tags !== slot.dataset.accepts,
  strings: { dropped: '{item} posé sur {slot}.' }, persist: 'localStorage',
  ondrop: (d: BoardEventDetail) => console.log(d.itemId, d.slotId),
};
const b: Board = board('#places', options);
b.on('drop', (d) => console.log(d.item.id, d.slot.id, d.fromId))
  .on('change', ({ state }) => localStorage.setItem('s', state))
  .on('error', ({ message, key }) => console.error(message, key))
  .setOptions({ hysteresis: 4 });
b.ready.then((ready) => (ready.canUndo() ? ready.undo() : ready.refresh()));
document.querySelector('#places')!.addEventListener('board:drop', (e) => console.log(e.detail.slotId));
console.log(removed);

// Each of these is wrong and must stay an error (tsc fails on an unused @ts-expect-error).
// @ts-expect-error autoLoad is a boolean
viewer('pano', { panorama: 'x.jpg', autoLoad: 'yes' });
// @ts-expect-error no such lens
v.setLens('wide');
// @ts-expect-error no such event
v.on('loaded', () => {});
// @ts-expect-error zoomchange gives the hfov, a number
v.on('zoomchange', (hfov: string) => {});
// @ts-expect-error items is required
board('#places', { slots: '.place' });
// @ts-expect-error a drop's detail has no text
b.on('drop', (d) => d.text);
// @ts-expect-error mode cannot be set while running (setOptions takes engine options)
b.setOptions({ mode: 'shortcuts' });
