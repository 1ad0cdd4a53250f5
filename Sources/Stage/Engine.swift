/// The interaction engine: a board plus everything in flight (drags, animations, ghosts,
/// keyboard operation, undo history). A value; the host owns the clock.
///
/// ```swift
/// var engine = try Engine(board: board, options: .preset(.locations))
/// var events = try engine.handle(.pointer(.down, id: 0, at: StagePoint(x: 60, y: 60)), at: 0)
/// events += try engine.handle(.pointer(.up, id: 0, at: StagePoint(x: 160, y: 60)), at: 0.1)
/// engine.advance(to: 0.4)   // the snap animation has finished
/// ```
///
/// Every input goes through ``handle(_:at:)``, keys included: undo and redo are
/// `handle(.key(.undo), at:)` and `handle(.key(.redo), at:)`.
public struct Engine: Sendable {
  /// The board as it stands: slots, items with their current centres, z-order.
  public internal(set) var board: Board
  /// The behaviour in use, read at each input and clock step. Change it with
  /// ``setOptions(_:)``, which checks it as ``init(board:options:)`` does.
  public internal(set) var options: Options
  /// The last time the host passed in, in seconds.
  public internal(set) var now: Double = 0
  /// Ghost copies on screen (Shortcuts), dragged or flying home.
  public internal(set) var ghosts: [Ghost] = []
  /// The status label's content as a code and arguments (`nil`: none yet).
  public internal(set) var statusSentence: Sentence?
  /// The status label's text (`location #<id>` for Locations).
  public var status: String { statusSentence.map { text(of: $0) } ?? "" }
  /// The keyboard focus, an item index.
  public internal(set) var focus: Int?

  @usableFromInline var index: SpatialIndex
  @usableFromInline var occupancy: [Int]
  var drags: [Drag] = []
  var motions: [ItemMotion] = []
  var keyboardDrag: KeyboardDrag?
  var history: [Operation] = []
  var undone: [Operation] = []
  var nextGhostID = 0

  /// A ghost copy of an item.
  public struct Ghost: Hashable, Sendable {
    /// Identifier of this ghost, unique for the engine's lifetime, so a host can match ghosts across frames.
    public var id: Int
    /// The source item's index.
    public var item: Int
    /// Where the ghost is drawn now (its centre), in board points.
    public var center: StagePoint
    var motion: Motion?
  }

  struct Drag: Sendable {
    var pointer: Int
    var item: Int
    var grabOffset: Vector
    var pressedAt: StagePoint
    var startCenter: StagePoint
    var active: Bool
    var ghost: Int?
    var hover: Int?
    var pointerAt: StagePoint
    /// The slot whose content is being dragged out (`Options.contentDraggable`).
    var fromSlot: Int?
  }

  struct ItemMotion: Sendable {
    var item: Int
    var motion: Motion
  }

  struct KeyboardDrag: Sendable {
    var item: Int
    var ghost: Int?
    var over: Int?
  }

  struct SlotChange: Sendable {
    var slot: Int
    var old: String?
    var new: String?
  }

  enum Operation: Sendable {
    case move(item: Int, from: Int?, to: Int?)
    /// `item` went from `from` to `slot`, and `other` from `slot` to `from`.
    case swap(item: Int, other: Int, from: Int?, slot: Int)
    case assign([SlotChange])
  }

  /// Takes `board` and starts with nothing in flight.
  ///
  /// - Throws: ``BoardError`` naming the option (``Options/validate()``) or `board.canvas`
  ///   when a number is NaN, infinite or negative where that means nothing.
  /// - Complexity: O(slots + items) to build the spatial index and occupancy.
  public init(board: Board, options: Options) throws(BoardError) {
    try options.validate()
    try BoardError.check(board.canvas, "board.canvas")
    self.board = board
    self.options = options
    self.index = SpatialIndex(frames: board.slots.map { $0.frame })
    var occupancy = [Int](repeating: 0, count: board.slots.count)
    for item in board.items { if let s = item.slot { occupancy[s] += 1 } }
    self.occupancy = occupancy
    if options.style == .moveItem, let s = board.items.first?.slot {
      statusSentence = Sentence(.current, slot: s)
    }
  }

  /// Takes `options` for every input and clock step from now on; what is in flight keeps
  /// the durations it started with.
  ///
  /// - Throws: ``BoardError`` naming the option (``Options/validate()``) when a number is
  ///   NaN, infinite or negative where that means nothing; the engine keeps its options then.
  public mutating func setOptions(_ options: Options) throws(BoardError) {
    try options.validate()
    self.options = options
  }

