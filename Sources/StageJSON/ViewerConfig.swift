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
    let json: JSON
    do throws(JSONSyntaxError) {
      json = try JSONParser.parse(bytes)
    } catch {
      throw InputError(path: source, message: "invalid JSON: \(error.message)", line: error.line, column: error.column)
    }
    do throws(InputError) {
      return try read(JSONReader(json))
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
  static func read(_ root: JSONReader) throws(InputError) -> ViewerConfig {
    guard case .object(let members) = root.json.value else { throw root.fail("expected an object, found \(root.json.typeName)") }
    var warnings: [ConfigWarning] = []
    var defaults = ViewerSettings()
    var own = ViewerSettings()
    var ownHotSpots: [HotSpot] = []
    var sceneMembers: [(key: String, value: JSON)]?
    for m in members {
      let r = JSONReader(m.value, path: m.key)
      switch m.key {
      case "default":
        guard case .object(let d) = m.value.value else {
          warnings.append(ConfigWarning(r.fail("expected an object, found \(m.value.typeName)"), ignored: true))
          continue
        }
        for dm in d {
          let dr = JSONReader(dm.value, path: "default.\(dm.key)")
          if dm.key == "hotSpots" {
            warnings.append(ConfigWarning(path: dr.path, message: "hotspots in default are ignored; give each scene its own"))
          } else {
            defaults.applyLeniently(dm.key, dr, warnings: &warnings)
          }
        }
      case "scenes":
        guard case .object(let s) = m.value.value else {
          warnings.append(ConfigWarning(r.fail("expected an object, found \(m.value.typeName)"), ignored: true))
          continue
        }
        sceneMembers = s
      case "hotSpots": ownHotSpots = HotSpot.list(r, warnings: &warnings)
      default: own.applyLeniently(m.key, r, warnings: &warnings)
      }
    }
    var scenes: [ViewerScene] = []
    if let sceneMembers {
      for sm in sceneMembers {
        // Top-level settings beside `scenes` act as defaults too, under `default`'s.
        scenes.append(
          ViewerScene.read(
            sm.key, JSONReader(sm.value, path: "scenes.\(sm.key)"), over: own.merged(over: defaults), warnings: &warnings))
      }
      guard !scenes.isEmpty else { throw JSONReader(root.json, path: "scenes").fail("a tour needs at least one scene") }
    } else {
      var only = ViewerScene(id: "", settings: own.merged(over: defaults), hotSpots: ownHotSpots)
      only.dropVideoIfTiled(warnings: &warnings)
      scenes = [only]
    }
    let ids = scenes.map { $0.id }
    for scene in scenes {
      for (k, h) in scene.hotSpots.enumerated() where h.kind == .scene {
        guard h.sceneId.map(ids.contains) != true else { continue }
        let path = (scene.id.isEmpty ? "" : "scenes.\(scene.id).") + "hotSpots[\(k)].sceneId"
        let what = h.sceneId.map { "names no scene (\"\($0)\")" } ?? "missing"
        warnings.append(
          ConfigWarning(
            path: path, message: "\(what); scenes: \(ids.joined(separator: ", ")); the hotspot leads nowhere",
            line: h.line, column: h.column))
      }
    }
    var first = scenes[0].id
    if let wanted = own.firstScene ?? defaults.firstScene {
      if ids.contains(wanted) {
        first = wanted
      } else {
        warnings.append(
          ConfigWarning(
            path: "firstScene",
            message: "names no scene (\"\(wanted)\"); scenes: \(ids.joined(separator: ", ")); showing \"\(first)\""))
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
  static func read(_ id: String, _ r: JSONReader, over base: ViewerSettings, warnings: inout [ConfigWarning])
    -> ViewerScene
  {
    var scene = ViewerScene(id: id, settings: base)
    guard case .object(let keys) = r.json.value else {
      warnings.append(ConfigWarning(r.fail("expected an object, found \(r.json.typeName)"), ignored: true))
      return scene
    }
    for k in keys {
      let kr = r.member(k.key, k.value)
      if k.key == "hotSpots" {
        scene.hotSpots = HotSpot.list(kr, warnings: &warnings)
      } else {
        scene.settings.applyLeniently(k.key, kr, warnings: &warnings)
      }
    }
    scene.dropVideoIfTiled(warnings: &warnings, path: r.path)
    return scene
  }
}

extension JSONReader {
  /// This value, or where it is a string holding a decimal number (`"110"`, `" -0.5 "`), that
  /// number, with a warning naming the key: Pannellum reads numbers with JavaScript's
  /// `Number(…)`, so configs made by CMSs and templates write them as strings. Any other
  /// string stays a string (and is refused as a number where one is wanted).
  func numeric(warnings: inout [ConfigWarning]) -> JSONReader {
    guard case .string(let s) = json.value else { return self }
    let blanks: [Character] = [" ", "\t", "\n", "\r"]
    var t = Substring(s)
    while let c = t.first, blanks.contains(c) { t = t.dropFirst() }
    while let c = t.last, blanks.contains(c) { t = t.dropLast() }
    guard let d = DecimalText.parse(t), d.isFinite else { return self }
    warnings.append(
      ConfigWarning(path: path, message: "a number written as a string (\"\(s)\"); read as \(JSONText.number(d))"))
    return replacing(JSON(.number(d), line: json.line, column: json.column))
  }
}

extension ViewerScene {
  /// A `video` belongs to an equirectangular scene: on a tiled (`multires`, `cubemap`) one it
  /// is dropped with a warning naming the key (`path`: the scene's, where it has one).
  public mutating func dropVideoIfTiled(warnings: inout [ConfigWarning], path: String? = nil) {
    guard settings.video != nil, let type = settings.type, type != .equirectangular else { return }
    settings.video = nil
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

/// One scene's settings, each `nil` until a config sets it (the viewer's default then).
/// Stored as one table of values by Pannellum's key names (`values`), read through typed
/// properties: a value struct of fifty optionals was copied whole at every step of a tour
/// (its copies, merges and writing were a third of the viewer's wasm, and overflowed wasm's
/// 64 KB default stack).
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

  /// How a key's value is read and checked.
  enum Kind {
    case text, number, positive, nonNegative, flag, friction, type, boolOrCtrl, boolOrYawPitch, colour, strings, lens,
      renderer, crossOrigin, cubeFaces, multires
  }

  /// The settings that are set, by key.
  public private(set) var values: [String: Value] = [:]

  public init() {}

  /// Every key a scene's settings take, in the order `json` writes them: Pannellum's
  /// (doc/json-config-parameters.md), then ours.
  static let keys: [(name: String, kind: Kind)] = [
    ("type", .type),
    ("panorama", .text),
    ("title", .text),
    ("author", .text),
    ("authorURL", .text),
    ("preview", .text),
    ("previewTitle", .text),
    ("previewAuthor", .text),
    ("firstScene", .text),
    ("basePath", .text),
    ("crossOrigin", .crossOrigin),
    ("yaw", .number),
    ("pitch", .number),
    ("hfov", .positive),
    ("minYaw", .number),
    ("maxYaw", .number),
    ("minPitch", .number),
    ("maxPitch", .number),
    ("minHfov", .positive),
    ("maxHfov", .positive),
    ("haov", .positive),
    ("vaov", .positive),
    ("vOffset", .number),
    ("northOffset", .number),
    ("horizonPitch", .number),
    ("horizonRoll", .number),
    ("autoRotate", .number),
    ("autoRotateInactivityDelay", .nonNegative),
    ("autoRotateStopDelay", .nonNegative),
    ("sceneFadeDuration", .nonNegative),
    ("friction", .friction),
    ("autoLoad", .flag),
    ("compass", .flag),
    ("orientationOnByDefault", .flag),
    ("showZoomCtrl", .flag),
    ("keyboardZoom", .flag),
    ("doubleClickZoom", .flag),
    ("draggable", .flag),
    ("disableKeyboardCtrl", .flag),
    ("showFullscreenCtrl", .flag),
    ("showControls", .flag),
    ("showLensCtrl", .flag),
    ("showRecenterCtrl", .flag),
    ("escapeHTML", .flag),
    ("targetBlank", .flag),
    ("avoidShowingBackground", .flag),
    ("ignoreGPanoXMP", .flag),
    ("mouseZoom", .boolOrCtrl),
    ("dragConfirm", .boolOrYawPitch),
    ("backgroundColor", .colour),
    ("strings", .strings),
    ("lens", .lens),
    ("renderer", .renderer),
    ("cubeMap", .cubeFaces),
    ("multiRes", .multires),
    ("video", .text),
    ("loop", .flag),
    ("muted", .flag),
    ("autoplay", .flag),
  ]

  func text(_ key: String) -> String? { if case .text(let s)? = values[key] { s } else { nil } }
  func number(_ key: String) -> Double? { if case .number(let d)? = values[key] { d } else { nil } }
  func flag(_ key: String) -> Bool? { if case .flag(let b)? = values[key] { b } else { nil } }
  func numbers(_ key: String) -> [Double]? { if case .numbers(let n)? = values[key] { n } else { nil } }
  func texts(_ key: String) -> [String: String]? { if case .texts(let t)? = values[key] { t } else { nil } }

  public var type: PanoramaKind? {
    get { text("type").flatMap { PanoramaKind(rawValue: $0) } }
    set { values["type"] = newValue.map { .text($0.rawValue) } }
  }
  public var panorama: String? {
    get { text("panorama") }
    set { values["panorama"] = newValue.map { .text($0) } }
  }
  public var title: String? {
    get { text("title") }
    set { values["title"] = newValue.map { .text($0) } }
  }
  public var author: String? {
    get { text("author") }
    set { values["author"] = newValue.map { .text($0) } }
  }
  public var authorURL: String? {
    get { text("authorURL") }
    set { values["authorURL"] = newValue.map { .text($0) } }
  }
  public var preview: String? {
    get { text("preview") }
    set { values["preview"] = newValue.map { .text($0) } }
  }
  public var previewTitle: String? {
    get { text("previewTitle") }
    set { values["previewTitle"] = newValue.map { .text($0) } }
  }
  public var previewAuthor: String? {
    get { text("previewAuthor") }
    set { values["previewAuthor"] = newValue.map { .text($0) } }
  }
  public var firstScene: String? {
    get { text("firstScene") }
    set { values["firstScene"] = newValue.map { .text($0) } }
  }
  public var basePath: String? {
    get { text("basePath") }
    set { values["basePath"] = newValue.map { .text($0) } }
  }
  public var crossOrigin: String? {
    get { text("crossOrigin") }
    set { values["crossOrigin"] = newValue.map { .text($0) } }
  }
  public var yaw: Double? {
    get { number("yaw") }
    set { values["yaw"] = newValue.map { .number($0) } }
  }
  public var pitch: Double? {
    get { number("pitch") }
    set { values["pitch"] = newValue.map { .number($0) } }
  }
  public var hfov: Double? {
    get { number("hfov") }
    set { values["hfov"] = newValue.map { .number($0) } }
  }
  public var minYaw: Double? {
    get { number("minYaw") }
    set { values["minYaw"] = newValue.map { .number($0) } }
  }
  public var maxYaw: Double? {
    get { number("maxYaw") }
    set { values["maxYaw"] = newValue.map { .number($0) } }
  }
  public var minPitch: Double? {
    get { number("minPitch") }
    set { values["minPitch"] = newValue.map { .number($0) } }
  }
  public var maxPitch: Double? {
    get { number("maxPitch") }
    set { values["maxPitch"] = newValue.map { .number($0) } }
  }
  public var minHfov: Double? {
    get { number("minHfov") }
    set { values["minHfov"] = newValue.map { .number($0) } }
  }
  public var maxHfov: Double? {
    get { number("maxHfov") }
    set { values["maxHfov"] = newValue.map { .number($0) } }
  }
  public var haov: Double? {
    get { number("haov") }
    set { values["haov"] = newValue.map { .number($0) } }
  }
  public var vaov: Double? {
    get { number("vaov") }
    set { values["vaov"] = newValue.map { .number($0) } }
  }
  public var vOffset: Double? {
    get { number("vOffset") }
    set { values["vOffset"] = newValue.map { .number($0) } }
  }
  public var northOffset: Double? {
    get { number("northOffset") }
    set { values["northOffset"] = newValue.map { .number($0) } }
  }
  public var horizonPitch: Double? {
    get { number("horizonPitch") }
    set { values["horizonPitch"] = newValue.map { .number($0) } }
  }
  public var horizonRoll: Double? {
    get { number("horizonRoll") }
    set { values["horizonRoll"] = newValue.map { .number($0) } }
  }
  /// Degrees per second; negative turns left.
  public var autoRotate: Double? {
    get { number("autoRotate") }
    set { values["autoRotate"] = newValue.map { .number($0) } }
  }
  /// Milliseconds.
  public var autoRotateInactivityDelay: Double? {
    get { number("autoRotateInactivityDelay") }
    set { values["autoRotateInactivityDelay"] = newValue.map { .number($0) } }
  }
  /// Milliseconds.
  public var autoRotateStopDelay: Double? {
    get { number("autoRotateStopDelay") }
    set { values["autoRotateStopDelay"] = newValue.map { .number($0) } }
  }
  /// Milliseconds.
  public var sceneFadeDuration: Double? {
    get { number("sceneFadeDuration") }
    set { values["sceneFadeDuration"] = newValue.map { .number($0) } }
  }
  /// (0, 1].
  public var friction: Double? {
    get { number("friction") }
    set { values["friction"] = newValue.map { .number($0) } }
  }
  public var autoLoad: Bool? {
    get { flag("autoLoad") }
    set { values["autoLoad"] = newValue.map { .flag($0) } }
  }
  public var compass: Bool? {
    get { flag("compass") }
    set { values["compass"] = newValue.map { .flag($0) } }
  }
  public var orientationOnByDefault: Bool? {
    get { flag("orientationOnByDefault") }
    set { values["orientationOnByDefault"] = newValue.map { .flag($0) } }
  }
  public var showZoomCtrl: Bool? {
    get { flag("showZoomCtrl") }
    set { values["showZoomCtrl"] = newValue.map { .flag($0) } }
  }
  public var keyboardZoom: Bool? {
    get { flag("keyboardZoom") }
    set { values["keyboardZoom"] = newValue.map { .flag($0) } }
  }
  public var doubleClickZoom: Bool? {
    get { flag("doubleClickZoom") }
    set { values["doubleClickZoom"] = newValue.map { .flag($0) } }
  }
  public var draggable: Bool? {
    get { flag("draggable") }
    set { values["draggable"] = newValue.map { .flag($0) } }
  }
  public var disableKeyboardCtrl: Bool? {
    get { flag("disableKeyboardCtrl") }
    set { values["disableKeyboardCtrl"] = newValue.map { .flag($0) } }
  }
  public var showFullscreenCtrl: Bool? {
    get { flag("showFullscreenCtrl") }
    set { values["showFullscreenCtrl"] = newValue.map { .flag($0) } }
  }
  public var showControls: Bool? {
    get { flag("showControls") }
    set { values["showControls"] = newValue.map { .flag($0) } }
  }
  /// Ours: `false` hides the lens button (Pannellum has none).
  public var showLensCtrl: Bool? {
    get { flag("showLensCtrl") }
    set { values["showLensCtrl"] = newValue.map { .flag($0) } }
  }
  /// Ours: `false` hides the recentre button (Pannellum has none).
  public var showRecenterCtrl: Bool? {
    get { flag("showRecenterCtrl") }
    set { values["showRecenterCtrl"] = newValue.map { .flag($0) } }
  }
  public var escapeHTML: Bool? {
    get { flag("escapeHTML") }
    set { values["escapeHTML"] = newValue.map { .flag($0) } }
  }
  public var targetBlank: Bool? {
    get { flag("targetBlank") }
    set { values["targetBlank"] = newValue.map { .flag($0) } }
  }
  public var avoidShowingBackground: Bool? {
    get { flag("avoidShowingBackground") }
    set { values["avoidShowingBackground"] = newValue.map { .flag($0) } }
  }
  public var ignoreGPanoXMP: Bool? {
    get { flag("ignoreGPanoXMP") }
    set { values["ignoreGPanoXMP"] = newValue.map { .flag($0) } }
  }
  /// `true`, `false`, `"ctrl"` (zoom only with Ctrl held, but in fullscreen) or
  /// `"fullscreenonly"` (zoom only in fullscreen).
  public var mouseZoom: String? {
    get { text("mouseZoom") }
    set { values["mouseZoom"] = newValue.map { .text($0) } }
  }
  /// `true`, `false`, `"yaw"`, `"pitch"` or `"both"`: on a touch screen, outside fullscreen,
  /// that axis turns with two fingers only (one finger leaves it to the page's scrolling).
  public var dragConfirm: String? {
    get { text("dragConfirm") }
    set { values["dragConfirm"] = newValue.map { .text($0) } }
  }
  /// Red, green, blue, 0–1 each.
  public var backgroundColor: [Double]? {
    get { numbers("backgroundColor") }
    set { values["backgroundColor"] = newValue.map { .numbers($0) } }
  }
  /// Pannellum's `strings`: the texts it shows, by name.
  public var strings: [String: String]? {
    get { texts("strings") }
    set { values["strings"] = newValue.map { .texts($0) } }
  }
  /// Ours: `rectilinear`, `stereographic`, `fisheye` or `equirectangular`.
  public var lens: String? {
    get { text("lens") }
    set { values["lens"] = newValue.map { .text($0) } }
  }
  /// Pannellum's `cubeMap`: six face images, front, right, back, left, up, down; an empty
  /// one (`null` in the config) is a missing face, which shows the background colour.
  public var cubeMap: [String]? {
    get { if case .list(let l)? = values["cubeMap"] { l } else { nil } }
    set { values["cubeMap"] = newValue.map { .list($0) } }
  }
  /// Pannellum's `multiRes`: a tiled cube pyramid.
  public var multiRes: MultiresSource? {
    get { if case .multires(let m)? = values["multiRes"] { m } else { nil } }
    set { values["multiRes"] = newValue.map { .multires($0) } }
  }
  /// Ours: an equirectangular video the scene shows instead of a still `panorama` (a URL,
  /// under `basePath` unless absolute). Pannellum plays video through video.js; this key is
  /// ImageStage's own.
  public var video: String? {
    get { text("video") }
    set { values["video"] = newValue.map { .text($0) } }
  }
  /// Ours: a video scene starts again from the beginning when it ends (`false` by default).
  public var loop: Bool? {
    get { flag("loop") }
    set { values["loop"] = newValue.map { .flag($0) } }
  }
  /// Ours: a video scene plays without sound until the user turns it on (`true` by default);
  /// `false` asks for sound from the first play the browser allows it.
  public var muted: Bool? {
    get { flag("muted") }
    set { values["muted"] = newValue.map { .flag($0) } }
  }
  /// Ours: a video scene starts playing as soon as it is loaded (`false` by default).
  public var autoplay: Bool? {
    get { flag("autoplay") }
    set { values["autoplay"] = newValue.map { .flag($0) } }
  }
  /// Ours: `webgl2` or `cpu`.
  public var renderer: String? {
    get { text("renderer") }
    set { values["renderer"] = newValue.map { .text($0) } }
  }

  /// ``keys`` by name: looked up once per key read (a linear search was most of the time a
  /// flood of unknown keys took).
  static let kinds: [String: Kind] = {
    var out: [String: Kind] = [:]
    for (name, kind) in keys { out[name] = kind }
    return out
  }()

  /// ``notYetSupported`` by key.
  static let notYetSupportedWhy: [String: String] = {
    var out: [String: String] = [:]
    for (key, why) in notYetSupported { out[key] = why }
    return out
  }()

  /// Pannellum's keys that are known but not supported yet, and why.
  public static let notYetSupported: [(key: String, why: String)] = [
    ("touchPanSpeedCoeffFactor", "touch panning follows the finger exactly"),
    ("multiResMinHfov", "tiled panoramas come with the tiled-panorama work"),
    ("hotSpotDebug", "not offered"),
    ("capturedKeyNumbers", "keys come from ImageStage's own table"),
    ("animationTimingFunction", "a function: API only"),
    ("dynamic", "video and other changing panoramas are not offered yet"),
    ("dynamicUpdate", "video and other changing panoramas are not offered yet"),
  ]

  /// `self` with every setting it leaves unset taken from `base`.
  public func merged(over base: ViewerSettings) -> ViewerSettings {
    var m = base
    for (key, value) in values { m.values[key] = value }
    return m
  }

  /// Sets `key` from `r` as `apply` does, but a value of the wrong type is a warning (the
  /// key keeps what it had): Pannellum shows a tour with a stale entry in it.
  mutating func applyLeniently(_ key: String, _ given: JSONReader, warnings: inout [ConfigWarning]) {
    do throws(InputError) {
      try apply(key, given, warnings: &warnings)
    } catch {
      warnings.append(ConfigWarning(error, ignored: true))
    }
  }

  /// Sets `key` from `r`; a key not Pannellum's (nor ours), or not supported yet, is a warning.
  mutating func apply(_ key: String, _ given: JSONReader, warnings: inout [ConfigWarning]) throws(InputError) {
    if case .null = given.json.value { return }
    guard let kind = Self.kinds[key] else {
      if let why = Self.notYetSupportedWhy[key] {
        // Turned off (`hotSpotDebug: false`) is what we do anyway: nothing to say.
        if case .bool(false) = given.json.value { return }
        warnings.append(ConfigWarning(path: given.path, message: "not supported yet: \(why)"))
      } else {
        let hint =
          ViewerConfig.hints(warnings)
          ? PageBoard.suggestion(key, among: Self.keys.map { $0.name } + Self.notYetSupported.map { $0.key }) : ""
        warnings.append(ConfigWarning(path: given.path, message: "unknown key\(hint), ignored"))
      }
      return
    }
    // Pannellum reads its numbers with `Number(…)`: `"hfov": "110"` (as CMSs write them) loads.
    let r = [.number, .positive, .nonNegative, .friction].contains(kind) ? given.numeric(warnings: &warnings) : given
    switch kind {
    case .text: values[key] = .text(try r.string())
    case .number: values[key] = .number(try r.double())
    case .positive: values[key] = .number(try Self.positive(r))
    case .nonNegative: values[key] = .number(try r.nonNegative())
    case .flag: values[key] = .flag(try r.bool())
    case .friction:
      let f = try r.double()
      guard f > 0, f <= 1 else { throw r.fail("must be in (0, 1] (found \(JSONText.number(f)))") }
      values[key] = .number(f)
    case .type:
      let name = try r.string()
      guard PanoramaKind(rawValue: name) != nil else {
        throw r.fail("unknown type \"\(name)\"; expected one of: equirectangular, cubemap, multires")
      }
      values[key] = .text(name)
    case .boolOrCtrl: values[key] = .text(try Self.boolOr(r, ["ctrl", "fullscreenonly"]))
    case .boolOrYawPitch: values[key] = .text(try Self.boolOr(r, ["yaw", "pitch", "both"]))
    case .colour:
      let parts = try r.array()
      guard parts.count == 3 else { throw r.fail("expected [red, green, blue] from 0 to 1, found \(parts.count) numbers") }
      var rgb: [Double] = []
      for p in parts {
        let c = try p.double()
        guard c >= 0, c <= 1 else { throw p.fail("must be from 0 to 1 (found \(JSONText.number(c)))") }
        rgb.append(c)
      }
      values[key] = .numbers(rgb)
    case .strings:
      guard case .object(let members) = r.json.value else { throw r.fail("expected an object, found \(r.json.typeName)") }
      var s: [String: String] = [:]
      for m in members { s[m.key] = try r.member(m.key, m.value).string() }
      values[key] = .texts(s)
    case .lens:
      values[key] = .text(try r.oneOf(["rectilinear", "stereographic", "fisheye", "equirectangular"].map { ($0, $0) }))
    case .renderer: values[key] = .text(try r.oneOf([("webgl2", "webgl2"), ("cpu", "cpu")]))
    case .crossOrigin: values[key] = .text(try r.oneOf([("anonymous", "anonymous"), ("use-credentials", "use-credentials")]))
    case .cubeFaces:
      // A null face is a missing one (Pannellum's partial cube): kept as "", no image.
      var faces: [String] = []
      for face in try r.array() {
        if case .null = face.json.value { faces.append("") } else { faces.append(try face.string()) }
      }
      guard faces.count == 6 else {
        throw r.fail("expected six face images (front, right, back, left, up, down), found \(faces.count)")
      }
      values[key] = .list(faces)
    case .multires: values[key] = .multires(try MultiresSource(r, warnings: &warnings))
    }
  }

  /// The settings that are set, as Pannellum's JSON keys (degrees, milliseconds), in
  /// `keys`' order.
  public var json: JSONValue {
    var m: [(String, JSONValue)] = []
    for (name, _) in Self.keys {
      guard let v = values[name] else { continue }
      switch v {
      case .number(let d): m.append((name, .number(d)))
      case .flag(let b): m.append((name, .bool(b)))
      case .text(let s):
        // The boolean-or-word keys write their booleans back as booleans.
        if name == "mouseZoom" || name == "dragConfirm", s == "true" || s == "false" {
          m.append((name, .bool(s == "true")))
        } else {
          m.append((name, .string(s)))
        }
      case .numbers(let n): m.append((name, .array(n.map { .number($0) })))
      case .texts(let t): m.append((name, .object(t.keys.sorted().map { ($0, .string(t[$0]!)) })))
      case .list(let l): m.append((name, .array(l.map { $0.isEmpty ? .null : .string($0) })))
      case .multires(let r): m.append((name, r.json))
      }
    }
    return .object(m)
  }

  static func positive(_ r: JSONReader) throws(InputError) -> Double {
    let d = try r.double()
    guard d > 0 else { throw r.fail("must be positive (found \(JSONText.number(d)))") }
    return d
  }

  /// A boolean, or one of `words` (Pannellum's "boolean or string" keys), as text.
  static func boolOr(_ r: JSONReader, _ words: [String]) throws(InputError) -> String {
    if case .bool(let b) = r.json.value { return b ? "true" : "false" }
    return try r.oneOf(words.map { ($0, $0) })
  }
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
  /// Ours: the tiles' shorter path when `basePath` is given as a URL of the config's folder.
  static let keys = ["basePath", "path", "fallbackPath", "extension", "tileResolution", "maxLevel", "cubeResolution"]

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

  init(_ r: JSONReader, warnings: inout [ConfigWarning]) throws(InputError) {
    guard case .object(let members) = r.json.value else { throw r.fail("expected an object, found \(r.json.typeName)") }
    for m in members where !Self.keys.contains(m.key) {
      warnings.append(ConfigWarning(path: "\(r.path).\(m.key)", message: "unknown multiRes key, ignored"))
    }
    basePath = try r.optional("basePath")?.string()
    path = try r.require("path").string()
    fallbackPath = try r.optional("fallbackPath")?.string()
    fileExtension = try r.require("extension").string()
    func size(_ key: String, _ range: ClosedRange<Int>) throws(InputError) -> Int {
      let field = try r.require(key).numeric(warnings: &warnings)
      let n = try field.int()
      guard range.contains(n) else {
        throw field.fail("must be from \(range.lowerBound) to \(range.upperBound) (found \(n))")
      }
      return n
    }
    tileResolution = try size("tileResolution", 1...65536)
    cubeResolution = try size("cubeResolution", 1...1 << 20)
    maxLevel = try size("maxLevel", 1...20)
    guard cubeResolution >> (maxLevel - 1) >= 1 else {
      throw try r.require("maxLevel").fail(
        "\(maxLevel) levels halve a \(cubeResolution) px face to nothing; at most \(Self.levels(cubeResolution))")
    }
    guard cubeResolution / tileResolution < 1000 else {
      throw try r.require("tileResolution").fail(
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

  static let keys = [
    "pitch", "yaw", "type", "text", "URL", "sceneId", "targetPitch", "targetYaw", "targetHfov", "id", "cssClass",
    "draggable", "attributes", "scale", "scaleFactor",
  ]

  /// The hotspots at `r`; one that cannot be placed (not an object, no `pitch` or `yaw`) is
  /// dropped with a warning, the rest kept.
  static func list(_ r: JSONReader, warnings: inout [ConfigWarning]) -> [HotSpot] {
    var out: [HotSpot] = []
    let entries: [JSONReader]
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
  init(_ r: JSONReader, warnings: inout [ConfigWarning]) throws(InputError) {
    guard case .object(let members) = r.json.value else { throw r.fail("expected an object, found \(r.json.typeName)") }
    for m in members where !Self.keys.contains(m.key) {
      let hint = ViewerConfig.hints(warnings) ? PageBoard.suggestion(m.key, among: Self.keys) : ""
      warnings.append(ConfigWarning(path: "\(r.path).\(m.key)", message: "unknown hotspot key\(hint), ignored"))
    }
    for name in ["attributes", "scale", "scaleFactor"] where r.json[name] != nil {
      warnings.append(ConfigWarning(path: "\(r.path).\(name)", message: "not supported yet"))
    }
    // Pannellum places a hotspot without them at 0.
    pitch = try r.optional("pitch")?.numeric(warnings: &warnings).double() ?? 0
    yaw = try r.optional("yaw")?.numeric(warnings: &warnings).double() ?? 0
    func lenient<T>(_ read: () throws(InputError) -> T?) -> T? {
      do throws(InputError) {
        return try read()
      } catch {
        warnings.append(ConfigWarning(error, ignored: true))
        return nil
      }
    }
    kind =
      lenient { () throws(InputError) in try r.optional("type")?.oneOf([("info", Kind.info), ("scene", Kind.scene)]) }
      ?? .info
    text = lenient { () throws(InputError) in try r.optional("text")?.string() }
    url = lenient { () throws(InputError) in try r.optional("URL")?.string() }
    sceneId = lenient { () throws(InputError) in try r.optional("sceneId")?.string() }
    func target(_ key: String, words: [(String, Target)]) -> Target? {
      guard let t = r.optional(key)?.numeric(warnings: &warnings) else { return nil }
      if case .number(let d) = t.json.value { return .degrees(d) }
      return lenient { () throws(InputError) in try t.oneOf(words) }
    }
    targetPitch = target("targetPitch", words: [("same", .same)])
    targetYaw = target("targetYaw", words: [("same", .same), ("sameAzimuth", .sameAzimuth)])
    targetHfov = target("targetHfov", words: [("same", .same)])
    id = lenient { () throws(InputError) in try r.optional("id")?.string() }
    cssClass = lenient { () throws(InputError) in try r.optional("cssClass")?.string() }
    draggable = lenient { () throws(InputError) in try r.optional("draggable")?.bool() } ?? false
    line = r.json.line
    column = r.json.column
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

  /// The parameters Pannellum reads from its URL, and ours.
  public static let names = [
    "config", "panorama", "author", "title", "hfov", "minHfov", "maxHfov", "pitch", "minPitch", "maxPitch", "yaw",
    "minYaw", "maxYaw", "haov", "vaov", "vOffset", "autoLoad", "autoRotate", "firstScene", "ignoreGPanoXMP", "preview",
    "fallback", "compass", "showFullscreenCtrl", "showZoomCtrl", "keyboardZoom", "mouseZoom", "doubleClickZoom",
    "disableKeyboardCtrl", "draggable", "showControls", "dragConfirm", "lens", "renderer", "showLensCtrl",
    "showRecenterCtrl", "video", "loop", "muted", "autoplay",
  ]

  /// The parameters whose values are always text.
  static let textNames = ["panorama", "author", "title", "firstScene", "preview", "lens", "renderer", "video"]

  /// Reads `pairs` (name, value) in order; a later one wins. Values are typed as the JSON
  /// config's are: text parameters stay text; elsewhere `true`/`false` are booleans,
  /// numbers are numbers, the rest strings.
  /// - Throws: `InputError` naming the parameter, when its value has the wrong type.
  public init(_ pairs: [(name: String, value: String)]) throws(InputError) {
    for (name, text) in pairs {
      let path = "URL parameter \(name)"
      switch name {
      case "config": config = text
      case "fallback": fallback = text
      case let n where Self.names.contains(n):
        let value: JSON.Value
        if Self.textNames.contains(n) {
          value = .string(text)  // a title of "100" is a title
        } else if text == "true" || text == "false" {
          value = .bool(text == "true")
        } else if let number = DecimalText.parse(Substring(text)), number.isFinite, !text.isEmpty {
          value = .number(number)
        } else {
          value = .string(text)
        }
        try settings.apply(name, JSONReader(JSON(value), path: path), warnings: &warnings)
      default:
        warnings.append(ConfigWarning(path: path, message: "not a viewer parameter, ignored"))
      }
    }
  }
}
