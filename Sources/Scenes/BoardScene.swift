import Stage

/// A photo on the Locations board: an item id, the name people read, and the image the
/// host holds for it (`ImageID.photo(id)`).
public struct Photo: Hashable, Sendable {
  public var id: String
  public var name: String
  public init(id: String, name: String) {
    self.id = id
    self.name = name
  }
}

/// A shortcut icon: id, name, tile colour and the letter drawn on it.
public struct ShortcutIcon: Hashable, Sendable {
  public var id: String
  public var name: String
  public var color: RGBA
  public var letter: String

  /// The four icons of the Shortcuts scene.
  public static let all = [
    ShortcutIcon(id: "mail", name: "Mail", color: RGBA(52, 120, 246), letter: "M"),
    ShortcutIcon(id: "camera", name: "Camera", color: RGBA(90, 90, 96), letter: "C"),
    ShortcutIcon(id: "player", name: "Player", color: RGBA(245, 64, 96), letter: "P"),
    ShortcutIcon(id: "atlas", name: "Atlas", color: RGBA(60, 170, 90), letter: "A"),
  ]
}

/// What has the keyboard focus inside a board.
public enum BoardFocus: Hashable, Sendable {
  case item(Int)
  case slot(Int)
  case clearButton
  /// The Undo and Redo buttons (on a touch screen, where there is no Ctrl+Z).
  case undoButton, redoButton
}

/// The Locations (seed 000) and Shortcuts (seed 001) boards: an engine laid out in a
/// viewport, its input, and what it draws. A value; the host owns the clock.
public struct BoardScene: Sendable {
  public let kind: SceneKind
  public internal(set) var engine: Engine
  /// The Shortcuts scene's Clear button, once laid out.
  public internal(set) var clearButton: StageRect?
  /// Undo and Redo, at the footer's right, when `touchFirst`.
  public internal(set) var undoButtons: (undo: StageRect, redo: StageRect)?
  /// The last announcement, shown under the board.
  public internal(set) var announcement: Announcement?
  /// Where the slots and items live, inside the viewport.
  public internal(set) var area = StageRect(x: 0, y: 0, width: 0, height: 0)
  var footerTop = 0.0
  var canvas = StageSize(width: 1, height: 1)
  var hoverAt: StagePoint?
  var minimumSlots: Int

  public static let footerHeight = 70.0
  /// From the hint line's top to the board's.
  static let hintGap = 22.0
  /// How wide a slot's label may be: its cell's width (set by the layout).
  var labelWidth = 0.0
  var touchFirst = false
  /// The Shortcuts dock: its slots as one sortable list (BoardScene+Dock.swift).
  var dock: SortableEngine?
  /// A press on a filled shortcut that becomes a sort once the pointer moves.
  var dockPress: (pointer: Int, slot: Int, at: StagePoint)?
  /// An icon's ghost over an insertion zone of the dock: the pointer and the slot index.
  var insertion: (pointer: Int, index: Int)?
  var pendingSort: [SortEvent] = []

  /// Locations with `photos` on the first slots of at least `slots` slots.
  public static func locations(photos: [Photo] = [Photo(id: "photo", name: "Photo")], slots: Int = 6) -> BoardScene {
    BoardScene(kind: .locations, photos: photos, slots: slots)
  }

  /// Shortcuts: the four icons and four empty shortcut slots.
  public static func shortcuts() -> BoardScene { BoardScene(kind: .shortcuts, photos: [], slots: 4) }

  init(kind: SceneKind, photos: [Photo], slots: Int) {
    precondition(kind.isBoard, "a board scene is Locations or Shortcuts")
    self.kind = kind
    minimumSlots = max(1, slots)
    engine = Self.makeEngine(kind: kind, photos: photos, slots: minimumSlots)
  }

  static func makeEngine(kind: SceneKind, photos: [Photo], slots: Int) -> Engine {
    let placeholder = StageRect(x: 0, y: 0, width: 1, height: 1)
    let board: Board
    var options: Options
    if kind == .locations {
      let slotCount = max(slots, photos.count)
      let slotList = (0..<slotCount).map { Slot(id: String($0), frame: placeholder) }
      let items = photos.map { Item(id: $0.id, frame: placeholder, name: $0.name) }
      // Ids are unique by construction (the host makes photo ids unique), so this cannot fail.
      board = try! Board(
        canvas: StageSize(width: 1, height: 1), slots: slotList, items: items, itemSlots: items.indices.map(String.init))
      options = .preset(.locations)
      options.snapInsideSlot = true
      options.swapOccupied = true
    } else {
      let slotList = (0..<slots).map { Slot(id: "slot\($0 + 1)", frame: placeholder, name: "Shortcut \($0 + 1)") }
      let items = ShortcutIcon.all.map { Item(id: $0.id, frame: placeholder, name: $0.name) }
      board = try! Board(canvas: StageSize(width: 1, height: 1), slots: slotList, items: items)
      options = .preset(.shortcuts)
      options.contentDraggable = true
    }
    options.dropOnHoverTarget = true
    return Engine(checked: board, options: options)
  }

