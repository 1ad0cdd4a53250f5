/// Phases of a pointer (mouse button, finger, pen) as the host reports them.
public enum PointerPhase: String, Hashable, Sendable {
  /// Pressed: a button went down or a finger touched.
  case down
  /// Moved: a drag in flight follows it.
  case move
  /// Released: a drag in flight drops.
  case up
  /// Taken away by the system (an incoming call, a lost capture): a drag in flight goes back, with no drop.
  case cancel
}

/// Keys of the keyboard operation (dnd-kit's keyboard sensor, plus undo and redo).
public enum Key: String, Hashable, Sendable, CaseIterable {
  /// Moves the keyboard focus to the next item (wrapping), unless an item is carried.
  case tab
  /// Picks up the focused item, or drops the one carried.
  case space
  /// Same as ``space``.
  case enter
  /// Cancels a keyboard drag: the item goes back.
  case escape
  /// Carries the picked-up item to the neighbouring slot on the left.
  case left
  /// Carries the picked-up item to the neighbouring slot on the right.
  case right
  /// Carries the picked-up item to the neighbouring slot above.
  case up
  /// Carries the picked-up item to the neighbouring slot below.
  case down
  /// Undoes the last change (the host maps Ctrl+Z, or an Undo button, to it).
  case undo
  /// Redoes the change undone last.
  case redo
}

/// Something the host tells the engine.
public enum Input: Hashable, Sendable {
  /// A pointer event at a board position. Ids tell simultaneous pointers apart.
  case pointer(PointerPhase, id: Int, at: StagePoint)
  /// New frames for some slots (by slot index), and optionally a new canvas size: a window
  /// resize or rotation (the seed's `viewDidLayoutSubviews`).
  case layout([SlotFrame], canvas: StageSize?)
  /// A key of the keyboard operation, undo and redo included.
  case key(Key)
  /// Cancels every drag in flight: the window lost focus, or the pointer left for good.
  case cancelAll
  /// Empties every slot's content (Shortcuts), undoably.
  case clearContents
  /// Empties one slot's content (Shortcuts), undoably: what dragging it out does.
  case removeContent(slot: Int)
}

/// A slot's new frame in a layout input.
public struct SlotFrame: Hashable, Sendable {
  /// Index in ``Board/slots`` of the slot that moves.
  public var slot: Int
  /// The slot's new frame, in board points.
  public var frame: StageRect
  /// `slot`'s new `frame`; checked when the engine handles the layout.
  public init(slot: Int, frame: StageRect) {
    self.slot = slot
    self.frame = frame
  }
}

/// What the engine reports. Ids are the board's string ids.
public enum StageEvent: Hashable, Sendable {
  /// A drag began (after the activation distance, if any). `pointer` is `nil` for keyboard.
  case pickup(item: String, pointer: Int?)
  /// The would-be target of a drag changed; `slot` is `nil` when there is none.
  case hover(item: String, slot: String?)
  /// A drag ended on `slot`.
  case drop(item: String, slot: String)
  /// The item (or its ghost) goes back where it came from; `slot` is its home, if any.
  case returned(item: String, slot: String?)
  /// A slot's content changed to `item` (`nil`: emptied).
  case assign(item: String?, slot: String)
  /// An item was moved aside to `slot` (its new home, `nil`: its resting point) because the
  /// dropped item took its place (`Options.swapOccupied`).
  case displaced(item: String, slot: String?)
  /// A drag was cancelled (Escape, pointer cancel, lost focus).
  case cancel(item: String)
  /// Text for a screen reader.
  case announce(String)
  /// The status label's new text.
  case status(String)
  /// An announcement as a code and arguments (``Engine/handleCoded(_:at:)``); the host's
  /// table turns it into words (``Engine/announcement(_:)`` gives the engine's).
  case said(Sentence)
  /// The status label's new content as a code and arguments (``Engine/text(of:)``).
  case shown(Sentence)
}
