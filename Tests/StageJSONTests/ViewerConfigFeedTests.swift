import StageJSON
import Testing

/// `ViewerConfigFeed`: the web viewer's config arrives as one call per value (its JS walks
/// the page's object, naming members by key index), and must read exactly as the same
/// config's text does in the CLI and the app.
@Suite("Viewer config feed")
struct ViewerConfigFeedTests {
  /// The key indices of each scope as web/viewer/viewer-config.js has them (its
  /// `HOTSPOT_KEYS`, `MULTIRES_KEYS`, `URL_KEYS`: ranges of the table, not its scope sets).
  enum JSScope { case settings, scenes, hotSpots, hotSpot, multiRes, plain }
  static func jsKey(_ name: String, in scope: JSScope) -> ViewerKey? {
    let range: Range<Int>
    switch scope {
    case .settings: range = 0..<ViewerKey.spotPitch.rawValue
    case .hotSpot: range = ViewerKey.spotPitch.rawValue..<ViewerKey.tilesBasePath.rawValue
    case .multiRes: range = ViewerKey.tilesBasePath.rawValue..<ViewerKey.config.rawValue
    default: return nil
    }
    return ViewerKey.allCases.first { range.contains($0.rawValue) && $0.name == name }
  }

  /// Feeds `json` to a builder as the viewer's JS (`feedConfig`) does, value by value.
  static func feed(_ json: JSON, in scope: JSScope, into b: inout ViewerConfigFeed) {
    switch json.value {
    case .null: b.add(.null)
    case .bool(let v): b.add(.flag(v))
    case .number(let d): b.add(.number(d))
    case .string(let s): b.add(.text(s))
    case .array(let items):
      b.open(array: true)
      for x in items { feed(x, in: scope == .hotSpots ? .hotSpot : .plain, into: &b) }
      b.close()
    case .object(let members):
      b.open(array: false)
      for m in members {
        if let key = jsKey(m.key, in: scope) { b.key(key) } else { b.key(m.key) }
        var inner = JSScope.plain
        if scope == .settings {
          switch m.key {
          case "default": inner = .settings
          case "scenes": inner = .scenes
          case "hotSpots": inner = .hotSpots
          case "multiRes": inner = .multiRes
          default: break
          }
        } else if scope == .scenes {
          inner = .settings
        }
        feed(m.value, in: inner, into: &b)
      }
      b.close()
    }
  }

  static func fed(_ text: String, in scope: JSScope = .settings) throws -> ConfigValue {
    var b = ViewerConfigFeed()
    feed(try JSONParser.parse(text), in: scope, into: &b)
    return try #require(b.result)
  }

  /// A hotspot without its file position (a fed one has none).
  static func placeless(_ h: HotSpot) -> HotSpot {
    var h = h
    h.line = 0
    h.column = 0
    return h
  }

  /// Configs good and bad: each key kind, each scope, the warnings and errors they give.
  static let configs: [String] = [
    """
    {"default": {"firstScene": "hall", "sceneFadeDuration": 500, "autoLoad": true},
     "scenes": {"hall": {"panorama": "h.jpg", "hfov": "110", "backgroundColor": [0, 0.5, 1],
                         "hotSpots": [{"pitch": 1, "yaw": 2, "type": "scene", "sceneId": "cellar"},
                                      {"pitch": 3, "yaw": 4, "sceneID": "x"}]},
                "kitchen": {"panorama": "k.jpg", "pitch": true, "strings": {"loadButtonLabel": "Go"}}}}
    """,
    """
    {"panorama": "a.jpg", "hfow": 100, "haov": -5, "friction": 2, "mouseZoom": "fullscreenonly",
     "dragConfirm": true, "crossOrigin": "nobody", "lens": "fisheye", "backgroundColor": [0, 2, 0],
     "hotSpotDebug": false, "dynamic": true, "type": "cylinder", "autoRotateInactivityDelay": -1,
     "hotSpots": [{"yaw": "12", "text": 5, "targetYaw": "sameAzimuth", "targetPitch": "up", "scale": true,
                   "draggable": "yes", "type": "link"}, 7, {"pitch": "high"}, {"pitch": 1, "yaw": 2, "id": "a"}],
     "default": {"hotSpots": [], "scenes": {}, "yaw": 3}}
    """,
    """
    {"type": "multires", "multiRes": {"basePath": "t", "path": "/%l/%s%y_%x", "extension": "jpg",
     "tileResolution": "512", "maxLevel": 3, "cubeResolution": 2048, "shape": 1}, "video": "v.mp4"}
    """,
    #"{"type": "multires", "multiRes": {"path": "/%l/%s%y_%x", "extension": "jpg", "tileResolution": 1, "maxLevel": 3, "cubeResolution": 4096}}"#,
    #"{"type": "multires", "multiRes": {"path": "p", "extension": "jpg", "tileResolution": 512, "maxLevel": 30, "cubeResolution": 2048}}"#,
    #"{"type": "multires", "multiRes": {"path": "p", "tileResolution": 512, "maxLevel": 3, "cubeResolution": 2048}}"#,
    #"{"type": "cubemap", "cubeMap": ["f", "r", null, "l", "u", "d"], "video": "v.mp4"}"#,
    #"{"type": "cubemap", "cubeMap": ["f", "r", "b"]}"#,
    #"{"scenes": {"a": 5, "b": {"panorama": "b.jpg", "firstScene": "c"}}, "firstScene": "zz", "strings": {"x": 1}}"#,
    #"{"scenes": {}}"#,
    #"{"scenes": [1], "panorama": "x.jpg", "config": "c.json"}"#,
    #"[1, 2]"#,
    #"{"a1": 1, "a2": 1, "a3": 1, "a4": 1, "a5": 1, "a6": 1, "a7": 1, "a8": 1, "a9": 1, "a10": 1, "a11": 1, "a12": 1, "a13": 1, "a14": 1, "a15": 1, "a16": 1, "a17": 1, "a18": 1, "a19": 1, "a20": 1, "a21": 1, "a22": 1, "panorama": "p.jpg"}"#,
  ]

