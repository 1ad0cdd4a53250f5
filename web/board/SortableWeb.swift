import Stage

// The board's sortable mode (web/board/board-sortable.js) over Stage's SortableEngine. It
// speaks numbers only (issue 37): items and lists are the page's indices, group names are
// numbers the page gave them, and every answer is a record of doubles in one shared buffer
// (`sortable_buffer`), laid out as `writeAnswer` says. No JSON, no text.

nonisolated(unsafe) var sorter: SortableEngine?
/// The shared buffer: the page writes a call's numbers in, the engine writes its answer.
nonisolated(unsafe) var shared = UnsafeMutablePointer<Double>.allocate(capacity: 1024)
nonisolated(unsafe) var sharedCount = 1024

/// The shared buffer's address (it moves when it grows: read it again after each call).
@_cdecl("sortable_buffer")
public func sortableBuffer() -> Int32 { Int32(Int(bitPattern: shared)) }

/// Makes room for `count` doubles (the page asks before it writes a large input). More than
/// 2²⁴ (128 MB) is refused with 0: no page has that many lists and items.
@_cdecl("sortable_reserve")
public func sortableReserve(_ count: Int32) -> Int32 {
  let n = Int(count)
  if n > 1 << 24 { return 0 }
  if n > sharedCount {
    let grown = UnsafeMutablePointer<Double>.allocate(capacity: n)
    grown.update(from: shared, count: sharedCount)
    shared.deallocate()
    shared = grown
    sharedCount = n
  }
  return sortableBuffer()
}

func id(_ n: Int) -> String { String(n) }
/// The number an id of `id(_:)`'s is, −1 for none: its digits read as bytes (`Int(String)`'s
/// parser was 1.4 KB of the module).
func number(_ id: String?) -> Double {
  guard let id, !id.isEmpty else { return -1 }
  var n = 0.0
  for b in id.utf8 {
    guard b >= 48, b <= 57 else { return -1 }
    n = 10 * n + Double(b - 48)
  }
  return n
}

/// Lists from the buffer: per list 22 numbers, then its items' frames (4 numbers each):
/// frame x y w h, content x y w h, layout (0 vertical, 1 horizontal, 2 wrap, 3 grid), gap
/// across, gap down, columns, cell w h, group (−1 none), pull (0 move, 1 refuse, 2 clone),
/// put (0 same group, 1 any, 2 none, 3 these groups), put mask (bit n: group n), max (−1
/// none), sort (0/1), parent item (−1), item count; then item numbers and frames (5 each).
@inline(never) func readLists(_ count: Int) -> [SortableList]? {
  var lists: [SortableList] = []
  var k = 0
  func next() -> Double {
    defer { k += 1 }
    return k < sharedCount ? shared[k] : .nan
  }
  func rect() -> StageRect { StageRect(x: next(), y: next(), width: next(), height: next()) }
  func int(_ d: Double) -> Int { d.isFinite && abs(d) < 1e9 ? Int(d) : -1 }
  for l in 0..<count {
    let frame = rect()
    let content = rect()
    let kind = int(next())
    let across = next()
    let down = next()
    let columns = int(next())
    let cell = StageSize(width: next(), height: next())
    let layout: SortLayout
    switch kind {
    case 1: layout = .horizontal(gap: across)
    case 2: layout = .wrap(columnGap: across, rowGap: down)
    case 3: layout = .grid(columns: columns, cell: cell, columnGap: across, rowGap: down)
    default: layout = .vertical(gap: down)
    }
    let groupNumber = int(next())
    let pull: PullMode = [.move, .refuse, .clone][min(max(int(next()), 0), 2)]
    let putKind = int(next())
    let mask = int(next())
    let put: PutRule
    switch putKind {
    case 1: put = .any
    case 2: put = .none
    case 3: put = .groups((0..<31).filter { mask & (1 << $0) != 0 }.map { id($0) })
    default: put = .sameGroup
    }
    let maxItems = int(next())
    let sortable = next() != 0
    let parent = int(next())
    let itemCount = int(next())
    guard itemCount >= 0, k + 5 * itemCount <= sharedCount else { return nil }
    var items: [SortableItem] = []
    for _ in 0..<itemCount {
      let n = int(next())
      items.append(SortableItem(id: id(n), frame: rect()))
    }
    lists.append(
      SortableList(
        id: id(l), frame: frame, content: content, layout: layout,
        group: SortGroup(name: groupNumber >= 0 ? id(groupNumber) : nil, pull: pull, put: put),
        max: maxItems >= 0 ? maxItems : nil, sort: sortable, parentItem: parent >= 0 ? id(parent) : nil, items: items))
  }
  return lists
}

