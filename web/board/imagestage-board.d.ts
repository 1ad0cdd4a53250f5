// Types for imagestage-board.js: every option, method, event and event detail docs/board.md
// documents.

/** ImageStage's version (VERSION). */
export const version: string;

/** The sentences the engine says (Stage.Phrase), as templates with `{item}`, `{slot}`, `{other}`,
 * `{count}`, `{position}`, `{change}`, `{undo}`; plus the page's own `draggable` and `instructions`. */
export interface BoardStrings {
  focused?: string;
  itemInSlot?: string;
  pickedUp?: string;
  cancelled?: string;
  cancelledHome?: string;
  noneLeft?: string;
  noneRight?: string;
  noneAbove?: string;
  noneBelow?: string;
  over?: string;
  overSwaps?: string;
  dropped?: string;
  droppedNowhere?: string;
  nothingToUndo?: string;
  nothingToRedo?: string;
  undid?: string;
  redid?: string;
  moveOf?: string;
  swapOf?: string;
  assignmentOf?: string;
  movedOf?: string;
  changesTo?: string;
  and?: string;
  taken?: string;
  takenHome?: string;
  moved?: string;
  removed?: string;
  nothingToRemove?: string;
  swapped?: string;
  swappedNoSlot?: string;
  cleared?: string;
  clearedOne?: string;
  replaced?: string;
  /** A slot without a name: `{id}`. */
  location?: string;
  /** The status in locations: the slot's name, `{slot}`. */
  current?: string;
  slotStatus?: string;
  empty?: string;
  undoHint?: string;
  /** The items' role description. */
  draggable?: string;
  /** The keyboard instructions read with an item. */
  instructions?: string;
  /** Read with a shortcut's copy when `contentDraggable` ("Press Delete to remove it."). */
  copyInstructions?: string;
}

/** A phrase's name: what an announcement's `code` is. */
export type PhraseCode = Exclude<keyof BoardStrings, 'undoHint' | 'draggable' | 'instructions' | 'copyInstructions'>;

/** What an `announcements` hook is given: the sentence's code, its arguments as the page's
 * elements and ids (`null` where it has none), and the words the templates make. */
export interface AnnouncementDetail {
  code: PhraseCode;
  /** The sentence from `strings` (or the English). */
  text: string;
  item: HTMLElement | null;
  itemId: string | null;
  slot: HTMLElement | null;
  slotId: string | null;
  /** The other item (a swap's, a replaced one); a slot in `takenHome`. */
  other: HTMLElement | null;
  otherId: string | null;
  /** `slot`'s place among the slots, from 1. */
  position: number | null;
  count: number;
  /** Several items (`changesTo`) or slots (`moved` onto several). */
  items: HTMLElement[];
  slots: HTMLElement[];
}

/** What is said, by code or by a moment of a drag (dnd-kit's names); a hook's string is said,
 * `undefined` says nothing. A code's own hook wins over its moment's. */
export type BoardAnnouncements = {
  [code in PhraseCode]?: (detail: AnnouncementDetail) => string | undefined;
} & {
  /** `pickedUp`. */
  onDragStart?: (detail: AnnouncementDetail) => string | undefined;
  /** `over`, `overSwaps`, `noneLeft`, `noneRight`, `noneAbove`, `noneBelow`. */
  onDragOver?: (detail: AnnouncementDetail) => string | undefined;
  /** `dropped`, `droppedNowhere`, `swapped`, `swappedNoSlot`, `moved`, `taken`, `takenHome`, `replaced`. */
  onDragEnd?: (detail: AnnouncementDetail) => string | undefined;
  /** `cancelled`, `cancelledHome`. */
  onDragCancel?: (detail: AnnouncementDetail) => string | undefined;
};

/** How a drop picks its slot. */
export type Strategy = 'nearest-center' | 'largest-overlap' | 'pointer-within' | 'all-intersecting';

