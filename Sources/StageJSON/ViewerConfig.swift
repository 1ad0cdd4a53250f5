import CoreMath

/// A panorama viewer's configuration in Pannellum's JSON format (its
/// doc/json-config-parameters.md), read the same way by every host: the web viewer, the app
/// and the CLI. A file is either one panorama's settings, or a tour: `default` settings
/// merged under each of `scenes`' own, with `firstScene` shown first.
///
/// Angles and fields of view are degrees, as Pannellum has them; times are milliseconds
/// where Pannellum's are (`sceneFadeDuration`, the autorotate delays). A key of the wrong type
/// is an error that names its path, line and column; a key Pannellum does not have, or one
/// not supported yet, is a warning with its path, never dropped in silence and never an error.
public struct ViewerConfig: Sendable {
  /// The scenes in file order; a config without `scenes` has one, with the id "".
  public var scenes: [ViewerScene]
  /// The scene shown first: `firstScene` if it names one, else the first.
  public var firstScene: String
  /// What was read but not used, with where.
  public var warnings: [ConfigWarning]
  /// The settings every scene starts from (`default`, and the top level of a tour), for
  /// scenes added later.
  public var defaults = ViewerSettings()

  public init(scenes: [ViewerScene], firstScene: String, warnings: [ConfigWarning] = []) {
    self.scenes = scenes
    self.firstScene = firstScene
    self.warnings = warnings
  }

  /// The scene with `id`.
  public func scene(_ id: String) -> ViewerScene? { scenes.first { $0.id == id } }

  /// Reads a config file's bytes; `source` names it in messages.
  /// - Throws: `InputError` with the key's path and position, when a value has the wrong type
  ///   or a tour is inconsistent (`firstScene` or a hotspot's `sceneId` naming no scene).
  public static func parse(_ bytes: [UInt8], source: String) throws(InputError) -> ViewerConfig {
    try read(try ConfigValue.parse(bytes, source: source, in: .settings), source: source)
  }

  /// Reads a config already parsed (the web viewer's, fed to a ``ViewerConfigFeed`` from the
  /// page's object; a file's, converted from its ``JSON``); `source` names it in messages.
  /// - Throws: as ``parse(_:source:)``, but never for the text's syntax.
  public static func read(_ config: ConfigValue, source: String) throws(InputError) -> ViewerConfig {
    do throws(InputError) {
      return try read(ConfigReader(config))
    } catch {
      throw InputError(
        path: error.path.isEmpty ? source : "\(source): \(error.path)", message: error.message, line: error.line,
        column: error.column)
    }
  }

