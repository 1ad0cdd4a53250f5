import Stage

/// Saved assignments: which slot each item sits on and what each slot shows. The file is
/// the runner's final `state` line (centres are ignored on load; they follow from slots).
/// A saved state is merged into the board as the page (or the scenario) now has it, so a
/// saved file survives a changed board: known items keep their saved slots, items it does not
/// name stay where the board put them, and ids the board no longer has are dropped.
public enum SavedState {
  /// Applies a saved state to `board`.
  /// - Throws: ``InputError`` naming the field when the file is not a valid state.
  public static func apply(_ bytes: [UInt8], to board: inout Board, file: String) throws(InputError) {
    let json: JSON
    do throws(JSONSyntaxError) {
      json = try JSONParser.parse(bytes)
    } catch {
      throw InputError(path: file, message: "invalid JSON: \(error.message)", line: error.line, column: error.column)
    }
    let root = JSONReader(json)
    do throws(InputError) {
      try root.object(allowed: ["type", "version", "items", "slots"])
      // "{}" is no state: it would put nothing anywhere and say nothing.
      guard root.optional("items") != nil || root.optional("slots") != nil else {
        throw InputError(path: "", message: "missing \"items\" and \"slots\": not a board state (state() writes both)")
      }
      if let type = root.optional("type"), try type.string() != "state" {
        throw type.fail("expected \"state\", found \"\(try type.string())\"")
      }
      var ignored: Set<String> = []
      var placements: [(Int, Int?)] = []
      for r in try root.optional("items")?.array() ?? [] {
        try r.object(allowed: ["id", "slot", "center"])
        // An item the page no longer has is dropped; one whose slot is gone stays where the page put it.
        guard let i = board.itemIndex(of: try r.require("id").id(numeric: &ignored)) else { continue }
        let slotID = try r.optional("slot")?.id(numeric: &ignored)
        let s = slotID.flatMap { board.slotIndex(of: $0) }
        if slotID != nil && s == nil { continue }
        placements.append((i, s))
      }
      var contents: [(Int, Int?)] = []
      for r in try root.optional("slots")?.array() ?? [] {
        try r.object(allowed: ["id", "content"])
        guard let s = board.slotIndex(of: try r.require("id").id(numeric: &ignored)) else { continue }
        let content = try r.optional("content")?.id(numeric: &ignored)
        let i = content.flatMap { board.itemIndex(of: $0) }
        if content != nil && i == nil { continue }
        contents.append((s, i))
      }
      try apply(placements: placements, contents: contents, to: &board)
    } catch {
      throw InputError(
        path: error.path.isEmpty ? file : "\(file): \(error.path)", message: error.message, line: error.line, column: error.column
      )
    }
  }

  /// Applies a state already read into indices (the web board reads the JSON in JS, and the
  /// board's wasm has no JSON reader for it): `placements`, each named item's slot (`nil`:
  /// none), merged as ``merged(_:into:)`` says; `contents`, each named slot's content.
  /// - Throws: ``InputError`` naming `items` or `slots` when an index is not the board's.
  public static func apply(placements: [(Int, Int?)], contents: [(Int, Int?)], to board: inout Board)
    throws(InputError)
  {
    // `nil` is "none"; an index is checked against its own count (a board may have none).
    func fits(_ index: Int?, _ count: Int) -> Bool { index.map { $0 >= 0 && $0 < count } ?? true }
    for (i, s) in placements {
      guard fits(i, board.items.count), fits(s, board.slots.count) else {
        throw InputError(path: "items", message: "item \(i) or slot \(s ?? -1) is not the board's")
      }
    }
    var named = [Bool](repeating: false, count: board.items.count)
    for (i, _) in placements { named[i] = true }
    for (i, s) in merged(placements, into: board) where named[i] || s != board.items[i].slot {
      do throws(BoardError) { try board.place(item: i, on: s) } catch {
        throw InputError(path: "items", message: error.description)
      }
    }
    for (s, i) in contents {
      guard fits(s, board.slots.count), fits(i, board.items.count) else {
        throw InputError(path: "slots", message: "slot \(s) or item \(i ?? -1) is not the board's")
      }
      do throws(BoardError) { try board.setContent(i.map { board.items[$0].id }, of: s) } catch {
        throw InputError(path: "slots", message: error.description)
      }
    }
  }

  /// Where each item goes: `saved` placements first, as far as each slot's capacity goes
  /// (0: no limit); then every other item where `board` has it, or, when a saved item took
  /// that place, on the nearest slot with room that accepts it (none when no slot has room).
  /// - Complexity: O(items × slots) at worst, when many items lost their place.
  static func merged(_ saved: [(Int, Int?)], into board: Board) -> [(Int, Int?)] {
    var occupancy = [Int](repeating: 0, count: board.slots.count)
    func hasRoom(_ s: Int) -> Bool { board.slots[s].capacity == 0 || occupancy[s] < board.slots[s].capacity }
    var target = board.items.map { $0.slot }
    var isSaved = [Bool](repeating: false, count: board.items.count)
    for (i, s) in saved where !isSaved[i] {
      if let s {
        guard hasRoom(s) else { continue }
        occupancy[s] += 1
      }
      target[i] = s
      isSaved[i] = true
    }
    for i in board.items.indices where !isSaved[i] {
      guard let s = target[i] else { continue }
      if hasRoom(s) {
        occupancy[s] += 1
        continue
      }
      let from = board.slots[s].frame.center
      var nearest: (slot: Int, distance: Double)?
      for t in board.slots.indices where hasRoom(t) && board.slots[t].accepts(tags: board.items[i].tags) {
        let d = (board.slots[t].frame.center - from).length
        if d < (nearest?.distance ?? .infinity) { nearest = (t, d) }
      }
      target[i] = nearest?.slot
      if let t = nearest?.slot { occupancy[t] += 1 }
    }
    return target.enumerated().map { ($0.offset, $0.element) }
  }

  /// The state file's text for `engine`'s board.
  public static func encode(_ engine: Engine, numericIDs: Set<String>) -> String {
    EventLines(numericIDs: numericIDs).state(engine) + "\n"
  }
}
