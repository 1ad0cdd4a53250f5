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
  ///
  /// - Throws: ``BoardError`` when the scenario's options or an input are refused by the
  ///   engine (a scenario read by ``Scenario/decode(_:)`` never is; one built in Swift may be).
  public func run(_ emit: (String) -> Void) throws(BoardError) -> Engine {
    var engine = try Engine(board: scenario.board, options: scenario.options)
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
            engine.advance(to: ft)
            emit(lines.frame(engine, items: moving, at: ft))
            frameIndex += 1
          } else {
            // Nothing moves: skip ahead to the first frame at or after the event.
            // (Capped: a far-off event time must not trap converting to Int.)
            frameIndex = max(frameIndex + 1, Int(min((timed.t * rate).rounded(.up), 1e15)))
          }
        }
      }
      for event in try engine.handle(timed.input, at: timed.t) { emit(lines.line(event, at: timed.t)) }
    }
    if frameRate != nil {
      while engine.isAnimating {
        let ft = max(frameTime(frameIndex), engine.now)
        let moving = engine.movingItems
        engine.advance(to: ft)
        emit(lines.frame(engine, items: moving, at: ft))
        frameIndex += 1
      }
    } else if let end = engine.animationsEnd {
      engine.advance(to: end)
    }
    emit(lines.state(engine))
    return engine
  }
}

/// Formats engine events and state as JSON lines, keeping ids' JSON types.
public struct EventLines: Sendable {
  public var numericIDs: Set<String>

  public init(numericIDs: Set<String>) { self.numericIDs = numericIDs }

  /// An id as JSON: a number when the scenario wrote it as one, else a string.
  public func id(_ s: String) -> JSONValue { numericIDs.contains(s) ? .raw(s) : .string(s) }
  func id(_ s: String?) -> JSONValue { s.map { id($0) } ?? .null }

  func point(_ p: StagePoint) -> JSONValue { [.number(p.x), .number(p.y)] }

  /// One engine event as a JSON object.
  public func line(_ event: StageEvent, at t: Double) -> String { value(event, at: t).text }

  public func value(_ event: StageEvent, at t: Double) -> JSONValue {
    switch event {
    case .pickup(let item, let pointer):
      return ["type": "pickup", "t": .number(t), "item": id(item), "pointer": .number(pointer)]
    case .hover(let item, let slot): return ["type": "hover", "t": .number(t), "item": id(item), "slot": id(slot)]
    case .drop(let item, let slot): return ["type": "drop", "t": .number(t), "item": id(item), "slot": id(slot)]
    case .returned(let item, let slot): return ["type": "return", "t": .number(t), "item": id(item), "slot": id(slot)]
    case .displaced(let item, let slot): return ["type": "displace", "t": .number(t), "item": id(item), "slot": id(slot)]
    case .assign(let item, let slot): return ["type": "assign", "t": .number(t), "item": id(item), "slot": id(slot)]
    case .cancel(let item): return ["type": "cancel", "t": .number(t), "item": id(item)]
    case .announce(let text): return ["type": "announce", "t": .number(t), "text": .string(text)]
    case .status(let text): return ["type": "status", "t": .number(t), "text": .string(text)]
    // The runner reads the engine's words (`Engine.handle`): a coded sentence is none of its.
    case .said(let s): return ["type": "announce", "t": .number(t), "code": .string(s.phrase.rawValue)]
    case .shown(let s): return ["type": "status", "t": .number(t), "code": .string(s.phrase.rawValue)]
    }
  }

  /// Centres of `items` (those moving up to this frame, so arrivals show) and of ghosts.
  public func frame(_ engine: Engine, items moving: [Int], at t: Double) -> String {
    let items = moving.map { i -> JSONValue in
      ["id": id(engine.board.items[i].id), "center": point(engine.board.items[i].center)]
    }
    let ghosts = engine.ghosts.map { g -> JSONValue in ["item": id(engine.board.items[g.item].id), "center": point(g.center)] }
    let line: JSONValue = ["type": "frame", "t": .number(t), "items": .array(items), "ghosts": .array(ghosts)]
    return line.text
  }

  /// Every item's slot and centre and every slot's content.
  public func state(_ engine: Engine) -> String {
    let board = engine.board
    // Where each item rests, not where an animation has it now: a state taken right after a
    // swap says where both items will be.
    let items = board.items.indices.map { i -> JSONValue in
      let item = board.items[i]
      return [
        "id": id(item.id), "slot": id(item.slot.map { board.slots[$0].id }),
        "center": point((try? engine.restingPoint(of: i)) ?? item.center),
      ]
    }
    let slots = board.slots.map { s -> JSONValue in ["id": id(s.id), "content": id(s.content)] }
    let line: JSONValue = ["type": "state", "items": .array(items), "slots": .array(slots)]
    return line.text
  }
}
