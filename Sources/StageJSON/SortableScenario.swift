import Stage

/// A scripted session of sortable lists (`"preset": "sortable"`): lists of items, the
/// insertion rule, and timed pointer input, replayed through ``SortableEngine``. The format
/// is documented in `docs/scenario.md`.
public struct SortableScenario: Sendable {
  public var lists: [SortableList]
  public var options: SortOptions
  public var events: [TimedInput]
  /// Ids given as JSON integers, printed back as integers.
  public var numericIDs: Set<String>

  /// One input: a pointer phase at a point, or a key (`escape`, `undo`, `redo`).
  public enum Input: Sendable, Equatable {
    case pointer(PointerPhase, id: Int, at: StagePoint)
    case key(Key)
    case blur
  }

  public struct TimedInput: Sendable {
    public var t: Double
    public var input: Input
  }

  /// Decodes `bytes` when it is a sortable scenario (its `preset` is `"sortable"`); `nil`
  /// for any other document, which ``Scenario/decode(_:)`` reads (and reports errors in).
  public static func decodeIfSortable(_ bytes: [UInt8]) throws(InputError) -> SortableScenario? {
    guard let json = try? JSONParser.parse(bytes) else { return nil }
    let root = JSONReader(json)
    guard let preset = root.optional("preset"), case .string("sortable") = preset.json.value else { return nil }
    return try decode(root)
  }

  static func decode(_ root: JSONReader) throws(InputError) -> SortableScenario {
    try root.object(allowed: ["preset", "canvas", "lists", "options", "events"])
    if let c = root.optional("canvas") { _ = try c.size() }
    var numeric: Set<String> = []
    var lists: [SortableList] = []
    for r in try root.require("lists").array() { lists.append(try decodeList(r, numeric: &numeric)) }
    var options = SortOptions()
    if let o = root.optional("options") { try decodeOptions(o, into: &options) }
    do {
      _ = try SortableEngine(lists: lists, options: options)
    } catch {
      // The engine names the field (`lists[1].items[0].id`); say it where the reader would.
      throw InputError(path: error.path, message: error.description.dropPrefix(error.path + ": "))
    }
    var events: [TimedInput] = []
    var lastT = -Double.infinity
    for e in try root.optional("events")?.array() ?? [] {
      let timed = try decodeEvent(e)
      guard timed.t >= lastT else {
        throw try e.require("t").fail("events must be in time order (\(JSONText.number(timed.t)) < \(JSONText.number(lastT)))")
      }
      lastT = timed.t
      events.append(timed)
    }
    return SortableScenario(lists: lists, options: options, events: events, numericIDs: numeric)
  }

  static func decodeList(_ r: JSONReader, numeric: inout Set<String>) throws(InputError) -> SortableList {
    try r.object(allowed: [
      "id", "name", "frame", "content", "layout", "gap", "columnGap", "rowGap", "columns", "cell", "group", "max", "sort",
      "items",
    ])
    let frame = try r.require("frame").rect()
    var list = SortableList(id: try r.require("id").id(numeric: &numeric), frame: frame)
    list.name = try r.optional("name")?.string()
    if let c = r.optional("content") { list.content = try c.rect() }
    let gap = try r.optional("gap")?.nonNegative() ?? 0
    let columnGap = try r.optional("columnGap")?.nonNegative() ?? gap
    let rowGap = try r.optional("rowGap")?.nonNegative() ?? gap
    let layout = try r.optional("layout")?.oneOf([("vertical", 0), ("horizontal", 1), ("wrap", 2), ("grid", 3)]) ?? 0
    switch layout {
    case 0: list.layout = .vertical(gap: gap)
    case 1: list.layout = .horizontal(gap: gap)
    case 2: list.layout = .wrap(columnGap: columnGap, rowGap: rowGap)
    default:
      let columnsReader = try r.require("columns")
      let columns = try columnsReader.int()
      guard columns >= 1 else { throw columnsReader.fail("a grid has at least one column") }
      let cell = try r.require("cell").array()
      guard cell.count == 2 else { throw try r.require("cell").fail("expected [width, height]") }
      list.layout = .grid(
        columns: columns, cell: StageSize(width: try cell[0].nonNegative(), height: try cell[1].nonNegative()),
        columnGap: columnGap, rowGap: rowGap)
    }
    if let g = r.optional("group") { list.group = try decodeGroup(g) }
    if let m = r.optional("max") {
      let max = try m.int()
      guard max >= 0 else { throw m.fail("must not be negative") }
      list.max = max
    }
    if let s = r.optional("sort") { list.sort = try s.bool() }
    for item in try r.require("items").array() {
      try item.object(allowed: ["id", "frame", "name"])
      list.items.append(
        SortableItem(
          id: try item.require("id").id(numeric: &numeric), frame: try item.require("frame").rect(),
          name: try item.optional("name")?.string()))
    }
    return list
  }

  /// SortableJS's `group`: a name, or `{name, pull, put}`.
  static func decodeGroup(_ g: JSONReader) throws(InputError) -> SortGroup {
    if case .string(let name) = g.json.value { return SortGroup(name: name) }
    try g.object(allowed: ["name", "pull", "put"])
    var group = SortGroup(name: try g.optional("name")?.string())
    if let p = g.optional("pull") {
      if case .string = p.json.value {
        group.pull = try p.oneOf([("clone", PullMode.clone)])
      } else {
        group.pull = try p.bool() ? .move : .refuse
      }
    }
    if let p = g.optional("put") {
      if case .array = p.json.value {
        group.put = .groups(try p.strings())
      } else {
        group.put = try p.bool() ? .any : PutRule.none
      }
    }
    return group
  }