  /// Reads a parsed config as Pannellum does: a stale or mistyped entry is a warning naming
  /// its key path, and the rest of the tour goes on (a wrong-typed key keeps its default, a
  /// hotspot that cannot be placed is dropped, a link to no scene stays inert until a scene
  /// of that id is added). Only what leaves nothing to show is an error.
  static func read(_ root: ConfigReader) throws(InputError) -> ViewerConfig {
    guard let members = root.members else { throw root.fail("expected an object, found \(root.value.typeName)") }
    var warnings: [ConfigWarning] = []
    var defaults = ViewerSettings()
    var own = ViewerSettings()
    var ownHotSpots: [HotSpot] = []
    var sceneMembers: [ConfigMember]?
    for m in members {
      let r = root.member(m)
      switch m.key(in: .topLevel) {
      case .defaults:
        guard let d = r.members else {
          warnings.append(ConfigWarning(r.fail("expected an object, found \(m.value.typeName)"), ignored: true))
          continue
        }
        for dm in d {
          let dr = r.member(dm)
          if dm.key(in: .topLevel) == .hotSpots {
            warnings.append(ConfigWarning(path: dr.path, message: "hotspots in default are ignored; give each scene its own"))
          } else {
            defaults.applyLeniently(dm, dr, in: .defaults, warnings: &warnings)
          }
        }
      case .scenes:
        guard let s = r.members else {
          warnings.append(ConfigWarning(r.fail("expected an object, found \(m.value.typeName)"), ignored: true))
          continue
        }
        sceneMembers = s
      case .hotSpots: ownHotSpots = HotSpot.list(r, warnings: &warnings)
      default: own.applyLeniently(m, r, in: .topLevel, warnings: &warnings)
      }
    }
    var scenes: [ViewerScene] = []
    if let sceneMembers {
      for sm in sceneMembers {
        // Top-level settings beside `scenes` act as defaults too, under `default`'s.
        scenes.append(
          ViewerScene.read(
            sm.name, ConfigReader(sm.value, path: "scenes.\(sm.name)"), over: own.merged(over: defaults),
            warnings: &warnings))
      }
      guard !scenes.isEmpty else { throw ConfigReader(root.value, path: "scenes").fail("a tour needs at least one scene") }
    } else {
      var only = ViewerScene(id: "", settings: own.merged(over: defaults), hotSpots: ownHotSpots)
      only.dropVideoIfTiled(warnings: &warnings)
      scenes = [only]
    }
    let ids = scenes.map { $0.id }
    // A set, and a list cut short in the messages: a hostile tour of thousands of scenes and
    // stale hotspots cost scenes × hotspots comparisons, and as many ids copied into each warning.
    let known = Set(ids)
    let listed = Self.sceneList(ids)
    for scene in scenes {
      for (k, h) in scene.hotSpots.enumerated() where h.kind == .scene {
        guard h.sceneId.map(known.contains) != true else { continue }
        let path = (scene.id.isEmpty ? "" : "scenes.\(scene.id).") + "hotSpots[\(k)].sceneId"
        let what = h.sceneId.map { "names no scene (\"\($0)\")" } ?? "missing"
        warnings.append(
          ConfigWarning(
            path: path, message: "\(what); scenes: \(listed); the hotspot leads nowhere", line: h.line, column: h.column))
      }
    }
    var first = scenes[0].id
    if let wanted = own[text: .firstScene] ?? defaults[text: .firstScene] {
      if known.contains(wanted) {
        first = wanted
      } else {
        warnings.append(
          ConfigWarning(
            path: "firstScene", message: "names no scene (\"\(wanted)\"); scenes: \(listed); showing \"\(first)\""))
      }
    }
    var config = ViewerConfig(scenes: scenes, firstScene: first, warnings: Self.summarizingUnknownKeys(warnings))
    config.defaults = sceneMembers == nil ? defaults : own.merged(over: defaults)
    return config
  }

  /// Unknown keys named one by one, at most; past them, one line counts the rest. A "did you
  /// mean" hint is an edit distance to every key name: computed for 100 000 unknown keys, it
  /// took 2.3 s, and 100 000 lines help no one.
  static let namedUnknownKeys = 20

  /// Whether a warning says a key is unknown (a config's, a hotspot's, a `multiRes`').
  static func isUnknownKey(_ w: ConfigWarning) -> Bool {
    w.message.hasPrefix("unknown key") || w.message.hasPrefix("unknown hotspot key")
      || w.message.hasPrefix("unknown multiRes key")
  }

  /// The scene ids a warning lists: all of them up to 12, else the first 10 and how many.
  static func sceneList(_ ids: [String]) -> String {
    guard ids.count > 12 else { return ids.joined(separator: ", ") }
    return ids.prefix(10).joined(separator: ", ") + ", … (\(ids.count) in all)"
  }

