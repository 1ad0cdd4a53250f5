// Types for imagestage-viewer.js: every option, method and event docs/viewer.md documents.
// Pannellum's config keys are typed as its doc/json-config-parameters.md describes them;
// keys the viewer only reads, or warns about, are typed too (a Pannellum config compiles).

/** ImageStage's version (VERSION). */
export const version: string;

/** A hotspot's or a link's angle: degrees, or Pannellum's "keep what the current scene shows". */
export type TargetAngle = number | 'same';

/** A hotspot (Pannellum's `hotSpots` entries). Angles in degrees. */
export interface HotSpot {
  /** Pitch of the hotspot's place, degrees (up is positive); 0 when left out, as in Pannellum. */
  pitch?: number;
  /** Yaw of the hotspot's place, degrees; 0 when left out, as in Pannellum. */
  yaw?: number;
  /** `info` (the default) or `scene`, a link to another scene of the tour. */
  type?: 'info' | 'scene';
  /**
   * Its tooltip: HTML as Pannellum's, shown in a safe subset (`b i em strong br p span`, http(s)
   * links; the rest dropped with a warning), or the text as written with the scene's `escapeHTML`.
   */
  text?: string;
  /** An `info` hotspot's link (http, https or mailto). */
  URL?: string;
  /** The link's attributes (read; not yet applied: a warning). */
  attributes?: Record<string, string>;
  /** The scene a `scene` hotspot opens. */
  sceneId?: string;
  /** The opened scene's pitch, or `'same'`. */
  targetPitch?: TargetAngle;
  /** The opened scene's yaw, `'same'`, or `'sameAzimuth'` (the same direction from north). */
  targetYaw?: TargetAngle | 'sameAzimuth';
  /** The opened scene's hfov, or `'same'`. */
  targetHfov?: TargetAngle;
  /** Its id, for `removeHotSpot`. */
  id?: string;
  /** A CSS class used instead of Pannellum's default hotspot classes. */
  cssClass?: string;
  /** Builds the tooltip's DOM in `hotSpotDiv` instead of the default. */
  createTooltipFunc?: (hotSpotDiv: HTMLDivElement, args: any) => void;
  createTooltipArgs?: any;
  /** Called on a click (or Enter / Space) with the event and `clickHandlerArgs`. */
  clickHandlerFunc?: (event: Event, args: any) => void;
  clickHandlerArgs?: any;
  /** The hotspot follows the pointer and stays where it is dropped. */
  draggable?: boolean;
  /** Called as a drag starts and ends, with the event and `dragHandlerArgs`. */
  dragHandlerFunc?: (event: Event, args: any) => void;
  dragHandlerArgs?: any;
  /** Not yet: a warning. */
  scale?: boolean | number;
  /** Not yet: a warning. */
  scaleFactor?: number;
}

/** Pannellum's `multiRes` (a cube pyramid's layout). */
export interface MultiResConfig {
  /** Under the scene's `basePath`, unless absolute. */
  basePath?: string;
  /** The tile's path, with `%l` (level), `%s` (face), `%x`, `%y`; `.extension` is appended. */
  path: string;
  /** Read, not used. */
  fallbackPath?: string;
  /** The tiles' file extension, without the dot. */
  extension: string;
  /** A tile's side in pixels. */
  tileResolution: number;
  /** The finest level. */
  maxLevel: number;
  /** The side of a full-resolution cube face in pixels. */
  cubeResolution: number;
  /** Read, not used. */
  shtHash?: string;
  /** Read, not used. */
  equirectangularThumbnail?: string | HTMLImageElement | ImageData | ImageBitmap;
  /** Read, not used. */
  missingTiles?: string;
}

/** The texts the viewer shows; `<br>` becomes a line break, nothing else is markup. */
export interface ViewerStrings {
  loadButtonLabel?: string;
  loadingLabel?: string;
  /** `%s` is the author. */
  bylineLabel?: string;
  noPanoramaError?: string;
  fileAccessError?: string;
  malformedURLError?: string;
  genericWebGLError?: string;
  textureSizeError?: string;
  unknownError?: string;
  iOS8WebGLError?: string;
  genericWebGLError2?: string;
  twoTouchActivate?: string;
  twoTouchXActivate?: string;
  twoTouchYActivate?: string;
  ctrlZoomActivate?: string;
  // Ours: said in the view where the browser has no WebAssembly.
  noWebAssemblyError?: string;
  // Ours: the controls' accessible names.
  zoomIn?: string;
  zoomOut?: string;
  fullscreen?: string;
  exitFullscreen?: string;
  motionOn?: string;
  motionOff?: string;
  lens?: string;
  recenter?: string;
  viewLabel?: string;
  // Ours: a video scene's controls and messages (`%s`: numbers filled in).
  play?: string;
  pause?: string;
  seek?: string;
  soundOn?: string;
  soundOff?: string;
  videoControls?: string;
  soundBlocked?: string;
  seekNeedsRanges?: string;
  videoNeedsWebGL2?: string;
}

