import CMacTypes
import Stage
import Testing

/// Sources/Stage/README.md's example, run: what its comments say happens, happens.
@Suite struct StageExample {
  @Test func snapsThePhotoToSlotOneAndUndoPutsItBack() throws {
    // README Sources/Stage/README.md
    let slots = (0..<3).map { Slot(id: "\($0)", frame: StageRect(x: Double($0) * 120, y: 0, width: 100, height: 100)) }
    let photo = Item(id: "photo", frame: StageRect(x: 10, y: 10, width: 80, height: 80))
    let board = try Board(canvas: StageSize(width: 400, height: 200), slots: slots, items: [photo], itemSlots: ["0"])
    var engine = try Engine(board: board, options: .preset(.locations))
    var events = try engine.handle(.pointer(.down, id: 0, at: StagePoint(x: 50, y: 50)), at: 0)
    events += try engine.handle(.pointer(.move, id: 0, at: StagePoint(x: 170, y: 55)), at: 0.1)
    events += try engine.handle(.pointer(.up, id: 0, at: StagePoint(x: 175, y: 60)), at: 0.3)
    engine.advance(to: 1)  // the 0.2 s snap has run: the photo rests on slot "1"
    // events: pickup, hover (slot "1"), drop (item "photo", slot "1"), status "location #1"

    // Undo and redo are keys, through the same call: the photo goes back to slot "0".
    let undone = try engine.handle(.key(.undo), at: 2)
    engine.advance(to: 3)
    // END README
    #expect(
      events == [
        .pickup(item: "photo", pointer: 0), .hover(item: "photo", slot: "1"), .drop(item: "photo", slot: "1"),
        .status("location #1"),
      ])
    #expect(undone.contains(.status("location #0")))
    #expect(engine.board.items[0].slot == 0)
    #expect(engine.board.items[0].center == StagePoint(x: 50, y: 50))
    #expect(engine.isIdle)
  }
}