  /// `warnings` with the unknown keys past the first ``namedUnknownKeys`` folded into one
  /// warning that counts them, where the first of them was.
  /// - Complexity: O(n).
  static func summarizingUnknownKeys(_ warnings: [ConfigWarning]) -> [ConfigWarning] {
    var out: [ConfigWarning] = []
    var unknown = 0
    var summaryAt: Int?
    for w in warnings {
      guard isUnknownKey(w) else {
        out.append(w)
        continue
      }
      unknown += 1
      if unknown <= namedUnknownKeys {
        out.append(w)
      } else if summaryAt == nil {
        summaryAt = out.count
        out.append(w)
      }
    }
    if let at = summaryAt {
      let more = unknown - namedUnknownKeys
      out[at] = ConfigWarning(
        path: out[at].path, message: "… and \(more) more unknown \(more == 1 ? "key" : "keys") (from here on), ignored",
        line: out[at].line, column: out[at].column)
    }
    return out
  }

  /// Whether an unknown key gets a "did you mean" hint: while the warnings are fewer than 64,
  /// so a flood of keys costs at most 64 edit distances.
  static func hints(_ warnings: [ConfigWarning]) -> Bool { warnings.count < 64 }
}

/// One scene of a tour (or the only one).
public struct ViewerScene: Sendable {
  public var id: String
  public var settings: ViewerSettings
  public var hotSpots: [HotSpot]

  public init(id: String, settings: ViewerSettings, hotSpots: [HotSpot] = []) {
    self.id = id
    self.settings = settings
    self.hotSpots = hotSpots
  }

  /// Scene `id` from its JSON object at `r`: its keys over `base`, its hotspots checked.
  /// What is wrong in it is a warning (the key keeps `base`'s value): a scene the visitor may
  /// never open does not stop the tour. One that is not an object has `base` alone.
  static func read(_ id: String, _ r: ConfigReader, over base: ViewerSettings, warnings: inout [ConfigWarning])
    -> ViewerScene
  {
    var scene = ViewerScene(id: id, settings: base)
    guard let keys = r.members else {
      warnings.append(ConfigWarning(r.fail("expected an object, found \(r.value.typeName)"), ignored: true))
      return scene
    }
    for k in keys {
      let kr = r.member(k)
      if k.key(in: .scene) == .hotSpots {
        scene.hotSpots = HotSpot.list(kr, warnings: &warnings)
      } else {
        scene.settings.applyLeniently(k, kr, in: .scene, warnings: &warnings)
      }
    }
    scene.dropVideoIfTiled(warnings: &warnings, path: r.path)
    return scene
  }
}

extension ConfigReader {
  /// This value, or where it is a string holding a decimal number (`"110"`, `" -0.5 "`), that
  /// number, with a warning naming the key: Pannellum reads numbers with JavaScript's
  /// `Number(…)`, so configs made by CMSs and templates write them as strings. Any other
  /// string stays a string (and is refused as a number where one is wanted).
  func numeric(warnings: inout [ConfigWarning]) -> ConfigReader {
    guard case .text(let s) = value.value else { return self }
    let blanks: [Character] = [" ", "\t", "\n", "\r"]
    var t = Substring(s)
    while let c = t.first, blanks.contains(c) { t = t.dropFirst() }
    while let c = t.last, blanks.contains(c) { t = t.dropLast() }
    guard let d = DecimalText.parse(t), d.isFinite else { return self }
    warnings.append(
      ConfigWarning(path: path, message: "a number written as a string (\"\(s)\"); read as \(JSONText.number(d))"))
    return replacing(ConfigValue(.number(d), line: value.line, column: value.column))
  }
}

extension ViewerScene {
  /// A `video` belongs to an equirectangular scene: on a tiled (`multires`, `cubemap`) one it
  /// is dropped with a warning naming the key (`path`: the scene's, where it has one).
  public mutating func dropVideoIfTiled(warnings: inout [ConfigWarning], path: String? = nil) {
    guard settings[.video] != nil, let type = settings.type, type != .equirectangular else { return }
    settings[.video] = nil
    let scenePath = path ?? (id.isEmpty ? "" : "scenes.\(id)")
    warnings.append(
      ConfigWarning(
        path: scenePath.isEmpty ? "video" : "\(scenePath).video",
        message: "a video scene is equirectangular; this scene's type is \(type.rawValue) (remove \"video\" or \"type\"); ignored"
      ))
  }
}

