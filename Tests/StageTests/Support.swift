import Stage

/// The seed-000 board: a 60 pt photo on slot "0" of three 80 pt slots in a row.
func locationsEngine(_ configure: (inout Options) -> Void = { _ in }) -> Engine {
  var options = Options.preset(.locations)
  configure(&options)
  let slots = (0..<3).map { Slot(id: String($0), frame: StageRect(x: Double(20 + 100 * $0), y: 20, width: 80, height: 80)) }
  let item = Item(id: "photo", frame: StageRect(x: 0, y: 0, width: 60, height: 60))
  let board = try! Board(canvas: StageSize(width: 320, height: 480), slots: slots, items: [item], itemSlots: ["0"])
  return try! Engine(board: board, options: options)
}

/// The seed-001 board: one source image on the left, three target slots on the right.
func shortcutsEngine(_ configure: (inout Options) -> Void = { _ in }) -> Engine {
  var options = Options.preset(.shortcuts)
  configure(&options)
  let slots = (0..<3).map { Slot(id: "t\($0)", frame: StageRect(x: 200, y: Double(20 + 100 * $0), width: 80, height: 80)) }
  let items = [
    Item(id: "mail", frame: StageRect(x: 20, y: 20, width: 80, height: 80)),
    Item(id: "maps", frame: StageRect(x: 20, y: 120, width: 80, height: 80)),
  ]
  let board = try! Board(canvas: StageSize(width: 320, height: 480), slots: slots, items: items)
  return try! Engine(board: board, options: options)
}

extension Engine {
  /// Presses at `from`, moves in `steps` to `to`, releases; returns every event.
  @discardableResult
  mutating func drag(
    from: StagePoint, to: StagePoint, pointer: Int = 0, at t: Double = 0, steps: Int = 4, release: Bool = true
  ) -> [StageEvent] {
    var events = try! handle(.pointer(.down, id: pointer, at: from), at: t)
    for k in 1...steps {
      let f = Double(k) / Double(steps)
      events += try! handle(.pointer(.move, id: pointer, at: from.interpolated(to: to, by: f)), at: t + 0.01 * Double(k))
    }
    if release { events += try! handle(.pointer(.up, id: pointer, at: to), at: t + 0.01 * Double(steps + 1)) }
    return events
  }

  mutating func settle() { advance(to: (animationsEnd ?? now) + 0.001) }
}

func P(_ x: Double, _ y: Double) -> StagePoint { StagePoint(x: x, y: y) }
