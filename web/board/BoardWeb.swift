import CoreMath
import Stage
import StageJSON

// The board component's module (web/board/imagestage-board.js): one Stage engine over a page's
// own elements, and nothing else (no scene layer, no renderer), so it stays small. The JS
// measures the DOM and passes boxes in page pixels; every answer says what happened
// (events by item and slot index) and where each displaced item and ghost is now.

nonisolated(unsafe) var engine: Engine?
/// Items the last answer reported away from their place in the page, so the next one can
/// say which have come to rest (and where the page should now hold them).
nonisolated(unsafe) var displaced: [Int] = []
/// The slot each held item's drag started from (item index → slot index), for `drop`'s `from`.
nonisolated(unsafe) var origins: [Int] = []

// Not inlined: each copy of a String-keyed lookup is a few hundred bytes of the module.
@inline(never) func index(item id: String?) -> Int { id.flatMap { engine?.board.itemIndex(of: $0) } ?? -1 }
@inline(never) func index(slot id: String?) -> Int { id.flatMap { engine?.board.slotIndex(of: $0) } ?? -1 }

// Answers are records of doubles in one buffer (`board_numbers`), laid out as
// imagestage-board.js's `#read` takes them. Announcements and the status are codes with
// arguments (Stage's `Sentence`): the page's table turns them into words. No text crosses per move.
nonisolated(unsafe) var numbers = UnsafeMutablePointer<Double>.allocate(capacity: 1024)
nonisolated(unsafe) var numbersCapacity = 1024
nonisolated(unsafe) var numbersCount = 0

/// Appends `value` to the answer's record, growing the buffer when it is full.
func put(_ value: Double) {
  if numbersCount == numbersCapacity {
    let grown = UnsafeMutablePointer<Double>.allocate(capacity: 2 * numbersCapacity)
    grown.update(from: numbers, count: numbersCount)
    numbers.deallocate()
    numbers = grown
    numbersCapacity *= 2
  }
  numbers[numbersCount] = value
  numbersCount += 1
}

func put(_ value: Int) { put(Double(value)) }

/// Where the last answer's record starts (it moves when the buffer grows: read it after each call).
@_cdecl("board_numbers")
public func boardNumbers() -> UnsafeMutablePointer<Double> { numbers }

/// Event codes as the page's `EVENT_TYPES` lists them.
enum EventCode: Int {
  case pickup, hover, drop, returned, redo, assign, swap, cancel, announce, status
}

/// An event for the page as four numbers: its code, then by code: item and pointer; item,
/// slot and the slot it came from; for an announcement or the status, where its sentence
/// starts in `sentences` (`putSentence`'s numbers). `redoing`: the answer to a redo, whose
/// moves are `redo`, not `return`.
@inline(never) func putEvent(_ event: StageEvent, redoing: Bool, sentences: inout [Sentence]) {
  var code = EventCode.cancel
  var a = -1, b = -1, c = -1
  switch event {
  case .pickup(let item, let pointer):
    a = index(item: item)
    if origins.indices.contains(a) { origins[a] = engine?.dragOrigin(item: a) ?? -1 }
    (code, b) = (.pickup, pointer ?? -1)
  case .hover(let item, let slot): (code, a, b) = (.hover, index(item: item), index(slot: slot))
  case .drop(let item, let slot):
    a = index(item: item)
    (code, b, c) = (.drop, index(slot: slot), origins.indices.contains(a) ? origins[a] : -1)
  case .returned(let item, let slot): (code, a, b) = (redoing ? .redo : .returned, index(item: item), index(slot: slot))
  case .assign(let item, let slot): (code, a, b) = (.assign, index(item: item), index(slot: slot))
  case .displaced(let item, let slot): (code, a, b) = (.swap, index(item: item), index(slot: slot))
  case .cancel(let item): a = index(item: item)
  case .said(let s), .shown(let s):
    if case .shown = event { code = .status } else { code = .announce }
    a = sentences.count
    sentences.append(s)
  case .announce, .status: break  // words: `handleCoded` gives none
  }
  put(code.rawValue)
  put(a)
  put(b)
  put(c)
}

/// Passes `input` to the engine. One it refuses (a NaN box, a slot index the board does not
/// have) changes nothing and answers as if nothing happened: the page's own measurements are
/// the only source, and a bad one must not stop the board.
func apply(_ input: Input, at t: Double) -> [StageEvent] {
  (try? engine!.handleCoded(input, at: t)) ?? []
}