/// A key that was read but not used, and where: its key path (`scenes.hall.hotSpots[2]
/// .sceneId`), and for the CLI and the app, its line and column in the file (0 where
/// unknown; an in-page JavaScript object has none a reader could find, so the web viewer
/// leaves them out).
public struct ConfigWarning: Equatable, Sendable, CustomStringConvertible {
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

  /// A value that could not be read, as a warning: its key keeps its default.
  init(_ error: InputError, ignored: Bool) {
    self.init(
      path: error.path, message: ignored ? "\(error.message); ignored" : error.message, line: error.line,
      column: error.column)
  }

  /// "path: message", without a position.
  public var description: String { "\(path): \(message)" }
  /// `description` with the line and column where known (for a config read from a file).
  public var located: String { line > 0 ? "\(description) (line \(line), column \(column))" : description }
}

/// What kind of panorama a scene shows (Pannellum's `type`).
public enum PanoramaKind: String, Sendable, CaseIterable {
  case equirectangular, cubemap, multires
}

/// Pannellum's `multiRes` object: where a tiled cube pyramid's files are and its shape.
/// Checked as it is read: sizes positive, `maxLevel` no more than the halvings that leave a
/// pixel (and at most 20: a million tiles a face), so a config cannot ask for a pyramid that
/// does not fit in memory.
public struct MultiresSource: Equatable, Sendable {
  public var basePath: String?
  /// Tile path template: `%l` level, `%s` face letter, `%x` `%y` tile column and row.
  public var path: String
  public var fallbackPath: String?
  public var fileExtension: String
  public var tileResolution: Int
  public var maxLevel: Int
  public var cubeResolution: Int

  public init(
    basePath: String? = nil, path: String, fallbackPath: String? = nil, fileExtension: String, tileResolution: Int,
    maxLevel: Int, cubeResolution: Int
  ) {
    self.basePath = basePath
    self.path = path
    self.fallbackPath = fallbackPath
    self.fileExtension = fileExtension
    self.tileResolution = tileResolution
    self.maxLevel = maxLevel
    self.cubeResolution = cubeResolution
  }

  init(_ r: ConfigReader, warnings: inout [ConfigWarning]) throws(InputError) {
    guard let members = r.members else { throw r.fail("expected an object, found \(r.value.typeName)") }
    for m in members where m.key(in: .multiRes) == nil {
      warnings.append(ConfigWarning(path: "\(r.path).\(m.name)", message: "unknown multiRes key, ignored"))
    }
    basePath = try r.optional(.tilesBasePath)?.string()
    path = try r.require(.tilesPath).string()
    fallbackPath = try r.optional(.tilesFallbackPath)?.string()
    fileExtension = try r.require(.tilesExtension).string()
    func size(_ key: ViewerKey) throws(InputError) -> Int {
      guard case .count(let lowest, let highest) = key.kind else { preconditionFailure("\(key.name): not a count") }
      let field = try r.require(key).numeric(warnings: &warnings)
      let n = try field.int()
      guard n >= lowest, n <= highest else {
        throw field.fail("must be from \(lowest) to \(highest) (found \(n))")
      }
      return n
    }
    tileResolution = try size(.tileResolution)
    cubeResolution = try size(.cubeResolution)
    maxLevel = try size(.maxLevel)
    guard cubeResolution >> (maxLevel - 1) >= 1 else {
      throw try r.require(.maxLevel).fail(
        "\(maxLevel) levels halve a \(cubeResolution) px face to nothing; at most \(Self.levels(cubeResolution))")
    }
    guard cubeResolution / tileResolution < 1000 else {
      throw try r.require(.tileResolution).fail(
        "\(tileResolution) px tiles make over a million tiles a face at \(cubeResolution) px; use larger tiles")
    }
  }

  /// The most levels a `size` px face can have (halvings that leave a pixel).
  static func levels(_ size: Int) -> Int {
    var n = 1
    while size >> n >= 1 { n += 1 }
    return n
  }

