/// A place an item can be dropped on: the seed's location label (Locations) or a target
/// image view (Shortcuts).
public struct Slot: Hashable, Sendable {
  /// Caller-chosen identifier, unique on the board; shown in status text (`location #<id>`).
  public var id: String
  /// Frame in board points.
  public var frame: StageRect
  /// The item id whose image this slot shows (Shortcuts); `nil` when empty.
  public var content: String?
  /// Tags an item must carry (any one of them) to be dropped here; `nil` accepts every item.
  public var accepts: [String]?
  /// How many items may sit on the slot at once (Locations). Shortcuts ignore it: a drop
  /// replaces the content.
  public var capacity: Int
  /// What the user reads for this slot ("Shortcut 2"); `nil` reads `location #<id>`, as the
  /// seed's label.
  public var name: String?

  /// A slot at `frame` (board points); `capacity` defaults to one item, `accepts` to every item.
  public init(
    id: String, frame: StageRect, content: String? = nil, accepts: [String]? = nil, capacity: Int = 1, name: String? = nil
  ) {
    self.id = id
    self.name = name
    self.frame = frame
    self.content = content
    self.accepts = accepts
    self.capacity = capacity
  }

  /// Whether an item with `tags` may be dropped here.
  @inlinable public func accepts(tags: [String]) -> Bool {
    guard let accepts else { return true }
    for tag in tags where accepts.contains(tag) { return true }
    return false
  }
}

/// A draggable image.
public struct Item: Hashable, Sendable {
  /// Caller-chosen identifier, unique among the board's items; ``Slot/content`` names items by it.
  public var id: String
  /// Size of the image in points; the engine moves its centre.
  public var size: StageSize
  /// Where the item is drawn now (its centre), updated by every event and clock step.
  public var center: StagePoint
  /// Index in `Board.slots` of the slot the item belongs to (Locations), or `nil`.
  public var slot: Int?
  /// Where the item rests when it has no slot: its centre as first placed.
  public var restingCenter: StagePoint
  /// Tags matched against `Slot.accepts`.
  public var tags: [String]
  /// What the user reads for this item ("Mail"); `nil` reads its id.
  public var name: String?
  /// Where the item's centre rests from its slot's centre: zero unless the host's layout
  /// does not centre it (a web page's CSS may put it in a corner). Snaps end there.
  public var slotOffset = Vector(dx: 0, dy: 0)

  /// An item drawn in `frame` (board points): its size is the frame's, and its centre, as placed and at rest, the frame's centre.
  public init(id: String, frame: StageRect, tags: [String] = [], name: String? = nil) {
    self.id = id
    self.name = name
    self.size = frame.size
    self.center = frame.center
    self.restingCenter = frame.center
    self.slot = nil
    self.tags = tags
  }

  /// The frame the item is drawn in.
  @inlinable public var frame: StageRect { StageRect(center: center, size: size) }
}

/// The static part of a scene: slots, items and the canvas they live on.
///
/// Build one, then hand it to ``Engine``, which owns it from then on. Ids are resolved to
/// indices once here, so the engine's hot paths never hash strings.
public struct Board: Sendable {
  /// The area slots and items live on, in points; `Options.restrictToCanvas` keeps drags inside it.
  public var canvas: StageSize
  /// The slots, in the order given; an engine and its events refer to them by index here.
  public internal(set) var slots: [Slot]
  /// The items, in the order given; an engine and its events refer to them by index here.
  public internal(set) var items: [Item]
  /// Item indices from bottom to top; the last is drawn last and wins a hit.
  public internal(set) var zOrder: [Int]
  @usableFromInline var slotIndex: [String: Int]
  @usableFromInline var itemIndex: [String: Int]

  /// Creates a board.
  ///
  /// `itemSlots`, when not empty, names the slot each item starts on (`nil`: its own place),
  /// one entry per item.
  ///
  /// - Throws: ``BoardError`` for duplicate ids, a coordinate or size that is not a finite
  ///   number, negative sizes, an `itemSlots` whose count is not the items', or an item
  ///   naming a slot that does not exist.
  /// - Complexity: O(slots + items).
  public init(canvas: StageSize, slots: [Slot], items: [Item], itemSlots: [String?] = []) throws(BoardError) {
    guard itemSlots.isEmpty || itemSlots.count == items.count else {
      throw BoardError(.countMismatch(itemSlots.count, expected: items.count), "itemSlots")
    }
    try BoardError.check(canvas, "canvas")
    self.canvas = canvas
    self.slots = slots
    self.items = items
    self.zOrder = Array(items.indices)
    var slotIndex: [String: Int] = [:]
    slotIndex.reserveCapacity(slots.count)
    for (i, slot) in slots.enumerated() {
      try BoardError.check(slot.frame, "slots[\(i)].frame")
      guard slot.capacity >= 0 else { throw BoardError(.invalidValue, "slots[\(i)].capacity") }
      guard slotIndex.updateValue(i, forKey: slot.id) == nil else {
        throw BoardError(.duplicateID(slot.id), "slots[\(i)].id")
      }
    }
    var itemIndex: [String: Int] = [:]
    for (i, item) in items.enumerated() {
      try BoardError.check(item.frame, "items[\(i)].frame")
      try BoardError.check(item.restingCenter, "items[\(i)].restingCenter")
      guard itemIndex.updateValue(i, forKey: item.id) == nil else {
        throw BoardError(.duplicateID(item.id), "items[\(i)].id")
      }
    }
    self.slotIndex = slotIndex
    self.itemIndex = itemIndex
    for (i, name) in itemSlots.enumerated() {
      guard let name else { continue }
      guard let s = slotIndex[name] else { throw BoardError(.unknownSlot(name), "items[\(i)].slot") }
      self.items[i].slot = s
      self.items[i].center = slots[s].frame.center
    }
    for (i, slot) in slots.enumerated() {
      if let content = slot.content, itemIndex[content] == nil {
        throw BoardError(.unknownItem(content), "slots[\(i)].content")
      }
    }
  }