  /// Throws unless `i` is an item index of the board.
  func checkItem(_ i: Int, _ path: String) throws(BoardError) { try BoardError.checkIndex(i, board.items.count, path) }
  /// Throws unless `s` is a slot index of the board.
  func checkSlot(_ s: Int, _ path: String) throws(BoardError) { try BoardError.checkIndex(s, board.slots.count, path) }

  func locationText(_ id: String) -> String { options.phrases.fill(.location, [("id", id)]) }

  /// Phrase `p` of the options' phrases, filled in (`{undo}` is the undo hint).
  func say(
    _ p: Phrase, item: String = "", slot: String = "", other: String = "", count: String = "", change: String = ""
  ) -> String {
    options.phrases.fill(
      p, [("item", item), ("slot", slot), ("other", other), ("count", count), ("change", change), ("undo", undoSuffix)])
  }

  /// What the user reads for slot `s`: its name, or the seed's `location #<id>`.
  ///
  /// - Throws: ``BoardError/Kind/indexOutOfRange(_:count:)`` when `s` is not a slot index.
  public func slotName(_ s: Int) throws(BoardError) -> String {
    try checkSlot(s, "slot")
    return name(slot: s)
  }

  /// What the user reads for item `i`: its name, or its id.
  ///
  /// - Throws: ``BoardError/Kind/indexOutOfRange(_:count:)`` when `i` is not an item index.
  public func itemName(_ i: Int) throws(BoardError) -> String {
    try checkItem(i, "item")
    return name(item: i)
  }

  func name(slot s: Int) -> String { board.slots[s].name ?? locationText(board.slots[s].id) }
  func name(item i: Int) -> String { board.items[i].name ?? board.items[i].id }

  /// " " + the options' undo hint, or nothing.
  var undoSuffix: String { options.undoHint.isEmpty ? "" : " " + options.undoHint }

  /// Announcements are sentences: they start with a capital letter ("location #2 …" reads
  /// "Location #2 …"), except where an item's name leads: a file name stays as written.
  func sentence(_ text: String) -> String {
    guard let first = text.unicodeScalars.first, first.value >= 97, first.value <= 122 else { return text }
    if board.items.indices.contains(where: { text.hasPrefix(name(item: $0)) }) { return text }
    return String(Character(Unicode.Scalar(first.value - 32)!)) + String(text.unicodeScalars.dropFirst())
  }

  // MARK: - Reading the state

  /// Whether nothing moves: no drag, no animation, no ghost.
  public var isIdle: Bool { drags.isEmpty && motions.isEmpty && ghosts.isEmpty && keyboardDrag == nil }

  /// Whether an animation is running.
  public var isAnimating: Bool { !motions.isEmpty || ghosts.contains { $0.motion != nil } }

  /// When the last running animation ends, or `nil` when none runs.
  public var animationsEnd: Double? {
    var end: Double?
    for m in motions { end = max(end ?? m.motion.end, m.motion.end) }
    for g in ghosts { if let m = g.motion { end = max(end ?? m.end, m.end) } }
    return end
  }

  /// Indices of items being dragged by a pointer or the keyboard, or animating.
  public var movingItems: [Int] {
    var result: [Int] = []
    for d in drags where d.active && d.ghost == nil { result.append(d.item) }
    for m in motions where !result.contains(m.item) { result.append(m.item) }
    return result.sorted()
  }

  /// Items held by a pointer or the keyboard right now (not ghosts' sources, not animations):
  /// the ones a host draws lifted.
  public var heldItems: [Int] {
    var result: [Int] = []
    for d in drags where d.active && d.ghost == nil { result.append(d.item) }
    if let k = keyboardDrag, k.ghost == nil { result.append(k.item) }
    return result
  }

  /// Whether a pointer drag is in flight (a press that moved past the activation distance).
  public var isPointerDragging: Bool { drags.contains { $0.active } }

  /// Slots whose content is being dragged out right now.
  public var draggedOutSlots: [Int] { drags.compactMap { $0.active ? $0.fromSlot : nil } }

  /// The slot a drag of item `i` in flight started from: the slot whose content it took
  /// out, or the item's own slot; `nil` when it has none or no drag holds it.
  public func dragOrigin(item i: Int) -> Int? {
    guard board.items.indices.contains(i) else { return nil }
    if let d = drags.first(where: { $0.item == i && $0.active }) { return d.fromSlot ?? board.items[i].slot }
    if let k = keyboardDrag, k.item == i { return board.items[i].slot }
    return nil
  }