  public var json: JSONValue {
    var m: [(String, JSONValue)] = []
    if let basePath { m.append(("basePath", .string(basePath))) }
    m.append(("path", .string(path)))
    if let fallbackPath { m.append(("fallbackPath", .string(fallbackPath))) }
    m += [
      ("extension", .string(fileExtension)), ("tileResolution", .number(Double(tileResolution))),
      ("maxLevel", .number(Double(maxLevel))), ("cubeResolution", .number(Double(cubeResolution))),
    ]
    return .object(m)
  }
}

/// A hotspot (Pannellum's `hotSpots` entries): a point on the panorama that shows text,
/// links, or leads to another scene.
public struct HotSpot: Equatable, Sendable {
  public enum Kind: String, Sendable { case info, scene }
  /// Where a scene hotspot leads the camera: angles, or Pannellum's "same" (keep the
  /// current one) and "sameAzimuth" (keep the compass heading).
  public enum Target: Equatable, Sendable {
    case degrees(Double)
    case same
    case sameAzimuth
  }

  public var kind: Kind
  public var pitch: Double
  public var yaw: Double
  public var text: String?
  public var url: String?
  public var sceneId: String?
  public var targetPitch: Target?
  public var targetYaw: Target?
  public var targetHfov: Target?
  public var id: String?
  public var cssClass: String?
  public var draggable: Bool
  /// Where the entry starts in its file (for messages about it).
  public var line: Int
  public var column: Int

  /// The names a hotspot takes (``ViewerKey``'s hotspot scope), for "did you mean" hints.
  static let keys = ViewerKey.names(in: .hotSpot)

  /// The hotspots at `r`; one that cannot be placed (not an object, no `pitch` or `yaw`) is
  /// dropped with a warning, the rest kept.
  static func list(_ r: ConfigReader, warnings: inout [ConfigWarning]) -> [HotSpot] {
    var out: [HotSpot] = []
    let entries: [ConfigReader]
    do throws(InputError) {
      entries = try r.array()
    } catch {
      warnings.append(ConfigWarning(error, ignored: true))
      return []
    }
    for e in entries {
      do throws(InputError) {
        out.append(try HotSpot(e, warnings: &warnings))
      } catch {
        warnings.append(ConfigWarning(path: error.path, message: "\(error.message); the hotspot is left out"))
      }
    }
    return out
  }

  /// Reads one entry. A `pitch` or `yaw` it lacks is 0, as in Pannellum; one that is not a
  /// number leaves the hotspot out (an error). Any other key of the wrong type is a warning
  /// and keeps its default.
  init(_ r: ConfigReader, warnings: inout [ConfigWarning]) throws(InputError) {
    guard let members = r.members else { throw r.fail("expected an object, found \(r.value.typeName)") }
    for m in members where m.key(in: .hotSpot) == nil {
      let hint = ViewerConfig.hints(warnings) ? PageBoard.suggestion(m.name, among: Self.keys) : ""
      warnings.append(ConfigWarning(path: "\(r.path).\(m.name)", message: "unknown hotspot key\(hint), ignored"))
    }
    for m in members {
      guard let key = m.key(in: .hotSpot), case .unsupported = key.kind else { continue }
      warnings.append(ConfigWarning(path: "\(r.path).\(m.name)", message: "not supported yet"))
    }
    // Pannellum places a hotspot without them at 0.
    pitch = try r.optional(.spotPitch)?.numeric(warnings: &warnings).double() ?? 0
    yaw = try r.optional(.spotYaw)?.numeric(warnings: &warnings).double() ?? 0
    func lenient<T>(_ read: () throws(InputError) -> T?) -> T? {
      do throws(InputError) {
        return try read()
      } catch {
        warnings.append(ConfigWarning(error, ignored: true))
        return nil
      }
    }
    kind =
      lenient { () throws(InputError) in try r.optional(.spotType)?.oneOf([("info", Kind.info), ("scene", Kind.scene)]) }
      ?? .info
    text = lenient { () throws(InputError) in try r.optional(.spotText)?.string() }
    url = lenient { () throws(InputError) in try r.optional(.spotURL)?.string() }
    sceneId = lenient { () throws(InputError) in try r.optional(.spotSceneId)?.string() }
    func target(_ key: ViewerKey) -> Target? {
      guard let t = r.optional(key)?.numeric(warnings: &warnings) else { return nil }
      if case .number(let d) = t.value.value { return .degrees(d) }
      return lenient { () throws(InputError) in
        try t.oneOf(key.words.map { ($0, $0 == "sameAzimuth" ? Target.sameAzimuth : Target.same) })
      }
    }
    targetPitch = target(.spotTargetPitch)
    targetYaw = target(.spotTargetYaw)
    targetHfov = target(.spotTargetHfov)
    id = lenient { () throws(InputError) in try r.optional(.spotId)?.string() }
    cssClass = lenient { () throws(InputError) in try r.optional(.spotCssClass)?.string() }
    draggable = lenient { () throws(InputError) in try r.optional(.spotDraggable)?.bool() } ?? false
    line = r.value.line
    column = r.value.column
  }
}