/** Engine options: `setOptions` may change these while the board runs (not `mode`). */
export interface EngineOptions {
  /** Px between an item's centre and a slot's for `nearest-center` (exclusive); 50. */
  maxDistance?: number;
  /** A drop whose centre is inside a slot lands there; `true` in locations. */
  snapInside?: boolean;
  /** A drop on a full slot swaps the two items; `true` in locations. */
  swap?: boolean;
  strategy?: Strategy;
  /** Px the hover target's rule is relaxed by before the highlight moves; 8. */
  hysteresis?: number;
  /** A drop lands where the highlight is. */
  dropOnHover?: boolean;
  /** Seconds; 0.2. */
  snapDuration?: number;
  /** Seconds; 0.2 in locations, 0.5 in shortcuts. */
  returnDuration?: number;
  curve?: 'ease-in-out' | 'linear' | 'spring';
  /** Px: a held item's top-left corner snaps to multiples of it. */
  grid?: number;
  /** Px a mouse or pen moves before a press becomes a drag; 0 (any move; a click is no drag). */
  activationDistance?: number;
  /** Animations become instant; from `prefers-reduced-motion` when not given. */
  reducedMotion?: boolean;
  /** Shortcuts: a slot's copy can be dragged out. */
  contentDraggable?: boolean;
  strings?: BoardStrings;
}

/** A board's options (docs/board.md). */
export interface BoardOptions extends EngineOptions {
  /** CSS selector, inside the container, of the draggable elements. */
  items: string;
  /** CSS selector of the places they go. */
  slots: string;
  /** CSS selector: only a press inside this part of an item starts a drag. */
  handle?: string;
  /** CSS selector: a press inside what it names never starts a drag (controls never do). */
  filter?: string;
  /** `locations` (the item moves; the default) or `shortcuts` (a ghost copy). */
  mode?: 'locations' | 'shortcuts';
  /** A touch drags after holding still `delay` ms; moving more than `tolerance` px first scrolls. */
  touch?: { delay?: number; tolerance?: number };
  /** Whether a slot takes an item (or `data-accepts` / `data-tags`). */
  accepts?: (item: HTMLElement, slot: HTMLElement) => boolean;
  /** `move` (the component moves elements into slots) or `event` (the `place` event). */
  placement?: 'move' | 'event';
  /** An element or selector whose text becomes the status. */
  status?: HTMLElement | string;
  /** Functions that choose what is said (docs/board.md, "Announcements"). */
  announcements?: BoardAnnouncements;
  /** Saved on every change and restored on load. */
  persist?: 'localStorage' | false;
  /** The storage key (the container's id by default). */
  persistKey?: string;
  /** A held item near a scroll container's edge scrolls it; `true`. */
  autoScroll?: boolean;
  onpickup?: (detail: BoardPickupDetail) => void;
  onhover?: (detail: BoardHoverDetail) => void;
  ondrop?: (detail: BoardDropDetail) => void;
  onreturn?: (detail: BoardMoveDetail) => void;
  onredo?: (detail: BoardMoveDetail) => void;
  onswap?: (detail: BoardMoveDetail) => void;
  onassign?: (detail: BoardAssignDetail) => void;
  oncancel?: (detail: BoardCancelDetail) => void;
  onchange?: (detail: BoardChangeDetail) => void;
  onstatus?: (detail: BoardStatusDetail) => void;
  onplace?: (detail: BoardPlaceDetail) => void;
  onerror?: (detail: BoardErrorDetail) => void;
}

/** What every item event's detail has: the item's element and id (`data-id`, else its position from 1). */
export interface BoardItemDetail {
  item: HTMLElement;
  itemId: string;
}

/** `pickup`: an item was picked up, by pointer `pointer` (`null`: the keyboard). */
export interface BoardPickupDetail extends BoardItemDetail {
  type: 'pickup';
  pointer: number | null;
}

/** `hover`: the held item is over `slot` (`null`: over none). */
export interface BoardHoverDetail extends BoardItemDetail {
  type: 'hover';
  slot: HTMLElement | null;
  slotId: string | null;
}

