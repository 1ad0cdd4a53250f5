/// Every key a viewer config may hold, Pannellum's (its doc/json-config-parameters.md and
/// url-config-parameters.md) and ours, in one table: its name, kind, range, default and where
/// it may appear. Every reader of a config (the CLI's `pano render --config`, the app, the
/// web viewer) checks a key by this table, so each key has one rule; a scene's settings are
/// stored by a key's index (``ViewerSettings``), not by its name.
///
/// The cases come in groups, and a scene's settings come first: their `rawValue`s,
/// `0..<settingCount`, index ``ViewerSettings``' storage, in the order `json` writes them.
/// Hotspot and `multiRes` keys that share a name with a scene's (`pitch`, `basePath`) have
/// their own cases; ``named(_:in:)`` finds a name within one scope.
///
/// To add a key: a case in its group, a line in ``spec``; a setting's typed value is then
/// `settings[number: .key]` (or `flag:`, `text:` …) wherever a host reads it.
public enum ViewerKey: Int, CaseIterable, Sendable {
  // A scene's settings (top level, `default`, a scene's own), stored by index.
  case type, panorama, title, author, authorURL, preview, previewTitle, previewAuthor, firstScene, basePath, crossOrigin
  case yaw, pitch, hfov, minYaw, maxYaw, minPitch, maxPitch, minHfov, maxHfov, haov, vaov, vOffset, northOffset
  case horizonPitch, horizonRoll, autoRotate, autoRotateInactivityDelay, autoRotateStopDelay, sceneFadeDuration
  case friction, autoLoad, compass, orientationOnByDefault, showZoomCtrl, keyboardZoom, doubleClickZoom, draggable
  case disableKeyboardCtrl, showFullscreenCtrl, showControls, showLensCtrl, showRecenterCtrl, escapeHTML, targetBlank
  case avoidShowingBackground, ignoreGPanoXMP, mouseZoom, dragConfirm, backgroundColor, strings, lens, renderer
  case cubeMap, multiRes, video, loop, muted, autoplay
  // Pannellum's, known but not supported yet: a warning saying why (nothing when turned off).
  case touchPanSpeedCoeffFactor, multiResMinHfov, hotSpotDebug, capturedKeyNumbers, animationTimingFunction, dynamic
  case dynamicUpdate
  // A tour's structure.
  case defaults, scenes, hotSpots
  // A hotspot's (`hotSpots` entries).
  case spotPitch, spotYaw, spotType, spotText, spotURL, spotSceneId, spotTargetPitch, spotTargetYaw, spotTargetHfov
  case spotId, spotCssClass, spotDraggable, spotAttributes, spotScale, spotScaleFactor
  // `multiRes`' (a tiled cube pyramid).
  case tilesBasePath, tilesPath, tilesFallbackPath, tilesExtension, tileResolution, maxLevel, cubeResolution
  // URL parameters that are not settings.
  case config, fallback

  /// How many keys are a scene's settings: the first cases, ``ViewerSettings``' slots.
  public static let settingCount = ViewerKey.autoplay.rawValue + 1

  /// What one key is: its name in a config, the value it takes, where it may appear, and
  /// Pannellum's default for it (what `getConfig()` reports where a scene sets none).
  public struct Spec: Sendable {
    public var name: String
    public var kind: ViewerKeyKind
    public var scope: ViewerKeyScope
    /// Pannellum's `defaultConfig` value, in its units; nil where it has none a page reads
    /// back (the view's angles and limits, which `getConfig` writes as they are in use).
    public var pannellumDefault: ViewerSettings.Value?

    init(
      _ name: String, _ kind: ViewerKeyKind, _ scope: ViewerKeyScope = .setting,
      _ pannellumDefault: ViewerSettings.Value? = nil
    ) {
      self.name = name
      self.kind = kind
      self.scope = scope
      self.pannellumDefault = pannellumDefault
    }
  }

