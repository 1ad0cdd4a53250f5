// The globals the classic scripts define (imagestage-viewer.classic.js, imagestage-board.classic.js).
import type { Viewer, ViewerConfig } from './imagestage-viewer.js';
import type { Board, BoardOptions } from './imagestage-board.js';

declare global {
  /** imagestage-viewer.classic.js: Pannellum's global; methods called before the module arrives are queued. */
  var pannellum: { viewer(container: HTMLElement | string, config?: ViewerConfig): Viewer };
  var imagestageViewer: {
    viewer(container: HTMLElement | string, config?: ViewerConfig): Viewer;
    /** Imports the module. */
    load(): Promise<typeof import('./imagestage-viewer.js')>;
  };
  /** imagestage-board.classic.js: the promise gives the board once it runs. */
  var ImageStage: { board(container: HTMLElement | string, options: BoardOptions): Promise<Board> };
}

export {};
