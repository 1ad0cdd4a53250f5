import Stage

/// A scripted session: a board, options, and timed inputs. The format is documented in
/// `docs/scenario.md`.
public struct Scenario: Sendable {
  public var preset: Preset
  public var board: Board
  public var options: Options
  public var events: [TimedInput]
  /// Ids given as JSON integers, printed back as integers.
  public var numericIDs: Set<String>

  /// One input at a time, in seconds.
  public struct TimedInput: Sendable {
    public var t: Double
    public var input: Input
  }

  /// Decodes and validates a scenario document. Everything is checked here, so a run that
  /// starts never fails half way.
  public static func decode(_ bytes: [UInt8]) throws(InputError) -> Scenario {
    let json: JSON
    do {
      json = try JSONParser.parse(bytes)
    } catch {
      throw InputError(path: "", message: "invalid JSON: \(error.message)", line: error.line, column: error.column)
    }
    return try decode(JSONReader(json))
  }

  static func decode(_ root: JSONReader) throws(InputError) -> Scenario {
    try root.object(allowed: ["preset", "canvas", "slots", "items", "options", "events"])
    let preset = try root.require("preset").oneOf(Preset.allCases.map { ($0.rawValue, $0) })
    let canvas = try root.require("canvas").size()
    var numeric: Set<String> = []

    var slots: [Slot] = []
    for s in try root.require("slots").array() {
      try s.object(allowed: ["id", "frame", "content", "accepts", "capacity"])
      var slot = Slot(id: try s.require("id").id(numeric: &numeric), frame: try s.require("frame").rect())
      slot.content = try s.optional("content")?.id(numeric: &numeric)
      slot.accepts = try s.optional("accepts")?.strings()
      if let c = s.optional("capacity") {
        slot.capacity = try c.int()
        guard slot.capacity >= 0 else { throw c.fail("must not be negative") }
      }
      slots.append(slot)
    }
    var items: [Item] = []
    var itemSlots: [String?] = []
    var itemReaders: [JSONReader] = []
    for r in try root.require("items").array() {
      try r.object(allowed: ["id", "frame", "slot", "tags"])
      var item = Item(id: try r.require("id").id(numeric: &numeric), frame: try r.require("frame").rect())
      item.tags = try r.optional("tags")?.strings() ?? []
      items.append(item)
      itemSlots.append(try r.optional("slot")?.id(numeric: &numeric))
      itemReaders.append(r)
    }
    let board: Board
    do {
      board = try Board(canvas: canvas, slots: slots, items: items, itemSlots: itemSlots)
    } catch {
      throw InputError(path: error.path, message: error.description.dropPrefix(error.path + ": "))
    }
    // Capacity counts items placed at the start too.
    var placed = [Int](repeating: 0, count: slots.count)
    for (n, name) in itemSlots.enumerated() {
      guard let name, let s = board.slotIndex(of: name) else { continue }
      placed[s] += 1
      if placed[s] > slots[s].capacity, preset == .locations {
        throw try itemReaders[n].require("slot").fail("slot \"\(name)\" is over its capacity of \(slots[s].capacity)")
      }
    }

    var options = Options.preset(preset)
    if let o = root.optional("options") { try decodeOptions(o, into: &options) }

    var events: [TimedInput] = []
    var lastT = -Double.infinity
    for e in try root.optional("events")?.array() ?? [] {
      let timed = try decodeEvent(e, board: board, numeric: &numeric)
      guard timed.t >= lastT else {
        throw try e.require("t").fail("events must be in time order (\(JSONText.number(timed.t)) < \(JSONText.number(lastT)))")
      }
      lastT = timed.t
      events.append(timed)
    }
    return Scenario(preset: preset, board: board, options: options, events: events, numericIDs: numeric)
  }