  /// The table: one line per key.
  public var spec: Spec {
    switch self {
    case .type: Spec("type", .panoramaType, .setting, .text("equirectangular"))
    case .panorama: Spec("panorama", .text, .settingAndURL)
    case .title: Spec("title", .text, .settingAndURL)
    case .author: Spec("author", .text, .settingAndURL)
    case .authorURL: Spec("authorURL", .text)
    case .preview: Spec("preview", .text, .settingAndURL)
    case .previewTitle: Spec("previewTitle", .text)
    case .previewAuthor: Spec("previewAuthor", .text)
    case .firstScene: Spec("firstScene", .text, .settingAndURL)
    case .basePath: Spec("basePath", .text)
    case .crossOrigin: Spec("crossOrigin", .word(["anonymous", "use-credentials"]), .setting, .text("anonymous"))
    case .yaw: Spec("yaw", .angle(.any), .settingAndURL)
    case .pitch: Spec("pitch", .angle(.any), .settingAndURL)
    case .hfov: Spec("hfov", .angle(.positive), .settingAndURL)
    case .minYaw: Spec("minYaw", .angle(.any), .settingAndURL)
    case .maxYaw: Spec("maxYaw", .angle(.any), .settingAndURL)
    case .minPitch: Spec("minPitch", .angle(.any), .settingAndURL)
    case .maxPitch: Spec("maxPitch", .angle(.any), .settingAndURL)
    case .minHfov: Spec("minHfov", .angle(.positive), .settingAndURL)
    case .maxHfov: Spec("maxHfov", .angle(.positive), .settingAndURL)
    case .haov: Spec("haov", .angle(.positive), .settingAndURL, .number(360))
    case .vaov: Spec("vaov", .angle(.positive), .settingAndURL, .number(180))
    case .vOffset: Spec("vOffset", .angle(.any), .settingAndURL, .number(0))
    case .northOffset: Spec("northOffset", .angle(.any), .setting, .number(0))
    case .horizonPitch: Spec("horizonPitch", .angle(.any))
    case .horizonRoll: Spec("horizonRoll", .angle(.any))
    case .autoRotate: Spec("autoRotate", .number(.any), .settingAndURL)  // degrees per second
    case .autoRotateInactivityDelay:
      // Pannellum's -1 ("never") is its default only: a config must give a time.
      Spec("autoRotateInactivityDelay", .milliseconds, .setting, .number(-1))
    case .autoRotateStopDelay: Spec("autoRotateStopDelay", .milliseconds)
    case .sceneFadeDuration: Spec("sceneFadeDuration", .milliseconds)
    case .friction: Spec("friction", .number(.fraction), .setting, .number(0.15))
    case .autoLoad: Spec("autoLoad", .flag, .settingAndURL, .flag(false))
    case .compass: Spec("compass", .flag, .settingAndURL)
    case .orientationOnByDefault: Spec("orientationOnByDefault", .flag, .setting, .flag(false))
    case .showZoomCtrl: Spec("showZoomCtrl", .flag, .settingAndURL, .flag(true))
    case .keyboardZoom: Spec("keyboardZoom", .flag, .settingAndURL, .flag(true))
    case .doubleClickZoom: Spec("doubleClickZoom", .flag, .settingAndURL, .flag(true))
    case .draggable: Spec("draggable", .flag, .settingAndURL, .flag(true))
    case .disableKeyboardCtrl: Spec("disableKeyboardCtrl", .flag, .settingAndURL, .flag(false))
    case .showFullscreenCtrl: Spec("showFullscreenCtrl", .flag, .settingAndURL, .flag(true))
    case .showControls: Spec("showControls", .flag, .settingAndURL, .flag(true))
    case .showLensCtrl: Spec("showLensCtrl", .flag, .settingAndURL)  // ours
    case .showRecenterCtrl: Spec("showRecenterCtrl", .flag, .settingAndURL)  // ours
    case .escapeHTML: Spec("escapeHTML", .flag)
    case .targetBlank: Spec("targetBlank", .flag, .setting, .flag(false))
    case .avoidShowingBackground: Spec("avoidShowingBackground", .flag, .setting, .flag(false))
    case .ignoreGPanoXMP: Spec("ignoreGPanoXMP", .flag, .settingAndURL)
    case .mouseZoom: Spec("mouseZoom", .flagOrWord(["ctrl", "fullscreenonly"]), .settingAndURL, .text("true"))
    case .dragConfirm: Spec("dragConfirm", .flagOrWord(["yaw", "pitch", "both"]), .settingAndURL, .text("false"))
    case .backgroundColor: Spec("backgroundColor", .colour, .setting, .numbers([0, 0, 0]))
    case .strings: Spec("strings", .strings)
    case .lens: Spec("lens", .word(["rectilinear", "stereographic", "fisheye", "equirectangular"]), .settingAndURL)
    case .renderer: Spec("renderer", .word(["webgl2", "cpu"]), .settingAndURL)  // ours
    case .cubeMap: Spec("cubeMap", .faces)
    case .multiRes: Spec("multiRes", .multires)
    case .video: Spec("video", .text, .settingAndURL)  // ours
    case .loop: Spec("loop", .flag, .settingAndURL)  // ours
    case .muted: Spec("muted", .flag, .settingAndURL)  // ours
    case .autoplay: Spec("autoplay", .flag, .settingAndURL)  // ours

    case .touchPanSpeedCoeffFactor:
      Spec("touchPanSpeedCoeffFactor", .unsupported("touch panning follows the finger exactly"))
    case .multiResMinHfov: Spec("multiResMinHfov", .unsupported("tiled panoramas come with the tiled-panorama work"))
    case .hotSpotDebug: Spec("hotSpotDebug", .unsupported("not offered"), .setting, .flag(false))
    case .capturedKeyNumbers: Spec("capturedKeyNumbers", .unsupported("keys come from ImageStage's own table"))
    case .animationTimingFunction: Spec("animationTimingFunction", .unsupported("a function: API only"))
    case .dynamic: Spec("dynamic", .unsupported("video and other changing panoramas are not offered yet"))
    case .dynamicUpdate: Spec("dynamicUpdate", .unsupported("video and other changing panoramas are not offered yet"))

    case .defaults: Spec("default", .defaults, .topLevel)
    case .scenes: Spec("scenes", .scenes, .topLevel)
    case .hotSpots: Spec("hotSpots", .hotSpots, [.topLevel, .scene])

    case .spotPitch: Spec("pitch", .angle(.any), .hotSpot)
    case .spotYaw: Spec("yaw", .angle(.any), .hotSpot)
    case .spotType: Spec("type", .word(["info", "scene"]), .hotSpot)
    case .spotText: Spec("text", .text, .hotSpot)
    case .spotURL: Spec("URL", .text, .hotSpot)
    case .spotSceneId: Spec("sceneId", .text, .hotSpot)
    case .spotTargetPitch: Spec("targetPitch", .target(["same"]), .hotSpot)
    case .spotTargetYaw: Spec("targetYaw", .target(["same", "sameAzimuth"]), .hotSpot)
    case .spotTargetHfov: Spec("targetHfov", .target(["same"]), .hotSpot)
    case .spotId: Spec("id", .text, .hotSpot)
    case .spotCssClass: Spec("cssClass", .text, .hotSpot)
    case .spotDraggable: Spec("draggable", .flag, .hotSpot)
    case .spotAttributes: Spec("attributes", .unsupported(""), .hotSpot)
    case .spotScale: Spec("scale", .unsupported(""), .hotSpot)
    case .spotScaleFactor: Spec("scaleFactor", .unsupported(""), .hotSpot)

    case .tilesBasePath: Spec("basePath", .text, .multiRes)
    case .tilesPath: Spec("path", .text, .multiRes)
    case .tilesFallbackPath: Spec("fallbackPath", .text, .multiRes)
    case .tilesExtension: Spec("extension", .text, .multiRes)
    case .tileResolution: Spec("tileResolution", .count(1, 65536), .multiRes)
    case .maxLevel: Spec("maxLevel", .count(1, 20), .multiRes)
    case .cubeResolution: Spec("cubeResolution", .count(1, 1 << 20), .multiRes)

    case .config: Spec("config", .text, .url)
    case .fallback: Spec("fallback", .text, .url)
    }
  }

