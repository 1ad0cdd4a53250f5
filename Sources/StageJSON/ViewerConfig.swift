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
        guard case .object(let d) = m.value.value else { throw r.fail("expected an object, found \(m.value.typeName)") }
        for dm in d {
          let dr = JSONReader(dm.value, path: "default.\(dm.key)")
          if dm.key == "hotSpots" {
            warnings.append(ConfigWarning(path: dr.path, message: "hotspots in default are ignored; give each scene its own"))
          } else {
            try defaults.apply(dm.key, dr, warnings: &warnings)
          }
        }
      case "scenes":
        guard case .object(let s) = m.value.value else { throw r.fail("expected an object, found \(m.value.typeName)") }
        sceneMembers = s
      case "hotSpots": ownHotSpots = try HotSpot.list(r, warnings: &warnings)
      default: try own.apply(m.key, r, warnings: &warnings)
      }
    }
    var scenes: [ViewerScene] = []
    if let sceneMembers {
      for sm in sceneMembers {
        let sr = JSONReader(sm.value, path: "scenes.\(sm.key)")
        guard case .object(let keys) = sm.value.value else { throw sr.fail("expected an object, found \(sm.value.typeName)") }
        // Top-level settings beside `scenes` act as defaults too, under `default`'s.
        var settings = own.merged(over: defaults)
        var hotSpots: [HotSpot] = []
        for k in keys {
          let kr = JSONReader(k.value, path: "\(sr.path).\(k.key)")
          if k.key == "hotSpots" {
            hotSpots = try HotSpot.list(kr, warnings: &warnings)
          } else {
            try settings.apply(k.key, kr, warnings: &warnings)
          }
        }
        scenes.append(ViewerScene(id: sm.key, settings: settings, hotSpots: hotSpots))
      }
      guard !scenes.isEmpty else { throw JSONReader(root.json, path: "scenes").fail("a tour needs at least one scene") }
    } else {
      scenes = [ViewerScene(id: "", settings: own.merged(over: defaults), hotSpots: ownHotSpots)]
    }
    let ids = scenes.map { $0.id }
    for scene in scenes {
      for (k, h) in scene.hotSpots.enumerated() where h.kind == .scene {
        guard let target = h.sceneId, ids.contains(target) else {
          throw InputError(
            path: (scene.id.isEmpty ? "" : "scenes.\(scene.id).") + "hotSpots[\(k)].sceneId",
            message: "names no scene (\(h.sceneId.map { "\"\($0)\"" } ?? "missing")); scenes: \(ids.joined(separator: ", "))",
            line: h.line, column: h.column)
        }
      }
    }
    var first = scenes[0].id
    if let wanted = own.firstScene ?? defaults.firstScene {
      guard ids.contains(wanted) else {
        throw InputError(path: "firstScene", message: "names no scene (\"\(wanted)\"); scenes: \(ids.joined(separator: ", "))")
      }
      first = wanted
    }
    var config = ViewerConfig(scenes: scenes, firstScene: first, warnings: warnings)
    config.defaults = sceneMembers == nil ? defaults : own.merged(over: defaults)
    return config
  }
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
}

/// A key that was read but not used, and where.
public struct ConfigWarning: Equatable, Sendable, CustomStringConvertible {
  public var path: String
  public var message: String
  public var description: String { "\(path): \(message)" }
}

/// What kind of panorama a scene shows (Pannellum's `type`).
public enum PanoramaKind: String, Sendable, CaseIterable {
  case equirectangular, cubemap, multires
}