  /// The item a keyboard drag holds, if one is in flight.
  public var keyboardHeldItem: Int? { keyboardDrag?.item }

  /// Moves the keyboard focus to item `i` (a host's own focus order chose it).
  public mutating func setFocus(item i: Int?) {
    guard keyboardDrag == nil else { return }
    focus = i.flatMap { board.items.indices.contains($0) ? $0 : nil }
  }

  /// Slots to highlight: the hover target of every drag in flight.
  public var highlightedSlots: [Int] {
    var result: [Int] = []
    for d in drags { if let h = d.hover { result.append(h) } }
    if let k = keyboardDrag, let s = k.over { result.append(s) }
    return result
  }

  // MARK: - The step function

  /// Applies `input` at time `t` (seconds, never earlier than the last), after running
  /// animations up to `t`. Returns what happened, in order.
  ///
  /// Keys are inputs too: undo and redo are `.key(.undo)` and `.key(.redo)`.
  ///
  /// - Throws: ``BoardError`` when the input cannot be applied, and then changes nothing (the
  ///   clock included): `t` or a pointer position that is NaN or infinite (`t`,
  ///   `pointer.at`), a layout naming a slot index the board does not have
  ///   (`layout[0].slot`) or giving a frame or canvas that is not finite or has a negative
  ///   size (`layout[0].frame`, `layout.canvas`), or `removeContent` of a slot index the
  ///   board does not have (`removeContent.slot`). An empty slot is no error: it announces
  ///   that there is nothing to remove.
  public mutating func handle(_ input: Input, at t: Double) throws(BoardError) -> [StageEvent] {
    inWords(try handleCoded(input, at: t))
  }

  /// ``handle(_:at:)`` for a host with its own words: announcements and the status come as
  /// ``StageEvent/said(_:)`` and ``StageEvent/shown(_:)``, codes with arguments (``Sentence``).
  public mutating func handleCoded(_ input: Input, at t: Double) throws(BoardError) -> [StageEvent] {
    try validate(input, at: t)
    advance(to: t)
    var events: [StageEvent] = []
    switch input {
    case .pointer(let phase, let id, let p):
      switch phase {
      case .down: pointerDown(id, at: p, &events)
      case .move: pointerMove(id, to: p, &events)
      case .up: pointerUp(id, at: p, &events)
      case .cancel: cancelDrag(pointer: id, &events)
      }
    case .layout(let frames, let canvas):
      relayout(frames, canvas: canvas)
    case .key(let key):
      handleKey(key, &events)
    case .cancelAll:
      for d in drags { cancelDrag(pointer: d.pointer, &events) }
      if keyboardDrag != nil { handleKey(.escape, &events) }
    case .clearContents:
      clearContents(&events)
    case .removeContent(let slot):
      removeContent(of: slot, &events)
    }
    return events
  }

  /// Refuses an input that would trap or leave NaN in the state, before anything changes.
  func validate(_ input: Input, at t: Double) throws(BoardError) {
    guard t.isFinite else { throw BoardError(.notFinite, "t") }
    switch input {
    case .pointer(_, _, let p):
      try BoardError.check(p, "pointer.at")
    case .layout(let frames, let canvas):
      for (k, f) in frames.enumerated() {
        try checkSlot(f.slot, "layout[\(k)].slot")
        try BoardError.check(f.frame, "layout[\(k)].frame")
      }
      if let canvas { try BoardError.check(canvas, "layout.canvas") }
    case .removeContent(let slot):
      try checkSlot(slot, "removeContent.slot")
    case .key, .cancelAll, .clearContents:
      break
    }
  }

  /// Runs animations up to time `t`; items that arrive settle exactly on their targets.
  /// Arrivals report nothing: every event is reported by the `handle` call that caused it.
  /// A `t` that is NaN or infinite is ignored: the clock only moves to finite times.
  public mutating func advance(to t: Double) {
    if t.isFinite, t > now { now = t }
    var i = 0
    while i < motions.count {
      let m = motions[i]
      let target = point(of: m.motion.target, for: m.item)
      if now >= m.motion.end {
        board.items[m.item].center = target
        motions.remove(at: i)
      } else {
        board.items[m.item].center = m.motion.position(at: now, targetPoint: target)
        i += 1
      }
    }
    var g = 0
    while g < ghosts.count {
      if let m = ghosts[g].motion {
        if now >= m.end {
          ghosts.remove(at: g)
          continue
        }
        ghosts[g].center = m.position(at: now, targetPoint: point(of: m.target))
      }
      g += 1
    }
  }