  /// The key's name in a config.
  public var name: String { spec.name }
  /// Whether this key is one of a scene's settings (it has a slot in ``ViewerSettings``).
  public var isSetting: Bool { rawValue < Self.settingCount }

  /// The key named `name` that may appear in `scope`, if any (setting keys for a config's
  /// top level, `default` or a scene; hotspot keys for a hotspot …).
  /// - Complexity: O(1) for one scope's names or the settings' and URL's together (tables
  ///   built once: a tour reads it for every key it has, a flood of unknown keys included).
  public static func named(_ name: String, in scope: ViewerKeyScope) -> ViewerKey? {
    let table: [String: ViewerKey]
    if scope.isSubset(of: .settingAndURL) {
      table = settingsByName
    } else if scope == .hotSpot {
      table = hotSpotsByName
    } else if scope == .multiRes {
      table = multiResByName
    } else {
      return allCases.first { !$0.spec.scope.isDisjoint(with: scope) && $0.spec.name == name }
    }
    guard let k = table[name], !k.spec.scope.isDisjoint(with: scope) else { return nil }
    return k
  }

  /// Names that may appear in `scope`, in table order (for "did you mean" hints).
  public static func names(in scope: ViewerKeyScope) -> [String] {
    allCases.filter { !$0.spec.scope.isDisjoint(with: scope) }.map { $0.spec.name }
  }

