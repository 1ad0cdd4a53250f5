/// One scene's settings, each `nil` until a config sets it (the viewer's default then),
/// stored by ``ViewerKey``'s index and read by key with the value's type:
///
/// ```swift
/// var s = ViewerSettings()
/// s[number: .hfov] = 100
/// s[number: .hfov]   // 100 (degrees)
/// s[flag: .autoLoad] // nil: not set
/// ```
///
/// One slot per key in an array: a copy of a scene's settings is one reference, where a
/// struct of fifty optionals was copied whole at every step of a tour (and overflowed wasm's
/// 64 KB default stack), and no key's name is compared to read it.
public struct ViewerSettings: Equatable, Sendable {
  /// A setting's value as the config had it (degrees, milliseconds, text).
  public enum Value: Equatable, Sendable {
    case number(Double)
    case flag(Bool)
    case text(String)
    case numbers([Double])
    case texts([String: String])
    case list([String])
    case multires(MultiresSource)
  }

  /// The settings by ``ViewerKey/rawValue``; nil where not set.
  private var slots: [Value?] = Array(repeating: nil, count: ViewerKey.settingCount)

  public init() {}

  /// The value of setting `key`, whatever its type.
  public subscript(key: ViewerKey) -> Value? {
    get {
      precondition(key.isSetting, "\(key.name) is not a scene's setting")
      return slots[key.rawValue]
    }
    set {
      precondition(key.isSetting, "\(key.name) is not a scene's setting")
      slots[key.rawValue] = newValue
    }
  }

  /// A number setting (degrees, milliseconds, degrees per second, friction): nil when not
  /// set or not a number.
  public subscript(number key: ViewerKey) -> Double? {
    get { if case .number(let d)? = self[key] { d } else { nil } }
    set { self[key] = newValue.map { .number($0) } }
  }

  /// A `true`/`false` setting.
  public subscript(flag key: ViewerKey) -> Bool? {
    get { if case .flag(let b)? = self[key] { b } else { nil } }
    set { self[key] = newValue.map { .flag($0) } }
  }

  /// A text setting: a URL, a title, one of a key's words (`lens`), or `mouseZoom` and
  /// `dragConfirm` as "true", "false" or their word.
  public subscript(text key: ViewerKey) -> String? {
    get { if case .text(let s)? = self[key] { s } else { nil } }
    set { self[key] = newValue.map { .text($0) } }
  }

  /// `backgroundColor`: red, green, blue, 0–1 each.
  public subscript(numbers key: ViewerKey) -> [Double]? {
    get { if case .numbers(let n)? = self[key] { n } else { nil } }
    set { self[key] = newValue.map { .numbers($0) } }
  }

  /// `strings`: Pannellum's texts by name.
  public subscript(texts key: ViewerKey) -> [String: String]? {
    get { if case .texts(let t)? = self[key] { t } else { nil } }
    set { self[key] = newValue.map { .texts($0) } }
  }

  /// `cubeMap`: six face images (front, right, back, left, up, down); "" for a missing one
  /// (`null` in the config), which shows the background colour.
  public subscript(list key: ViewerKey) -> [String]? {
    get { if case .list(let l)? = self[key] { l } else { nil } }
    set { self[key] = newValue.map { .list($0) } }
  }

  /// The scene's `type`, as the enum the renderers switch on.
  public var type: PanoramaKind? {
    get { self[text: .type].flatMap { PanoramaKind(rawValue: $0) } }
    set { self[text: .type] = newValue?.rawValue }
  }

  /// Pannellum's `multiRes`: a tiled cube pyramid.
  public var multiRes: MultiresSource? {
    get { if case .multires(let m)? = self[.multiRes] { m } else { nil } }
    set { self[.multiRes] = newValue.map { .multires($0) } }
  }

  /// Pannellum's keys that are known but not supported yet, and why.
  public static var notYetSupported: [(key: String, why: String)] {
    ViewerKey.allCases.compactMap { k in
      k.kind == .unsupported && k.scope.contains(.topLevel) ? (k.name, k.whyUnsupported) : nil
    }
  }

  /// The names an unknown key is compared with for a "did you mean" hint: the settings and
  /// the keys not supported yet.
  static let hintNames: [String] = ViewerKey.allCases.filter {
    $0.isSetting
      || $0.scope.contains(.topLevel) && $0.kind != .defaults && $0.kind != .scenes
        && $0.kind != .hotSpots
  }.map { $0.name }

  /// `self` with every setting it leaves unset taken from `base`.
  public func merged(over base: ViewerSettings) -> ViewerSettings {
    var m = base
    for k in slots.indices where slots[k] != nil { m.slots[k] = slots[k] }
    return m
  }

  /// Sets member `m`'s key from `given` as `apply` does, but a value of the wrong type is
  /// a warning (the key keeps what it had): Pannellum shows a tour with a stale entry in it.
  mutating func applyLeniently(
    _ m: ConfigMember, _ given: ConfigReader, in scope: ViewerKeyScope, warnings: inout [ConfigWarning]
  ) {
    do throws(InputError) {
      try apply(m, given, in: scope, warnings: &warnings)
    } catch {
      warnings.append(ConfigWarning(error, ignored: true))
    }
  }

  /// Sets member `m`'s key from `given`, found in `scope` (the top level, `default` or a
  /// scene); a key not Pannellum's (nor ours), not for `scope`, or not supported yet, is a
  /// warning.
  mutating func apply(
    _ m: ConfigMember, _ given: ConfigReader, in scope: ViewerKeyScope, warnings: inout [ConfigWarning]
  ) throws(InputError) {
    if case .null = given.value.value { return }
    guard let key = m.key(in: scope), key.isSetting || Self.isUnsupported(key) else {
      let hint = ViewerConfig.hints(warnings) ? PageBoard.suggestion(m.name, among: Self.hintNames) : ""
      warnings.append(ConfigWarning(path: given.path, message: "unknown key\(hint), ignored"))
      return
    }
    try apply(key, given, warnings: &warnings)
  }