  /// Ids printed as JSON numbers in event lines (Locations' slot ids), as in scenarios.
  public var numericIDs: Set<String> { kind == .locations ? Set(engine.board.slots.map { $0.id }) : [] }

  /// Whether swapping on an occupied slot is on (Locations; on by default).
  public var swapsOccupied: Bool {
    get { engine.options.swapOccupied }
    set { engine.updateOptions { $0.swapOccupied = newValue } }
  }

  /// Touch wording: the Clear button without its key, undo by the Undo button.
  public mutating func setTouchFirst(_ on: Bool) {
    touchFirst = on
    engine.updateOptions { $0.undoHint = on ? "Tap Undo to undo." : "Press Ctrl+Z to undo." }
    placeUndoButtons()
  }

  mutating func placeUndoButtons() {
    guard touchFirst else {
      undoButtons = nil
      return
    }
    // 44 pt tall, the touch target size; right-aligned in the footer.
    let w = 84.0, gap = 8.0
    let y = footerTop + 6
    undoButtons = (
      StageRect(x: area.maxX - 2 * w - gap, y: y, width: w, height: 44), StageRect(x: area.maxX - w, y: y, width: w, height: 44)
    )
  }

  /// The width the footer's text may use: all of it, less the Undo and Redo buttons.
  var footerTextWidth: Double { undoButtons.map { $0.undo.minX - area.minX - 12 } ?? area.size.width }

  /// Sets reduced motion (every animation instant).
  public mutating func setReducedMotion(_ on: Bool) { engine.updateOptions { $0.reducedMotion = on } }

  /// Whether nothing moves.
  public var isIdle: Bool { engine.isIdle && dock?.drag == nil && insertion == nil }

  // MARK: Photos and saved state

  /// Adds photos to Locations, each on a free slot (slots are added when none is free).
  /// Photos already on the board keep their places.
  /// `droppedAt`: where the files were dropped (viewport points); the first photo goes to
  /// the free slot there, if there is one, the others to the first free slots.
  public mutating func addPhotos(_ photos: [Photo], droppedAt: StagePoint? = nil, at t: Double) -> [StageEvent] {
    guard kind == .locations, !photos.isEmpty else { return [] }
    let old = engine.board
    var all = old.items.map { Photo(id: $0.id, name: $0.name ?? $0.id) }
    var used = Set(all.map { $0.id })
    for p in photos {
      var id = p.id
      var n = 2
      while used.contains(id) {
        id = "\(p.id)-\(n)"
        n += 1
      }
      used.insert(id)
      all.append(Photo(id: id, name: p.name))
    }
    var next = Self.makeEngine(kind: kind, photos: all, slots: max(minimumSlots, old.slots.count))
    var board = next.board
    var taken = Set(old.items.compactMap { $0.slot })
    let underDrop = droppedAt.flatMap { p in old.slots.indices.first { old.slots[$0].frame.contains(p) && !taken.contains($0) } }
    for i in board.items.indices {
      if i < old.items.count {
        board.place(checked: i, on: old.items[i].slot)
      } else {
        let free = i == old.items.count && underDrop != nil ? underDrop : board.slots.indices.first { !taken.contains($0) }
        taken.insert(free ?? -1)
        board.place(checked: i, on: free)
      }
    }
    next = Engine(checked: board, options: engine.options)
    engine = next
    let events = relayout(at: t)
    return events + [.announce("Added \(photos.count) photo\(photos.count == 1 ? "" : "s").")]
  }

  /// Replaces the board's placements and contents with `board`'s (restored from a save);
  /// `board` must come from this scene's `engine.board`.
  public mutating func restore(_ board: Board, at t: Double) {
    engine = Engine(checked: board, options: engine.options)
    relayout(at: t)
  }

  // MARK: Layout

  /// Lays the board out in `bounds` (points): the seed's `viewDidLayoutSubviews`.
  @discardableResult
  public mutating func layout(in bounds: StageRect, canvas: StageSize, at t: Double) -> [StageEvent] {
    // The hint line sits `hintGap` above the board, with room between it and the tab bar.
    area = StageRect(
      x: bounds.minX + 20, y: bounds.minY + 12 + Self.hintGap, width: max(bounds.size.width - 40, 10),
      height: max(bounds.size.height - Self.footerHeight - 20 - Self.hintGap, 10))
    footerTop = bounds.maxY - Self.footerHeight
    self.canvas = canvas
    placeUndoButtons()
    return relayout(at: t)
  }