/// What an input did, as one record (imagestage-board.js's `#read`): whether anything still
/// moves (the page keeps its animation frames going while it does), the count of each part,
/// then its events (four numbers each), the centres of items held or animating (item, x, y),
/// the ghosts (id, item, x, y), the items that came to rest (item, the slot it rests on or
/// −1), the slots highlighted, the slots that refuse what is held, and the events' sentences
/// (`putSentence`; the header's last count is their number). Returns the record's length in
/// doubles (0: no board).
func report(_ events: [StageEvent], redoing: Bool = false) -> Int32 {
  numbersCount = 0
  guard let engine else { return 0 }
  var now = engine.movingItems
  for i in engine.heldItems where !now.contains(i) { now.append(i) }
  var settled: [Int] = []
  for i in displaced where !now.contains(i) { settled.append(i) }
  displaced = now
  // Slots that would refuse what is held (their `accepts`), for the page's cue.
  var refusing: [Int] = []
  var held = engine.heldItems
  if engine.isPointerDragging || engine.keyboardHeldItem != nil {
    for g in engine.ghosts where !held.contains(g.item) { held.append(g.item) }
  }
  for (s, slot) in engine.board.slots.enumerated()
  where held.contains(where: { !slot.accepts(tags: engine.board.items[$0].tags) }) {
    refusing.append(s)
  }
  let over = engine.highlightedSlots
  put(engine.isIdle ? 0 : 1)
  var sentences: [Sentence] = []
  for e in events { if case .said(let s) = e { sentences.append(s) } else if case .shown(let s) = e { sentences.append(s) } }
  for n in [events.count, now.count, engine.ghosts.count, settled.count, over.count, refusing.count, sentences.count] {
    put(n)
  }
  sentences = []
  for e in events { putEvent(e, redoing: redoing, sentences: &sentences) }
  for i in now {
    let c = engine.board.items[i].center
    put(i)
    put(c.x)
    put(c.y)
  }
  for g in engine.ghosts {
    put(g.id)
    put(g.item)
    put(g.center.x)
    put(g.center.y)
  }
  for i in settled {
    put(i)
    put(engine.board.items[i].slot ?? -1)
  }
  for s in over { put(s) }
  for s in refusing { put(s) }
  for s in sentences { putSentence(s) }
  return Int32(numbersCount)
}

/// The options the next `board_create` or `board_set_options` applies, set one by one by
/// `board_options` and `board_option` (no JSON: board-options.js checked every one and names
/// a wrong one in the page's words).
nonisolated(unsafe) var pendingOptions = Options.preset(.locations)

/// Starts the next options from mode `mode`'s (0 locations, 1 shortcuts: `Preset.allCases`
/// order), or from the running board's (−1).
@_cdecl("board_options")
public func boardOptions(_ mode: Int32) {
  if mode < 0, let engine {
    pendingOptions = engine.options
    return
  }
  let preset: Preset = mode == 1 ? .shortcuts : .locations
  pendingOptions = .preset(preset)
  // What a page expects of a grid of big slots: a drop that looks inside one lands there.
  pendingOptions.snapInsideSlot = preset == .locations
  pendingOptions.swapOccupied = preset == .locations
}

/// Sets option `key` of the next options to `value`, keys numbered as board-options.js's
/// `ENGINE_OPTIONS` lists them (a choice is its index, a boolean 0 or 1). The engine checks
/// the numbers again (`Options.validate`); an unknown key or choice changes nothing.
@_cdecl("board_option")
public func boardOption(_ key: Int32, _ value: Double) {
  let on = value != 0
  switch key {
  case 0:
    let all = TargetStrategy.allCases
    if value >= 0, value < Double(all.count) { pendingOptions.strategy = all[Int(value)] }
  case 1: pendingOptions.snapRadius = value
  case 2: pendingOptions.snapDuration = value
  case 3: pendingOptions.returnDuration = value
  case 4: pendingOptions.swapOccupied = on
  case 5: pendingOptions.hoverHysteresis = value
  case 6: pendingOptions.snapInsideSlot = on
  case 7: pendingOptions.dropOnHoverTarget = on
  case 8: pendingOptions.reducedMotion = on
  case 9: pendingOptions.activationDistance = value
  case 10: pendingOptions.contentDraggable = on
  case 11:
    if value == 0 { pendingOptions.curve = .linear }
    if value == 1 { pendingOptions.curve = .easeInOut }
    if value == 2 { pendingOptions.curve = .spring(response: 0.35, dampingRatio: 0.8) }
  case 12: pendingOptions.grid = value > 0 ? value : nil
  default: break
  }
}

