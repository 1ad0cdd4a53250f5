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
/// To add a key: a case in its group, a line in ``rule`` and ``name`` (and its words, Pannellum's default …); a setting's typed value is then
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

  /// The key's name in a config.
  public var name: String {
    switch self {
    case .type: "type"
    case .panorama: "panorama"
    case .title: "title"
    case .author: "author"
    case .authorURL: "authorURL"
    case .preview: "preview"
    case .previewTitle: "previewTitle"
    case .previewAuthor: "previewAuthor"
    case .firstScene: "firstScene"
    case .basePath: "basePath"
    case .crossOrigin: "crossOrigin"
    case .yaw: "yaw"
    case .pitch: "pitch"
    case .hfov: "hfov"
    case .minYaw: "minYaw"
    case .maxYaw: "maxYaw"
    case .minPitch: "minPitch"
    case .maxPitch: "maxPitch"
    case .minHfov: "minHfov"
    case .maxHfov: "maxHfov"
    case .haov: "haov"
    case .vaov: "vaov"
    case .vOffset: "vOffset"
    case .northOffset: "northOffset"
    case .horizonPitch: "horizonPitch"
    case .horizonRoll: "horizonRoll"
    case .autoRotate: "autoRotate"
    case .autoRotateInactivityDelay: "autoRotateInactivityDelay"
    case .autoRotateStopDelay: "autoRotateStopDelay"
    case .sceneFadeDuration: "sceneFadeDuration"
    case .friction: "friction"
    case .autoLoad: "autoLoad"
    case .compass: "compass"
    case .orientationOnByDefault: "orientationOnByDefault"
    case .showZoomCtrl: "showZoomCtrl"
    case .keyboardZoom: "keyboardZoom"
    case .doubleClickZoom: "doubleClickZoom"
    case .draggable: "draggable"
    case .disableKeyboardCtrl: "disableKeyboardCtrl"
    case .showFullscreenCtrl: "showFullscreenCtrl"
    case .showControls: "showControls"
    case .showLensCtrl: "showLensCtrl"
    case .showRecenterCtrl: "showRecenterCtrl"
    case .escapeHTML: "escapeHTML"
    case .targetBlank: "targetBlank"
    case .avoidShowingBackground: "avoidShowingBackground"
    case .ignoreGPanoXMP: "ignoreGPanoXMP"
    case .mouseZoom: "mouseZoom"
    case .dragConfirm: "dragConfirm"
    case .backgroundColor: "backgroundColor"
    case .strings: "strings"
    case .lens: "lens"
    case .renderer: "renderer"
    case .cubeMap: "cubeMap"
    case .multiRes: "multiRes"
    case .video: "video"
    case .loop: "loop"
    case .muted: "muted"
    case .autoplay: "autoplay"
    case .touchPanSpeedCoeffFactor: "touchPanSpeedCoeffFactor"
    case .multiResMinHfov: "multiResMinHfov"
    case .hotSpotDebug: "hotSpotDebug"
    case .capturedKeyNumbers: "capturedKeyNumbers"
    case .animationTimingFunction: "animationTimingFunction"
    case .dynamic: "dynamic"
    case .dynamicUpdate: "dynamicUpdate"
    case .defaults: "default"
    case .scenes: "scenes"
    case .hotSpots: "hotSpots"
    case .spotPitch: "pitch"
    case .spotYaw: "yaw"
    case .spotType: "type"
    case .spotText: "text"
    case .spotURL: "URL"
    case .spotSceneId: "sceneId"
    case .spotTargetPitch: "targetPitch"
    case .spotTargetYaw: "targetYaw"
    case .spotTargetHfov: "targetHfov"
    case .spotId: "id"
    case .spotCssClass: "cssClass"
    case .spotDraggable: "draggable"
    case .spotAttributes: "attributes"
    case .spotScale: "scale"
    case .spotScaleFactor: "scaleFactor"
    case .tilesBasePath: "basePath"
    case .tilesPath: "path"
    case .tilesFallbackPath: "fallbackPath"
    case .tilesExtension: "extension"
    case .tileResolution: "tileResolution"
    case .maxLevel: "maxLevel"
    case .cubeResolution: "cubeResolution"
    case .config: "config"
    case .fallback: "fallback"
    }
  }

  /// The table: each key's kind (with its range) and the scopes it may appear in, one line a
  /// key. Kept apart from the names and free of payloads that allocate, so the compiler
  /// makes each a table of constants (one switch building every key's strings and arrays
  /// was 22 KB of the viewer's wasm).
  public var rule: (kind: ViewerKeyKind, scope: ViewerKeyScope) {
    switch self {
    case .type: (.panoramaType, .setting)
    case .panorama: (.text, .settingAndURL)
    case .title: (.text, .settingAndURL)
    case .author: (.text, .settingAndURL)
    case .authorURL: (.text, .setting)
    case .preview: (.text, .settingAndURL)
    case .previewTitle: (.text, .setting)
    case .previewAuthor: (.text, .setting)
    case .firstScene: (.text, .settingAndURL)
    case .basePath: (.text, .setting)
    case .crossOrigin: (.word, .setting)
    case .yaw: (.angle(.any), .settingAndURL)
    case .pitch: (.angle(.any), .settingAndURL)
    case .hfov: (.angle(.positive), .settingAndURL)
    case .minYaw: (.angle(.any), .settingAndURL)
    case .maxYaw: (.angle(.any), .settingAndURL)
    case .minPitch: (.angle(.any), .settingAndURL)
    case .maxPitch: (.angle(.any), .settingAndURL)
    case .minHfov: (.angle(.positive), .settingAndURL)
    case .maxHfov: (.angle(.positive), .settingAndURL)
    case .haov: (.angle(.positive), .settingAndURL)
    case .vaov: (.angle(.positive), .settingAndURL)
    case .vOffset: (.angle(.any), .settingAndURL)
    case .northOffset: (.angle(.any), .setting)
    case .horizonPitch: (.angle(.any), .setting)
    case .horizonRoll: (.angle(.any), .setting)
    case .autoRotate: (.number(.any), .settingAndURL)  // degrees per second
    case .autoRotateInactivityDelay: (.milliseconds, .setting)
    case .autoRotateStopDelay: (.milliseconds, .setting)
    case .sceneFadeDuration: (.milliseconds, .setting)
    case .friction: (.number(.fraction), .setting)
    case .autoLoad: (.flag, .settingAndURL)
    case .compass: (.flag, .settingAndURL)
    case .orientationOnByDefault: (.flag, .setting)
    case .showZoomCtrl: (.flag, .settingAndURL)
    case .keyboardZoom: (.flag, .settingAndURL)
    case .doubleClickZoom: (.flag, .settingAndURL)
    case .draggable: (.flag, .settingAndURL)
    case .disableKeyboardCtrl: (.flag, .settingAndURL)
    case .showFullscreenCtrl: (.flag, .settingAndURL)
    case .showControls: (.flag, .settingAndURL)
    case .showLensCtrl: (.flag, .settingAndURL)  // ours
    case .showRecenterCtrl: (.flag, .settingAndURL)  // ours
    case .escapeHTML: (.flag, .setting)
    case .targetBlank: (.flag, .setting)
    case .avoidShowingBackground: (.flag, .setting)
    case .ignoreGPanoXMP: (.flag, .settingAndURL)
    case .mouseZoom: (.flagOrWord, .settingAndURL)
    case .dragConfirm: (.flagOrWord, .settingAndURL)
    case .backgroundColor: (.colour, .setting)
    case .strings: (.strings, .setting)
    case .lens: (.word, .settingAndURL)
    case .renderer: (.word, .settingAndURL)  // ours
    case .cubeMap: (.faces, .setting)
    case .multiRes: (.multires, .setting)
    case .video: (.text, .settingAndURL)  // ours
    case .loop: (.flag, .settingAndURL)  // ours
    case .muted: (.flag, .settingAndURL)  // ours
    case .autoplay: (.flag, .settingAndURL)  // ours
    case .touchPanSpeedCoeffFactor: (.unsupported, .setting)
    case .multiResMinHfov: (.unsupported, .setting)
    case .hotSpotDebug: (.unsupported, .setting)
    case .capturedKeyNumbers: (.unsupported, .setting)
    case .animationTimingFunction: (.unsupported, .setting)
    case .dynamic: (.unsupported, .setting)
    case .dynamicUpdate: (.unsupported, .setting)
    case .defaults: (.defaults, .topLevel)
    case .scenes: (.scenes, .topLevel)
    case .hotSpots: (.hotSpots, [.topLevel, .scene])
    case .spotPitch: (.angle(.any), .hotSpot)
    case .spotYaw: (.angle(.any), .hotSpot)
    case .spotType: (.word, .hotSpot)
    case .spotText: (.text, .hotSpot)
    case .spotURL: (.text, .hotSpot)
    case .spotSceneId: (.text, .hotSpot)
    case .spotTargetPitch: (.target, .hotSpot)
    case .spotTargetYaw: (.target, .hotSpot)
    case .spotTargetHfov: (.target, .hotSpot)
    case .spotId: (.text, .hotSpot)
    case .spotCssClass: (.text, .hotSpot)
    case .spotDraggable: (.flag, .hotSpot)
    case .spotAttributes: (.unsupported, .hotSpot)
    case .spotScale: (.unsupported, .hotSpot)
    case .spotScaleFactor: (.unsupported, .hotSpot)
    case .tilesBasePath: (.text, .multiRes)
    case .tilesPath: (.text, .multiRes)
    case .tilesFallbackPath: (.text, .multiRes)
    case .tilesExtension: (.text, .multiRes)
    case .tileResolution: (.count(1, 65536), .multiRes)
    case .maxLevel: (.count(1, 20), .multiRes)
    case .cubeResolution: (.count(1, 1 << 20), .multiRes)
    case .config: (.text, .url)
    case .fallback: (.text, .url)
    }
  }

  /// The value this key takes.
  public var kind: ViewerKeyKind { rule.kind }
  /// Where this key may appear.
  public var scope: ViewerKeyScope { rule.scope }

  /// The words a `word`, `flagOrWord` or `target` key takes.
  public var words: [String] {
    switch self {
    case .crossOrigin: ["anonymous", "use-credentials"]
    case .mouseZoom: ["ctrl", "fullscreenonly"]
    case .dragConfirm: ["yaw", "pitch", "both"]
    case .lens: ["rectilinear", "stereographic", "fisheye", "equirectangular"]
    case .renderer: ["webgl2", "cpu"]
    case .spotType: ["info", "scene"]
    case .spotTargetPitch: ["same"]
    case .spotTargetYaw: ["same", "sameAzimuth"]
    case .spotTargetHfov: ["same"]
    default: []
    }
  }

  /// Why a key that is not supported yet is not (empty where there is nothing more to say).
  public var whyUnsupported: String {
    switch self {
    case .touchPanSpeedCoeffFactor: "touch panning follows the finger exactly"
    case .multiResMinHfov: "tiled panoramas come with the tiled-panorama work"
    case .hotSpotDebug: "not offered"
    case .capturedKeyNumbers: "keys come from ImageStage's own table"
    case .animationTimingFunction: "a function: API only"
    case .dynamic: "video and other changing panoramas are not offered yet"
    case .dynamicUpdate: "video and other changing panoramas are not offered yet"
    default: ""
    }
  }

  /// Pannellum's `defaultConfig` value, in its units: what `getConfig()` reports where a
  /// scene sets none. Nil where it has none a page reads back (the view's angles and
  /// limits, which `getConfig` writes as they are in use).
  public var pannellumDefault: ViewerSettings.Value? {
    switch self {
    case .type: .text("equirectangular")
    case .crossOrigin: .text("anonymous")
    case .haov: .number(360)
    case .vaov: .number(180)
    case .vOffset: .number(0)
    case .northOffset: .number(0)
    case .autoRotateInactivityDelay: .number(-1)  // "never": Pannellum's default only; a config gives a time
    case .friction: .number(0.15)
    case .autoLoad: .flag(false)
    case .orientationOnByDefault: .flag(false)
    case .showZoomCtrl: .flag(true)
    case .keyboardZoom: .flag(true)
    case .doubleClickZoom: .flag(true)
    case .draggable: .flag(true)
    case .disableKeyboardCtrl: .flag(false)
    case .showFullscreenCtrl: .flag(true)
    case .showControls: .flag(true)
    case .targetBlank: .flag(false)
    case .avoidShowingBackground: .flag(false)
    case .mouseZoom: .text("true")
    case .dragConfirm: .text("false")
    case .backgroundColor: .numbers([0, 0, 0])
    case .hotSpotDebug: .flag(false)
    default: nil
    }
  }

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
      return allCases.first { !$0.scope.isDisjoint(with: scope) && $0.name == name }
    }
    guard let k = table[name], !k.scope.isDisjoint(with: scope) else { return nil }
    return k
  }

  /// Names that may appear in `scope`, in table order (for "did you mean" hints).
  public static func names(in scope: ViewerKeyScope) -> [String] {
    allCases.filter { !$0.scope.isDisjoint(with: scope) }.map { $0.name }
  }

  /// The keys that may appear in `scope`, by name (names are distinct within the settings
  /// and URL parameters together, within a hotspot, within `multiRes`).
  static func byName(in scope: ViewerKeyScope) -> [String: ViewerKey] {
    var out: [String: ViewerKey] = [:]
    for k in allCases where !k.scope.isDisjoint(with: scope) { out[k.name] = k }
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
  /// One of the key's ``ViewerKey/words``.
  case word
  /// `true`, `false` or one of the key's words (kept as text: "true", "false", the word).
  case flagOrWord
  /// A hotspot's target: degrees, or one of the key's words.
  case target
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
  /// Known, not supported yet (``ViewerKey/whyUnsupported`` says why).
  case unsupported

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
