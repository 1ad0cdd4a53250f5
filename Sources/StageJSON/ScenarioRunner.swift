import Stage

/// Runs a scenario through the engine, writing one JSON line per engine event, optional
/// `frame` lines, and a final `state` line (format in `docs/scenario.md`).
public struct ScenarioRunner {
  public var scenario: Scenario
  /// When set, a `frame` line at this rate (Hz) while anything moves.
  public var frameRate: Double?

  public init(scenario: Scenario, frameRate: Double? = nil) {
    self.scenario = scenario
    self.frameRate = frameRate
  }

  /// Runs to the end, calling `emit` with each output line (no newline), and returns the
  /// engine in its final, idle state.
  public func run(_ emit: (String) -> Void) -> Engine {
    var engine = Engine(board: scenario.board, options: scenario.options)
    let lines = EventLines(numericIDs: scenario.numericIDs)
    if !engine.status.isEmpty { emit(lines.line(.status(engine.status), at: 0)) }

    var frameIndex = 0
    func frameTime(_ k: Int) -> Double { Double(k) / (frameRate ?? 1) }
    func isMoving(_ e: Engine) -> Bool { e.isAnimating || !e.movingItems.isEmpty || !e.ghosts.isEmpty }

    for timed in scenario.events {
      if let rate = frameRate {
        while frameTime(frameIndex) < timed.t {
          let ft = frameTime(frameIndex)
          if isMoving(engine) {
            let moving = engine.movingItems
            _ = engine.advance(to: ft)
            emit(lines.frame(engine, items: moving, at: ft))
            frameIndex += 1
          } else {
            // Nothing moves: skip ahead to the first frame at or after the event.
            // (Capped: a far-off event time must not trap converting to Int.)
            frameIndex = max(frameIndex + 1, Int(min((timed.t * rate).rounded(.up), 1e15)))
          }
        }
      }
      for event in engine.handle(timed.input, at: timed.t) { emit(lines.line(event, at: timed.t)) }
    }
    if frameRate != nil {
      while engine.isAnimating {
        let ft = max(frameTime(frameIndex), engine.now)
        let moving = engine.movingItems
        _ = engine.advance(to: ft)
        emit(lines.frame(engine, items: moving, at: ft))
        frameIndex += 1
      }
    } else if let end = engine.animationsEnd {
      _ = engine.advance(to: end)
    }
    emit(lines.state(engine))
    return engine
  }
}

/// Formats engine events and state as JSON lines, keeping ids' JSON types.
public struct EventLines: Sendable {
  public var numericIDs: Set<String>

  public init(numericIDs: Set<String>) { self.numericIDs = numericIDs }

  public func id(_ s: String) -> String { numericIDs.contains(s) ? s : JSONText.quoted(s) }

  func point(_ p: Point) -> String { "[\(JSONText.number(p.x)),\(JSONText.number(p.y))]" }

  /// One engine event as a JSON object.
  public func line(_ event: StageEvent, at t: Double) -> String {
    let time = "\"t\":\(JSONText.number(t))"
    switch event {
    case .pickup(let item, let pointer):
      let p = pointer.map { ",\"pointer\":\($0)" } ?? ",\"pointer\":null"
      return "{\"type\":\"pickup\",\(time),\"item\":\(id(item))\(p)}"
    case .hover(let item, let slot):
      return "{\"type\":\"hover\",\(time),\"item\":\(id(item)),\"slot\":\(slot.map(id) ?? "null")}"
    case .drop(let item, let slot):
      return "{\"type\":\"drop\",\(time),\"item\":\(id(item)),\"slot\":\(id(slot))}"
    case .returned(let item, let slot):
      return "{\"type\":\"return\",\(time),\"item\":\(id(item)),\"slot\":\(slot.map(id) ?? "null")}"
    case .displaced(let item, let slot):
      return "{\"type\":\"displace\",\(time),\"item\":\(id(item)),\"slot\":\(slot.map(id) ?? "null")}"
    case .assign(let item, let slot):
      return "{\"type\":\"assign\",\(time),\"item\":\(item.map(id) ?? "null"),\"slot\":\(id(slot))}"
    case .cancel(let item):
      return "{\"type\":\"cancel\",\(time),\"item\":\(id(item))}"
    case .announce(let text):
      return "{\"type\":\"announce\",\(time),\"text\":\(JSONText.quoted(text))}"
    case .status(let text):
      return "{\"type\":\"status\",\(time),\"text\":\(JSONText.quoted(text))}"
    }
  }

  /// Centres of `items` (those moving up to this frame, so arrivals show) and of ghosts.
  public func frame(_ engine: Engine, items moving: [Int], at t: Double) -> String {
    let items = moving.map { i in
      "{\"id\":\(id(engine.board.items[i].id)),\"center\":\(point(engine.board.items[i].center))}"
    }
    let ghosts = engine.ghosts.map { g in
      "{\"item\":\(id(engine.board.items[g.item].id)),\"center\":\(point(g.center))}"
    }
    return
      "{\"type\":\"frame\",\"t\":\(JSONText.number(t)),\"items\":[\(items.joined(separator: ","))],\"ghosts\":[\(ghosts.joined(separator: ","))]}"
  }

  /// Every item's slot and centre and every slot's content.
  public func state(_ engine: Engine) -> String {
    let board = engine.board
    let items = board.items.map { item in
      let slot = item.slot.map { id(board.slots[$0].id) } ?? "null"
      return "{\"id\":\(id(item.id)),\"slot\":\(slot),\"center\":\(point(item.center))}"
    }
    let slots = board.slots.map { s in
      "{\"id\":\(id(s.id)),\"content\":\(s.content.map(id) ?? "null")}"
    }
    return "{\"type\":\"state\",\"items\":[\(items.joined(separator: ","))],\"slots\":[\(slots.joined(separator: ","))]}"
  }
}