/// The viewer's URL parameters (Pannellum's doc/url-config-parameters.md, plus our `lens`
/// and `renderer`), already percent-decoded by the host (`URLSearchParams`).
public struct ViewerURLParameters: Sendable {
  /// `config`: a JSON config to load; the other parameters then override its first scene.
  public var config: String?
  /// `fallback`: a page to show where the viewer cannot run.
  public var fallback: String?
  public var settings = ViewerSettings()
  public var warnings: [ConfigWarning] = []

  /// The parameters Pannellum reads from its URL, and ours (``ViewerKey``'s URL scope).
  public static var names: [String] { ViewerKey.names(in: .url) }

  /// A parameter as the host gives it: its key, where the table has one among the settings'
  /// and the URL's names (the web viewer's JS looks the names up, so its module does not),
  /// its name, and its value's text.
  public struct Given: Sendable {
    public var key: ViewerKey?
    public var name: String
    public var value: String
    public init(key: ViewerKey?, name: String, value: String) {
      self.key = key
      self.name = name
      self.value = value
    }
  }

  /// Reads `pairs` (name, value) in order; a later one wins. Values are typed as the JSON
  /// config's are: text parameters stay text; elsewhere `true`/`false` are booleans,
  /// numbers are numbers, the rest strings.
  /// - Throws: `InputError` naming the parameter, when its value has the wrong type.
  public init(_ pairs: [(name: String, value: String)]) throws(InputError) {
    try self.init(given: pairs.map { Given(key: ViewerKey.named($0.name, in: .settingAndURL), name: $0.name, value: $0.value) })
  }

  /// Reads parameters whose names the host has already found in the key table, as
  /// ``init(_:)`` reads pairs: a key that is not a URL parameter, or none, is a warning.
  public init(given: [Given]) throws(InputError) {
    for p in given {
      let path = "URL parameter \(p.name)"
      let text = p.value
      guard let key = p.key, key.scope.contains(.url) else {
        warnings.append(ConfigWarning(path: path, message: "not a viewer parameter, ignored"))
        continue
      }
      switch key {
      case .config: config = text
      case .fallback: fallback = text
      default:
        let value: ConfigValue.Value
        if case .text = key.kind {
          value = .text(text)  // a title of "100" is a title
        } else if case .word = key.kind {
          value = .text(text)
        } else if text == "true" || text == "false" {
          value = .flag(text == "true")
        } else if let number = DecimalText.parse(Substring(text)), number.isFinite, !text.isEmpty {
          value = .number(number)
        } else {
          value = .text(text)
        }
        try settings.apply(key, ConfigReader(ConfigValue(value), path: path), warnings: &warnings)
      }
    }
  }
}