  static func decodeOptions(_ o: JSONReader, into options: inout Options) throws(InputError) {
    try o.object(allowed: [
      "strategy", "snapRadius", "snapDuration", "returnDuration", "curve", "springResponse",
      "springDamping", "activationDistance", "grid", "restrictToCanvas", "axisLock", "reducedMotion",
      "hoverHysteresis",
    ])
    if let s = o.optional("strategy") { options.strategy = try s.oneOf(TargetStrategy.allCases.map { ($0.rawValue, $0) }) }
    if let r = o.optional("snapRadius") { options.snapRadius = try r.nonNegative() }
    if let r = o.optional("snapDuration") { options.snapDuration = try r.nonNegative() }
    if let r = o.optional("returnDuration") { options.returnDuration = try r.nonNegative() }
    if let r = o.optional("activationDistance") { options.activationDistance = try r.nonNegative() }
    if let r = o.optional("hoverHysteresis") { options.hoverHysteresis = try r.nonNegative() }
    if let r = o.optional("grid") {
      let g = try r.nonNegative()
      options.grid = g > 0 ? g : nil
    }
    if let r = o.optional("restrictToCanvas") { options.restrictToCanvas = try r.bool() }
    if let r = o.optional("reducedMotion") { options.reducedMotion = try r.bool() }
    if let r = o.optional("axisLock") {
      options.axisLock = try r.oneOf([("horizontal", Axis.horizontal), ("vertical", .vertical)])
    }
    if let c = o.optional("curve") {
      let name = try c.oneOf([("linear", 0), ("ease-in-out", 1), ("spring", 2)])
      switch name {
      case 0: options.curve = .linear
      case 1: options.curve = .easeInOut
      default:
        let response = try o.optional("springResponse")?.nonNegative() ?? 0.35
        let damping = try o.optional("springDamping")?.nonNegative() ?? 0.8
        options.curve = .spring(response: max(response, 0.01), dampingRatio: damping)
      }
    }
  }

  static func decodeEvent(_ e: JSONReader, board: Board, numeric: inout Set<String>) throws(InputError) -> TimedInput {
    try e.object(allowed: ["t", "type", "pointer", "x", "y", "slots", "canvas", "key"])
    let t = try ScenarioEvents.time(e)
    let type = try e.require("type").oneOf([
      ("down", 0), ("move", 1), ("up", 2), ("cancel", 3), ("layout", 4), ("key", 5), ("blur", 6), ("clear", 7),
    ])
    if type <= 3 {
      let (phase, id, at) = try ScenarioEvents.pointer(phase: type, e)
      return TimedInput(t: t, input: .pointer(phase, id: id, at: at))
    }
    switch type {
    case 4:
      var frames: [SlotFrame] = []
      for s in try e.require("slots").array() {
        try s.object(allowed: ["id", "frame"])
        let idReader = try s.require("id")
        let id = try idReader.id(numeric: &numeric)
        guard let index = board.slotIndex(of: id) else { throw idReader.fail("no slot has id \"\(id)\"") }
        frames.append(SlotFrame(slot: index, frame: try s.require("frame").rect()))
      }
      return TimedInput(t: t, input: .layout(frames, canvas: try e.optional("canvas")?.size()))
    case 5:
      let key = try e.require("key").oneOf(Key.allCases.map { ($0.rawValue, $0) })
      return TimedInput(t: t, input: .key(key))
    case 6: return TimedInput(t: t, input: .cancelAll)
    default: return TimedInput(t: t, input: .clearContents)
    }
  }
}

extension String {
  func dropPrefix(_ prefix: String) -> String {
    hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
  }
}

/// What the board's and the sortable scenarios' events share: the time, and the pointer's
/// four phases.
enum ScenarioEvents {
  /// The event's `t`, in seconds, never negative.
  static func time(_ e: JSONReader) throws(InputError) -> Double {
    let reader = try e.require("t")
    let t = try reader.double()
    guard t >= 0 else { throw reader.fail("time must not be negative") }
    return t
  }

  /// Pointer `pointer` (0 when absent) going down, moving or up at `x`, `y` (`phase` 0, 1,
  /// 2), or cancelled (3, no position).
  static func pointer(phase: Int, _ e: JSONReader) throws(InputError) -> (PointerPhase, id: Int, at: StagePoint) {
    let pointer = try e.optional("pointer")?.int() ?? 0
    func location() throws(InputError) -> StagePoint {
      StagePoint(x: try e.require("x").double(), y: try e.require("y").double())
    }
    switch phase {
    case 0: return (.down, pointer, try location())
    case 1: return (.move, pointer, try location())
    case 2: return (.up, pointer, try location())
    default: return (.cancel, pointer, .zero)
    }
  }
}
