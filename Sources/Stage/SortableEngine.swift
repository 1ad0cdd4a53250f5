/// Sortable lists: the engine behind SortableJS-style reordering within and between lists.
///
/// It holds lists of items with their layout, follows a drag (by pointer or keyboard),
/// computes where the held item would land (``InsertionRule``) and how far each neighbour
/// moves aside to make room (``offsets()``), and on a drop changes the orders, undoably. A
/// value; the host measures, paints and owns the clock.
///
/// ```swift
/// let todo = SortableList(id: "todo", frame: StageRect(x: 0, y: 0, width: 100, height: 300), items: [
///   SortableItem(id: "a", frame: StageRect(x: 0, y: 0, width: 100, height: 40)),
///   SortableItem(id: "b", frame: StageRect(x: 0, y: 40, width: 100, height: 40)),
///   SortableItem(id: "c", frame: StageRect(x: 0, y: 80, width: 100, height: 40)),
/// ])
/// var engine = try SortableEngine(lists: [todo])
/// _ = try engine.pickUp(item: "a", pointer: StagePoint(x: 50, y: 20))
/// _ = try engine.move(pointer: StagePoint(x: 50, y: 100))  // over "c": "a" goes after it
/// let events = engine.drop()  // .end(a: 0 → 2), .change(["todo"])
/// // engine.order(of: 0) == ["b", "c", "a"]
/// ```
///
/// Lists are addressed by their index in ``lists`` (``ListPosition``), items by id. Adding or
/// removing a list while a drag is in flight cancels the drag.
public struct SortableEngine: Sendable {
  /// The lists, each with its items in their current order.
  public internal(set) var lists: [SortableList]
  /// The behaviour in use.
  public var options: SortOptions
  /// Items selected to move together (SortableJS's MultiDrag), in selection order.
  public internal(set) var selection: [String] = []
  /// The drag in flight, if any.
  public internal(set) var drag: SortDrag?

  var history: [SortOperation] = []
  var undone: [SortOperation] = []
  var clonesMade = 0

  /// A drag in flight.
  public struct SortDrag: Sendable {
    /// The item the pointer or the keyboard holds.
    public var item: String
    /// Every item moving (the held one and the selection), in the order they will land in.
    public var items: [String]
    /// Where the held item was when the drag began.
    public var origin: ListPosition
    /// Where the moving items would land now: `index` counts the target list's items
    /// without the moving ones, so it is the first moving item's position after a drop.
    public var target: ListPosition
    /// Whether the held item follows a pointer (`false`: the keyboard).
    public var byPointer: Bool
    /// The last pointer position, in board points.
    public var pointer: StagePoint
    /// The held item's centre minus the pointer when it was picked up.
    var grabOffset: Vector
    /// Each item's measured frame minus where its list's layout puts it, taken at pick-up:
    /// the layout's own error, which the offsets leave out.
    var correction: [String: Vector]
    /// The item the held one moved past last, and which way (1 after it, −1 before it):
    /// SortableJS's `lastTarget` and `lastDirection`.
    var lastTarget: String?
    var lastDirection = 0
    /// The target's leading edge when the pointer came over it.
    var lastTargetEdge: Double = 0
    /// How far the last target moved when the held item passed it.
    var moveDistance: Double = 0
    /// Whether the item under the pointer is judged by the inverted zones (after entering
    /// a list, or with `invertSwap` in its row), and whether the pointer went past its first
    /// inverted zone since.
    var invertsHere = false
    var pastFirstInvert = false
    /// The empty list the held item is over (closest centre).
    var overList: Int?
  }

  /// One undoable change: the orders of the lists it touched, before and after, and the
  /// copies it made (pulled clones), so a redo can bring them back.
  struct SortOperation: Sendable {
    var before: [(list: String, items: [String])]
    var after: [(list: String, items: [String])]
    var created: [SortableItem]
  }

  /// Takes `lists` and starts with nothing in flight.
  ///
  /// - Throws: ``BoardError`` for duplicate list or item ids, a frame that is not finite or
  ///   has a negative size, a grid of fewer than one column, a negative `max` or gap, or an
  ///   option out of range (``SortOptions/validate()``).
  /// - Complexity: O(items).
  public init(lists: [SortableList], options: SortOptions = SortOptions()) throws(BoardError) {
    try options.validate()
    // Dictionaries, not sets: the web module already carries [String: Int]'s code (Board's).
    var listIDs: [String: Int] = [:]
    var itemIDs: [String: Int] = [:]
    for (l, list) in lists.enumerated() {
      try Self.check(list, "lists[\(l)]")
      guard listIDs.updateValue(l, forKey: list.id) == nil else { throw BoardError(.duplicateID(list.id), "lists[\(l)].id") }
      for (i, item) in list.items.enumerated() {
        guard itemIDs.updateValue(i, forKey: item.id) == nil else {
          throw BoardError(.duplicateID(item.id), "lists[\(l)].items[\(i)].id")
        }
      }
    }
    self.lists = lists
    self.options = options
  }