/// One scene's settings, each `nil` until a config sets it (the viewer's default then).
public struct ViewerSettings: Equatable, Sendable {
  public var type: PanoramaKind?
  public var panorama: String?
  public var title: String?
  public var author: String?
  public var authorURL: String?
  public var preview: String?
  public var previewTitle: String?
  public var previewAuthor: String?
  public var firstScene: String?
  public var basePath: String?
  public var yaw: Double?, pitch: Double?, hfov: Double?
  public var minYaw: Double?, maxYaw: Double?, minPitch: Double?, maxPitch: Double?, minHfov: Double?, maxHfov: Double?
  public var haov: Double?, vaov: Double?, vOffset: Double?
  public var northOffset: Double?, horizonPitch: Double?, horizonRoll: Double?
  /// Degrees per second; negative turns left.
  public var autoRotate: Double?
  /// Milliseconds.
  public var autoRotateInactivityDelay: Double?, autoRotateStopDelay: Double?, sceneFadeDuration: Double?
  public var friction: Double?
  public var autoLoad: Bool?, compass: Bool?, orientationOnByDefault: Bool?, showZoomCtrl: Bool?, keyboardZoom: Bool?
  public var doubleClickZoom: Bool?, draggable: Bool?, disableKeyboardCtrl: Bool?, showFullscreenCtrl: Bool?
  public var showControls: Bool?, escapeHTML: Bool?, targetBlank: Bool?, avoidShowingBackground: Bool?
  public var ignoreGPanoXMP: Bool?
  /// `true`, `false` or `"ctrl"` (zoom only with Ctrl held).
  public var mouseZoom: String?
  /// `true`, `false`, `"yaw"` or `"pitch"`.
  public var dragConfirm: String?
  public var crossOrigin: String?
  /// 0–1 each.
  public var backgroundColor: [Double]?
  /// Pannellum's `strings`: the texts it shows, by name.
  public var strings: [String: String]?
  /// Ours: the lens (`rectilinear`, `stereographic`, `fisheye`, `equirectangular`), the renderer.
  public var lens: String?
  public var renderer: String?

  public init() {}

  /// Pannellum's keys that are known but not supported yet, and why.
  public static let notYetSupported: [(key: String, why: String)] = [
    ("cubeMap", "cube-face panoramas come with the tiled-panorama work"),
    ("multiRes", "tiled panoramas come with the tiled-panorama work"),
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
    m.type = type ?? m.type
    m.panorama = panorama ?? m.panorama
    m.title = title ?? m.title
    m.author = author ?? m.author
    m.authorURL = authorURL ?? m.authorURL
    m.preview = preview ?? m.preview
    m.previewTitle = previewTitle ?? m.previewTitle
    m.previewAuthor = previewAuthor ?? m.previewAuthor
    m.firstScene = firstScene ?? m.firstScene
    m.basePath = basePath ?? m.basePath
    m.yaw = yaw ?? m.yaw
    m.pitch = pitch ?? m.pitch
    m.hfov = hfov ?? m.hfov
    m.minYaw = minYaw ?? m.minYaw
    m.maxYaw = maxYaw ?? m.maxYaw
    m.minPitch = minPitch ?? m.minPitch
    m.maxPitch = maxPitch ?? m.maxPitch
    m.minHfov = minHfov ?? m.minHfov
    m.maxHfov = maxHfov ?? m.maxHfov
    m.haov = haov ?? m.haov
    m.vaov = vaov ?? m.vaov
    m.vOffset = vOffset ?? m.vOffset
    m.northOffset = northOffset ?? m.northOffset
    m.horizonPitch = horizonPitch ?? m.horizonPitch
    m.horizonRoll = horizonRoll ?? m.horizonRoll
    m.autoRotate = autoRotate ?? m.autoRotate
    m.autoRotateInactivityDelay = autoRotateInactivityDelay ?? m.autoRotateInactivityDelay
    m.autoRotateStopDelay = autoRotateStopDelay ?? m.autoRotateStopDelay
    m.sceneFadeDuration = sceneFadeDuration ?? m.sceneFadeDuration
    m.friction = friction ?? m.friction
    m.autoLoad = autoLoad ?? m.autoLoad
    m.compass = compass ?? m.compass
    m.orientationOnByDefault = orientationOnByDefault ?? m.orientationOnByDefault
    m.showZoomCtrl = showZoomCtrl ?? m.showZoomCtrl
    m.keyboardZoom = keyboardZoom ?? m.keyboardZoom
    m.doubleClickZoom = doubleClickZoom ?? m.doubleClickZoom
    m.draggable = draggable ?? m.draggable
    m.disableKeyboardCtrl = disableKeyboardCtrl ?? m.disableKeyboardCtrl
    m.showFullscreenCtrl = showFullscreenCtrl ?? m.showFullscreenCtrl
    m.showControls = showControls ?? m.showControls
    m.escapeHTML = escapeHTML ?? m.escapeHTML
    m.targetBlank = targetBlank ?? m.targetBlank
    m.avoidShowingBackground = avoidShowingBackground ?? m.avoidShowingBackground
    m.ignoreGPanoXMP = ignoreGPanoXMP ?? m.ignoreGPanoXMP
    m.mouseZoom = mouseZoom ?? m.mouseZoom
    m.dragConfirm = dragConfirm ?? m.dragConfirm
    m.crossOrigin = crossOrigin ?? m.crossOrigin
    m.backgroundColor = backgroundColor ?? m.backgroundColor
    m.strings = strings ?? m.strings
    m.lens = lens ?? m.lens
    m.renderer = renderer ?? m.renderer
    return m
  }