  @discardableResult
  mutating func relayout(at t: Double) -> [StageEvent] {
    var frames: [SlotFrame] = []
    let slotCount = engine.board.slots.count, itemCount = engine.board.items.count
    switch kind {
    case .shortcuts:
      // Palette on the left third, targets in a 2×2 grid on the right, Clear below them.
      let paletteW = area.size.width / 3
      let rowH = area.size.height / Double(max(itemCount, 1))
      let iconSide = min(paletteW * 0.6, (rowH - 18) * 0.85)
      for i in 0..<itemCount {
        let c = StagePoint(x: area.minX + paletteW / 2, y: area.minY + (Double(i) + 0.5) * rowH - 8)
        engine.relayoutItem(
          checked: i, frame: StageRect(center: c, size: StageSize(width: max(iconSide, 8), height: max(iconSide, 8))))
      }
      let targetsX = area.minX + paletteW + 20, targetsW = area.size.width - paletteW - 20
      let targetsH = area.size.height - 50
      let side = max(min(targetsW / 2, targetsH / 2) * 0.7, 8)
      labelWidth = targetsW / 2 - 8
      for i in 0..<slotCount {
        let c = StagePoint(
          x: targetsX + (Double(i % 2) + 0.5) * targetsW / 2, y: area.minY + (Double(i / 2) + 0.5) * targetsH / 2 - 8)
        frames.append(SlotFrame(slot: i, frame: StageRect(center: c, size: StageSize(width: side, height: side))))
      }
      clearButton = StageRect(x: area.maxX - 150, y: area.maxY - 40, width: 150, height: 36)
      // A new layout ends a sort in flight (its frames are gone), as a resize ends a drag.
      if dock?.drag != nil { pendingSort += dock?.cancel() ?? [] }
      dockPress = nil
      dock = Self.makeDock(
        slots: frames.map { $0.frame }, ids: engine.board.slots.map { $0.id }, columns: 2,
        box: StageRect(x: targetsX, y: area.minY, width: targetsW, height: targetsH))
    default:
      // A grid as square as the area allows; slots fill 80 % of their cells. Before the
      // first layout the area is empty: 0 / 0 would make the column count NaN (a trap).
      let aspect = area.size.height > 0 && area.size.width > 0 ? area.size.width / area.size.height : 1
      let columns = max(1, min(slotCount, Int((Double(slotCount) * aspect).squareRoot().rounded())))
      let rows = (slotCount + columns - 1) / columns
      let cellW = area.size.width / Double(columns), cellH = area.size.height / Double(rows)
      let side = min(cellW, cellH - 18) * 0.8
      labelWidth = cellW - 8
      for i in 0..<slotCount {
        let c = StagePoint(
          x: area.minX + (Double(i % columns) + 0.5) * cellW, y: area.minY + (Double(i / columns) + 0.5) * cellH - 8)
        frames.append(SlotFrame(slot: i, frame: StageRect(center: c, size: StageSize(width: max(side, 4), height: max(side, 4)))))
      }
      for i in 0..<itemCount {
        engine.relayoutItem(
          checked: i, frame: StageRect(center: .zero, size: StageSize(width: max(side * 0.7, 3), height: max(side * 0.7, 3))))
      }
    }
    return handle(.layout(frames, canvas: canvas), at: t)
  }

  // MARK: Input

  /// A pointer event in viewport points.
  public mutating func pointer(_ phase: PointerPhase, id: Int, at p: StagePoint, time t: Double) -> [StageEvent] {
    if phase == .move { hoverAt = p }
    if phase == .down, let clear = clearButton, clear.contains(p) { return handle(.clearContents, at: t) }
    if phase == .down, let b = undoButtons, !engine.isPointerDragging {
      if b.undo.contains(p) { return handle(.key(.undo), at: t) }
      if b.redo.contains(p) { return handle(.key(.redo), at: t) }
    }
    if let events = dockPointer(phase, id: id, at: p, time: t) { return events }
    return handle(.pointer(phase, id: id, at: p), at: t)
  }

  /// Passes `input` to the engine, keeping the last announcement. An input the engine
  /// refuses (a NaN position from a host, an index the board does not have) is ignored:
  /// it changes nothing and reports nothing.
  public mutating func handle(_ input: Input, at t: Double) -> [StageEvent] {
    if case .cancelAll = input {
      // Focus lost: a sort in flight ends where it began, as every drag does.
      dockPress = nil
      insertion = nil
      pendingSort += dock?.cancel() ?? []
    }
    return note((try? engine.handle(input, at: t)) ?? [])
  }

