/// The two behaviours the seeds describe, as starting points for ``Options/preset(_:)``.
///
/// Each case names the seed app it reproduces: `locations` is a board where the item itself
/// is dragged onto labelled places (seed 000), `shortcuts` a row of target views that each
/// receive a copy of a dragged image (seed 001).
public enum Preset: String, Hashable, Sendable, CaseIterable {
  /// Seed 000, "Locations": the image itself moves and snaps to the nearest location within 50 pt in
  /// 0.2 s, or returns to where it came from.
  case locations
  /// Seed 001, "Shortcuts": a ghost copy follows the pointer; the slot it lands on receives the image; a
  /// miss sends the ghost home in 0.5 s.
  case shortcuts
}

/// What a drag moves.
public enum DragStyle: Hashable, Sendable {
  /// The item itself moves and ends up on a slot (Locations).
  case moveItem
  /// A ghost copy moves; the source stays; slots receive the item as content (Shortcuts).
  case ghost
}

/// How the slot under a dragged item is chosen.
public enum TargetStrategy: String, Hashable, Sendable, CaseIterable {
  /// Slot whose centre is nearest the item's centre, if closer than `snapRadius` (seed 000).
  case nearestCenter = "nearest-center"
  /// Slot sharing the largest area with the item's frame (dnd-kit's `rectIntersection`).
  case largestOverlap = "largest-overlap"
  /// Slot under the pointer (dnd-kit's `pointerWithin`).
  case pointerWithin = "pointer-within"
  /// Every slot the frame overlaps (seed 001's exact rule: each receives the image).
  case allIntersecting = "all-intersecting"
}

/// An axis a drag can be locked to.
public enum Axis: String, Hashable, Sendable {
  /// Along x: the drag keeps its starting y.
  case horizontal
  /// Along y: the drag keeps its starting x.
  case vertical
}

/// Everything about a board's behaviour that is not geometry. Start from a preset; every
/// field beyond the seeds' is opt-in.
public struct Options: Hashable, Sendable {
  /// What a drag moves: the item itself, or a ghost copy of it (``DragStyle``).
  public var style: DragStyle
  /// Which slot a drop lands on (``TargetStrategy``).
  public var strategy: TargetStrategy
  /// Greatest centre distance (points, exclusive) for `nearestCenter`.
  public var snapRadius: Double = 50
  /// Seconds a drop animates to its slot.
  public var snapDuration: Double = 0.2
  /// Seconds a missed drop animates back.
  public var returnDuration: Double
  /// The easing of snap and return animations.
  public var curve: TimingCurve = .easeInOut
  /// Points the pointer must travel before a press becomes a drag (0: at once, as the seeds).
  public var activationDistance: Double = 0
  /// When set, a dragged item's top-left corner snaps to multiples of this many points.
  public var grid: Double? = nil
  /// Keeps a dragged frame inside the canvas.
  public var restrictToCanvas = false
  /// Keeps a drag on one axis through its starting position.
  public var axisLock: Axis? = nil
  /// Makes every animation instant (the platform's "reduce motion" setting).
  public var reducedMotion = false
  /// Points the hover target's rule is relaxed by before the target switches, so it does
  /// not flicker between two slots at their boundary. The drop itself uses the exact rule.
  public var hoverHysteresis: Double = 8
  /// `nearestCenter` also accepts a slot whose frame contains the dragged item's centre,
  /// however far its centre is: a drop that looks inside a big slot lands there. Off in the
  /// seeds (50 pt is the whole rule); on in the app's Locations.
  public var snapInsideSlot = false
  /// A drop lands on the slot the hover highlight marks, even inside the hysteresis slack
  /// where the exact rule would miss: what the user sees decides. Off in the seeds.
  public var dropOnHoverTarget = false
  /// Dropping an item (Locations) on a full slot swaps it with the slot's item, which moves
  /// to the dropped item's old slot, as one undoable step. Off in the seeds.
  public var swapOccupied = false
  /// A slot's content (Shortcuts) can be dragged out: onto another slot it moves there,
  /// off every slot it is removed, undoably. Off in the seeds.
  public var contentDraggable = false
  /// How announcements of an undoable change say to undo it ("Press Ctrl+Z to undo." on a
  /// keyboard; a touch host with an Undo button says so instead). Empty: not said.
  public var undoHint = "Press Ctrl+Z to undo."
  /// The sentences announcements and the status label are made of (``Phrase``).
  public var phrases = Phrases()

  /// Options with every opt-in field off; `returnDuration` is in seconds. ``Options/preset(_:)`` gives the seeds' values.
  public init(style: DragStyle, strategy: TargetStrategy, returnDuration: Double) {
    self.style = style
    self.strategy = strategy
    self.returnDuration = returnDuration
  }

  /// Checks every number: durations, distances and spring parameters must be finite and not
  /// negative, `grid` finite. ``Engine/init(board:options:)`` calls it, so a NaN or infinite
  /// duration, which would leave an item at (nan, nan) and the engine never idle, is refused
  /// up front.
  ///
  /// - Throws: ``BoardError`` naming the field (`options.snapDuration`).
  public func validate() throws(BoardError) {
    try BoardError.checkNonNegative(snapRadius, "options.snapRadius")
    try BoardError.checkNonNegative(snapDuration, "options.snapDuration")
    try BoardError.checkNonNegative(returnDuration, "options.returnDuration")
    try BoardError.checkNonNegative(activationDistance, "options.activationDistance")
    try BoardError.checkNonNegative(hoverHysteresis, "options.hoverHysteresis")
    if let grid { try BoardError.checkNonNegative(grid, "options.grid") }
    if case .spring(let response, let dampingRatio) = curve {
      try BoardError.checkNonNegative(response, "options.curve.response")
      try BoardError.checkNonNegative(dampingRatio, "options.curve.dampingRatio")
    }
  }

  /// The seeds' behaviour, exactly: Locations snaps within 50 pt in 0.2 s, returns in 0.2 s;
  /// Shortcuts fills the slot the ghost overlaps most, returns in 0.5 s.
  public static func preset(_ preset: Preset) -> Options {
    switch preset {
    case .locations:
      return Options(style: .moveItem, strategy: .nearestCenter, returnDuration: 0.2)
    case .shortcuts:
      return Options(style: .ghost, strategy: .largestOverlap, returnDuration: 0.5)
    }
  }
}
