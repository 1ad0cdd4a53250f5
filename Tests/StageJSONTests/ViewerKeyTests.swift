import Foundation
import StageJSON
import Testing

/// The viewer's key table (`ViewerKey`): each key found by its name where it may appear, and
/// read by its kind, in every place a config may give it.
@Suite("Viewer key table")
struct ViewerKeyTests {
  static let scopes: [ViewerKeyScope] = [.topLevel, .defaults, .scene, .hotSpot, .multiRes, .url]

  @Test func everyKeyIsFoundByItsNameInEachScopeItMayAppearAndNowhereElse() {
    for key in ViewerKey.allCases {
      for scope in Self.scopes {
        let found = ViewerKey.named(key.name, in: scope)
        if key.scope.contains(scope) {
          #expect(found == key, "\(key.name) in scope \(scope.rawValue)")
        } else {
          #expect(found != key, "\(key.name) is not for scope \(scope.rawValue)")
        }
      }
    }
  }

  @Test func namesAreDistinctWithinEachScope() {
    for scope in Self.scopes {
      let names = ViewerKey.names(in: scope)
      #expect(Set(names).count == names.count, "scope \(scope.rawValue): \(names)")
    }
  }

  @Test func theSettingsComeFirstAndAreTheOnlyKeysWithASlot() {
    #expect(ViewerKey.allCases.prefix(ViewerKey.settingCount).allSatisfy { $0.scope.contains(.scene) })
    #expect(ViewerKey.allCases.filter(\.isSetting).count == ViewerKey.settingCount)
  }