/** The lenses (ours). */
export type Lens = 'rectilinear' | 'stereographic' | 'fisheye' | 'equirectangular';

/** What draws the view (ours): WebGL2, or the wasm CPU renderer. */
export type Renderer = 'webgl2' | 'cpu';

/** One panorama's settings: Pannellum's JSON config keys, and ours (`lens`, `renderer`). */
export interface SceneConfig {
  /** `equirectangular` (the default), `cubemap` or `multires`. */
  type?: 'equirectangular' | 'cubemap' | 'multires';
  title?: string;
  author?: string;
  /** http(s) or mailto only. */
  authorURL?: string;
  strings?: ViewerStrings;
  /** Prefix of relative image paths. */
  basePath?: string;
  /** Load at once; otherwise a "Click to Load Panorama" button. */
  autoLoad?: boolean;
  /** Degrees a second; positive turns counter-clockwise seen from above. */
  autoRotate?: number;
  /** Milliseconds of no input before autorotation resumes. */
  autoRotateInactivityDelay?: number;
  /** Milliseconds after which autorotation stops. */
  autoRotateStopDelay?: number;
  /** Pannellum's page to go to where the viewer cannot run: read and never followed (the view says why instead). */
  fallback?: string;
  orientationOnByDefault?: boolean;
  showZoomCtrl?: boolean;
  keyboardZoom?: boolean;
  /** `false`, `true`, `'ctrl'` (Ctrl held, but in fullscreen), or `'fullscreenonly'` (only in fullscreen). */
  mouseZoom?: boolean | 'ctrl' | 'fullscreenonly';
  doubleClickZoom?: boolean;
  draggable?: boolean;
  /**
   * `'yaw'`, `'pitch'` or `'both'`: on a touch screen outside fullscreen, that axis turns with
   * two fingers only (one finger scrolls the page along it). `true` and `false` change nothing.
   */
  dragConfirm?: boolean | 'pitch' | 'yaw' | 'both';
  /** Read: inertia has its own time constant. */
  friction?: number;
  disableKeyboardCtrl?: boolean;
  showFullscreenCtrl?: boolean;
  showControls?: boolean;
  /** Not yet: a warning. */
  touchPanSpeedCoeffFactor?: number;
  /** Starting yaw, degrees. */
  yaw?: number;
  /** Starting pitch, degrees. */
  pitch?: number;
  /** Starting horizontal field of view, degrees (100 by default). */
  hfov?: number;
  minYaw?: number;
  maxYaw?: number;
  minPitch?: number;
  maxPitch?: number;
  minHfov?: number;
  maxHfov?: number;
  /** Not yet: a warning. */
  multiResMinHfov?: boolean;
  /** Shows a compass needle. */
  compass?: boolean;
  /** Degrees from north of the panorama's centre. */
  northOffset?: number;
  /** An image shown before the panorama loads. */
  preview?: string;
  previewTitle?: string;
  previewAuthor?: string;
  /** The panorama's tilt, degrees, taken out of the view. */
  horizonPitch?: number;
  horizonRoll?: number;
  /** Not yet: `lookAt` eases in and out. */
  animationTimingFunction?: (t: number) => number;
  /**
   * `true`: a hotspot's text is shown as written. Otherwise it is HTML, shown in a safe subset
   * (`b i em strong br p span`, http(s) links); anything else is dropped with a warning.
   */
  escapeHTML?: boolean;
  /** Links open in a new tab. */
  targetBlank?: boolean;
  /** The images' CORS mode. */
  crossOrigin?: 'anonymous' | 'use-credentials';
  hotSpots?: HotSpot[];
  /** Not yet: a warning. */
  hotSpotDebug?: boolean;
  /** Milliseconds of a crossfade between scenes. */
  sceneFadeDuration?: number;
  /** Not yet: a warning. */
  capturedKeyNumbers?: number[];
  /** RGB in [0, 1] where no image covers the view; `null` leaves it uncleared. */
  backgroundColor?: [number, number, number] | null;
  /** Always on. */
  avoidShowingBackground?: boolean;
  /** The panorama image's URL (an `equirectangular` scene). Pannellum also takes an image
   * object (API only): not yet here, a URL is needed. */
  panorama?: string | HTMLImageElement | ImageData | ImageBitmap;
  /** Horizontal angle of view, degrees (360 by default). */
  haov?: number;
  /** Vertical angle of view, degrees (180 by default). */
  vaov?: number;
  /** Vertical offset of the image's centre from the horizon, degrees. */
  vOffset?: number;
  ignoreGPanoXMP?: boolean;
  /** Six face URLs: front, right, back, left, up, down (`null`: a missing face). */
  cubeMap?: [string | null, string | null, string | null, string | null, string | null, string | null];
  multiRes?: MultiResConfig;
  /** Not yet: a warning. */
  dynamic?: boolean;
  /** Not yet: a warning. */
  dynamicUpdate?: boolean;
  /** Ours: the lens (rectilinear by default). */
  lens?: Lens;
  /** Ours: `webgl2` or `cpu` (by default WebGL2 on a GPU, the CPU renderer on a software rasteriser). */
  renderer?: Renderer;
  /** Ours: an equirectangular video the scene shows (a URL, under `basePath`), instead of `panorama`. */
  video?: string;
  /** Ours: a video scene starts again when it ends (false by default). */
  loop?: boolean;
  /** Ours: a video scene starts without sound (true by default); `false` turns sound on at the first play the browser allows. */
  muted?: boolean;
  /** Ours: a video scene plays as soon as it is in (false by default; muted, as browsers allow). */
  autoplay?: boolean;
}

