import Stage

/// Exports for the Embedded Swift (wasm32) build: proves the core runs there, and is the
/// seed of a browser host. Each function runs the Locations seed's flow and reports numbers
/// the node check (`embedded/check.mjs`) compares with the native engine's answers.

/// Drags the photo from slot 0 to (`x`, `y`), releases, lets the animation finish, and
/// returns the index of the slot the photo ends on.
@_cdecl("stage_drop_slot")
public func stageDropSlot(_ x: Double, _ y: Double) -> Int32 {
  var engine = demoEngine()
  _ = try? engine.handle(.pointer(.down, id: 0, at: StagePoint(x: 60, y: 60)), at: 0)
  _ = try? engine.handle(.pointer(.move, id: 0, at: StagePoint(x: x, y: y)), at: 0.1)
  _ = try? engine.handle(.pointer(.up, id: 0, at: StagePoint(x: x, y: y)), at: 0.2)
  engine.advance(to: 1)
  return Int32(engine.board.items[0].slot ?? -1)
}

/// x of the photo's centre `t` seconds after releasing it at (150, 60): the snap animation.
@_cdecl("stage_center_x_after_release")
public func stageCenterXAfterRelease(_ t: Double) -> Double {
  var engine = demoEngine()
  _ = try? engine.handle(.pointer(.down, id: 0, at: StagePoint(x: 60, y: 60)), at: 0)
  _ = try? engine.handle(.pointer(.up, id: 0, at: StagePoint(x: 150, y: 60)), at: 0)
  engine.advance(to: t)
  return engine.board.items[0].center.x
}

func demoEngine() -> Engine {
  var slots: [Slot] = []
  for i in 0..<3 {
    slots.append(Slot(id: String(i), frame: StageRect(x: Double(20 + 100 * i), y: 20, width: 80, height: 80)))
  }
  let item = Item(id: "photo", frame: StageRect(x: 0, y: 0, width: 60, height: 60))
  guard let board = try? Board(canvas: StageSize(width: 320, height: 480), slots: slots, items: [item], itemSlots: ["0"]),
    let engine = try? Engine(board: board, options: .preset(.locations))
  else { fatalError("demo board") }
  return engine
}