  /// Where an animation target is right now; for `item`, a slot is where that item rests
  /// on it (``Item/slotOffset``).
  func point(of target: AnimationTarget, for item: Int? = nil) -> StagePoint {
    switch target {
    case .slot(let s): return board.slots[s].frame.center + (item.map { board.items[$0].slotOffset } ?? Vector(dx: 0, dy: 0))
    case .point(let p): return p
    case .item(let i): return board.items[i].center
    }
  }

  /// Where item `i`'s centre is once nothing holds or moves it: on its slot, or its own place.
  ///
  /// - Throws: ``BoardError/Kind/indexOutOfRange(_:count:)`` naming `item` when `i` is not an
  ///   item index.
  public func restingPoint(of i: Int) throws(BoardError) -> StagePoint {
    try checkItem(i, "item")
    return point(of: home(of: i), for: i)
  }

  /// Where item `i` rests when no drag or animation holds it.
  func home(of i: Int) -> AnimationTarget {
    if let s = board.items[i].slot { return .slot(s) }
    return .point(board.items[i].restingCenter)
  }

  // MARK: - Pointer

  /// A press on item `i` that the host hit-tested itself (a web page's own elements, laid out
  /// by its CSS): the item is picked up wherever the engine's frame for it is. `nil`: a press
  /// on a slot's content (`Options.contentDraggable`).
  ///
  /// With `waitForMove`, the press becomes a drag only once the pointer moves (at least
  /// `activationDistance`, and at all when that is 0): a click that never moves is no drag
  /// and reports nothing (dnd-kit's and SortableJS's rule). A touch the host held still
  /// until its delay ran out passes `false` and is picked up at once.
  ///
  /// - Throws: ``BoardError`` naming `item` when it is not an item index, or `pointer.at` or
  ///   `t` when not finite; nothing changes then.
  public mutating func press(item i: Int?, pointer: Int, at p: StagePoint, time t: Double, waitForMove: Bool = false)
    throws(BoardError) -> [StageEvent]
  {
    inWords(try pressCoded(item: i, pointer: pointer, at: p, time: t, waitForMove: waitForMove))
  }

  /// ``press(item:pointer:at:time:waitForMove:)`` with announcements as codes (``handleCoded(_:at:)``).
  public mutating func pressCoded(
    item i: Int?, pointer: Int, at p: StagePoint, time t: Double, waitForMove: Bool = false
  ) throws(BoardError) -> [StageEvent] {
    if let i { try checkItem(i, "item") }
    try BoardError.check(p, "pointer.at")
    guard t.isFinite else { throw BoardError(.notFinite, "t") }
    advance(to: t)
    var events: [StageEvent] = []
    if let i {
      pointerDown(pointer, at: p, item: i, startsNow: !waitForMove, &events)
    } else if options.contentDraggable {
      pressContent(pointer, at: p, startsNow: !waitForMove, &events)
    }
    return events
  }

  mutating func pointerDown(
    _ pointer: Int, at p: StagePoint, item pressed: Int? = nil, startsNow: Bool = true, _ events: inout [StageEvent]
  ) {
    guard !drags.contains(where: { $0.pointer == pointer }) else { return }
    guard let item = pressed ?? hitTest(p) else {
      if options.contentDraggable { pressContent(pointer, at: p, startsNow: startsNow, &events) }
      return
    }
    // A second pointer on an item already held is ignored.
    if drags.contains(where: { $0.item == item && options.style == .moveItem }) { return }
    if let k = keyboardDrag, k.item == item { return }
    let center = board.items[item].center
    var drag = Drag(
      pointer: pointer, item: item, grabOffset: center - p, pressedAt: p,
      startCenter: center, active: false, ghost: nil, hover: nil, pointerAt: p)
    if options.activationDistance <= 0 && startsNow { activate(&drag, &events) }
    drags.append(drag)
  }