/** A tour's `default`: every scene's settings, and the first scene. */
export interface TourDefaults extends SceneConfig {
  firstScene?: string;
}

/** A config: one panorama's keys, or a tour (`default` and `scenes`). */
export interface ViewerConfig extends SceneConfig {
  default?: TourDefaults;
  scenes?: Record<string, SceneConfig>;
  firstScene?: string;
}

/** The view where it comes to rest (`animatefinished`), degrees. */
export interface ViewAngles {
  pitch: number;
  yaw: number;
  hfov: number;
}

/** What `memory()` reports: every field on both renderers. */
export interface ViewerMemory {
  /** Tiles held. */
  tiles: number;
  /** Their texture bytes (RGBA with mip levels); 0 on the CPU renderer. */
  textureBytes: number;
  /** Chromium's JS heap, `null` elsewhere. */
  jsHeapBytes: number | null;
  /** The CPU renderer's tile pixels; 0 on WebGL. */
  tileBytes: number;
  /** The viewer's wasm memory (the CPU renderer draws in it; 0 once destroyed). */
  wasmBytes: number;
}

/** `getConfig()`: the shown scene's settings, the view now, its id and the tour's scenes. */
export interface ShownConfig extends SceneConfig {
  scene?: string;
  scenes?: string[] | Record<string, SceneConfig>;
  [key: string]: unknown;
}

/** Each event's listener. */
export interface ViewerEvents {
  /** The panorama (or a tiled scene's coarsest level) is in. */
  load: () => void;
  /** Another scene opens: its id. */
  scenechange: (sceneId: string) => void;
  scenechangefadedone: () => void;
  /** Fullscreen (or filling the window) turned on or off. */
  fullscreenchange: (on: boolean) => void;
  /** The new hfov, degrees. */
  zoomchange: (hfov: number) => void;
  /** The view came to rest. */
  animatefinished: (view: ViewAngles) => void;
  /** The message shown in the view. */
  error: (message: string) => void;
  errorcleared: () => void;
  mousedown: (event: PointerEvent) => void;
  mouseup: (event: PointerEvent) => void;
  touchstart: (event: PointerEvent) => void;
  touchend: (event: PointerEvent) => void;
  /** Ours: a video scene starts or goes on playing. */
  play: () => void;
  /** Ours: a video scene pauses. */
  pause: () => void;
  /** Ours: a video scene's time moved on (seconds), a few times a second while it plays. */
  timeupdate: (seconds: number) => void;
  /** Ours: a video scene came to its end (never with `loop`). */
  ended: () => void;
  /** Never fires: the viewer shows no "use Ctrl to zoom" notices. */
  messageshown: () => void;
  /** Never fires. */
  messagecleared: () => void;
}

export type ViewerEventName = keyof ViewerEvents;

/** `animated`: milliseconds, `true` (1000) or `false` (at once). */
export type Animated = number | boolean;

