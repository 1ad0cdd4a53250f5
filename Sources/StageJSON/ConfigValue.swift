/// A viewer config as its reader takes it: a tree of values whose object members carry their
/// ``ViewerKey`` (found in the scope they are in) beside their name. Every host builds one
/// and hands it to the same reader (``ViewerConfig/read(_:source:)``), so each key keeps one
/// rule: the CLI and the app convert their parsed JSON text (``init(_:in:)``, keeping lines
/// and columns), the web viewer's JS feeds the page's object one call per value into a
/// ``ViewerConfigFeed``, naming members by key index. The web module so links no JSON
/// parser, no `JSON` tree and no JSON reader.
public struct ConfigValue: Sendable {
  public indirect enum Value: Sendable {
    case null
    case flag(Bool)
    case number(Double)
    case text(String)
    case list([ConfigValue])
    /// Members in the order given.
    case object([ConfigMember])
  }

  public var value: Value
  /// 1-based line and column of the value in its file; 0 where there is no file (a page's
  /// object).
  public var line: Int
  public var column: Int

  public init(_ value: Value, line: Int = 0, column: Int = 0) {
    self.value = value
    self.line = line
    self.column = column
  }

  /// The value's type, for error messages (JSON's words: the page wrote JSON, or an object
  /// JSON could have held).
  public var typeName: String {
    switch value {
    case .null: "null"
    case .flag: "a boolean"
    case .number: "a number"
    case .text: "a string"
    case .list: "an array"
    case .object: "an object"
    }
  }

  /// Which key table an object's member names are looked up in: where it sits in a config.
  public enum Scope: Sendable {
    /// A config's top level, `default`, a scene: a scene's settings and a tour's keys.
    case settings
    /// A tour's `scenes`: scenes by id.
    case scenes
    /// A `hotSpots` list.
    case hotSpots
    /// One hotspot.
    case hotSpot
    /// The `multiRes` object.
    case multiRes
    /// Anything else (`strings`, `cubeMap`, a page's own key): names only.
    case plain

    /// The scope of member `key` of an object in this scope (`default` holds settings, …).
    func inner(_ key: ViewerKey?) -> Scope {
      switch (self, key) {
      case (.settings, .defaults?): .settings
      case (.settings, .scenes?): .scenes
      case (.settings, .hotSpots?): .hotSpots
      case (.settings, .multiRes?): .multiRes
      case (.scenes, _): .settings
      default: .plain
      }
    }

    /// Member `name`'s key in this scope, if the table has one.
    func key(named name: String) -> ViewerKey? {
      switch self {
      case .settings: ViewerKey.named(name, in: .setting)
      case .hotSpot: ViewerKey.named(name, in: .hotSpot)
      case .multiRes: ViewerKey.named(name, in: .multiRes)
      case .scenes, .hotSpots, .plain: nil
      }
    }
  }
}

/// An object's member: its name, and its key where the table has one for the scope the
/// object is in.
public struct ConfigMember: Sendable {
  public var key: ViewerKey?
  public var name: String
  public var value: ConfigValue

  public init(key: ViewerKey?, name: String, value: ConfigValue) {
    self.key = key
    self.name = name
    self.value = value
  }

  /// The member's key if it may appear in `scope`; nil for a name the table lacks there.
  func key(in scope: ViewerKeyScope) -> ViewerKey? {
    guard let key, !key.scope.isDisjoint(with: scope) else { return nil }
    return key
  }
}

extension ConfigValue {
  /// `json` (a config's text parsed, or part of one, in `scope`), its members' keys looked up
  /// by name as the web viewer's JS does, lines and columns kept.
  public init(_ json: JSON, in scope: Scope = .settings) {
    let v: Value
    switch json.value {
    case .null: v = .null
    case .bool(let b): v = .flag(b)
    case .number(let d): v = .number(d)
    case .string(let s): v = .text(s)
    case .array(let items): v = .list(items.map { ConfigValue($0, in: scope == .hotSpots ? .hotSpot : .plain) })
    case .object(let members):
      v = .object(
        members.map { m in
          let key = scope.key(named: m.key)
          return ConfigMember(key: key, name: m.key, value: ConfigValue(m.value, in: scope.inner(key)))
        })
    }
    self.init(v, line: json.line, column: json.column)
  }

  /// Reads config text; `source` names it in messages.
  static func parse(_ bytes: [UInt8], source: String, in scope: Scope) throws(InputError) -> ConfigValue {
    do throws(JSONSyntaxError) {
      return ConfigValue(try JSONParser.parse(bytes), in: scope)
    } catch {
      throw InputError(path: source, message: "invalid JSON: \(error.message)", line: error.line, column: error.column)
    }
  }
}

