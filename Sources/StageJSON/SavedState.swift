import Stage

/// Saved assignments: which slot each item sits on and what each slot shows. The file is
/// the runner's final `state` line (centres are ignored on load; they follow from slots).
/// Ids the board no longer has are skipped, so a saved file survives a changed board.
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
        throw root.fail("not a board state: expected \"items\" and \"slots\", as state() writes them")
      }
      if let type = root.optional("type"), try type.string() != "state" {
        throw type.fail("expected \"state\", found \"\(try type.string())\"")
      }
      var ignored: Set<String> = []
      var placements: [(Int, Int?)] = []
      var occupancy = [Int](repeating: 0, count: board.slots.count)
      for item in board.items { if let s = item.slot { occupancy[s] += 1 } }
      for r in try root.optional("items")?.array() ?? [] {
        try r.object(allowed: ["id", "slot", "center"])
        guard let i = board.itemIndex(of: try r.require("id").id(numeric: &ignored)) else { continue }
        let slotID = try r.optional("slot")?.id(numeric: &ignored)
        let s = slotID.flatMap { board.slotIndex(of: $0) }
        if slotID != nil && s == nil { continue }
        placements.append((i, s))
      }
      // Capacity is checked on the final placement, so swapped items load fine.
      for (i, s) in placements {
        if let old = board.items[i].slot { occupancy[old] -= 1 }
        if let s { occupancy[s] += 1 }
        do throws(BoardError) { try board.place(item: i, on: s) } catch {
          throw InputError(path: "items", message: error.description)
        }
      }
      for (s, n) in occupancy.enumerated() where n > board.slots[s].capacity && board.slots[s].capacity > 0 {
        throw InputError(path: "items", message: "slot \"\(board.slots[s].id)\" would hold \(n) items, over its capacity")
      }
      for r in try root.optional("slots")?.array() ?? [] {
        try r.object(allowed: ["id", "content"])
        guard let s = board.slotIndex(of: try r.require("id").id(numeric: &ignored)) else { continue }
        let content = try r.optional("content")?.id(numeric: &ignored)
        if let content, board.itemIndex(of: content) == nil { continue }
        do throws(BoardError) { try board.setContent(content, of: s) } catch {
          throw InputError(path: "slots", message: error.description)
        }
      }
    } catch {
      throw InputError(path: "\(file): \(error.path)", message: error.message, line: error.line, column: error.column)
    }
  }

  /// The state file's text for `engine`'s board.
  public static func encode(_ engine: Engine, numericIDs: Set<String>) -> String {
    EventLines(numericIDs: numericIDs).state(engine) + "\n"
  }
}