  /// Sets `key` from `r`; a key not Pannellum's (nor ours), or not supported yet, is a warning.
  mutating func apply(_ key: String, _ r: JSONReader, warnings: inout [ConfigWarning]) throws(InputError) {
    if case .null = r.json.value { return }
    switch key {
    case "type":
      let name = try r.string()
      guard let kind = PanoramaKind(rawValue: name) else {
        throw r.fail("unknown type \"\(name)\"; expected one of: equirectangular, cubemap, multires")
      }
      if kind != .equirectangular {
        warnings.append(ConfigWarning(path: r.path, message: "\(name) panoramas are not supported yet"))
      }
      type = kind
    case "panorama": panorama = try r.string()
    case "title": title = try r.string()
    case "author": author = try r.string()
    case "authorURL": authorURL = try r.string()
    case "preview": preview = try r.string()
    case "previewTitle": previewTitle = try r.string()
    case "previewAuthor": previewAuthor = try r.string()
    case "firstScene": firstScene = try r.string()
    case "basePath": basePath = try r.string()
    case "crossOrigin": crossOrigin = try r.string()
    case "yaw": yaw = try r.double()
    case "pitch": pitch = try r.double()
    case "hfov": hfov = try Self.positive(r)
    case "minYaw": minYaw = try r.double()
    case "maxYaw": maxYaw = try r.double()
    case "minPitch": minPitch = try r.double()
    case "maxPitch": maxPitch = try r.double()
    case "minHfov": minHfov = try Self.positive(r)
    case "maxHfov": maxHfov = try Self.positive(r)
    case "haov": haov = try Self.positive(r)
    case "vaov": vaov = try Self.positive(r)
    case "vOffset": vOffset = try r.double()
    case "northOffset": northOffset = try r.double()
    case "horizonPitch": horizonPitch = try r.double()
    case "horizonRoll": horizonRoll = try r.double()
    case "autoRotate": autoRotate = try r.double()
    case "autoRotateInactivityDelay": autoRotateInactivityDelay = try r.nonNegative()
    case "autoRotateStopDelay": autoRotateStopDelay = try r.nonNegative()
    case "sceneFadeDuration": sceneFadeDuration = try r.nonNegative()
    case "friction":
      let f = try r.double()
      guard f > 0, f <= 1 else { throw r.fail("must be in (0, 1] (found \(JSONText.number(f)))") }
      friction = f
    case "autoLoad": autoLoad = try r.bool()
    case "compass": compass = try r.bool()
    case "orientationOnByDefault": orientationOnByDefault = try r.bool()
    case "showZoomCtrl": showZoomCtrl = try r.bool()
    case "keyboardZoom": keyboardZoom = try r.bool()
    case "doubleClickZoom": doubleClickZoom = try r.bool()
    case "draggable": draggable = try r.bool()
    case "disableKeyboardCtrl": disableKeyboardCtrl = try r.bool()
    case "showFullscreenCtrl": showFullscreenCtrl = try r.bool()
    case "showControls": showControls = try r.bool()
    case "escapeHTML": escapeHTML = try r.bool()
    case "targetBlank": targetBlank = try r.bool()
    case "avoidShowingBackground": avoidShowingBackground = try r.bool()
    case "ignoreGPanoXMP": ignoreGPanoXMP = try r.bool()
    case "mouseZoom": mouseZoom = try Self.boolOr(r, ["ctrl"])
    case "dragConfirm": dragConfirm = try Self.boolOr(r, ["yaw", "pitch"])
    case "backgroundColor":
      let parts = try r.array()
      guard parts.count == 3 else { throw r.fail("expected [red, green, blue] from 0 to 1, found \(parts.count) numbers") }
      var rgb: [Double] = []
      for p in parts {
        let c = try p.double()
        guard c >= 0, c <= 1 else { throw p.fail("must be from 0 to 1 (found \(JSONText.number(c)))") }
        rgb.append(c)
      }
      backgroundColor = rgb
    case "strings":
      guard case .object(let members) = r.json.value else { throw r.fail("expected an object, found \(r.json.typeName)") }
      var s: [String: String] = [:]
      for m in members { s[m.key] = try JSONReader(m.value, path: "\(r.path).\(m.key)").string() }
      strings = s
    case "lens": lens = try r.oneOf(["rectilinear", "stereographic", "fisheye", "equirectangular"].map { ($0, $0) })
    case "renderer": renderer = try r.oneOf([("webgl2", "webgl2"), ("cpu", "cpu")])
    default:
      if let why = Self.notYetSupported.first(where: { $0.key == key })?.why {
        warnings.append(ConfigWarning(path: r.path, message: "not supported yet: \(why)"))
      } else {
        warnings.append(ConfigWarning(path: r.path, message: "unknown key, ignored"))
      }
    }
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

  static func list(_ r: JSONReader, warnings: inout [ConfigWarning]) throws(InputError) -> [HotSpot] {
    var out: [HotSpot] = []
    for e in try r.array() { out.append(try HotSpot(e, warnings: &warnings)) }
    return out
  }

  init(_ r: JSONReader, warnings: inout [ConfigWarning]) throws(InputError) {
    guard case .object(let members) = r.json.value else { throw r.fail("expected an object, found \(r.json.typeName)") }
    for m in members where !Self.keys.contains(m.key) {
      warnings.append(ConfigWarning(path: "\(r.path).\(m.key)", message: "unknown hotspot key, ignored"))
    }
    for name in ["attributes", "scale", "scaleFactor"] where r.json[name] != nil {
      warnings.append(ConfigWarning(path: "\(r.path).\(name)", message: "not supported yet"))
    }
    pitch = try r.require("pitch").double()
    yaw = try r.require("yaw").double()
    kind = try r.optional("type")?.oneOf([("info", Kind.info), ("scene", Kind.scene)]) ?? .info
    text = try r.optional("text")?.string()
    url = try r.optional("URL")?.string()
    sceneId = try r.optional("sceneId")?.string()
    func target(_ key: String, words: [(String, Target)]) throws(InputError) -> Target? {
      guard let t = r.optional(key) else { return nil }
      if case .number(let d) = t.json.value { return .degrees(d) }
      return try t.oneOf(words)
    }
    targetPitch = try target("targetPitch", words: [("same", .same)])
    targetYaw = try target("targetYaw", words: [("same", .same), ("sameAzimuth", .sameAzimuth)])
    targetHfov = try target("targetHfov", words: [("same", .same)])
    id = try r.optional("id")?.string()
    cssClass = try r.optional("cssClass")?.string()
    draggable = try r.optional("draggable")?.bool() ?? false
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
    "disableKeyboardCtrl", "draggable", "showControls", "dragConfirm", "lens", "renderer",
  ]

  /// The parameters whose values are always text.
  static let textNames = ["panorama", "author", "title", "firstScene", "preview", "lens", "renderer"]

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
