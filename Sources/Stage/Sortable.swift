/// An item of a sortable list: what ``SortableEngine`` moves.
public struct SortableItem: Hashable, Sendable {
  /// Caller-chosen identifier, unique among every list's items.
  public var id: String
  /// The item's frame where it rests in its list, in board points (a host measures it).
  public var frame: StageRect
  /// What the user reads for this item ("Write spec"); `nil` reads its id.
  public var name: String?

  /// An item resting at `frame` (board points).
  public init(id: String, frame: StageRect, name: String? = nil) {
    self.id = id
    self.frame = frame
    self.name = name
  }
}

/// How a list places its items, so the engine can tell where each one goes when the order
/// changes. Gaps are in points between neighbouring items' frames.
public enum SortLayout: Hashable, Sendable {
  /// One column, top to bottom (a block list, `flex-direction: column`).
  case vertical(gap: Double)
  /// One row, left to right (`flex-direction: row` without wrapping).
  case horizontal(gap: Double)
  /// Rows left to right that wrap at the content box's right edge (`flex-wrap: wrap`); items
  /// may differ in size, a row is as tall as its tallest item.
  case wrap(columnGap: Double, rowGap: Double)
  /// Cells of `cell` size, `columns` to a row (CSS grid); an item sits at its cell's top-left.
  case grid(columns: Int, cell: StageSize, columnGap: Double, rowGap: Double)

  /// Whether the order reads along x first (SortableJS's `direction: 'horizontal'`).
  public var isHorizontal: Bool {
    switch self {
    case .vertical: return false
    case .horizontal, .wrap: return true
    case .grid(let columns, _, _, _): return columns > 1
    }
  }

  /// Whether the order runs in more than one row or column.
  public var isTwoDimensional: Bool {
    switch self {
    case .vertical, .horizontal: return false
    case .wrap, .grid: return true
    }
  }
}

/// What a list lets go of (SortableJS's `group.pull`).
public enum PullMode: Hashable, Sendable {
  /// Its items may move to other lists (`pull: true`, the default).
  case move
  /// Its items stay in it (`pull: false`).
  case refuse
  /// A copy moves to the other list and the original stays (`pull: 'clone'`).
  case clone
}

/// What a list takes from other lists (SortableJS's `group.put`).
public enum PutRule: Hashable, Sendable {
  /// Items from lists of the same group name (SortableJS's default when `put` is not given).
  case sameGroup
  /// Items from every list (`put: true`).
  case any
  /// No item from another list (`put: false`).
  case none
  /// Items from lists whose group name is one of these (`put: ['todo', 'doing']`).
  case groups([String])
}

/// Which lists exchange items: SortableJS's `group` option.
public struct SortGroup: Hashable, Sendable {
  /// The group's name; lists without one exchange items only through `put: .any`.
  public var name: String?
  /// What the list lets go of.
  public var pull: PullMode
  /// What the list takes.
  public var put: PutRule

  /// A group; the defaults are SortableJS's (`pull: true`, `put` the same group).
  public init(name: String? = nil, pull: PullMode = .move, put: PutRule = .sameGroup) {
    self.name = name
    self.pull = pull
    self.put = put
  }

  /// Whether this list takes an item from a list of group `from`.
  public func takes(from: SortGroup) -> Bool {
    switch put {
    case .any: return true
    case .none: return false
    case .sameGroup: return name != nil && name == from.name
    case .groups(let names): return from.name.map { names.contains($0) } ?? false
    }
  }
}

/// A list (container) of sortable items.
public struct SortableList: Hashable, Sendable {
  /// Caller-chosen identifier, unique among the lists.
  public var id: String
  /// What the user reads for this list ("Doing"), from its accessible name; `nil` reads its id.
  public var name: String?
  /// The list's box, in board points: a pointer inside it is over the list (an empty list
  /// takes a drop anywhere in it).
  public var frame: StageRect
  /// Where items are placed from: the top-left of the first one, and the right edge a
  /// wrapping row breaks at. Defaults to `frame`.
  public var content: StageRect
  /// How items follow one another.
  public var layout: SortLayout
  /// Which lists it exchanges items with.
  public var group: SortGroup
  /// The most items it takes from other lists; `nil`: no limit.
  public var max: Int?
  /// Whether its items can be reordered within it (SortableJS's `sort`).
  public var sort: Bool
  /// The item a nested list lives in: it is no target while that item is held.
  public var parentItem: String?
  /// The items in order.
  public var items: [SortableItem]