  @Test(arguments: configs)
  func aConfigFedValueByValueReadsAsItsText(text: String) throws {
    let value = try Self.fed(text)
    let parsed = Result { () throws(InputError) in try ViewerConfig.parse(Array(text.utf8), source: "config") }
    let fed = Result { () throws(InputError) in try ViewerConfig.read(value, source: "config") }
    switch (parsed, fed) {
    case (.success(let p), .success(let f)):
      #expect(f.scenes.map(\.id) == p.scenes.map(\.id))
      #expect(f.scenes.map(\.settings) == p.scenes.map(\.settings))
      #expect(f.scenes.map { $0.hotSpots.map(Self.placeless) } == p.scenes.map { $0.hotSpots.map(Self.placeless) })
      #expect(f.firstScene == p.firstScene)
      #expect(f.defaults == p.defaults)
      // The same warnings with the same key paths; only the file's lines and columns are not known.
      #expect(f.warnings.map(\.description) == p.warnings.map(\.description))
      #expect(f.warnings.allSatisfy { $0.line == 0 })
    case (.failure(let p), .failure(let f)):
      #expect(f.path == p.path && f.message == p.message)
    default:
      Issue.record("the text and the feed disagree: \(parsed) against \(fed)")
    }
  }

  @Test func theTextsWarningsNameTheirKeyPaths() throws {
    let c = try ViewerConfig.read(try Self.fed(Self.configs[0]), source: "config")
    #expect(c.warnings.contains { $0.description.hasPrefix("scenes.hall.hotSpots[1].sceneID: unknown hotspot key") })
    #expect(c.warnings.contains { $0.description.hasPrefix("scenes.kitchen.pitch: expected a number") })
    let bad = try ViewerConfig.read(try Self.fed(Self.configs[1]), source: "config")
    #expect(
      bad.warnings.contains { $0.description == "hotSpots[2].pitch: expected a number, found a string; the hotspot is left out" })
  }

  @Test(arguments: [
    #"{"pitch": 1, "yaw": "2", "type": "scene", "sceneId": "b", "targetHfov": "same", "cssClass": "c"}"#,
    #"{"pitch": [1], "yaw": 2}"#, #"{"yaw": 2, "text": "t", "URL": 3, "colour": 1}"#, #"5"#,
  ])
  func aHotSpotFedReadsAsItsText(text: String) throws {
    let value = try Self.fed(text, in: .hotSpot)
    let parsed = Result { () throws(InputError) in try HotSpot.parse(Array(text.utf8), source: "addHotSpot") }
    let fed = Result { () throws(InputError) in try HotSpot.read(value, source: "addHotSpot") }
    switch (parsed, fed) {
    case (.success(let p), .success(let f)):
      #expect(Self.placeless(f.0) == Self.placeless(p.0))
      #expect(f.1.map(\.description) == p.1.map(\.description))
    case (.failure(let p), .failure(let f)):
      #expect(f.path == p.path && f.message == p.message)
    default:
      Issue.record("the text and the feed disagree: \(parsed) against \(fed)")
    }
  }

  @Test func aSceneAddedFedReadsAsItsText() throws {
    let text = #"{"panorama": "g.jpg", "hfov": true, "hotSpots": [{"pitch": 1, "yaw": 2, "sceneId": "x"}]}"#
    var byText = try ViewerConfig.parse(Array(#"{"scenes": {"a": {"panorama": "a.jpg"}}}"#.utf8), source: "c")
    var byFeed = byText
    let p = try byText.addScene("garden", json: Array(text.utf8), source: "addScene")
    let f = byFeed.addScene("garden", config: try Self.fed(text), source: "addScene")
    #expect(f.map(\.description) == p.map(\.description))
    #expect(byFeed.scene("garden")?.settings == byText.scene("garden")?.settings)
  }

  /// Calls out of order (the JS is ours, but the calls cross a module boundary) leave no
  /// result, and never trap; nesting past the limit is refused.
  @Test func callsOutOfOrderAndTooDeepLeaveNoResult() {
    var memberWithoutKey = ViewerConfigFeed()
    memberWithoutKey.open(array: false)
    memberWithoutKey.add(.number(1))
    memberWithoutKey.close()
    #expect(memberWithoutKey.result == nil)
    var keyInAnArray = ViewerConfigFeed()
    keyInAnArray.open(array: true)
    keyInAnArray.key(.hfov)
    #expect(keyInAnArray.broken)
    var closedTwice = ViewerConfigFeed()
    closedTwice.open(array: true)
    closedTwice.close()
    closedTwice.close()
    #expect(closedTwice.result == nil)
    var twoRoots = ViewerConfigFeed()
    twoRoots.add(.null)
    twoRoots.add(.null)
    #expect(twoRoots.result == nil)
    var unclosed = ViewerConfigFeed()
    unclosed.open(array: true)
    #expect(unclosed.result == nil)
    var deep = ViewerConfigFeed(maxDepth: 8)
    for _ in 0..<9 { deep.open(array: true) }
    for _ in 0..<9 { deep.close() }
    #expect(deep.broken && deep.result == nil)
    var fine = ViewerConfigFeed(maxDepth: 8)
    for _ in 0..<8 { fine.open(array: true) }
    for _ in 0..<8 { fine.close() }
    #expect(fine.result != nil)
  }
}
