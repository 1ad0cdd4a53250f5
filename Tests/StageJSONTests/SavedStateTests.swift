import Stage
import StageJSON
import Testing

/// `SavedState.apply(placements:contents:to:)`: the web board's wasm passes it index pairs it
/// read from the page, so every index is checked against the board before it is used.
@Suite("Saved state index pairs")
struct SavedStateTests {
  static func board(items: Int, slots: Int) throws -> Board {
    let frame = StageRect(x: 0, y: 0, width: 10, height: 10)
    return try Board(
      canvas: StageSize(width: 100, height: 100),
      slots: (0..<slots).map { Slot(id: "s\($0)", frame: frame) },
      items: (0..<items).map { Item(id: "i\($0)", frame: frame) })
  }

  /// Slot 0 on a board with no slots, item 0 on a board with no items: refused naming the
  /// field, not read past the end (`nil`, "none", was checked as if it were index 0).
  @Test(
    arguments: [
      (1, 0, [(0, 0)], [], "items"),
      (0, 1, [], [(0, 0)], "slots"),
      (1, 1, [(0, -1)], [], "items"),
      (1, 1, [(Int.min, 0)], [], "items"),
      (1, 1, [], [(0, Int.max)], "slots"),
    ] as [(Int, Int, [(Int, Int?)], [(Int, Int?)], String)])
  func anIndexTheBoardLacksIsRefused(
    items: Int, slots: Int, placements: [(Int, Int?)], contents: [(Int, Int?)], field: String
  ) throws {
    var board = try Self.board(items: items, slots: slots)
    #expect {
      try SavedState.apply(placements: placements, contents: contents, to: &board)
    } throws: { error in
      (error as? InputError)?.path == field
    }
  }

  /// `nil` (none) stays allowed on a board with no slots or no items.
  @Test func noneIsAllowedWhateverTheCounts() throws {
    var board = try Self.board(items: 1, slots: 0)
    try SavedState.apply(placements: [(0, nil)], contents: [], to: &board)
    #expect(board.items[0].slot == nil)
    var empty = try Self.board(items: 0, slots: 1)
    try SavedState.apply(placements: [], contents: [(0, nil)], to: &empty)
    #expect(empty.slots[0].content == nil)
  }
}
