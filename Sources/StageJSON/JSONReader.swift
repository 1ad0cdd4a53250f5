import Stage

/// What is wrong with an input file's content, and where: the JSON path (`events[3].t`) and
/// the line and column in the file.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
  public var path: String
  public var message: String
  public var line: Int
  public var column: Int

  public init(path: String, message: String, line: Int = 0, column: Int = 0) {
    self.path = path
    self.message = message
    self.line = line
    self.column = column
  }

  public var description: String {
    let place = line > 0 ? " (line \(line), column \(column))" : ""
    return path.isEmpty ? "\(message)\(place)" : "\(path): \(message)\(place)"
  }
}

/// Where a value sits in its document. A reader only links to its container, and the text
/// (`items[3].frame`) is written when a message needs it: set-up reads thousands of values
/// and reports none (building every child's text up front was most of a 1000-item board's
/// decode time).
struct JSONPath {
  enum Step {
    /// The whole path as the caller wrote it (a file name, `scenes.hall`).
    case text(String)
    case key(String)
    case index(Int)
  }

  /// The container's path, shared by all its children.
  final class Link {
    let parent: Link?
    let step: Step
    init(_ parent: Link?, _ step: Step) {
      self.parent = parent
      self.step = step
    }
  }

  let parent: Link?
  let step: Step

  init(parent: Link?, step: Step) {
    self.parent = parent
    self.step = step
  }

  /// This path as a container, for its children to link to.
  var link: Link { Link(parent, step) }

  var text: String {
    // Steps from the root down, then joined as the eager reader did: `a.b`, `a[1]`, and a
    // key at the root (or under an empty text) without a dot.
    var steps = [step]
    var at = parent
    while let l = at {
      steps.append(l.step)
      at = l.parent
    }
    var out = ""
    for s in steps.reversed() {
      switch s {
      case .text(let t): out = t
      case .key(let k): out = out.isEmpty ? k : "\(out).\(k)"
      case .index(let i): out = "\(out)[\(i)]"
      }
    }
    return out
  }
}

/// Walks a parsed document keeping the path, so every type error names its field.
struct JSONReader: ValueReading {
  let json: JSON
  let location: JSONPath

  init(_ json: JSON, path: String = "") {
    self.json = json
    self.location = JSONPath(parent: nil, step: .text(path))
  }

  private init(_ json: JSON, in container: JSONPath.Link, _ step: JSONPath.Step) {
    self.json = json
    self.location = JSONPath(parent: container, step: step)
  }

  /// The path's text (`events[3].t`); written on each call, for messages.
  var path: String { location.text }

  func fail(_ message: String) -> InputError {
    InputError(path: path, message: message, line: json.line, column: json.column)
  }

  /// `value` read at this reader's place (a number read from a string).
  func replacing(_ value: JSON) -> JSONReader { JSONReader(value, at: location) }

  private init(_ json: JSON, at location: JSONPath) {
    self.json = json
    self.location = location
  }

  /// The reader of `value`, this object's member `key`.
  func member(_ key: String, _ value: JSON) -> JSONReader { JSONReader(value, in: location.link, .key(key)) }

  /// Checks this is an object with no keys beyond `allowed` (a typo is an error, not ignored).
  func object(allowed: [String]) throws(InputError) {
    guard case .object(let members) = json.value else { throw fail("expected an object, found \(json.typeName)") }
    for m in members where !allowed.contains(m.key) {
      throw member(m.key, m.value).fail(
        "unknown key; expected one of: \(allowed.joined(separator: ", "))")
    }
  }

  func optional(_ key: String) -> JSONReader? {
    guard let v = json[key] else { return nil }
    if case .null = v.value { return nil }
    return member(key, v)
  }

  func require(_ key: String) throws(InputError) -> JSONReader {
    guard let r = optional(key) else { throw fail("missing required key \"\(key)\"") }
    return r
  }

  func double() throws(InputError) -> Double {
    if let n = marker("$number") { throw fail("expected a finite number, found \(n)") }
    guard case .number(let d) = json.value else { throw fail("expected a number, found \(describedValue)") }
    return d
  }

  /// What the web component writes for a value JSON has no word for: `{"$function": true}`,
  /// `{"$element": "div#x"}`, `{"$number": "NaN"}`. The marker's text, or `nil`.
  func marker(_ name: String) -> String? {
    guard case .object(let members) = json.value, members.count == 1, members[0].key == name else { return nil }
    switch members[0].value.value {
    case .string(let s): return s
    default: return ""
    }
  }

  /// The type named for an error, in the page's words (a function, an element, NaN).
  var describedValue: String {
    if marker("$function") != nil { return "a function" }
    if let e = marker("$element") { return "an element (\(e))" }
    if let n = marker("$number") { return n }
    return json.typeName
  }

  /// A CSS selector the component will look up: a non-empty string.
  func selector() throws(InputError) {
    guard case .string(let s) = json.value else { throw fail("expected a CSS selector, found \(describedValue)") }
    guard !s.isEmpty else { throw fail("expected a CSS selector, found an empty string") }
  }

  /// A function the page passed (the component writes it as a marker).
  func function(hint: String = "") throws(InputError) {
    guard marker("$function") != nil else {
      throw fail("expected a function\(hint.isEmpty ? "" : " " + hint), found \(describedValue)")
    }
  }

  func bool() throws(InputError) -> Bool {
    guard case .bool(let b) = json.value else { throw fail("expected true or false, found \(json.typeName)") }
    return b
  }

  func string() throws(InputError) -> String {
    guard case .string(let s) = json.value else { throw fail("expected a string, found \(json.typeName)") }
    return s
  }

  /// An id: a string, or an integer (remembered in `numeric` so output can keep its type).
  func id(numeric: inout Set<String>) throws(InputError) -> String {
    switch json.value {
    case .string(let s):
      guard !s.isEmpty else { throw fail("an id must not be empty") }
      return s
    case .number:
      let n = try int()
      numeric.insert(String(n))
      return String(n)
    default:
      throw fail("expected a string or integer id, found \(json.typeName)")
    }
  }

  func array() throws(InputError) -> [JSONReader] {
    guard case .array(let elements) = json.value else { throw fail("expected an array, found \(json.typeName)") }
    let container = location.link
    return elements.enumerated().map { JSONReader($0.element, in: container, .index($0.offset)) }
  }

  func strings() throws(InputError) -> [String] {
    var out: [String] = []
    for e in try array() { out.append(try e.string()) }
    return out
  }

  /// A frame `[x, y, width, height]` with non-negative size.
  func rect() throws(InputError) -> StageRect {
    let parts = try array()
    guard parts.count == 4 else { throw fail("expected [x, y, width, height], found \(parts.count) numbers") }
    let x = try parts[0].double(), y = try parts[1].double()
    let w = try parts[2].double(), h = try parts[3].double()
    guard w >= 0, h >= 0 else { throw fail("width and height must not be negative") }
    return StageRect(x: x, y: y, width: w, height: h)
  }

  /// A size `{"width": w, "height": h}`, both positive.
  func size() throws(InputError) -> StageSize {
    try object(allowed: ["width", "height"])
    let w = try require("width").double(), h = try require("height").double()
    guard w > 0, h > 0 else { throw fail("width and height must be positive") }
    return StageSize(width: w, height: h)
  }
}