  /// Runs animations up to `t`.
  public mutating func advance(to t: Double) { engine.advance(to: t) }

  /// Moves the engine's keyboard focus to item `i` (the scene's focus order chose it).
  public mutating func focusItem(_ i: Int?) { engine.setFocus(item: i) }

  /// Removes slot `s`'s content (Shortcuts), undoably: the same as dragging it out.
  public mutating func removeContent(of s: Int, at t: Double) -> [StageEvent] {
    handle(.removeContent(slot: s), at: t)
  }

  mutating func note(_ events: [StageEvent]) -> [StageEvent] {
    for e in events { if case .announce(let text) = e { announcement = Announcement(text) } }
    return events
  }

  /// Replaces the line under the board (an announcement the scene layer made itself).
  public mutating func announce(_ a: Announcement) { announcement = a }

  /// Tab order inside the board: items, then slots, then the Clear button.
  public var focusOrder: [BoardFocus] {
    // Items in reading order of where they rest (their slot), not by id: after a swap Tab
    // still goes left to right, top to bottom, as the screen shows them.
    let board = engine.board
    func rest(_ i: Int) -> StagePoint { board.items[i].slot.map { board.slots[$0].frame.center } ?? board.items[i].center }
    let items = board.items.indices.sorted {
      let a = rest($0), b = rest($1)
      return a.y != b.y ? a.y < b.y : a.x != b.x ? a.x < b.x : $0 < $1
    }
    var order = items.map(BoardFocus.item) + board.slots.indices.map(BoardFocus.slot)
    if clearButton != nil { order.append(.clearButton) }
    if undoButtons != nil { order += [.undoButton, .redoButton] }
    return order
  }

  /// Where a focus ring goes.
  public func frame(of focus: BoardFocus) -> StageRect {
    switch focus {
    case .item(let i): engine.board.items[i].frame
    case .slot(let s): engine.board.slots[s].frame
    case .clearButton: clearButton ?? .init(x: 0, y: 0, width: 0, height: 0)
    case .undoButton: undoButtons?.undo ?? .init(x: 0, y: 0, width: 0, height: 0)
    case .redoButton: undoButtons?.redo ?? .init(x: 0, y: 0, width: 0, height: 0)
    }
  }

  /// What a screen reader says when `focus` is focused.
  public func describe(_ focus: BoardFocus) -> String {
    switch focus {
    case .item(let i):
      let where_ = engine.board.items[i].slot.map { ", in \(engine.label(slot: $0))" } ?? ""
      let how = kind == .locations ? "Space picks it up" : "Space picks it up to place on a shortcut"
      return "\(engine.label(item: i))\(where_). \(how)."
    case .slot(let s):
      let slot = engine.board.slots[s]
      if kind == .shortcuts {
        guard let content = slot.content else { return "\(engine.label(slot: s)), empty." }
        let name = engine.board.itemIndex(of: content).map(engine.label(item:)) ?? content
        return "\(engine.label(slot: s)): \(name). Delete removes it."
      }
      let here = engine.board.items.indices.filter { engine.board.items[$0].slot == s }.map(engine.label(item:))
      return "\(sentenceCase(engine.label(slot: s))), \(here.isEmpty ? "empty" : "holding " + here.joined(separator: ", "))."
    case .clearButton:
      return "Clear all shortcuts, button."
    case .undoButton: return "Undo, button."
    case .redoButton: return "Redo, button."
    }
  }

  /// The cursor for a pointer resting at `p`.
  func cursor(at p: StagePoint?) -> Cursor {
    if engine.isPointerDragging || isSortingDock { return .grabbing }
    guard let p else { return .arrow }
    if let clear = clearButton, clear.contains(p) { return .pointer }
    if let b = undoButtons, b.undo.contains(p) || b.redo.contains(p) { return .pointer }
    if engine.hitTest(p) != nil { return .grab }
    if kind == .shortcuts, engine.slotWithContent(at: p) != nil { return .grab }
    return .arrow
  }
}

/// `text` with its first letter capitalised, when it is an ASCII letter (a name opening a
/// sentence). ASCII only: Embedded Swift has no Unicode case tables unless linked in.
func sentenceCase(_ text: String) -> String {
  guard let first = text.utf8.first, first >= 97, first <= 122 else { return text }
  return String(Character(Unicode.Scalar(first - 32))) + String(text.dropFirst())
}