/// Builds a ``ConfigValue`` from one call per value, for a host that has already parsed its
/// text (the web viewer's JS walks `JSON.parse`'s object, or the page's own, and feeds it
/// here, member names as key indices).
///
/// ```swift
/// var b = ViewerConfigFeed()
/// b.open(array: false)
/// b.key(.hfov)
/// b.add(.number(110))
/// b.close()
/// b.result  // {"hfov": 110}
/// ```
///
/// Misuse (a member without its key, `close` with nothing open, a value past the root) is
/// refused: the builder is marked broken and `result` is nil, never a trap, since the calls
/// cross a module boundary. Nesting is limited as ``JSONParser``'s is, and the containers
/// are kept on an explicit stack, so a deep input cannot exhaust the call stack.
public struct ViewerConfigFeed: Sendable {
  /// The containers open, outermost first: an array's elements, or an object's members and
  /// the key of the one to come.
  private var open: [(isArray: Bool, elements: [ConfigValue], members: [ConfigMember], key: (ViewerKey?, String)?)] = []
  private var root: ConfigValue?
  /// Whether a call was out of order or too deep (`result` is then nil).
  public private(set) var broken = false
  public let maxDepth: Int

  public init(maxDepth: Int = 256) { self.maxDepth = maxDepth }

  /// The value built, once every container is closed; nil while one is open or after misuse.
  public var result: ConfigValue? { broken || !open.isEmpty ? nil : root }

  /// Names the next member of the object open by its key (the JS found the name in the
  /// table of the scope the object is in).
  public mutating func key(_ key: ViewerKey) { name(key: key, key.name) }

  /// Names the next member of the object open by a name the key table lacks there (a page's
  /// own, a scene's id, a `strings` entry).
  public mutating func key(_ name: String) { self.name(key: nil, name) }

  private mutating func name(key: ViewerKey?, _ name: String) {
    guard let last = open.indices.last, !open[last].isArray, open[last].key == nil else { return fail() }
    open[last].key = (key, name)
  }

  /// A scalar value (`null`, a flag, a number, a string): the next element or member, or the root.
  public mutating func add(_ value: ConfigValue.Value) { place(ConfigValue(value)) }

  /// Opens an array or an object.
  public mutating func open(array: Bool) {
    guard open.count < maxDepth, !broken else { return fail() }
    open.append((array, [], [], nil))
  }

  /// Closes the container opened last.
  public mutating func close() {
    guard let c = open.popLast() else { return fail() }
    guard c.isArray || c.key == nil else { return fail() }
    place(ConfigValue(c.isArray ? .list(c.elements) : .object(c.members)))
  }

  private mutating func place(_ value: ConfigValue) {
    guard !broken else { return }
    guard let last = open.indices.last else {
      guard root == nil else { return fail() }
      root = value
      return
    }
    if open[last].isArray {
      open[last].elements.append(value)
    } else {
      guard let (key, name) = open[last].key else { return fail() }
      open[last].members.append(ConfigMember(key: key, name: name, value: value))
      open[last].key = nil
    }
  }

  private mutating func fail() {
    broken = true
    open = []
    root = nil
  }
}

/// Walks a ``ConfigValue`` keeping the path, so every type error names its key
/// (`scenes.hall.hotSpots[2].pitch`), with the messages ``JSONReader`` gives a board's file.
struct ConfigReader: ValueReading {
  let value: ConfigValue
  let location: JSONPath

  init(_ value: ConfigValue, path: String = "") {
    self.value = value
    self.location = JSONPath(parent: nil, step: .text(path))
  }

  private init(_ value: ConfigValue, at location: JSONPath) {
    self.value = value
    self.location = location
  }

  /// The path's text; written on each call, for messages.
  var path: String { location.text }

  func fail(_ message: String) -> InputError {
    InputError(path: path, message: message, line: value.line, column: value.column)
  }

  /// `value` read at this reader's place (a number read from a string).
  func replacing(_ value: ConfigValue) -> ConfigReader { ConfigReader(value, at: location) }

  /// The reader of member `m` of this object.
  func member(_ m: ConfigMember) -> ConfigReader {
    ConfigReader(m.value, at: JSONPath(parent: location.link, step: .key(m.name)))
  }

  /// The members, if this is an object.
  var members: [ConfigMember]? { if case .object(let m) = value.value { m } else { nil } }

  /// Member `key`, if this is an object that has one and it is not `null`.
  func optional(_ key: ViewerKey) -> ConfigReader? {
    guard let m = members?.first(where: { $0.key == key }) else { return nil }
    if case .null = m.value.value { return nil }
    return member(m)
  }

  func require(_ key: ViewerKey) throws(InputError) -> ConfigReader {
    guard let r = optional(key) else { throw fail("missing required key \"\(key.name)\"") }
    return r
  }

  func double() throws(InputError) -> Double {
    guard case .number(let d) = value.value else { throw fail("expected a number, found \(value.typeName)") }
    return d
  }

  func bool() throws(InputError) -> Bool {
    guard case .flag(let b) = value.value else { throw fail("expected true or false, found \(value.typeName)") }
    return b
  }

  func string() throws(InputError) -> String {
    guard case .text(let s) = value.value else { throw fail("expected a string, found \(value.typeName)") }
    return s
  }

  func array() throws(InputError) -> [ConfigReader] {
    guard case .list(let elements) = value.value else { throw fail("expected an array, found \(value.typeName)") }
    let container = location.link
    return elements.enumerated().map {
      ConfigReader($0.element, at: JSONPath(parent: container, step: .index($0.offset)))
    }
  }
}
