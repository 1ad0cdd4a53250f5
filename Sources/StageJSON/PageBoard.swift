import Stage

/// A board a web page made of its own elements (web/board/imagestage-board.js): the page's options
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

  /// The options the component reads itself (selectors, callbacks, storage, touch). They are
  /// checked here all the same, so a misspelt name or a wrong value is refused in one place.
  public static let pageOptionNames = [
    "items", "slots", "handle", "filter", "placement", "persist", "persistKey", "accepts", "status", "touch",
    "autoScroll", "announcements",
  ]

  /// What `announcements` may hold besides one function for each ``Phrase`` (dnd-kit's names,
  /// each for the phrases of one moment of a drag).
  public static let announcementMoments = ["onDragStart", "onDragOver", "onDragEnd", "onDragCancel"]

  /// The events a page can listen to, also as `onNAME` options.
  public static let eventNames = [
    "pickup", "hover", "drop", "return", "redo", "swap", "cancel", "assign", "change", "status", "place", "error",
  ]

  /// Strings the component shows itself; the rest of `strings` are the engine's phrases.
  public static let pageStringNames = ["draggable", "instructions", "copyInstructions"]

  /// Reads the component's description of a board: `options` as the page wrote them (a
  /// function or an element comes as `{"$function": true}` or `{"$element": "div#x"}`, a
  /// number JSON cannot write as `{"$number": "NaN"}`), the boxes it measured, and whether
  /// the container is hidden (a closed dialog, a `display: none` tab: every box is empty
  /// until it is shown, and the component measures again then).
  /// - Throws: ``InputError`` naming the option or element that is wrong. It carries no line
  ///   or column: the page never wrote this JSON, the component did.
  public static func decode(_ bytes: [UInt8]) throws(InputError) -> PageBoard {
    do throws(InputError) {
      return try decodeDescription(bytes)
    } catch {
      throw InputError(path: error.path, message: error.message)
    }
  }

  /// Reads only the options of a board's description, `{"options": {…}}`: the web
  /// component passes its boxes and ids as numbers (web/board/BoardWeb.swift) and builds the
  /// ``Board`` itself.
  /// - Throws: ``InputError`` naming every option that is wrong, as ``decode(_:)`` does.
  public static func decodeOptions(_ bytes: [UInt8]) throws(InputError) -> Options {
    do throws(InputError) {
      let root = try reader(bytes)
      try root.object(allowed: ["options"])
      return try readOptions(of: root).options
    } catch {
      throw InputError(path: error.path, message: error.message)
    }
  }

  /// The description's `options` on its mode's preset, every one checked (``checkEach``).
  static func readOptions(of root: JSONReader) throws(InputError) -> (mode: Preset, options: Options) {
    let given = JSONReader(try root.require("options").json)  // paths are the page's names
    // A wrong mode is reported with the rest (checkEach); the others are read on the default's.
    let mode = (try? given.optional("mode")?.oneOf(Preset.allCases.map { ($0.rawValue, $0) })) ?? .locations
    var options = Options.preset(mode)
    // What a page expects of a grid of big slots: a drop that looks inside one lands there.
    options.snapInsideSlot = mode == .locations
    options.swapOccupied = mode == .locations
    try checkEach(given, changing: false, into: &options)
    return (mode, options)
  }

  static func decodeDescription(_ bytes: [UInt8]) throws(InputError) -> PageBoard {
    let root = try reader(bytes)
    try root.object(allowed: ["options", "canvas", "slots", "items", "hidden"])
    let (mode, options) = try readOptions(of: root)
    let hidden = try root.optional("hidden")?.bool() ?? false

    var slots: [Slot] = []
    for s in try root.require("slots").array() {
      try s.object(allowed: ["id", "name", "frame", "accepts", "capacity", "content"])
      let frameReader = try s.require("frame")
      let frame = try frameReader.rect()
      guard hidden || (frame.size.width > 0 && frame.size.height > 0) else {
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
    let canvas = hidden ? StageSize(width: 1, height: 1) : try root.optional("canvas")?.size() ?? StageSize(width: 0, height: 0)
    do throws(BoardError) {
      let board = try Board(canvas: canvas, slots: slots, items: items, itemSlots: itemSlots)
      return PageBoard(mode: mode, board: board, options: options)
    } catch {
      throw InputError(path: error.path, message: error.description.dropPrefix(error.path + ": "))
    }
  }

  /// Checks every option on its own and reads the engine's into `options`, so a page hears of
  /// every wrong one at once: one problem's error, or all of them one a line.
  static func checkEach(_ given: JSONReader, changing: Bool, into options: inout Options) throws(InputError) {
    guard case .object(let members) = given.json.value else {
      throw given.fail("expected an object of options, found \(given.json.typeName)")
    }
    var problems: [InputError] = []
    for key in ["items", "slots"] where !changing && given.optional(key) == nil {
      problems.append(given.fail("missing required option \"\(key)\" (a CSS selector)"))
    }
    for m in members {
      let one = JSONReader(JSON(.object([m])))
      do throws(InputError) {
        try checkNames(one, allowed: optionNames + pageOptionNames, changing: changing)
        try checkPageOptions(one)
        try readOptions(one, into: &options)
      } catch {
        problems.append(error)
      }
    }
    guard problems.count > 1 else {
      if let problem = problems.first { throw problem }
      return
    }
    throw InputError(
      path: "", message: problems.map { $0.path.isEmpty ? $0.message : "\($0.path): \($0.message)" }.joined(separator: "\n"))
  }

  /// SortableJS's names that the board does not take, each with the board's way to do it, so
  /// a page moving from SortableJS is told where to look. (The ones it takes are options.)
  static let sortableJSNames: [(names: [String], hint: String)] = [
    (
      ["ghostClass", "chosenClass", "dragClass", "fallbackClass"],
      "style .board-lifted (the held item), .board-ghost (a shortcut's copy), [data-board-over] (where it lands)"
    ),
    (["draggable"], "use items (a CSS selector)"),
    (["onStart", "onChoose"], "use onpickup"),
    (["onEnd", "onUnchoose"], "use ondrop (and oncancel)"),
    (["onAdd", "onRemove", "onUpdate", "onSort"], "use onchange (detail.state)"),
    (["onMove"], "use onhover, or accepts to refuse a place"),
    (["delay", "delayOnTouchOnly", "touchStartThreshold"], "use touch: {delay, tolerance}"),
    (["disabled"], "call destroy(), and board() to start again"),
    (["scroll", "scrollSensitivity", "scrollSpeed", "bubbleScroll"], "use autoScroll (true or false)"),
    (["store", "dataIdAttr"], "ids are data-id; use persist: 'localStorage', or state() and restore()"),
    (["easing"], "use curve"),
    (["forceFallback", "fallbackOnBody", "fallbackTolerance", "fallbackOffset"], "the board draws the held item itself"),
    (["preventOnFilter", "onFilter"], "a press on what filter names is the page's own"),
  ]

  /// Refuses a name that is no option, suggesting the one it is closest to, and `on*` keys
  /// that name no event; `changing`: what `setOptions` may not change.
  static func checkNames(_ given: JSONReader, allowed: [String], changing: Bool) throws(InputError) {
    guard case .object(let members) = given.json.value else {
      throw given.fail("expected an object of options, found \(given.json.typeName)")
    }
    for m in members {
      let key = m.key
      let value = JSONReader(m.value, path: key)
      if changing, ["mode", "items", "slots"].contains(key) {
        throw value.fail("cannot change while the board runs; make a new board")
      }
      if let event = OptionNames.event(key), eventNames.contains(event) {
        try value.function()
        continue
      }
      if let problem = OptionNames.problem(key, allowed: allowed, events: eventNames, sortableJS: sortableJSNames) {
        throw value.fail(problem)
      }
    }
  }

  /// The options the component applies itself: their types and ranges.
  static func checkPageOptions(_ given: JSONReader) throws(InputError) {
    if let f = given.optional("filter"), f.marker("$function") != nil {
      throw f.fail("expected a CSS selector, found a function (SortableJS's function form is not taken)")
    }
    for key in ["items", "slots", "handle", "filter"] { try given.optional(key)?.selector() }
    _ = try given.optional("mode")?.oneOf(Preset.allCases.map { ($0.rawValue, $0) })
    _ = try given.optional("placement")?.oneOf([("move", 0), ("event", 1)])
    if let p = given.optional("persist") {
      if case .bool(false) = p.json.value {
      } else if case .string("localStorage") = p.json.value {
      } else {
        let found = (try? p.string()).map { "\"\($0)\"" } ?? p.describedValue
        throw p.fail("expected \"localStorage\" or false, found \(found)")
      }
    }
    if let k = given.optional("persistKey") {
      guard !(try k.string()).isEmpty else { throw k.fail("must not be empty") }
    }
    try given.optional("accepts")?.function(hint: "(item, slot) => boolean; use data-accepts for tags")
    if let status = given.optional("status"), status.marker("$element") == nil { try status.selector() }
    if let t = given.optional("touch") {
      guard case .object(let members) = t.json.value else {
        throw t.fail("expected {delay, tolerance}, found \(t.describedValue)")
      }
      for m in members where !["delay", "tolerance"].contains(m.key) {
        throw t.member(m.key, m.value).fail(
          "not an option of touch\(suggestion(m.key, among: ["delay", "tolerance"])); it takes delay (ms) and tolerance (px)")
      }
      _ = try t.optional("delay")?.nonNegative()
      _ = try t.optional("tolerance")?.nonNegative()
    }
    _ = try given.optional("autoScroll")?.bool()
    if let a = given.optional("announcements") {
      guard case .object(let members) = a.json.value else {
        throw a.fail("expected an object of functions, found \(a.describedValue)")
      }
      let names = Phrase.allCases.map { $0.rawValue } + announcementMoments
      for m in members {
        let hook = a.member(m.key, m.value)
        guard names.contains(m.key) else {
          throw hook.fail("not an announcement\(suggestion(m.key, among: names)) (docs/board.md lists them)")
        }
        try hook.function(hint: "(event) => string")
      }
    }
  }

  /// " (did you mean NAME?)" for the allowed name nearest a misspelt one, or nothing.
  static func suggestion(_ name: String, among names: [String], prefix: String = "") -> String {
    OptionNames.suggestion(name, among: names, prefix: prefix)
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
      let names = Phrase.allCases.map { $0.rawValue } + ["undoHint"] + pageStringNames
      guard case .object(let members) = s.json.value else { throw s.fail("expected an object, found \(s.describedValue)") }
      for m in members {
        let text = s.member(m.key, m.value)
        guard names.contains(m.key) else {
          throw text.fail("not a string the board says\(suggestion(m.key, among: names)) (docs/board.md lists them)")
        }
        _ = try text.string()
      }
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

  /// Reads only options (the component's `setOptions`), checked as at the start; the page's
  /// own options are checked too and left to the component.
  public static func update(_ options: inout Options, from bytes: [UInt8]) throws(InputError) {
    do throws(InputError) {
      let root = try reader(bytes)
      var changed = options
      try checkEach(root, changing: true, into: &changed)
      options = changed
    } catch {
      throw InputError(path: error.path, message: error.message)
    }
  }
}