/** `drop`: the item was dropped on `slot`, picked up from `from` (`null`: it had none). */
export interface BoardDropDetail extends BoardItemDetail {
  type: 'drop';
  slot: HTMLElement;
  slotId: string;
  from: HTMLElement | null;
  fromId: string | null;
}

/**
 * `return` (back to where it rests, or an undo), `redo`, and `swap` (an item the drop
 * displaced): where the item goes now, `null` for its home outside every slot.
 */
export interface BoardMoveDetail extends BoardItemDetail {
  type: 'return' | 'redo' | 'swap';
  slot: HTMLElement | null;
  slotId: string | null;
}

/** `assign` (`placement: 'copy'`): `slot` now shows a copy of `item`; no item when it was emptied. */
export interface BoardAssignDetail {
  type: 'assign';
  item?: HTMLElement;
  itemId?: string;
  slot: HTMLElement;
  slotId: string;
}

/** `cancel`: a drag was cancelled (Escape, a lost pointer); the item goes back. */
export interface BoardCancelDetail extends BoardItemDetail {
  type: 'cancel';
}

/**
 * Any of the item events' details, every field optional (what one handler for several
 * events takes); each event's own type above has its fields required.
 */
export interface BoardEventDetail {
  type: string;
  /** The item's element and id (`data-id`, else its position from 1). */
  item?: HTMLElement;
  itemId?: string;
  /** The slot's element and id; `null` where there is none. */
  slot?: HTMLElement | null;
  slotId?: string | null;
  /** The pointer's id; `null` for the keyboard. */
  pointer?: number | null;
  /** `drop`: the slot the item was picked up from; `null` when it had none. */
  from?: HTMLElement | null;
  fromId?: string | null;
}

export interface BoardChangeDetail {
  /** The state line (`state()`). */
  state: string;
}

/** `status`: the status line changed. */
export interface BoardStatusDetail {
  type: 'status';
  text: string;
}

/** `placement: 'event'`: put `item` into `slot` now (back home when `slot` is `null`). */
export interface BoardPlaceDetail {
  item: HTMLElement;
  itemId: string;
  slot: HTMLElement | null;
  slotId: string | null;
}

export interface BoardErrorDetail {
  message: string;
  /** Where a saved board that did not read was kept aside. */
  key?: string;
}

/** Each event's detail. */
export interface BoardEvents {
  pickup: BoardPickupDetail;
  hover: BoardHoverDetail;
  drop: BoardDropDetail;
  return: BoardMoveDetail;
  redo: BoardMoveDetail;
  swap: BoardMoveDetail;
  assign: BoardAssignDetail;
  cancel: BoardCancelDetail;
  change: BoardChangeDetail;
  status: BoardStatusDetail;
  place: BoardPlaceDetail;
  error: BoardErrorDetail;
}

export type BoardEventName = keyof BoardEvents;

/** The drag engine on a page's own elements. */
export class Board {
  constructor(container: HTMLElement | string, options: BoardOptions);
  /** The board once the engine runs; rejected with the error when an option is wrong. */
  readonly ready: Promise<Board>;
  /** The `aria-live` element. */
  readonly live: HTMLElement;
  /** Calls `listener(detail)` for the event; also DOM `CustomEvent`s `board:NAME` on the container. */
  on<K extends BoardEventName>(name: K, listener: (detail: BoardEvents[K]) => void): this;
  off<K extends BoardEventName>(name: K, listener: (detail: BoardEvents[K]) => void): this;
  /** The state line (`{"type":"state",…}`), the app's and `imagestage board run`'s. */
  state(): string | null;
  /** Puts every element where a state line says; throws an `Error` naming the field otherwise. */
  restore(text: string): void;
  undo(): void;
  redo(): void;
  canUndo(): boolean;
  canRedo(): boolean;
  /** Changes options while it runs (not `mode`, `items`, `slots`); checked first, throws when one is wrong. */
  setOptions(changes: Partial<Omit<BoardOptions, 'mode' | 'items' | 'slots'>>): this;
  /** Measures again (the component does so itself). */
  refresh(): this;
  /** Removes its listeners, observers, ghosts, live region and the attributes it added; the elements stay. */
  destroy(): void;
}

