// A deliberately wrong use: tsc --strict must reject it, naming each mistake.
import { viewer } from 'imagestage/viewer';
import { board } from 'imagestage/board';

viewer('pano', { panorama: 'x.jpg', hfov: '100' });
board('#places', { items: '.photo', slots: '.place', maxDistence: 50 });