  mutating func activate(_ drag: inout Drag, _ events: inout [StageEvent]) {
    drag.active = true
    let item = board.items[drag.item]
    if options.style == .moveItem {
      // Picked up where it is drawn, mid-animation or not (UIKit's beginsFromCurrentState).
      // Until a drag activates, a press is only a possible click and the item keeps moving.
      motions.removeAll { $0.item == drag.item }
      drag.grabOffset = item.center - drag.pressedAt
      drag.startCenter = item.center
      if let z = board.zOrder.firstIndex(of: drag.item) {
        board.zOrder.remove(at: z)
        board.zOrder.append(drag.item)
      }
    }
    if options.style == .ghost {
      let from = drag.fromSlot.map { board.slots[$0].frame.center } ?? item.center
      let ghost = Ghost(id: nextGhostID, item: drag.item, center: from, motion: nil)
      nextGhostID += 1
      ghosts.append(ghost)
      drag.ghost = ghost.id
    }
    events.append(.pickup(item: item.id, pointer: drag.pointer))
  }

  /// A press on a filled slot (`Options.contentDraggable`): a ghost of its content follows.
  mutating func pressContent(_ pointer: Int, at p: StagePoint, startsNow: Bool = true, _ events: inout [StageEvent]) {
    guard options.style == .ghost, let s = slotWithContent(at: p), let content = board.slots[s].content,
      let item = board.itemIndex(of: content)
    else { return }
    let center = board.slots[s].frame.center
    var drag = Drag(
      pointer: pointer, item: item, grabOffset: center - p, pressedAt: p, startCenter: center, active: false, ghost: nil,
      hover: nil, pointerAt: p, fromSlot: s)
    if options.activationDistance <= 0 && startsNow { activate(&drag, &events) }
    drags.append(drag)
  }

  /// The last-declared filled slot containing `p`.
  public func slotWithContent(at p: StagePoint) -> Int? {
    var best: Int?
    index.forEachContaining(p) { s in
      if board.slots[s].content != nil, s > (best ?? -1) { best = s }
    }
    return best
  }

  /// The topmost item whose drawn frame contains `p`.
  /// - Complexity: O(items).
  public func hitTest(_ p: StagePoint) -> Int? {
    for i in board.zOrder.reversed() where board.items[i].frame.contains(p) { return i }
    return nil
  }

  mutating func pointerMove(_ pointer: Int, to p: StagePoint, _ events: inout [StageEvent]) {
    guard let d = drags.firstIndex(where: { $0.pointer == pointer }) else { return }
    drags[d].pointerAt = p
    if !drags[d].active {
      // A move to where the press was is no move (a press that waits for one stays a click).
      let moved = p.distance(to: drags[d].pressedAt)
      guard moved > 0, moved >= options.activationDistance else { return }
      var drag = drags[d]
      activate(&drag, &events)
      drags[d] = drag
    }
    let center = constrainedCenter(drags[d], pointer: p)
    place(drags[d], at: center)
    updateHover(d, &events)
  }

  mutating func pointerUp(_ pointer: Int, at p: StagePoint, _ events: inout [StageEvent]) {
    guard let d = drags.firstIndex(where: { $0.pointer == pointer }) else { return }
    guard drags[d].active else {
      drags.remove(at: d)
      return
    }
    drags[d].pointerAt = p
    place(drags[d], at: constrainedCenter(drags[d], pointer: p))
    let drag = drags.remove(at: d)
    let hover = options.dropOnHoverTarget ? drag.hover.flatMap { eligible(item: drag.item, slot: $0) ? $0 : nil } : nil
    if let from = drag.fromSlot {
      finishContentDrop(drag, from: from, hover: hover, pointer: p, &events)
      return
    }
    finishDrop(item: drag.item, ghost: drag.ghost, frame: draggedFrame(drag), pointer: p, hover: hover, &events)
  }

  mutating func cancelDrag(pointer: Int, _ events: inout [StageEvent]) {
    guard let d = drags.firstIndex(where: { $0.pointer == pointer }) else { return }
    let drag = drags.remove(at: d)
    guard drag.active else { return }
    let id = board.items[drag.item].id
    events.append(.cancel(item: id))
    if drag.hover != nil { events.append(.hover(item: id, slot: nil)) }
    sendHome(item: drag.item, ghost: drag.ghost, slot: drag.fromSlot)
  }

  /// The dragged centre after the modifiers: axis lock, grid, canvas bounds.
  func constrainedCenter(_ drag: Drag, pointer p: StagePoint) -> StagePoint {
    var c = p + drag.grabOffset
    switch options.axisLock {
    case .horizontal: c.y = drag.startCenter.y
    case .vertical: c.x = drag.startCenter.x
    case nil: break
    }
    let size = board.items[drag.item].size
    if let g = options.grid, g > 0, g.isFinite {  // options may be set after init: an infinite grid would give NaN
      c.x = ((c.x - size.width / 2) / g).rounded() * g + size.width / 2
      c.y = ((c.y - size.height / 2) / g).rounded() * g + size.height / 2
    }
    if options.restrictToCanvas {
      let halfW = size.width / 2, halfH = size.height / 2
      c.x = min(max(c.x, halfW), max(halfW, board.canvas.width - halfW))
      c.y = min(max(c.y, halfH), max(halfH, board.canvas.height - halfH))
    }
    return c
  }