/** A board on `container` (an element or a selector). */
export function board(container: HTMLElement | string, options: SortableOptions): SortableBoard;
export function board(container: HTMLElement | string, options: BoardOptions): Board;

/** SortableJS's `group`. */
export interface SortableGroup {
  name?: string;
  pull?: boolean | 'clone';
  put?: boolean | string[];
}

/** `mode: 'sortable'`'s options (docs/board.md, "Sortable lists"). */
export interface SortableOptions {
  mode: 'sortable';
  lists?: string | Iterable<HTMLElement>;
  items?: string;
  handle?: string;
  filter?: string;
  group?: string | SortableGroup;
  max?: number;
  sort?: boolean;
  animation?: number;
  swapThreshold?: number;
  invertSwap?: boolean;
  invertedSwapThreshold?: number;
  rule?: 'swapZones' | 'closestCenter';
  hysteresis?: number;
  emptyInsertThreshold?: number;
  multiDrag?: boolean;
  persist?: 'localStorage';
  strings?: Partial<Record<'draggable' | 'instructions' | 'position' | 'picked' | 'dropped' | 'cancelled' | 'selected', string>>;
  onStart?: (e: SortableEventDetail) => void;
  onSort?: (e: SortableEventDetail) => void;
  onEnd?: (e: SortableEndDetail) => void;
  onChange?: (e: SortableChangeDetail) => void;
  onError?: (e: BoardErrorDetail) => void;
}

/** `start` and `sort`: where the held item came from and would land. */
export interface SortableEventDetail {
  item: HTMLElement;
  itemId: string | undefined;
  from: HTMLElement;
  to: HTMLElement;
  fromId: string;
  toId: string;
  oldIndex: number;
  newIndex: number;
}

/** `end`: where it went; `clone` when its list pulls clones, `cancelled` after Escape. */
export interface SortableEndDetail extends SortableEventDetail {
  clone?: HTMLElement;
  cancelled: boolean;
}

/** `change`: a list whose order really changed. */
export interface SortableChangeDetail {
  list: HTMLElement;
  listId: string;
}

/** A sortable board. */
export interface SortableBoard {
  readonly ready: Promise<SortableBoard>;
  on(name: 'start' | 'sort', fn: (e: SortableEventDetail) => void): this;
  on(name: 'end', fn: (e: SortableEndDetail) => void): this;
  on(name: 'change', fn: (e: SortableChangeDetail) => void): this;
  on(name: 'error', fn: (e: BoardErrorDetail) => void): this;
  off(name: string, fn: (e: never) => void): this;
  /** The `data-id`s of a list's items in order (a list element, index or id; the first by default). */
  toArray(list?: HTMLElement | number | string): string[];
  /** Puts a list's items in this order of `data-id`s; undoable. */
  sort(order: string[], list?: HTMLElement | number | string): void;
  /** `{"order":{"listId":["itemId",…]}}`. */
  state(): string;
  restore(text: string): void;
  undo(): void;
  redo(): void;
  canUndo(): boolean;
  canRedo(): boolean;
  refresh(): this;
  destroy(): void;
}

declare global {
  interface ElementEventMap {
    'board:pickup': CustomEvent<BoardPickupDetail>;
    'board:hover': CustomEvent<BoardHoverDetail>;
    'board:drop': CustomEvent<BoardDropDetail>;
    'board:return': CustomEvent<BoardMoveDetail>;
    'board:redo': CustomEvent<BoardMoveDetail>;
    'board:swap': CustomEvent<BoardMoveDetail>;
    'board:assign': CustomEvent<BoardAssignDetail>;
    'board:cancel': CustomEvent<BoardCancelDetail>;
    'board:change': CustomEvent<BoardChangeDetail>;
    'board:status': CustomEvent<BoardStatusDetail>;
    'board:place': CustomEvent<BoardPlaceDetail>;
    'board:error': CustomEvent<BoardErrorDetail>;
  }
}