/// Starts the engine: `lists` lists in the buffer (`readLists`); `rule` 0 swap zones, 1
/// closest centre. Answers 0, or 1 when the numbers do not make lists (a bad frame, a
/// threshold out of 0…1).
@_cdecl("sortable_create")
public func sortableCreate(
  _ lists: Int32, _ rule: Int32, _ threshold: Double, _ inverted: Int32, _ invertedThreshold: Double, _ hysteresis: Double,
  _ emptyInsert: Double
) -> Int32 {
  guard let read = readLists(Int(lists)) else { return 1 }
  let insertion: InsertionRule =
    rule == 1 ? .closestCenter : .swapZones(threshold: threshold, inverted: inverted != 0, invertedThreshold: invertedThreshold)
  guard
    let engine = try? SortableEngine(
      lists: read, options: SortOptions(rule: insertion, hysteresis: hysteresis, emptyInsertThreshold: emptyInsert))
  else { return 1 }
  sorter = engine
  return 0
}

/// New boxes for every list, as `sortable_create` takes them. Answers 1, changing nothing,
/// unless the lists and their items are the engine's, in its order (the page then starts
/// afresh with `sortable_create`). A drag in flight keeps going.
@_cdecl("sortable_relayout")
public func sortableRelayout(_ count: Int32) -> Int32 {
  guard sorter != nil, let read = readLists(Int(count)), read.count == sorter!.lists.count else { return 1 }
  for (l, list) in read.enumerated() where list.items.map({ $0.id }) != sorter!.order(of: l) { return 1 }
  for (l, list) in read.enumerated() {
    guard
      (try? sorter!.relayout(
        list: l, frame: list.frame, content: list.content, layout: list.layout, itemFrames: list.items.map { $0.frame })) != nil
    else { return 1 }
  }
  return 0
}

/// The answer every call leaves in the buffer: the event count, then 8 numbers an event
/// (kind 0 start, 1 sort, 2 end, 3 change, 4 cancel; item, from list, to list, old index,
/// new index, clone item, moved count); the offset count, then 3 numbers each (item, dx,
/// dy); the refusing list count and the lists; then the target list and index (−1 −1 idle).
@inline(never) func writeAnswer(_ events: [SortEvent]) -> Int32 {
  guard let engine = sorter else { return 0 }
  let offsets = engine.offsets()
  let refusing = engine.refusingLists
  let need = 4 + 8 * (events.count + engine.lists.count) + 3 * offsets.count + refusing.count + 4
  _ = sortableReserve(Int32(need))
  var k = 0
  func put(_ v: Double) {
    shared[k] = v
    k += 1
  }
  func list(_ id: String) -> Double { number(id) }
  var records: [[Double]] = []
  for event in events {
    switch event {
    case .start(let item, let l, let index):
      records.append([0, number(item), list(l), list(l), Double(index), Double(index), -1, 1])
    case .sort(let item, let l, let index):
      records.append([1, number(item), -1, list(l), -1, Double(index), -1, 1])
    case .end(let end):
      records.append([
        end.cancelled ? 4 : 2, number(end.item), list(end.from), list(end.to), Double(end.oldIndex), Double(end.newIndex),
        number(end.clone), Double(end.items.count),
      ])
    case .change(let lists):
      for l in lists { records.append([3, -1, list(l), list(l), -1, -1, -1, 0]) }
    }
  }
  put(Double(records.count))
  for r in records { for v in r { put(v) } }
  put(Double(offsets.count))
  for o in offsets {
    put(number(o.item))
    put(o.offset.dx)
    put(o.offset.dy)
  }
  put(Double(refusing.count))
  for l in refusing { put(Double(l)) }
  put(Double(engine.drag?.target.list ?? -1))
  put(Double(engine.drag?.target.index ?? -1))
  return Int32(records.count)
}

/// Picks up item `item` (the selection with it): by the pointer at (`x`, `y`), or by the
/// keyboard when `pointer` is 0.
@_cdecl("sortable_pick")
public func sortablePick(_ item: Int32, _ x: Double, _ y: Double, _ pointer: Int32) -> Int32 {
  guard sorter != nil else { return 0 }
  let at = pointer != 0 ? StagePoint(x: x, y: y) : nil
  return writeAnswer((try? sorter!.pickUp(item: id(Int(item)), pointer: at)) ?? [])
}