/** A panorama viewer in an element, driven like Pannellum's (degrees, milliseconds; setters chain). */
export class Viewer {
  /** `container`: an element or its id; `config`: an object, or its JSON text. */
  constructor(container: HTMLElement | string, config?: ViewerConfig | string);
  /** Resolves when the module runs and the config is read. */
  readonly ready: Promise<void>;
  isLoaded(): boolean;
  getPitch(): number;
  setPitch(pitch: number, animated?: Animated, callback?: (args?: any) => void, callbackArgs?: any): this;
  getYaw(): number;
  setYaw(yaw: number, animated?: Animated, callback?: (args?: any) => void, callbackArgs?: any): this;
  getHfov(): number;
  setHfov(hfov: number, animated?: Animated, callback?: (args?: any) => void, callbackArgs?: any): this;
  getPitchBounds(): [number, number];
  setPitchBounds(bounds: [number, number]): this;
  getYawBounds(): [number, number];
  setYawBounds(bounds: [number, number]): this;
  getHfovBounds(): [number, number];
  setHfovBounds(bounds: [number, number]): this;
  /** The short way round; `undefined` keeps an angle. */
  lookAt(
    pitch?: number, yaw?: number, hfov?: number, animated?: Animated, callback?: (args?: any) => void, callbackArgs?: any
  ): this;
  getNorthOffset(): number;
  setNorthOffset(degrees: number): this;
  getHorizonRoll(): number;
  setHorizonRoll(degrees: number): this;
  getHorizonPitch(): number;
  setHorizonPitch(degrees: number): this;
  /** Degrees a second (the config's `autoRotate` when omitted), at `pitch`. */
  startAutoRotate(speed?: number, pitch?: number): this;
  stopAutoRotate(): this;
  stopMovement(): this;
  /** `'same'` keeps an angle of the current scene (`'sameAzimuth'`: its direction from north). */
  loadScene(
    sceneId: string, pitch?: TargetAngle, yaw?: TargetAngle | 'sameAzimuth', hfov?: TargetAngle, fadeDone?: () => void
  ): this;
  /** The shown scene's id; `undefined` for a config without `scenes` (and before the viewer runs). */
  getScene(): string | undefined;
  addScene(sceneId: string, config: SceneConfig): this;
  /** `false` for the scene shown, or an unknown one. */
  removeScene(sceneId: string): boolean;
  toggleFullscreen(): this;
  getConfig(): ShownConfig;
  getContainer(): HTMLElement;
  /** Adds to `sceneId` (the shown scene when omitted). */
  addHotSpot(hotSpot: HotSpot, sceneId?: string): this;
  removeHotSpot(hotSpotId: string, sceneId?: string): boolean;
  resize(): this;
  isOrientationSupported(): boolean;
  startOrientation(): this;
  stopOrientation(): this;
  isOrientationActive(): boolean;
  /** `[pitch, yaw]` in degrees under the event's pointer, for every lens. */
  mouseEventToCoords(event: MouseEvent): [number, number];
  on<K extends ViewerEventName>(type: K, listener: ViewerEvents[K]): this;
  /** `off(type)` removes every listener of a type, `off()` every listener. */
  off<K extends ViewerEventName>(type?: K, listener?: ViewerEvents[K]): this;
  /** Removes the viewer's DOM and listeners, gives its WebGL context back, drops its memory. */
  destroy(): void;
  /** Differs from Pannellum's: the name of what draws. */
  getRenderer(): Renderer;
  /** Not yet: a console warning. */
  setUpdate(update: boolean): this;
  /** Not yet: a console warning. */
  updateOnce(): this;
  getLens(): Lens;
  setLens(name: Lens): this;
  /** Back to the scene's starting view; `animated` ms (500 by default). */
  recenter(animated?: number): this;
  /** Under motion, ignore the device's roll. */
  setLevelHorizon(on: boolean): this;
  getLevelHorizon(): boolean;
  /** The message shown in the view, or `null`. */
  getError(): string | null;
  /** Tiles held and their bytes. */
  memory(): ViewerMemory;
  /** Ours: plays a video scene (waits for its video when it is not in yet). */
  play(): this;
  pause(): this;
  /** Ours: moves a video scene to `seconds` (clamped to the clip). */
  seek(seconds: number): this;
  /** Ours: a video scene's time now, seconds; `undefined` on a scene without a video. */
  getTime(): number | undefined;
  /** Ours: a video scene's length, seconds; `undefined` on a scene without a video, or before it is known. */
  getDuration(): number | undefined;
  /** Ours: turns a video scene's sound off (`true`) or on. */
  setMuted(muted: boolean): this;
  isMuted(): boolean | undefined;
}

/** A viewer in `container` (an element or its id). */
export function viewer(container: HTMLElement | string, config?: ViewerConfig | string): Viewer;

/** Starts fetching an image a viewer is about to ask for. */
export function prefetchImage(url: string, crossOrigin?: 'anonymous' | 'use-credentials'): void;

/** Pannellum's global, as a module export: `pannellum.viewer(id, config)`. */
export const pannellum: { viewer: typeof viewer };