/// Starts a board from the component's description in numbers (no JSON for the boxes and
/// ids: at 1000 items, parsing their text was most of the set-up's time in the module), with
/// the options `board_options` and `board_option` set.
/// - `strings`: every id, name, tag and `accepts` entry as UTF-8, one after another;
/// - `records`: for each slot its id, name (offset and length in `strings`; length −1 for
///   none), content (an item's index, −1 none) and `accepts` (a count, −1 for every item,
///   then each entry's offset and length); then for each item its id, name, slot (its
///   index, −1 none) and tags (a count, then each one's offset and length);
/// - `frames`: four doubles (x, y, width, height) for each slot, then each item, then each
///   slot's capacity;
/// - `width`, `height`: the container's content size; `hidden`: 1 when it is hidden (a closed
///   dialog, a `display: none` tab: every box is empty until it is shown).
/// The error naming the option or element, or an empty answer.
@_cdecl("board_create")
public func boardCreate(
  _ strings: UnsafePointer<UInt8>?, _ stringsCount: Int32, _ records: UnsafePointer<Int32>?, _ recordCount: Int32,
  _ frames: UnsafePointer<Double>?, _ slotCount: Int32, _ itemCount: Int32, _ width: Double, _ height: Double,
  _ hidden: Int32
) -> Int32 {
  let engineOptions = pendingOptions
  // The page always passes `frames` (at least one double); a call without it is no page's.
  guard slotCount >= 0, itemCount >= 0, recordCount >= 0, stringsCount >= 0, let frames else {
    return answer("the board's description is malformed")
  }
  // Every read is checked against the counts the page passed: a short record or a string
  // outside `strings` is refused, never read past.
  var next = 0
  var malformed = false
  func int() -> Int {
    guard let records, next < Int(recordCount) else {
      malformed = true
      return -1
    }
    next += 1
    return Int(records[next - 1])
  }
  func string() -> String? {
    let offset = int(), length = int()
    guard length > 0 else { return length == 0 ? "" : nil }
    guard let strings, offset >= 0, offset <= Int(stringsCount) - length else {
      malformed = true
      return nil
    }
    return String(decoding: UnsafeBufferPointer(start: strings + offset, count: length), as: UTF8.self)
  }
  func list(_ count: Int) -> [String] {
    guard count > 0 else { return [] }
    guard count <= (Int(recordCount) - next) / 2 else {
      malformed = true
      return []
    }
    return (0..<count).map { _ in string() ?? "" }
  }
  func rect(_ k: Int) -> StageRect {
    StageRect(x: frames[4 * k], y: frames[4 * k + 1], width: frames[4 * k + 2], height: frames[4 * k + 3])
  }
  let isHidden = hidden != 0
  var slots: [Slot] = []
  slots.reserveCapacity(Int(slotCount))
  var contents: [Int] = []
  // The page checked every box and capacity and named a wrong one by its element
  // (imagestage-board.js's `#boxProblem`): one that gets here is no page's, refused without words.
  for s in 0..<Int(slotCount) {
    let frame = rect(s)
    guard frame.size.width >= 0, frame.size.height >= 0, isHidden || (frame.size.width > 0 && frame.size.height > 0) else {
      return answer("the board's description is malformed")
    }
    var slot = Slot(id: string() ?? "", frame: frame)
    slot.name = string()
    contents.append(int())
    let accepts = int()
    slot.accepts = accepts < 0 ? nil : list(accepts)
    let capacity = frames[4 * (Int(slotCount) + Int(itemCount)) + s]
    guard capacity.isFinite, capacity >= 1, capacity < 1e9, let whole = Int(exactly: capacity) else {
      return answer("the board's description is malformed")
    }
    slot.capacity = whole
    slots.append(slot)
  }
  var items: [Item] = []
  items.reserveCapacity(Int(itemCount))
  var itemSlots: [String?] = []
  itemSlots.reserveCapacity(Int(itemCount))
  for i in 0..<Int(itemCount) {
    let frame = rect(Int(slotCount) + i)
    guard frame.size.width >= 0, frame.size.height >= 0 else { return answer("the board's description is malformed") }
    var item = Item(id: string() ?? "", frame: frame)
    item.name = string()
    let s = int()
    itemSlots.append(slots.indices.contains(s) ? slots[s].id : nil)
    item.tags = list(int())
    items.append(item)
  }
  for (s, i) in contents.enumerated() where items.indices.contains(i) { slots[s].content = items[i].id }
  if malformed { return answer("the board's description is malformed") }
  do throws(BoardError) {
    // A hidden container has no size yet: the engine waits for the page's measurement.
    let canvas = isHidden ? StageSize(width: 1, height: 1) : StageSize(width: width, height: height)
    let board = try Board(canvas: canvas, slots: slots, items: items, itemSlots: itemSlots)
    engine = try Engine(board: board, options: engineOptions)
  } catch {
    return answer(error.description)
  }
  displaced = []
  origins = [Int](repeating: -1, count: items.count)
  return answer("")
}