  mutating func place(_ drag: Drag, at center: StagePoint) {
    if let g = drag.ghost, let gi = ghosts.firstIndex(where: { $0.id == g }) {
      ghosts[gi].center = center
    } else {
      board.items[drag.item].center = center
    }
  }

  func draggedFrame(_ drag: Drag) -> StageRect {
    let size = board.items[drag.item].size
    if let g = drag.ghost, let ghost = ghosts.first(where: { $0.id == g }) {
      return StageRect(center: ghost.center, size: size)
    }
    return StageRect(center: board.items[drag.item].center, size: size)
  }

  mutating func updateHover(_ d: Int, _ events: inout [StageEvent]) {
    let drag = drags[d]
    let next = hoverSlot(
      item: drag.item, frame: draggedFrame(drag), pointer: drag.pointerAt, current: drag.hover)
    guard next != drag.hover else { return }
    drags[d].hover = next
    events.append(.hover(item: board.items[drag.item].id, slot: next.map { board.slots[$0].id }))
  }

  // MARK: - Drops

  mutating func finishDrop(
    item: Int, ghost: Int?, frame: StageRect, pointer: StagePoint, hover: Int? = nil, _ events: inout [StageEvent]
  ) {
    let id = board.items[item].id
    switch options.style {
    case .moveItem:
      if let s = hover ?? landingSlot(item: item, frame: frame, pointer: pointer) {
        events.append(.drop(item: id, slot: board.slots[s].id))
        if let other = occupant(of: s, besides: item), options.swapOccupied {
          swap(item, with: other, on: s, record: true, &events)
        } else {
          moveItem(item, to: s, record: true, duration: options.snapDuration)
        }
        setStatus(Sentence(.current, slot: s), &events)
      } else {
        events.append(.returned(item: id, slot: board.items[item].slot.map { board.slots[$0].id }))
        // Dropped on a full slot with swapping off: say why it went back, not just that.
        let home = board.items[item].slot
        if let taken = board.slots.indices.first(where: {
          $0 != home && board.slots[$0].frame.contains(frame.center) && occupant(of: $0, besides: item) != nil
        }) {
          let said =
            home.map { Sentence(.takenHome, item: item, slot: taken, other: $0) } ?? Sentence(.taken, item: item, slot: taken)
          events.append(.said(said))
        }
        sendHome(item: item, ghost: nil)
        if let s = home { setStatus(Sentence(.current, slot: s), &events) }
      }
    case .ghost:
      let targets = hover.map { [$0] } ?? landingSlots(item: item, frame: frame, pointer: pointer)
      if targets.isEmpty {
        events.append(.returned(item: id, slot: nil))
        sendHome(item: item, ghost: ghost)
        return
      }
      // The seed removes the drag view at once on a hit.
      if let ghost { ghosts.removeAll { $0.id == ghost } }
      var changes: [SlotChange] = []
      for s in targets {
        events.append(.drop(item: id, slot: board.slots[s].id))
        changes.append(SlotChange(slot: s, old: board.slots[s].content, new: id))
      }
      apply(changes, &events)
      announceReplaced(changes, &events)
      record(.assign(changes))
    }
  }

  /// A slot's content dropped: onto other slots it moves there; off every slot it is removed;
  /// back on its own slot nothing changes. One undoable step.
  mutating func finishContentDrop(_ drag: Drag, from: Int, hover: Int?, pointer: StagePoint, _ events: inout [StageEvent]) {
    let id = board.items[drag.item].id
    let targets = hover.map { [$0] } ?? landingSlots(item: drag.item, frame: draggedFrame(drag), pointer: pointer)
    if targets == [from] {
      events.append(.returned(item: id, slot: board.slots[from].id))
      sendHome(item: drag.item, ghost: drag.ghost, slot: from)
      return
    }
    if let ghost = drag.ghost { ghosts.removeAll { $0.id == ghost } }
    if targets.isEmpty {
      removeContent(of: from, &events)
      return
    }
    var changes: [SlotChange] = []
    if !targets.contains(from) { changes.append(SlotChange(slot: from, old: board.slots[from].content, new: nil)) }
    for s in targets {
      events.append(.drop(item: id, slot: board.slots[s].id))
      changes.append(SlotChange(slot: s, old: board.slots[s].content, new: id))
    }
    apply(changes, &events)
    record(.assign(changes))
    events.append(
      .said(Sentence(.moved, item: drag.item, slots: targets)))
    announceReplaced(changes.filter { $0.new != nil }, &events)
  }