  /// The keys that may appear in `scope`, by name (names are distinct within the settings
  /// and URL parameters together, within a hotspot, within `multiRes`).
  static func byName(in scope: ViewerKeyScope) -> [String: ViewerKey] {
    var out: [String: ViewerKey] = [:]
    for k in allCases where !k.spec.scope.isDisjoint(with: scope) { out[k.spec.name] = k }
    return out
  }
  static let settingsByName = byName(in: .settingAndURL)
  static let hotSpotsByName = byName(in: .hotSpot)
  static let multiResByName = byName(in: .multiRes)
}

/// The value a ``ViewerKey`` takes, and its range.
public enum ViewerKeyKind: Equatable, Sendable {
  /// A string that is data: a URL, an id, a title.
  case text
  /// A number (`Number(…)`-style strings read too, with a warning).
  case number(NumberRange)
  /// Degrees.
  case angle(NumberRange)
  /// A time in milliseconds, not negative.
  case milliseconds
  /// `true` or `false`.
  case flag
  /// One of these words.
  case word([String])
  /// `true`, `false` or one of these words (kept as text: "true", "false", the word).
  case flagOrWord([String])
  /// A hotspot's target: degrees, or one of these words.
  case target([String])
  /// An integer from the first to the second, inclusive.
  case count(Int, Int)
  /// A scene's `type`: `equirectangular`, `cubemap` or `multires`.
  case panoramaType
  /// `[red, green, blue]`, each from 0 to 1.
  case colour
  /// An object of texts by name (Pannellum's `strings`).
  case strings
  /// Six face images, front, right, back, left, up, down; `null` for a missing one.
  case faces
  /// An object of `multiRes` keys.
  case multires
  /// The tour's `default`: an object of settings.
  case defaults
  /// The tour's `scenes`: an object of scenes by id.
  case scenes
  /// A list of hotspots.
  case hotSpots
  /// Known, not supported yet; why (empty where there is nothing more to say).
  case unsupported(String)

  /// Where a number must lie.
  public enum NumberRange: Equatable, Sendable {
    case any
    /// Above 0.
    case positive
    /// 0 or more.
    case nonNegative
    /// In (0, 1].
    case fraction
  }

  /// Whether a string holding a decimal number is read as that number (Pannellum reads its
  /// numbers with `Number(…)`).
  var readsNumericStrings: Bool {
    switch self {
    case .number, .angle, .milliseconds, .count, .target: true
    default: false
    }
  }
}

/// Where a key may appear.
public struct ViewerKeyScope: OptionSet, Hashable, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// A config's top level.
  public static let topLevel = ViewerKeyScope(rawValue: 1)
  /// A tour's `default` object.
  public static let defaults = ViewerKeyScope(rawValue: 2)
  /// One scene of a tour's `scenes`.
  public static let scene = ViewerKeyScope(rawValue: 4)
  /// A `hotSpots` entry.
  public static let hotSpot = ViewerKeyScope(rawValue: 8)
  /// The `multiRes` object.
  public static let multiRes = ViewerKeyScope(rawValue: 16)
  /// The viewer page's URL (Pannellum's url-config-parameters).
  public static let url = ViewerKeyScope(rawValue: 32)

  /// A scene's setting: at the top level, in `default` or in a scene.
  public static let setting: ViewerKeyScope = [.topLevel, .defaults, .scene]
  /// A setting that is also a URL parameter.
  public static let settingAndURL: ViewerKeyScope = [.topLevel, .defaults, .scene, .url]
}