  /// A list; `content` defaults to `frame`.
  public init(
    id: String, name: String? = nil, frame: StageRect, content: StageRect? = nil, layout: SortLayout = .vertical(gap: 0),
    group: SortGroup = SortGroup(), max: Int? = nil, sort: Bool = true, parentItem: String? = nil,
    items: [SortableItem] = []
  ) {
    self.id = id
    self.name = name
    self.frame = frame
    self.content = content ?? frame
    self.layout = layout
    self.group = group
    self.max = max
    self.sort = sort
    self.parentItem = parentItem
    self.items = items
  }
}

/// How the insertion point follows the pointer.
public enum InsertionRule: Hashable, Sendable {
  /// SortableJS's rule. The pointer over an item's *swap zone* (the middle `threshold` of
  /// its length along the list) moves the held item past it; with `inverted`, the zones are
  /// the item's two ends (`invertedThreshold` of its length, half at each end) and the held
  /// item goes on the pointer's side of it. Over another list, or still over the item it
  /// just passed, the inverted zones always apply (as SortableJS does), so the item lands
  /// on the side of the midpoint the pointer is on.
  case swapZones(threshold: Double, inverted: Bool, invertedThreshold: Double)
  /// dnd-kit's `closestCenter`: the held item goes to the place of the item (in its place
  /// before the drag) whose centre is nearest the held item's centre.
  case closestCenter

  /// SortableJS's defaults: `swapThreshold: 1`, `invertSwap: false`.
  public static let sortableJS = InsertionRule.swapZones(threshold: 1, inverted: false, invertedThreshold: 1)
}

/// The behaviour of a ``SortableEngine``.
public struct SortOptions: Hashable, Sendable {
  /// How the insertion point follows the pointer.
  public var rule: InsertionRule
  /// Points the pointer must go past a boundary before the insertion point moves (a swap
  /// zone shrinks by it; a closer centre must be closer by it), so it does not flicker.
  public var hysteresis: Double
  /// Points around an empty list's box that still count as over it (SortableJS's
  /// `emptyInsertThreshold`).
  public var emptyInsertThreshold: Double

  /// Options with SortableJS's rule and defaults.
  public init(rule: InsertionRule = .sortableJS, hysteresis: Double = 2, emptyInsertThreshold: Double = 5) {
    self.rule = rule
    self.hysteresis = hysteresis
    self.emptyInsertThreshold = emptyInsertThreshold
  }

  /// Checks every number: thresholds in 0...1, distances finite and not negative.
  ///
  /// - Throws: ``BoardError`` naming the field (`options.swapThreshold`).
  public func validate() throws(BoardError) {
    try BoardError.checkNonNegative(hysteresis, "options.hysteresis")
    try BoardError.checkNonNegative(emptyInsertThreshold, "options.emptyInsertThreshold")
    if case .swapZones(let threshold, _, let inverted) = rule {
      try BoardError.checkNonNegative(threshold, "options.swapThreshold")
      try BoardError.checkNonNegative(inverted, "options.invertedSwapThreshold")
      guard threshold <= 1 else { throw BoardError(.invalidValue, "options.swapThreshold") }
      guard inverted <= 1 else { throw BoardError(.invalidValue, "options.invertedSwapThreshold") }
    }
  }
}

/// A place in a list: the list's index in ``SortableEngine/lists`` and a position in it.
public struct ListPosition: Hashable, Sendable {
  /// Index of the list in ``SortableEngine/lists``.
  public var list: Int
  /// Position in the list, from 0.
  public var index: Int

  /// Position `index` of list `list`.
  public init(list: Int, index: Int) {
    self.list = list
    self.index = index
  }
}

/// How a drag ended: SortableJS's `end` event.
public struct SortEnd: Hashable, Sendable {
  /// The item the pointer or the keyboard held.
  public var item: String
  /// Every item that moved with it (a selection), in their new order; `[item]` alone otherwise.
  public var items: [String]
  /// The list it came from.
  public var from: String
  /// The list it is in now (`from` when it went back).
  public var to: String
  /// Its position in `from` before the drag.
  public var oldIndex: Int
  /// Its position in `to` now.
  public var newIndex: Int
  /// The id of the copy left in `from` when the list pulls clones (`pull: .clone`).
  public var clone: String?
  /// Whether the drag was cancelled (Escape, a cancelled pointer): nothing moved.
  public var cancelled: Bool
}

/// What a ``SortableEngine`` reports, with the ids of its lists and items.
public enum SortEvent: Hashable, Sendable {
  /// A drag began: `item` (with the selection, if any) left `list` at `index`.
  case start(item: String, list: String, index: Int)
  /// The insertion point moved: the held item would now land at `index` of `list`.
  case sort(item: String, list: String, index: Int)
  /// The drag ended.
  case end(SortEnd)
  /// The order of these lists really changed (a drop, an undo, a redo, ``SortableEngine/sort(list:order:)``).
  case change(lists: [String])
}