  /// Index of the slot with `id`, if any.
  @inlinable public func slotIndex(of id: String) -> Int? { slotIndex[id] }
  /// Index of the item with `id`, if any.
  @inlinable public func itemIndex(of id: String) -> Int? { itemIndex[id] }

  /// Puts item `item` on slot `slot` (or its resting point when `nil`), without animation:
  /// for restoring saved state before an engine takes the board.
  ///
  /// - Throws: ``BoardError/Kind/indexOutOfRange(_:count:)`` naming `item` or `slot` when an
  ///   index is not on the board; the board is unchanged.
  public mutating func place(item: Int, on slot: Int?) throws(BoardError) {
    try BoardError.checkIndex(item, items.count, "item")
    if let slot { try BoardError.checkIndex(slot, slots.count, "slot") }
    items[item].slot = slot
    items[item].center = slot.map { slots[$0].frame.center } ?? items[item].restingCenter
  }

  /// Sets the content of slot `slot` to the item id `content` (Shortcuts).
  ///
  /// - Throws: ``BoardError`` naming `slot` when it is not on the board, or `content` when
  ///   no item has that id; the board is unchanged.
  public mutating func setContent(_ content: String?, of slot: Int) throws(BoardError) {
    try BoardError.checkIndex(slot, slots.count, "slot")
    if let content, itemIndex[content] == nil { throw BoardError(.unknownItem(content), "content") }
    slots[slot].content = content
  }
}

/// Why a board could not be built, or why the engine refused an option or an input: what is
/// wrong, and where (`slots[3].frame`, `options.snapDuration`, `layout[0].slot`).
public struct BoardError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong with the value at ``path``.
  public enum Kind: Equatable, Sendable {
    /// A width or height is below zero.
    case negativeSize
    /// Two slots, or two items, share this id.
    case duplicateID(String)
    /// No slot has this id.
    case unknownSlot(String)
    /// No item has this id.
    case unknownItem(String)
    /// No list has this id (``SortableEngine``).
    case unknownList(String)
    /// A value outside what the field allows.
    case invalidValue
    /// A number is NaN or infinite where only a finite one means anything.
    case notFinite
    /// A duration or distance is below zero.
    case negative
    /// An index is not below `count` (or is below zero).
    case indexOutOfRange(Int, count: Int)
    /// A list has `Int` entries where `expected` were needed (one per item).
    case countMismatch(Int, expected: Int)
  }
  /// What is wrong.
  public var kind: Kind
  /// Path of the offending field, as in the scenario JSON.
  public var path: String

  /// An error of `kind` at `path` (a field path such as `slots[3].frame`).
  public init(_ kind: Kind, _ path: String) {
    self.kind = kind
    self.path = path
  }

  /// One line naming the field and what is wrong: `slots[3].frame: width and height must not be negative`.
  public var description: String {
    switch kind {
    case .negativeSize: return "\(path): width and height must not be negative"
    case .duplicateID(let id): return "\(path): duplicate id \"\(id)\""
    case .unknownSlot(let id): return "\(path): no slot has id \"\(id)\""
    case .unknownItem(let id): return "\(path): no item has id \"\(id)\""
    case .unknownList(let id): return "\(path): no list has id \"\(id)\""
    case .invalidValue: return "\(path): invalid value"
    case .notFinite: return "\(path): must be a finite number"
    case .negative: return "\(path): must not be negative"
    case .indexOutOfRange(let i, let count):
      return count == 0 ? "\(path): \(i) is out of range (there are none)" : "\(path): \(i) is out of range 0..<\(count)"
    case .countMismatch(let n, let expected): return "\(path): \(n) entries where \(expected) were expected (one per item)"
    }
  }

  /// Throws `.notFinite` unless both coordinates are finite numbers.
  static func check(_ p: StagePoint, _ path: String) throws(BoardError) {
    guard p.x.isFinite, p.y.isFinite else { throw BoardError(.notFinite, path) }
  }

  /// Throws `.notFinite`, then `.negativeSize`: a NaN width is not "negative".
  static func check(_ s: StageSize, _ path: String) throws(BoardError) {
    guard s.width.isFinite, s.height.isFinite else { throw BoardError(.notFinite, path) }
    guard s.width >= 0, s.height >= 0 else { throw BoardError(.negativeSize, path) }
  }

  static func check(_ r: StageRect, _ path: String) throws(BoardError) {
    try check(r.origin, path)
    try check(r.size, path)
  }

  /// Throws `.notFinite` or `.negative` unless `value` is a finite number ≥ 0.
  static func checkNonNegative(_ value: Double, _ path: String) throws(BoardError) {
    guard value.isFinite else { throw BoardError(.notFinite, path) }
    guard value >= 0 else { throw BoardError(.negative, path) }
  }

  static func checkIndex(_ i: Int, _ count: Int, _ path: String) throws(BoardError) {
    guard i >= 0, i < count else { throw BoardError(.indexOutOfRange(i, count: count), path) }
  }
}