/// Changes options while the board runs (reduced motion turned on): the ones `board_options(-1)`
/// and `board_option` set. The engine checks them together and keeps its options if it refuses.
@_cdecl("board_set_options")
public func boardSetOptions() -> Int32 {
  guard engine != nil else { return answer("no board") }
  do throws(BoardError) {
    try engine!.setOptions(pendingOptions)
    return answer("")
  } catch {
    return answer(error.description)
  }
}

/// A sentence as numbers: the phrase's index in `Phrase.allCases` (imagestage-board.js's
/// `PHRASES` lists them in that order), item, slot, other, count, the change's phrase index
/// (−1 none), then the count of `items` and each, the count of `slots` and each.
@inline(never) func putSentence(_ s: Sentence) {
  put(Phrase.allCases.firstIndex(of: s.phrase) ?? 0)
  put(s.item)
  put(s.slot)
  put(s.other)
  put(s.count)
  put(s.change.flatMap { Phrase.allCases.firstIndex(of: $0) } ?? -1)
  put(s.items.count)
  for i in s.items { put(i) }
  put(s.slots.count)
  for i in s.slots { put(i) }
}

/// A press on item `item` (the page hit-tested its own element; −1: a slot's content) by
/// pointer `id`. `held` 1: a touch held still for the delay, picked up at once; 0: a drag
/// only once it moves (a click is no drag).
@_cdecl("board_press")
public func boardPress(_ item: Int32, _ id: Int32, _ x: Double, _ y: Double, _ t: Double, _ held: Int32) -> Int32 {
  guard engine != nil else { return 0 }
  let pressed = item >= 0 ? Int(item) : nil
  return report(
    (try? engine!.pressCoded(item: pressed, pointer: Int(id), at: StagePoint(x: x, y: y), time: t, waitForMove: held == 0)) ?? [])
}

/// `phase`: 0 down (not on an item: a slot's content), 1 move, 2 up, 3 cancel.
@_cdecl("board_pointer")
public func boardPointer(_ phase: Int32, _ id: Int32, _ x: Double, _ y: Double, _ t: Double) -> Int32 {
  guard engine != nil else { return 0 }
  let phases: [PointerPhase] = [.down, .move, .up, .cancel]
  return report(apply(.pointer(phases[Int(min(max(phase, 0), 3))], id: Int(id), at: StagePoint(x: x, y: y)), at: t))
}

/// Keys in `Key.allCases` order: 0 Tab, 1 Space, 2 Enter, 3 Escape, 4–7 Left, Right, Up,
/// Down, 8 undo, 9 redo.
@_cdecl("board_key")
public func boardKey(_ code: Int32, _ t: Double) -> Int32 {
  guard engine != nil, code >= 0, Int(code) < Key.allCases.count else { return 0 }
  let key = Key.allCases[Int(code)]
  return report(apply(.key(key), at: t), redoing: key == .redo)
}

/// Item `item` has the page's focus (−1: none).
@_cdecl("board_focus")
public func boardFocus(_ item: Int32) {
  engine?.setFocus(item: item >= 0 ? Int(item) : nil)
}

/// Whether a keyboard drag is in flight (the page then keeps arrows and Space for it).
@_cdecl("board_keyboard_held")
public func boardKeyboardHeld() -> Int32 { Int32(engine?.keyboardHeldItem ?? -1) }

@_cdecl("board_cancel_all")
public func boardCancelAll(_ t: Double) -> Int32 {
  guard engine != nil else { return 0 }
  return report(apply(.cancelAll, at: t))
}

@_cdecl("board_advance")
public func boardAdvance(_ t: Double) -> Int32 {
  guard engine != nil else { return 0 }
  engine!.advance(to: t)
  return report([])
}