  /// Pannellum's own lists, as its docs give them (and ours after them): the table must
  /// neither lose one nor take a stranger in.
  @Test func theScopesHoldPannellumsKeysAndOurs() {
    #expect(
      Set(ViewerKey.names(in: .hotSpot)) == [
        "pitch", "yaw", "type", "text", "URL", "sceneId", "targetPitch", "targetYaw", "targetHfov", "id", "cssClass",
        "draggable", "attributes", "scale", "scaleFactor",
      ])
    #expect(
      Set(ViewerKey.names(in: .multiRes)) == [
        "basePath", "path", "fallbackPath", "extension", "tileResolution", "maxLevel", "cubeResolution",
      ])
    #expect(
      Set(ViewerKey.names(in: .url)) == [
        "config", "panorama", "author", "title", "hfov", "minHfov", "maxHfov", "pitch", "minPitch", "maxPitch", "yaw",
        "minYaw", "maxYaw", "haov", "vaov", "vOffset", "autoLoad", "autoRotate", "firstScene", "ignoreGPanoXMP",
        "preview", "fallback", "compass", "showFullscreenCtrl", "showZoomCtrl", "keyboardZoom", "mouseZoom",
        "doubleClickZoom", "disableKeyboardCtrl", "draggable", "showControls", "dragConfirm", "lens", "renderer",
        "showLensCtrl", "showRecenterCtrl", "video", "loop", "muted", "autoplay",
      ])
  }

  /// What `getConfig()` reports for a key a scene leaves unset: Pannellum's `defaultConfig`.
  @Test func getConfigsDefaultsArePannellums() {
    let written = Dictionary(uniqueKeysWithValues: ViewerSettings.pannellumDefaults.map { ($0.key, $0.value.text) })
    #expect(
      written == [
        "type": #""equirectangular""#, "haov": "360", "vaov": "180", "vOffset": "0", "northOffset": "0",
        "autoRotateInactivityDelay": "-1", "showFullscreenCtrl": "true", "doubleClickZoom": "true",
        "keyboardZoom": "true", "mouseZoom": "true", "showZoomCtrl": "true", "autoLoad": "false", "showControls": "true",
        "orientationOnByDefault": "false", "hotSpotDebug": "false", "backgroundColor": "[0,0,0]",
        "avoidShowingBackground": "false", "draggable": "true", "dragConfirm": "false", "disableKeyboardCtrl": "false",
        "crossOrigin": #""anonymous""#, "targetBlank": "false", "friction": "0.15",
      ])
  }

  /// A value each kind takes, and one none takes.
  static func goodValue(_ key: ViewerKey) -> String {
    switch key.kind {
    case .text: #""a b""#
    case .number(.fraction): "0.5"
    case .number, .angle, .milliseconds: "5"
    case .flag: "true"
    case .word, .flagOrWord: "\"\(key.words.last!)\""
    case .panoramaType: #""cubemap""#
    case .colour: "[0, 0.5, 1]"
    case .strings: #"{"loadButtonLabel": "Load"}"#
    case .faces: #"["f", "r", "b", null, "u", "d"]"#
    case .multires: #"{"path": "/%l/%s%y_%x", "extension": "jpg", "tileResolution": 512, "maxLevel": 3, "cubeResolution": 2048}"#
    default: "null"
    }
  }

  static let settings = ViewerKey.allCases.filter(\.isSetting)

  /// Each setting reads a value of its kind wherever a setting may be (the top level,
  /// `default`, a scene) without a word, and a value of no kind is a warning naming its path,
  /// the setting left unset: one rule per key, read by the table.
  @Test(arguments: settings)
  func everySettingReadsItsKindEverywhereAndWarnsAtItsPathOtherwise(_ key: ViewerKey) throws {
    let good = Self.goodValue(key)
    for (text, scene) in [
      (#"{"\#(key.name)": \#(good)}"#, ""),
      (#"{"default": {"\#(key.name)": \#(good)}, "scenes": {"a": {}}}"#, "a"),
      (#"{"scenes": {"a": {"\#(key.name)": \#(good)}}}"#, "a"),
    ] {
      let config = try ViewerConfig.parse(Array(text.utf8), source: "c.json")
      // A `firstScene` that names no scene is said so; the key is read all the same.
      #expect(config.warnings.allSatisfy { $0.path == "firstScene" && key == .firstScene }, "\(text): \(config.warnings)")
      #expect(config.scene(scene)?.settings[key] != nil, "\(text)")
    }
    let config = try ViewerConfig.parse(Array(#"{"scenes": {"a": {"\#(key.name)": [[]]}}}"#.utf8), source: "c.json")
    #expect(config.warnings.count == 1, "\(config.warnings)")
    #expect(config.warnings.first?.path.hasPrefix("scenes.a.\(key.name)") == true, "\(config.warnings)")
    #expect(config.warnings.first?.message.hasSuffix("; ignored") == true, "\(config.warnings)")
    #expect(config.scene("a")?.settings[key] == nil)
  }

  /// Stored by index: what one key is set to is that key's alone, and `json` writes it back
  /// under its own name.
  @Test(arguments: settings)
  func aSettingIsStoredInItsOwnSlot(_ key: ViewerKey) throws {
    let text = #"{"\#(key.name)": \#(Self.goodValue(key))}"#
    let s = try ViewerConfig.parse(Array(text.utf8), source: "c.json").scenes[0].settings
    #expect(ViewerKey.allCases.filter(\.isSetting).filter { s[$0] != nil } == [key])
    guard case .object(let members) = s.json else { return }
    #expect(members.map(\.0) == [key.name])
  }

  /// The web viewer's JS feeds member names as this table's indices (web/viewer/viewer-config.js,
  /// `KEY_NAMES` and the first index of each group): a key added, moved or renamed here and
  /// not there would cross as another key.
  @Test func theWebViewersKeyListIsThisTable() throws {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("web/viewer/viewer-config.js")
    let js = try String(contentsOf: file, encoding: .utf8)
    // The names: the quoted pieces between `KEY_NAMES = (` and `).split`.
    let list = try #require(js.range(of: "KEY_NAMES = (")).upperBound
    let end = try #require(js.range(of: ").split(' ')", range: list..<js.endIndex)).lowerBound
    let pieces = js[list..<end].split(separator: "'", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    let names = pieces.joined().split(separator: " ").map(String.init)
    #expect(names == ViewerKey.allCases.map(\.name))
    func group(_ name: String) throws -> Int? {
      let at = try #require(js.range(of: "\(name) = ")).upperBound
      return Int(js[at...].prefix { $0.isNumber })
    }
    #expect(try group("HOTSPOT_KEYS") == ViewerKey.spotPitch.rawValue)
    #expect(try group("MULTIRES_KEYS") == ViewerKey.tilesBasePath.rawValue)
    #expect(try group("URL_KEYS") == ViewerKey.config.rawValue)
    // The groups hold their scope's keys only (the JS looks a name up in its scope's group).
    for key in ViewerKey.allCases {
      let scope: ViewerKeyScope =
        key.rawValue < ViewerKey.spotPitch.rawValue
        ? [.topLevel, .defaults, .scene]
        : key.rawValue < ViewerKey.tilesBasePath.rawValue ? .hotSpot : key.rawValue < ViewerKey.config.rawValue ? .multiRes : .url
      #expect(!key.scope.isDisjoint(with: scope), "\(key.name) sits in the JS group of another scope")
    }
  }
}