  /// Empties slot `s`, undoably, and says how to get it back.
  mutating func removeContent(of s: Int, _ events: inout [StageEvent]) {
    guard let old = board.slots[s].content else {
      events.append(.said(Sentence(.nothingToRemove)))
      return
    }
    let change = SlotChange(slot: s, old: old, new: nil)
    apply([change], &events)
    record(.assign([change]))
    events.append(.said(Sentence(.removed, item: board.itemIndex(of: old) ?? -1, slot: s)))
  }

  /// Another item sitting on slot `s`, when the slot is full.
  func occupant(of s: Int, besides item: Int) -> Int? {
    guard occupancy[s] >= board.slots[s].capacity, board.items[item].slot != s else { return nil }
    return board.items.indices.first { $0 != item && board.items[$0].slot == s }
  }

  /// Puts `item` on slot `s` and `other` (which sat there) on `item`'s old slot.
  mutating func swap(_ item: Int, with other: Int, on s: Int, record shouldRecord: Bool, _ events: inout [StageEvent]) {
    let from = board.items[item].slot
    relocate(other, to: from, duration: options.snapDuration)
    relocate(item, to: s, duration: options.snapDuration)
    events.append(.displaced(item: board.items[other].id, slot: from.map { board.slots[$0].id }))
    // The slot named is where `item` now is: `s`, the one it was dropped on.
    let said =
      from.map { _ in Sentence(.swapped, item: item, slot: s, other: other) }
      ?? Sentence(.swappedNoSlot, item: item, other: other)
    events.append(.said(said))
    if shouldRecord { record(.swap(item: item, other: other, from: from, slot: s)) }
  }

  /// Moves item `i` to slot `s` (or its resting point), animating, without recording.
  mutating func relocate(_ i: Int, to s: Int?, duration: Double) {
    if let old = board.items[i].slot { occupancy[old] -= 1 }
    if let s { occupancy[s] += 1 }
    board.items[i].slot = s
    animate(item: i, to: home(of: i), duration: duration)
  }

  /// Moves item `i` onto slot `s` (or its resting point when `nil`), animating.
  mutating func moveItem(_ i: Int, to s: Int?, record shouldRecord: Bool, duration: Double) {
    let old = board.items[i].slot
    if let old { occupancy[old] -= 1 }
    if let s { occupancy[s] += 1 }
    board.items[i].slot = s
    animate(item: i, to: home(of: i), duration: duration)
    if shouldRecord && old != s { record(.move(item: i, from: old, to: s)) }
  }

  mutating func animate(item i: Int, to target: AnimationTarget, duration: Double) {
    motions.removeAll { $0.item == i }
    let d = animationDuration(duration)
    if d <= 0 {
      board.items[i].center = point(of: target, for: i)
      return
    }
    let m = Motion(from: board.items[i].center, target: target, start: now, duration: d, curve: options.curve)
    motions.append(ItemMotion(item: i, motion: m))
  }

  /// How long an animation given `duration` runs. `Engine.init` refuses bad options, but
  /// `options` stays settable: a NaN, infinite or negative time set later runs as an instant
  /// move, so an item never sits at (nan, nan) and the engine always reaches idle.
  func animationDuration(_ duration: Double) -> Double {
    if options.reducedMotion { return 0 }
    let d = options.curve.settlingDuration(default: duration)
    return d.isFinite && d > 0 ? d : 0
  }

  /// Sends an item (or its ghost) back where it came from: its own place, or the slot whose
  /// content it was dragged out of.
  mutating func sendHome(item: Int, ghost: Int?, slot: Int? = nil) {
    if let ghost, let g = ghosts.firstIndex(where: { $0.id == ghost }) {
      let d = animationDuration(options.returnDuration)
      if d <= 0 {
        ghosts.remove(at: g)
      } else {
        ghosts[g].motion = Motion(
          from: ghosts[g].center, target: slot.map { .slot($0) } ?? .item(item), start: now, duration: d,
          curve: options.curve)
      }
    } else if options.style == .moveItem {
      animate(item: item, to: home(of: item), duration: options.returnDuration)
    }
  }