  static func check(_ list: SortableList, _ path: String) throws(BoardError) {
    try BoardError.check(list.frame, "\(path).frame")
    try BoardError.check(list.content, "\(path).content")
    if let max = list.max, max < 0 { throw BoardError(.negative, "\(path).max") }
    switch list.layout {
    case .vertical(let gap), .horizontal(let gap):
      try BoardError.checkNonNegative(gap, "\(path).layout.gap")
    case .wrap(let columnGap, let rowGap):
      try BoardError.checkNonNegative(columnGap, "\(path).layout.columnGap")
      try BoardError.checkNonNegative(rowGap, "\(path).layout.rowGap")
    case .grid(let columns, let cell, let columnGap, let rowGap):
      guard columns >= 1 else { throw BoardError(.invalidValue, "\(path).layout.columns") }
      try BoardError.check(cell, "\(path).layout.cell")
      try BoardError.checkNonNegative(columnGap, "\(path).layout.columnGap")
      try BoardError.checkNonNegative(rowGap, "\(path).layout.rowGap")
    }
    for (i, item) in list.items.enumerated() { try BoardError.check(item.frame, "\(path).items[\(i)].frame") }
  }

  // MARK: - Reading

  /// The item ids of list `l`, in order.
  public func order(of l: Int) -> [String] { lists.indices.contains(l) ? lists[l].items.map { $0.id } : [] }

  /// The index in ``lists`` of the list with id `id`.
  public func listIndex(of id: String) -> Int? { lists.firstIndex { $0.id == id } }

  /// Where item `id` is.
  ///
  /// - Complexity: O(items).
  public func position(of id: String) -> ListPosition? {
    for (l, list) in lists.enumerated() {
      if let i = list.items.firstIndex(where: { $0.id == id }) { return ListPosition(list: l, index: i) }
    }
    return nil
  }

  /// What the user reads for item `id`: its name, or its id.
  public func name(ofItem id: String) -> String {
    guard let p = position(of: id) else { return id }
    return lists[p.list].items[p.index].name ?? id
  }

  /// What the user reads for list `l`: its name, or its id.
  public func name(ofList l: Int) -> String { lists.indices.contains(l) ? lists[l].name ?? lists[l].id : "" }

  /// Whether ``undo()`` would change something.
  public var canUndo: Bool { !history.isEmpty }
  /// Whether ``redo()`` would change something.
  public var canRedo: Bool { !undone.isEmpty }

  /// Whether a clone is left behind if the drag ends now (the target is another list and
  /// the held item's list pulls clones).
  public var isCloning: Bool {
    guard let d = drag else { return false }
    return cloning(d, to: d.target.list)
  }

  func cloning(_ d: SortDrag, to l: Int) -> Bool { l != d.origin.list && lists[d.origin.list].group.pull == .clone }

  /// Lists that would refuse what is held now (their `group.put`, the origin's `pull`, or
  /// `max`): a host marks them (the web board's `data-board-refuses`).
  public var refusingLists: [Int] {
    guard let d = drag else { return [] }
    return lists.indices.filter { !accepts($0, d) }
  }

  /// Whether list `l` takes the moving items of `d`.
  func accepts(_ l: Int, _ d: SortDrag) -> Bool {
    if l == d.origin.list { return true }
    let from = lists[d.origin.list].group
    guard from.pull != .refuse, lists[l].group.takes(from: from) else { return false }
    if let parent = lists[l].parentItem, d.items.contains(parent) { return false }
    if let max = lists[l].max { return others(l, d).count + d.items.count <= max }
    return true
  }

  // MARK: - Dragging

  /// Picks up item `id` (and the selection with it, when `id` is selected). `pointer` is
  /// where the pointer pressed, `nil` for the keyboard. Ends any drag in flight first.
  ///
  /// - Throws: ``BoardError`` naming `item` when no item has that id, or `pointer` when it
  ///   is not finite; nothing changes then.
  @inline(never)
  public mutating func pickUp(item id: String, pointer: StagePoint? = nil) throws(BoardError) -> [SortEvent] {
    guard let p = position(of: id) else { throw BoardError(.unknownItem(id), "item") }
    if let pointer { try BoardError.check(pointer, "pointer") }
    var events = drag == nil ? [] : cancel()
    var moving = [id]
    if selection.contains(id) {
      // The selection moves in its document order: list by list, then by position.
      moving = []
      for list in lists { for item in list.items where selection.contains(item.id) { moving.append(item.id) } }
    }
    var correction: [String: Vector] = [:]
    for l in lists.indices {
      let rest = frames(of: lists[l].items, in: l)
      for (k, item) in lists[l].items.enumerated() { correction[item.id] = item.frame.origin - rest[k].origin }
    }
    let frame = lists[p.list].items[p.index].frame
    let at = pointer ?? frame.center
    var d = SortDrag(
      item: id, items: moving, origin: p, target: p, byPointer: pointer != nil, pointer: at,
      grabOffset: frame.center - at, correction: correction)
    d.target = ListPosition(list: p.list, index: firstIndex(of: moving, in: p.list))
    drag = d
    events.append(.start(item: id, list: lists[p.list].id, index: p.index))
    return events
  }

