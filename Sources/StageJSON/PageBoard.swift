import Stage

/// A board a web page made of its own elements (web/imagestage-board.js): the page's options
/// and the boxes the component measured, read into a ``Board`` and ``Options``. The keys are
/// the component's option names, so an error's path is the name the page wrote
/// (`maxDistance: expected a number`, `slots[3]: has zero size`). docs/board.md lists them.
public struct PageBoard: Sendable {
  public var mode: Preset
  public var board: Board
  public var options: Options

  /// The page options the engine reads; the component handles the rest (selectors,
  /// callbacks, persistence) itself.
  public static let optionNames = [
    "mode", "strategy", "maxDistance", "snapDuration", "returnDuration", "swap", "hysteresis", "snapInside",
    "dropOnHover", "reducedMotion", "activationDistance", "contentDraggable", "curve", "grid", "strings",
  ]

  /// Reads the component's description of a board.
  /// - Throws: ``InputError`` naming the option or element that is wrong.
  public static func decode(_ bytes: [UInt8]) throws(InputError) -> PageBoard {
    let root = try reader(bytes)
    try root.object(allowed: optionNames + ["canvas", "slots", "items"])
    let mode = try root.optional("mode")?.oneOf(Preset.allCases.map { ($0.rawValue, $0) }) ?? .locations
    var options = Options.preset(mode)
    // What a page expects of a grid of big slots: a drop that looks inside one lands there.
    options.snapInsideSlot = mode == .locations
    options.swapOccupied = mode == .locations
    try readOptions(root, into: &options)

    var slots: [Slot] = []
    for s in try root.require("slots").array() {
      try s.object(allowed: ["id", "name", "frame", "accepts", "capacity", "content"])
      let frameReader = try s.require("frame")
      let frame = try frameReader.rect()
      guard frame.size.width > 0, frame.size.height > 0 else {
        throw frameReader.fail("has zero size (\(JSONText.number(frame.size.width))×\(JSONText.number(frame.size.height)) px)")
      }
      var slot = Slot(id: try s.require("id").string(), frame: frame, name: try s.optional("name")?.string())
      slot.accepts = try s.optional("accepts")?.strings()
      slot.content = try s.optional("content")?.string()
      if let c = s.optional("capacity") {
        slot.capacity = try c.int()
        guard slot.capacity >= 1 else { throw c.fail("must be at least 1") }
      }
      slots.append(slot)
    }
    var items: [Item] = []
    var itemSlots: [String?] = []
    for r in try root.require("items").array() {
      try r.object(allowed: ["id", "name", "frame", "tags", "slot"])
      var item = Item(id: try r.require("id").string(), frame: try r.require("frame").rect())
      item.name = try r.optional("name")?.string()
      item.tags = try r.optional("tags")?.strings() ?? []
      items.append(item)
      itemSlots.append(try r.optional("slot")?.string())
    }
    let canvas = try root.optional("canvas")?.size() ?? Size(width: 0, height: 0)
    do throws(BoardError) {
      let board = try Board(canvas: canvas, slots: slots, items: items, itemSlots: itemSlots)
      return PageBoard(mode: mode, board: board, options: options)
    } catch {
      throw InputError(path: error.path, message: error.description.dropPrefix(error.path + ": "))
    }
  }

  /// The engine's options from the page's; also what `setOptions` changes later.
  static func readOptions(_ root: JSONReader, into options: inout Options) throws(InputError) {
    if let s = root.optional("strategy") {
      options.strategy = try s.oneOf(TargetStrategy.allCases.map { ($0.rawValue, $0) })
    }
    if let r = root.optional("maxDistance") { options.snapRadius = try r.nonNegative() }
    if let r = root.optional("snapDuration") { options.snapDuration = try r.nonNegative() }
    if let r = root.optional("returnDuration") { options.returnDuration = try r.nonNegative() }
    if let r = root.optional("swap") { options.swapOccupied = try r.bool() }
    if let r = root.optional("hysteresis") { options.hoverHysteresis = try r.nonNegative() }
    if let r = root.optional("snapInside") { options.snapInsideSlot = try r.bool() }
    if let r = root.optional("dropOnHover") { options.dropOnHoverTarget = try r.bool() }
    if let r = root.optional("reducedMotion") { options.reducedMotion = try r.bool() }
    if let r = root.optional("activationDistance") { options.activationDistance = try r.nonNegative() }
    if let r = root.optional("contentDraggable") { options.contentDraggable = try r.bool() }
    if let r = root.optional("grid") {
      let g = try r.nonNegative()
      options.grid = g > 0 ? g : nil
    }
    if let c = root.optional("curve") {
      switch try c.oneOf([("linear", 0), ("ease-in-out", 1), ("spring", 2)]) {
      case 0: options.curve = .linear
      case 1: options.curve = .easeInOut
      default: options.curve = .spring(response: 0.35, dampingRatio: 0.8)
      }
    }
    if let s = root.optional("strings") {
      try s.object(allowed: Phrase.allCases.map { $0.rawValue } + ["undoHint"])
      for phrase in Phrase.allCases {
        if let text = s.optional(phrase.rawValue) { options.phrases[phrase] = try text.string() }
      }
      if let hint = s.optional("undoHint") { options.undoHint = try hint.string() }
    }
  }

  static func reader(_ bytes: [UInt8]) throws(InputError) -> JSONReader {
    do throws(JSONSyntaxError) {
      return JSONReader(try JSONParser.parse(bytes))
    } catch {
      throw InputError(path: "", message: "invalid JSON: \(error.message)", line: error.line, column: error.column)
    }
  }

  /// Reads only options (the component's `setOptions`), checked as at the start.
  public static func update(_ options: inout Options, from bytes: [UInt8]) throws(InputError) {
    let root = try reader(bytes)
    try root.object(allowed: optionNames.filter { $0 != "mode" })
    var changed = options
    try readOptions(root, into: &changed)
    options = changed
  }
}
