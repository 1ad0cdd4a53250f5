extension Engine {
  /// Whether item `i` may land on slot `s`: the slot accepts its tags and, when items move
  /// onto slots, has room (its own slot always has).
  ///
  /// - Throws: ``BoardError/Kind/indexOutOfRange(_:count:)`` naming `item` or `slot` when an
  ///   index is not on the board.
  public func isEligible(item i: Int, slot s: Int) throws(BoardError) -> Bool {
    try checkItem(i, "item")
    try checkSlot(s, "slot")
    return eligible(item: i, slot: s)
  }

  /// ``isEligible(item:slot:)`` for indices known to be on the board.
  func eligible(item i: Int, slot s: Int) -> Bool {
    let slot = board.slots[s]
    guard slot.accepts(tags: board.items[i].tags) else { return false }
    if options.style == .ghost { return true }
    // A full slot of one takes the item when its occupant can swap places with it.
    return board.items[i].slot == s || occupancy[s] < slot.capacity || (options.swapOccupied && slot.capacity == 1)
  }

  /// Refuses what the public targeting queries would trap on or answer with NaN.
  func checkQuery(item i: Int, frame: StageRect, pointer: StagePoint) throws(BoardError) {
    try checkItem(i, "item")
    try BoardError.check(frame, "frame")
    try BoardError.check(pointer, "pointer")
  }

  /// The single slot a drop of item `i` with `frame` (pointer at `pointer`) lands on, by the
  /// exact rule of the board's strategy. For `allIntersecting` in move mode, where an item
  /// can only sit on one slot, the one it overlaps most.
  ///
  /// - Throws: ``BoardError`` naming `item` when `i` is not an item index, or `frame` or
  ///   `pointer` when not finite (or `frame` has a negative size).
  /// - Complexity: O(slots near the frame) through the spatial index.
  public func dropTarget(item i: Int, frame: StageRect, pointer: StagePoint) throws(BoardError) -> Int? {
    try checkQuery(item: i, frame: frame, pointer: pointer)
    return landingSlot(item: i, frame: frame, pointer: pointer)
  }

  /// ``dropTarget(item:frame:pointer:)`` for a checked query.
  func landingSlot(item i: Int, frame: StageRect, pointer: StagePoint) -> Int? {
    switch options.strategy {
    case .nearestCenter:
      let near = index.nearestCenter(to: frame.center, within: options.snapRadius) { eligible(item: i, slot: $0) }
      guard options.snapInsideSlot, let inside = slotContaining(item: i, frame.center) else { return near }
      guard let near else { return inside }
      let c = frame.center
      return board.slots[inside].frame.center.distance(to: c) < board.slots[near].frame.center.distance(to: c) ? inside : near
    case .largestOverlap, .allIntersecting:
      return largestOverlap(item: i, frame: frame).slot
    case .pointerWithin:
      return slotUnderPointer(item: i, pointer)
    }
  }

  /// Every slot a drop lands on: all overlapped ones for `allIntersecting`, else at most one.
  ///
  /// - Throws: ``BoardError`` as ``dropTarget(item:frame:pointer:)`` does.
  public func dropTargets(item i: Int, frame: StageRect, pointer: StagePoint) throws(BoardError) -> [Int] {
    try checkQuery(item: i, frame: frame, pointer: pointer)
    return landingSlots(item: i, frame: frame, pointer: pointer)
  }

  /// ``dropTargets(item:frame:pointer:)`` for a checked query.
  func landingSlots(item i: Int, frame: StageRect, pointer: StagePoint) -> [Int] {
    guard options.strategy == .allIntersecting else {
      return landingSlot(item: i, frame: frame, pointer: pointer).map { [$0] } ?? []
    }
    var result: [Int] = []
    index.forEachOverlapping(frame) { s in if eligible(item: i, slot: s) { result.append(s) } }
    return result.sorted()
  }

  /// The hover target: the exact rule, except that the `current` target is kept while it
  /// still qualifies with `hoverHysteresis` points of slack and no other slot beats it by
  /// more than that slack.
  ///
  /// - Throws: ``BoardError`` as ``dropTarget(item:frame:pointer:)`` does, or naming
  ///   `current` when it is not a slot index.
  public func hoverTarget(item i: Int, frame: StageRect, pointer: StagePoint, current: Int?) throws(BoardError) -> Int? {
    try checkQuery(item: i, frame: frame, pointer: pointer)
    if let current { try checkSlot(current, "current") }
    return hoverSlot(item: i, frame: frame, pointer: pointer, current: current)
  }

  /// ``hoverTarget(item:frame:pointer:current:)`` for a checked query.
  func hoverSlot(item i: Int, frame: StageRect, pointer: StagePoint, current: Int?) -> Int? {
    let h = max(0, options.hoverHysteresis)
    let best = landingSlot(item: i, frame: frame, pointer: pointer)
    guard let current, h > 0, best != current, eligible(item: i, slot: current) else { return best }
    let currentFrame = board.slots[current].frame
    switch options.strategy {
    case .nearestCenter:
      let dc = currentFrame.center.distance(to: frame.center)
      let inside = options.snapInsideSlot && currentFrame.insetBy(-h).contains(frame.center)
      guard dc < options.snapRadius + h || inside else { return best }
      guard let best else { return current }
      let db = board.slots[best].frame.center.distance(to: frame.center)
      return db < dc - h ? best : current
    case .largestOverlap, .allIntersecting:
      let ac = currentFrame.overlapArea(with: frame)
      guard ac > 0 else { return best }
      guard let best else { return current }
      let ab = board.slots[best].frame.overlapArea(with: frame)
      // Slack: a strip h points wide along the frame's shorter side.
      return ab > ac + h * min(frame.size.width, frame.size.height) ? best : current
    case .pointerWithin:
      return currentFrame.insetBy(-h).contains(pointer) ? current : best
    }
  }

  func largestOverlap(item i: Int, frame: StageRect) -> (slot: Int?, area: Double) {
    var best: Int?
    var bestArea = 0.0
    index.forEachOverlapping(frame) { s in
      let a = board.slots[s].frame.overlapArea(with: frame)
      if a > bestArea || (a == bestArea && a > 0 && s < (best ?? Int.max)), eligible(item: i, slot: s) {
        best = s
        bestArea = a
      }
    }
    return (best, bestArea)
  }

  /// The eligible slot containing `p` whose centre is nearest it.
  func slotContaining(item i: Int, _ p: StagePoint) -> Int? {
    var best: Int?
    var bestDistance = Double.infinity
    index.forEachContaining(p) { s in
      let d = board.slots[s].frame.center.distance(to: p)
      if d < bestDistance, eligible(item: i, slot: s) {
        best = s
        bestDistance = d
      }
    }
    return best
  }

  /// The last-declared eligible slot containing the pointer (later slots draw on top).
  func slotUnderPointer(item i: Int, _ p: StagePoint) -> Int? {
    var best: Int?
    index.forEachContaining(p) { s in
      if s > (best ?? -1), eligible(item: i, slot: s) { best = s }
    }
    return best
  }
}