@_cdecl("sortable_move")
public func sortableMove(_ x: Double, _ y: Double) -> Int32 {
  guard sorter != nil else { return 0 }
  return writeAnswer((try? sorter!.move(pointer: StagePoint(x: x, y: y))) ?? [])
}

/// Drops; a clone pull leaves the copy as item number `clone`.
@_cdecl("sortable_drop")
public func sortableDrop(_ clone: Int32) -> Int32 {
  guard sorter != nil else { return 0 }
  return writeAnswer(sorter!.drop { _ in id(Int(clone)) })
}

@_cdecl("sortable_cancel")
public func sortableCancel() -> Int32 {
  guard sorter != nil else { return 0 }
  return writeAnswer(sorter!.cancel())
}

/// Arrow keys while an item is held: 0 left, 1 right, 2 up, 3 down.
@_cdecl("sortable_key")
public func sortableKey(_ code: Int32) -> Int32 {
  guard sorter != nil else { return 0 }
  let keys: [Key] = [.left, .right, .up, .down]
  return writeAnswer(sorter!.moveHeld(keys[Int(min(max(code, 0), 3))]))
}

/// The item an arrow key (as `sortable_key`) moves the focus to from `item`, or −1.
@_cdecl("sortable_neighbour")
public func sortableNeighbour(_ item: Int32, _ code: Int32) -> Int32 {
  let keys: [Key] = [.left, .right, .up, .down]
  return Int32(number(sorter?.neighbour(of: id(Int(item)), keys[Int(min(max(code, 0), 3))])))
}

/// Selects item `item` (`on` 1) or deselects it (0); −1 deselects every item.
@_cdecl("sortable_select")
public func sortableSelect(_ item: Int32, _ on: Int32) {
  if item < 0 { sorter?.deselectAll() } else { try? sorter?.select(id(Int(item)), on != 0) }
}

@_cdecl("sortable_undo")
public func sortableUndo() -> Int32 {
  guard sorter != nil else { return 0 }
  return writeAnswer(sorter!.undo())
}

@_cdecl("sortable_redo")
public func sortableRedo() -> Int32 {
  guard sorter != nil else { return 0 }
  return writeAnswer(sorter!.redo())
}

/// Bits: 1 an undo would do something, 2 a redo would.
@_cdecl("sortable_history")
public func sortableHistory() -> Int32 { (sorter?.canUndo == true ? 1 : 0) | (sorter?.canRedo == true ? 2 : 0) }

/// Writes list `list`'s item numbers in order into the buffer; answers how many.
@_cdecl("sortable_order")
public func sortableOrder(_ list: Int32) -> Int32 {
  guard let engine = sorter else { return 0 }
  let order = engine.order(of: Int(list))
  _ = sortableReserve(Int32(order.count + 1))
  for (k, item) in order.enumerated() { shared[k] = number(item) }
  return Int32(order.count)
}

/// Sets list `list`'s order from `count` item numbers in the buffer (SortableJS's `sort`).
@_cdecl("sortable_sort")
public func sortableSort(_ list: Int32, _ count: Int32) -> Int32 {
  guard sorter != nil, count >= 0, Int(count) <= sharedCount else { return 0 }
  // `Int(exactly:)` within 32 bits: a huge or fractional number is no item (Int(_:) traps).
  let order = (0..<Int(count)).map { k in id(Int32(exactly: shared[k]).map { Int($0) } ?? -1) }
  return writeAnswer((try? sorter!.sort(list: Int(list), order: order)) ?? [])
}

/// Inserts item `item` (frame x y w h) into list `list` at `index` (−1: the end); 0 or 1.
@_cdecl("sortable_insert")
public func sortableInsert(_ item: Int32, _ list: Int32, _ index: Int32, _ x: Double, _ y: Double, _ w: Double, _ h: Double)
  -> Int32
{
  guard sorter != nil else { return 1 }
  let frame = StageRect(x: x, y: y, width: w, height: h)
  let done: ()? = try? sorter!.insertItem(
    SortableItem(id: id(Int(item)), frame: frame), into: Int(list), at: index < 0 ? nil : Int(index))
  return done == nil ? 1 : 0
}

/// Removes item `item`; 0 or 1 when there is none.
@_cdecl("sortable_remove")
public func sortableRemove(_ item: Int32) -> Int32 {
  guard sorter != nil else { return 1 }
  return (try? sorter!.removeItem(id(Int(item)))) == nil ? 1 : 0
}