/// New boxes from the page: `slots` slot frames then `items` item frames, four doubles
/// each (x, y, width, height). An item on a slot gives where it rests in that slot's
/// element; one whose x is NaN (not in its slot's element yet) takes only the new size.
@_cdecl("board_layout")
public func boardLayout(
  _ frames: UnsafePointer<Double>?, _ slots: Int32, _ items: Int32, _ width: Double, _ height: Double, _ t: Double
) -> Int32 {
  guard engine != nil, let frames else { return 0 }
  let slotCount = min(Int(slots), engine!.board.slots.count)
  let itemCount = min(Int(items), engine!.board.items.count)
  func rect(_ k: Int) -> StageRect {
    StageRect(x: frames[4 * k], y: frames[4 * k + 1], width: max(0, frames[4 * k + 2]), height: max(0, frames[4 * k + 3]))
  }
  let slotFrames = (0..<slotCount).map { SlotFrame(slot: $0, frame: rect($0)) }
  let canvas = width > 0 && height > 0 ? StageSize(width: width, height: height) : nil
  let events = apply(.layout(slotFrames, canvas: canvas), at: t)
  for i in 0..<itemCount {
    var frame = rect(Int(slots) + i)
    if let s = engine!.board.items[i].slot {
      // It sits in its slot's element: where the page's CSS puts it there is where snaps end.
      if !frame.origin.x.isNaN { try? engine!.setSlotOffset(i, frame.center - engine!.board.slots[s].frame.center) }
      frame = StageRect(center: engine!.board.items[i].restingCenter, size: frame.size)
    } else if frame.origin.x.isNaN {
      frame = StageRect(center: engine!.board.items[i].restingCenter, size: frame.size)
    }
    try? engine!.relayoutItem(i, frame: frame)
  }
  return report(events)
}

/// Where everything rests, as a record (`board_numbers`): the number of items, each item's
/// slot (−1 none), then each slot's content (−1 none). Returns its length in doubles.
@_cdecl("board_placement")
public func boardPlacement() -> Int32 {
  numbersCount = 0
  guard let engine else { return 0 }
  put(engine.board.items.count)
  for item in engine.board.items { put(item.slot ?? -1) }
  for slot in engine.board.slots { put(index(item: slot.content)) }
  return Int32(numbersCount)
}

/// Where each item rests (on its slot, or at its own resting point; not where an animation
/// has it now, so a state taken just after a swap says where both will be), as a record
/// (`board_numbers`): x and y for each item. Returns its length in doubles. The page writes
/// the state line from it and `board_placement` (imagestage-board.js's `state()`): the wasm
/// carries no JSON writer.
@_cdecl("board_rests")
public func boardRests() -> Int32 {
  numbersCount = 0
  guard let engine else { return 0 }
  for i in engine.board.items.indices {
    let p = (try? engine.restingPoint(of: i)) ?? engine.board.items[i].center
    put(p.x)
    put(p.y)
  }
  return Int32(numbersCount)
}

/// Restores a state the page read (imagestage-board.js's `readState` names a wrong field):
/// `records` holds `placements` pairs (item index, slot index or −1), then `contents` pairs
/// (slot index, item index or −1), merged into the board as `SavedState.apply` merges them.
/// The error, or an empty answer. Undo history starts afresh; the options stay.
@_cdecl("board_restore")
public func boardRestore(_ records: UnsafePointer<Int32>?, _ placements: Int32, _ contents: Int32) -> Int32 {
  guard let current = engine else { return answer("no board") }
  // Capped so the offsets below (2 × count, on wasm32's 32-bit Int) cannot overflow, a trap;
  // the page passes one pair for each entry of a state it read.
  let most: Int32 = 1 << 24
  guard (0...most).contains(placements), (0...most).contains(contents),
    placements == 0 && contents == 0 || records != nil
  else {
    return answer("the state's numbers are malformed")
  }
  func pairs(from start: Int, count: Int) -> [(Int, Int?)] {
    (0..<count).map { k in
      let second = Int(records![start + 2 * k + 1])
      return (Int(records![start + 2 * k]), second < 0 ? nil : second)
    }
  }
  var board = current.board
  do throws(InputError) {
    try SavedState.apply(
      placements: pairs(from: 0, count: Int(placements)), contents: pairs(from: 2 * Int(placements), count: Int(contents)),
      to: &board)
  } catch {
    return answer(error.description)
  }
  guard var restored = try? Engine(board: board, options: current.options) else { return answer("options refused") }
  restored.advance(to: current.now)
  engine = restored
  return answer("")
}

/// Bits: 1 an undo would do something, 2 a redo would.
@_cdecl("board_history")
public func boardHistory() -> Int32 {
  guard let engine else { return 0 }
  return (engine.canUndo ? 1 : 0) | (engine.canRedo ? 2 : 0)
}

/// Empties slot `slot`'s content, undoably (Delete on a shortcut's copy).
@_cdecl("board_remove")
public func boardRemove(_ slot: Int32, _ t: Double) -> Int32 {
  guard engine != nil else { return 0 }
  return report(apply(.removeContent(slot: Int(slot)), at: t))
}