  static func decodeOptions(_ o: JSONReader, into options: inout SortOptions) throws(InputError) {
    try o.object(allowed: [
      "rule", "swapThreshold", "invertSwap", "invertedSwapThreshold", "hysteresis", "emptyInsertThreshold",
    ])
    let rule = try o.optional("rule")?.oneOf([("swap-zones", 0), ("closest-center", 1)]) ?? 0
    if rule == 1 {
      for key in ["swapThreshold", "invertSwap", "invertedSwapThreshold"] {
        if let r = o.optional(key) { throw r.fail("only with \"rule\": \"swap-zones\"") }
      }
      options.rule = .closestCenter
    } else {
      let threshold = try o.optional("swapThreshold")?.nonNegative() ?? 1
      let inverted = try o.optional("invertSwap")?.bool() ?? false
      // SortableJS: `invertedSwapThreshold` defaults to `swapThreshold`.
      let invertedThreshold = try o.optional("invertedSwapThreshold")?.nonNegative() ?? threshold
      for (key, value) in [("swapThreshold", threshold), ("invertedSwapThreshold", invertedThreshold)] where value > 1 {
        throw try o.require(key).fail("must be between 0 and 1")
      }
      options.rule = .swapZones(threshold: threshold, inverted: inverted, invertedThreshold: invertedThreshold)
    }
    if let h = o.optional("hysteresis") { options.hysteresis = try h.nonNegative() }
    if let h = o.optional("emptyInsertThreshold") { options.emptyInsertThreshold = try h.nonNegative() }
  }

  static func decodeEvent(_ e: JSONReader) throws(InputError) -> TimedInput {
    try e.object(allowed: ["t", "type", "pointer", "x", "y", "key"])
    let t = try ScenarioEvents.time(e)
    let type = try e.require("type").oneOf([
      ("down", 0), ("move", 1), ("up", 2), ("cancel", 3), ("key", 4), ("blur", 5),
    ])
    if type <= 3 {
      let (phase, id, at) = try ScenarioEvents.pointer(phase: type, e)
      return TimedInput(t: t, input: .pointer(phase, id: id, at: at))
    }
    switch type {
    case 4:
      let key = try e.require("key").oneOf([("escape", Key.escape), ("undo", .undo), ("redo", .redo)])
      return TimedInput(t: t, input: .key(key))
    default: return TimedInput(t: t, input: .blur)
    }
  }
}

/// Replays a ``SortableScenario``: one JSON line per sortable event (`start`, `sort`, `end`,
/// `change`, as the web board names them) and a final `state` line with every list's order.
public struct SortableScenarioRunner {
  public var scenario: SortableScenario

  public init(scenario: SortableScenario) { self.scenario = scenario }

  /// Runs to the end, calling `emit` with each output line, and returns the final engine.
  ///
  /// - Throws: ``BoardError`` when the lists or options are refused (a scenario read by
  ///   ``SortableScenario/decodeIfSortable(_:)`` never is).
  public func run(_ emit: (String) -> Void) throws(BoardError) -> SortableEngine {
    var engine = try SortableEngine(lists: scenario.lists, options: scenario.options)
    let lines = SortEventLines(numericIDs: scenario.numericIDs)
    // One pointer drags at a time (SortableJS's rule): the press that picked up owns the drag.
    var press: (pointer: Int, item: String, at: StagePoint)?
    for timed in scenario.events {
      var events: [SortEvent] = []
      switch timed.input {
      case .pointer(.down, let id, let p):
        if press == nil, engine.drag == nil, let item = Self.item(at: p, in: engine) { press = (id, item, p) }
      case .pointer(.move, let id, let p):
        guard let pr = press, pr.pointer == id else { break }
        if engine.drag == nil {
          guard p != pr.at else { break }
          events += try engine.pickUp(item: pr.item, pointer: pr.at)
        }
        events += try engine.move(pointer: p)
      case .pointer(.up, let id, let p):
        guard let pr = press, pr.pointer == id else { break }
        press = nil
        guard engine.drag != nil else { break }
        events += try engine.move(pointer: p)
        events += engine.drop()
        // Items take their layout places in the new order, so the next press finds them.
        for l in engine.lists.indices { engine.reflow(list: l) }
      case .pointer(.cancel, let id, _):
        guard let pr = press, pr.pointer == id else { break }
        press = nil
        events += engine.cancel()
      case .blur, .key(.escape):
        press = nil
        events += engine.cancel()
      case .key(.undo):
        events += engine.undo()
        for l in engine.lists.indices { engine.reflow(list: l) }
      case .key(.redo):
        events += engine.redo()
        for l in engine.lists.indices { engine.reflow(list: l) }
      case .key: break
      }
      for e in events { emit(lines.line(e, at: timed.t)) }
    }
    emit(Self.state(engine, lines: lines))
    return engine
  }

  /// The item whose frame holds `p`; the innermost (smallest) one where frames nest.
  static func item(at p: StagePoint, in engine: SortableEngine) -> String? {
    var best: (id: String, area: Double)?
    for list in engine.lists {
      for item in list.items where item.frame.contains(p) {
        let area = item.frame.size.width * item.frame.size.height
        if best.map({ area < $0.area }) ?? true { best = (item.id, area) }
      }
    }
    return best?.id
  }

  /// `{"type":"state","lists":[{"id","items":[ids]}]}`.
  static func state(_ engine: SortableEngine, lines: SortEventLines) -> String {
    let lists = engine.lists.map { list -> JSONValue in
      ["id": lines.id(list.id), "items": .array(list.items.map { lines.id($0.id) })]
    }
    let line: JSONValue = ["type": "state", "lists": .array(lists)]
    return line.text
  }
}