  static func isUnsupported(_ key: ViewerKey) -> Bool {
    key.kind == .unsupported
  }

  /// Sets `key` from `given`, checked by the key's kind and range in ``ViewerKey/rule``.
  mutating func apply(_ key: ViewerKey, _ given: ConfigReader, warnings: inout [ConfigWarning]) throws(InputError) {
    if case .null = given.value.value { return }
    let kind = key.kind
    if kind == .unsupported {
      // Turned off (`hotSpotDebug: false`) is what we do anyway: nothing to say.
      if case .flag(false) = given.value.value { return }
      warnings.append(ConfigWarning(path: given.path, message: "not supported yet: \(key.whyUnsupported)"))
      return
    }
    // Pannellum reads its numbers with `Number(…)`: `"hfov": "110"` (as CMSs write them) loads.
    let r = kind.readsNumericStrings ? given.numeric(warnings: &warnings) : given
    self[key] = try Self.read(key, r, warnings: &warnings)
  }

  /// Setting `key`'s value from `r`, checked as its kind says.
  static func read(_ key: ViewerKey, _ r: ConfigReader, warnings: inout [ConfigWarning]) throws(InputError) -> Value {
    switch key.kind {
    case .text: return .text(try r.string())
    case .number(let range), .angle(let range): return .number(try number(r, in: range))
    case .milliseconds: return .number(try r.nonNegative())
    case .flag: return .flag(try r.bool())
    case .word: return .text(try r.oneOf(key.words.map { ($0, $0) }))
    case .flagOrWord:
      if case .flag(let b) = r.value.value { return .text(b ? "true" : "false") }
      return .text(try r.oneOf(key.words.map { ($0, $0) }))
    case .panoramaType:
      let name = try r.string()
      guard PanoramaKind(rawValue: name) != nil else {
        throw r.fail("unknown type \"\(name)\"; expected one of: equirectangular, cubemap, multires")
      }
      return .text(name)
    case .colour:
      let parts = try r.array()
      guard parts.count == 3 else { throw r.fail("expected [red, green, blue] from 0 to 1, found \(parts.count) numbers") }
      var rgb: [Double] = []
      for p in parts {
        let c = try p.double()
        guard c >= 0, c <= 1 else { throw p.fail("must be from 0 to 1 (found \(JSONText.number(c)))") }
        rgb.append(c)
      }
      return .numbers(rgb)
    case .strings:
      guard let members = r.members else { throw r.fail("expected an object, found \(r.value.typeName)") }
      var s: [String: String] = [:]
      for m in members { s[m.name] = try r.member(m).string() }
      return .texts(s)
    case .faces:
      // A null face is a missing one (Pannellum's partial cube): kept as "", no image.
      var faces: [String] = []
      for face in try r.array() {
        if case .null = face.value.value { faces.append("") } else { faces.append(try face.string()) }
      }
      guard faces.count == 6 else {
        throw r.fail("expected six face images (front, right, back, left, up, down), found \(faces.count)")
      }
      return .list(faces)
    case .multires: return .multires(try MultiresSource(r, warnings: &warnings))
    case .target, .count, .defaults, .scenes, .hotSpots, .unsupported:
      preconditionFailure("a hotspot's, a pyramid's or a tour's key is not a scene's setting")
    }
  }

  /// A number from `r` within `range`.
  static func number(_ r: ConfigReader, in range: ViewerKeyKind.NumberRange) throws(InputError) -> Double {
    switch range {
    case .any: return try r.double()
    case .nonNegative: return try r.nonNegative()
    case .positive:
      let d = try r.double()
      guard d > 0 else { throw r.fail("must be positive (found \(JSONText.number(d)))") }
      return d
    case .fraction:
      let f = try r.double()
      guard f > 0, f <= 1 else { throw r.fail("must be in (0, 1] (found \(JSONText.number(f)))") }
      return f
    }
  }

  /// The settings that are set, as Pannellum's JSON keys (degrees, milliseconds), in
  /// ``ViewerKey``'s order.
  public var json: JSONValue {
    var m: [(String, JSONValue)] = []
    for k in slots.indices {
      guard let v = slots[k], let key = ViewerKey(rawValue: k) else { continue }
      m.append((key.name, Self.json(v, of: key)))
    }
    return .object(m)
  }

  /// `value` of `key` as Pannellum writes it.
  static func json(_ value: Value, of key: ViewerKey) -> JSONValue {
    switch value {
    case .number(let d): return .number(d)
    case .flag(let b): return .bool(b)
    case .text(let s):
      // The boolean-or-word keys write their booleans back as booleans.
      if case .flagOrWord = key.kind, s == "true" || s == "false" { return .bool(s == "true") }
      return .string(s)
    case .numbers(let n): return .array(n.map { .number($0) })
    case .texts(let t): return .object(t.keys.sorted().map { ($0, .string(t[$0] ?? "")) })
    case .list(let l): return .array(l.map { $0.isEmpty ? .null : .string($0) })
    case .multires(let r): return r.json
    }
  }

  /// Pannellum's defaults for the keys a page reads back from `getConfig()` (its
  /// `defaultConfig`, in its units), from ``ViewerKey/pannellumDefault``, in the
  /// table's order. The view's angles and its limits are not here: `getConfig` writes the
  /// ones in use.
  public static let pannellumDefaults: [(key: String, value: JSONValue)] = ViewerKey.allCases.compactMap { k in
    k.pannellumDefault.map { (k.name, json($0, of: k)) }
  }
}