  mutating func apply(_ changes: [SlotChange], _ events: inout [StageEvent]) {
    for c in changes {
      board.slots[c.slot].content = c.new
      events.append(.assign(item: c.new, slot: board.slots[c.slot].id))
    }
    if let last = changes.last {
      setStatus(Sentence(.slotStatus, item: last.new.flatMap { board.itemIndex(of: $0) } ?? -1, slot: last.slot), &events)
    }
  }

  /// Says which contents a drop replaced, so a silent overwrite can be undone on purpose.
  func announceReplaced(_ changes: [SlotChange], _ events: inout [StageEvent]) {
    for c in changes {
      guard let old = c.old, let new = c.new, old != new else { continue }
      events.append(
        .said(Sentence(.replaced, item: board.itemIndex(of: new) ?? -1, slot: c.slot, other: board.itemIndex(of: old) ?? -1)))
    }
  }

  mutating func clearContents(_ events: inout [StageEvent]) {
    var changes: [SlotChange] = []
    for (s, slot) in board.slots.enumerated() where slot.content != nil {
      changes.append(SlotChange(slot: s, old: slot.content, new: nil))
    }
    guard !changes.isEmpty else { return }
    apply(changes, &events)
    record(.assign(changes))
    events.append(.said(changes.count == 1 ? Sentence(.clearedOne) : Sentence(.cleared, count: changes.count)))
  }

  mutating func setStatus(_ said: Sentence, _ events: inout [StageEvent]) {
    guard said != statusSentence else { return }
    statusSentence = said
    events.append(.shown(said))
  }

  mutating func record(_ op: Operation) {
    history.append(op)
    undone.removeAll()
  }

  // MARK: - Layout

  /// Gives item `i` a new size and resting place (the host laid out its palette again). A
  /// settled item without a slot moves there at once; items on slots stay centred on them.
  ///
  /// - Throws: ``BoardError`` naming `item` when `i` is not an item index, or `frame` when it
  ///   is not finite or has a negative size; nothing changes then.
  public mutating func relayoutItem(_ i: Int, frame: StageRect) throws(BoardError) {
    try checkItem(i, "item")
    try BoardError.check(frame, "frame")
    board.items[i].size = frame.size
    board.items[i].restingCenter = frame.center
    let held = drags.contains { $0.item == i && $0.active && $0.ghost == nil } || motions.contains { $0.item == i }
    if board.items[i].slot == nil && !held { board.items[i].center = frame.center }
  }

  /// Item `i` rests `offset` from its slot's centre, as the host laid it out (``Item/slotOffset``):
  /// a settled item moves there at once; a snap in flight ends there.
  ///
  /// - Throws: ``BoardError`` naming `item` when `i` is not an item index, or `offset` when it
  ///   is not finite; nothing changes then.
  public mutating func setSlotOffset(_ i: Int, _ offset: Vector) throws(BoardError) {
    try checkItem(i, "item")
    guard offset.dx.isFinite, offset.dy.isFinite else { throw BoardError(.notFinite, "offset") }
    board.items[i].slotOffset = offset
    let held = drags.contains { $0.item == i && $0.active && $0.ghost == nil } || motions.contains { $0.item == i }
    if let s = board.items[i].slot, !held, keyboardDrag?.item != i {
      board.items[i].center = board.slots[s].frame.center + offset
    }
  }

  mutating func relayout(_ frames: [SlotFrame], canvas: StageSize?) {
    if let canvas { board.canvas = canvas }
    guard !frames.isEmpty else { return }
    for f in frames { board.slots[f.slot].frame = f.frame }
    index = SpatialIndex(frames: board.slots.map { $0.frame })
    // Settled items sit on their slots' new centres; animations resolve their targets live,
    // and drags keep following their pointers.
    for i in board.items.indices {
      guard let s = board.items[i].slot else { continue }
      if motions.contains(where: { $0.item == i }) { continue }
      if drags.contains(where: { $0.item == i && $0.active && $0.ghost == nil }) { continue }
      board.items[i].center = board.slots[s].frame.center + board.items[i].slotOffset
    }
    if let k = keyboardDrag, let over = k.over {
      if let g = k.ghost, let gi = ghosts.firstIndex(where: { $0.id == g }) {
        ghosts[gi].center = board.slots[over].frame.center
      } else if !motions.contains(where: { $0.item == k.item }) {
        board.items[k.item].center = board.slots[over].frame.center
      }
    }
  }
}