  /// Where the first of `moving` that sits in list `l` is, counted among the others.
  func firstIndex(of moving: [String], in l: Int) -> Int {
    var k = 0
    for item in lists[l].items {
      if moving.contains(item.id) { return k }
      k += 1
    }
    return k
  }

  /// The pointer moved to `p`: the insertion point follows it by the options' rule.
  ///
  /// - Throws: ``BoardError`` naming `pointer` when `p` is not finite; nothing changes then.
  @inline(never)
  public mutating func move(pointer p: StagePoint) throws(BoardError) -> [SortEvent] {
    try BoardError.check(p, "pointer")
    guard var d = drag else { return [] }
    d.pointer = p
    let next: ListPosition
    switch options.rule {
    case .swapZones(let threshold, let inverted, let invertedThreshold):
      next = swapZoneTarget(&d, threshold: threshold, inverted: inverted, invertedThreshold: invertedThreshold)
    case .closestCenter:
      next = closestCenterTarget(&d)
    }
    drag = d
    return retarget(next)
  }

  /// Sets the insertion point, reporting `sort` when it changed.
  mutating func retarget(_ next: ListPosition) -> [SortEvent] {
    guard var d = drag, next != d.target else { return [] }
    d.target = next
    drag = d
    return [.sort(item: d.item, list: lists[next.list].id, index: next.index + (d.items.firstIndex(of: d.item) ?? 0))]
  }

  /// Ends the drag where the insertion point is: the orders change (one undoable step) and
  /// `end` reports where the held item went; `change` follows when an order really changed.
  /// `cloneID` names the copy a clone pull leaves behind (default: the item's id, `~`, a count).
  @inline(never)
  public mutating func drop(cloneID: ((String) -> String)? = nil) -> [SortEvent] {
    guard let d = drag else { return [] }
    drag = nil
    let touched = touchedLists(d)
    let before = touched.map { (list: lists[$0].id, items: order(of: $0)) }
    let cloneTo = cloning(d, to: d.target.list)
    var created: [SortableItem] = []
    var cloneOfHeld: String?
    var movingItems: [SortableItem] = []
    for id in d.items {
      guard let p = position(of: id) else { continue }
      let item = lists[p.list].items[p.index]
      movingItems.append(item)
      if cloneTo && p.list == d.origin.list {
        var copy = item
        clonesMade += 1
        copy.id = cloneID?(item.id) ?? "\(item.id)~\(clonesMade)"
        if copy.id == item.id || position(of: copy.id) != nil { copy.id = "\(item.id)~\(clonesMade)" }
        lists[p.list].items[p.index] = copy
        created.append(copy)
        if id == d.item { cloneOfHeld = copy.id }
      } else {
        lists[p.list].items.remove(at: p.index)
      }
    }
    let at = min(d.target.index, lists[d.target.list].items.count)
    lists[d.target.list].items.insert(contentsOf: movingItems, at: at)
    let after = touched.map { (list: lists[$0].id, items: order(of: $0)) }
    let newIndex = at + (d.items.firstIndex(of: d.item) ?? 0)
    let end = SortEnd(
      item: d.item, items: d.items, from: lists[d.origin.list].id, to: lists[d.target.list].id, oldIndex: d.origin.index,
      newIndex: newIndex, clone: cloneOfHeld, cancelled: false)
    var events: [SortEvent] = [.end(end)]
    let changed = zip(before, after).filter { $0.0.items != $0.1.items }.map { $0.0.list }
    if !changed.isEmpty {
      history.append(SortOperation(before: before, after: after, created: created))
      undone.removeAll()
      events.append(.change(lists: changed))
    }
    return events
  }

  /// Ends the drag with nothing moved (Escape, a cancelled pointer, lost focus).
  @inline(never)
  public mutating func cancel() -> [SortEvent] {
    guard let d = drag else { return [] }
    drag = nil
    let from = lists[d.origin.list].id
    return [
      .end(
        SortEnd(
          item: d.item, items: d.items, from: from, to: from, oldIndex: d.origin.index, newIndex: d.origin.index,
          clone: nil, cancelled: true))
    ]
  }

  /// The lists a drop of `d` changes: the moving items' lists and the target.
  func touchedLists(_ d: SortDrag) -> [Int] {
    var result: [Int] = []
    for id in d.items { if let p = position(of: id), !result.contains(p.list) { result.append(p.list) } }
    if !result.contains(d.target.list) { result.append(d.target.list) }
    return result
  }

  // MARK: - Selection

  /// Adds item `id` to the selection, or takes it out (`selected: false`).
  ///
  /// - Throws: ``BoardError`` naming `item` when no item has that id.
  public mutating func select(_ id: String, _ selected: Bool = true) throws(BoardError) {
    guard position(of: id) != nil else { throw BoardError(.unknownItem(id), "item") }
    selection.removeAll { $0 == id }
    if selected { selection.append(id) }
  }

  /// Empties the selection.
  public mutating func deselectAll() { selection.removeAll() }
}
