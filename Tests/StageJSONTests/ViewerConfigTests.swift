import Foundation
import StageJSON
import Testing

/// Pannellum's JSON config (doc/json-config-parameters.md) read by `ViewerConfig`, against
/// Pannellum's own example files (Tests/Fixtures/pannellum, MIT) and hand-made bad ones.
@Suite("Viewer config")
struct ViewerConfigTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/pannellum")

  static func parse(_ text: String) throws(InputError) -> ViewerConfig {
    try ViewerConfig.parse(Array(text.utf8), source: "test.json")
  }

  @Test func pannellumsExampleTourReadsAsATour() throws {
    let bytes = Array(try Data(contentsOf: Self.fixtures.appendingPathComponent("example-tour.json")))
    #expect(bytes.starts(with: [0xEF, 0xBB, 0xBF]), "the file starts with a byte order mark")
    let config = try ViewerConfig.parse(bytes, source: "example-tour.json")
    #expect(config.scenes.map(\.id) == ["pondCube", "pond"])
    #expect(config.firstScene == "pond", "default.firstScene")
    let pond = try #require(config.scene("pond"))
    #expect(pond.settings.panorama == "./examplepano.jpg" && pond.settings.title == "Jordan Pond")
    #expect(pond.settings.author == "Matthew Petroff" && pond.settings.sceneFadeDuration == 2000, "defaults merged in")
    #expect(pond.hotSpots == [pond.hotSpots[0]] && pond.hotSpots[0].kind == .scene && pond.hotSpots[0].sceneId == "pondCube")
    let cube = try #require(config.scene("pondCube"))
    #expect(cube.settings.type == .cubemap)
    #expect(cube.hotSpots.map(\.kind) == [.info, .info, .scene])
    #expect(cube.hotSpots[1].url == "https://github.com/mpetroff/pannellum")
    #expect(!config.warnings.contains { $0.path.hasPrefix("scenes.pondCube") }, "a cube scene is a scene: \(config.warnings)")
    #expect(cube.settings.cubeMap?.count == 6 && cube.settings.cubeMap?[4].hasSuffix("4.jpg") == true)
  }

  @Test func pannellumsMultiresExampleIsOneSceneWithItsPyramid() throws {
    let bytes = Array(try Data(contentsOf: Self.fixtures.appendingPathComponent("example-multires.json")))
    let config = try ViewerConfig.parse(bytes, source: "example-multires.json")
    #expect(config.scenes.count == 1 && config.scenes[0].settings.type == .multires)
    #expect(config.scenes[0].settings.title == "Multires Test")
    let m = try #require(config.scenes[0].settings.multiRes)
    #expect(m.basePath == "./multires" && m.path == "/%l/%s%x%y" && m.fallbackPath == "/fallback/%s")
    #expect(m.fileExtension == "png" && m.tileResolution == 256 && m.maxLevel == 4 && m.cubeResolution == 2048)
    #expect(config.warnings.isEmpty, "\(config.warnings)")
    // Written back as read.
    #expect(config.scenes[0].settings.json.text.contains(#""multiRes":{"basePath":"./multires","path":"/%l/%s%x%y""#))
  }

  /// A pyramid that cannot be: a clear error at the key, never an allocation.
  @Test(arguments: [
    (
      #"{"path": "/%l/%s%y_%x", "extension": "jpg", "tileResolution": 512, "maxLevel": 40, "cubeResolution": 8192}"#,
      "multiRes.maxLevel: must be from 1 to 20"
    ),
    (
      #"{"path": "/%l/%s%y_%x", "extension": "jpg", "tileResolution": 512, "maxLevel": 15, "cubeResolution": 8192}"#,
      "15 levels halve a 8192 px face to nothing; at most 14"
    ),
    (
      #"{"path": "/%l/%s%y_%x", "extension": "jpg", "tileResolution": 1, "maxLevel": 3, "cubeResolution": 8192}"#,
      "over a million tiles a face"
    ),
    (#"{"path": "/%l/%s%y_%x", "extension": "jpg", "tileResolution": 512, "maxLevel": 3}"#, "cubeResolution"),
    (
      #"{"path": "/%l/%s%y_%x", "extension": "jpg", "tileResolution": -5, "maxLevel": 3, "cubeResolution": 64}"#,
      "multiRes.tileResolution: must be from 1"
    ),
  ])
  func impossiblePyramidsAreRefusedAtTheirKey(_ multiRes: String, _ expected: String) throws {
    let error = #expect(throws: InputError.self) {
      try ViewerConfig.parse(Array(#"{"type": "multires", "multiRes": \#(multiRes)}"#.utf8), source: "c.json")
    }
    #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
  }

  @Test func sceneKeysOverrideDefaultsAndTopLevelKeys() throws {
    let config = try Self.parse(
      """
      {"hfov": 100, "default": {"yaw": 10, "autoRotate": -2, "firstScene": "b"},
       "scenes": {"a": {"panorama": "a.jpg", "yaw": 20}, "b": {"panorama": "b.jpg", "hfov": 60, "hotSpots": [
         {"pitch": 0, "yaw": 5, "type": "scene", "sceneId": "a", "targetYaw": "sameAzimuth", "targetHfov": 70}]}}}
      """)
    #expect(config.firstScene == "b")
    let a = try #require(config.scene("a")), b = try #require(config.scene("b"))
    #expect(a.settings.yaw == 20 && a.settings.hfov == 100 && a.settings.autoRotate == -2)
    #expect(b.settings.yaw == 10 && b.settings.hfov == 60)
    #expect(b.hotSpots[0].targetYaw == .sameAzimuth && b.hotSpots[0].targetHfov == .degrees(70))
  }

  @Test func oneOfOursAndPannellumsMixedKeys() throws {
    let config = try Self.parse(
      """
      {"panorama": "p.jpg", "lens": "stereographic", "mouseZoom": "ctrl", "dragConfirm": true,
       "backgroundColor": [0, 0.5, 1], "strings": {"loadButtonLabel": "Load"}, "hotSpots": [
        {"pitch": -5, "yaw": 30, "text": "<img src=x onerror=alert(1)>"}]}
      """)
    let s = config.scenes[0].settings
    #expect(s.lens == "stereographic" && s.mouseZoom == "ctrl" && s.dragConfirm == "true")
    #expect(s.backgroundColor == [0, 0.5, 1] && s.strings?["loadButtonLabel"] == "Load")
    #expect(config.scenes[0].hotSpots[0].text == "<img src=x onerror=alert(1)>", "text stays text")
  }

  @Test(arguments: [
    ("{\"hfov\": \"wide\"}", "hfov: expected a number, found a string (line 1, column 10)"),
    ("{\"hfov\": -3}", "hfov: must be positive"),
    ("{\"type\": \"sphere\"}", "type: unknown type \"sphere\""),
    ("{\"friction\": 2}", "friction: must be in (0, 1]"),
    ("{\"backgroundColor\": [1, 2, 3]}", "backgroundColor[1]: must be from 0 to 1"),
    ("{\"lens\": \"mirror\"}", "lens: unknown value \"mirror\""),
    ("{\"scenes\": {}}", "scenes: a tour needs at least one scene"),
    ("{\"default\": {\"firstScene\": \"x\"}, \"scenes\": {\"a\": {}}}", "firstScene: names no scene (\"x\"); scenes: a"),
    (
      "{\"scenes\": {\"a\": {\"hotSpots\": [{\"pitch\": 0, \"yaw\": 0, \"type\": \"scene\", \"sceneId\": \"b\"}]}}}",
      "scenes.a.hotSpots[0].sceneId: names no scene (\"b\")"
    ),
    ("{\"hotSpots\": [{\"yaw\": 0}]}", "hotSpots[0]: missing required key \"pitch\""),
    ("{\"title\": 1,}", "invalid JSON"),
    ("[1]", "expected an object, found an array"),
  ])
  func badConfigsAreClearErrors(text: String, message: String) {
    #expect {
      _ = try Self.parse(text)
    } throws: { error in
      let description = "\(error)"
      return description.hasPrefix("test.json") && description.contains(message)
    }
  }

  /// CMS-made configs write numbers as strings; Pannellum reads them with `Number(…)`, so
  /// they load here too, each with a warning naming its key. Other strings stay refused.
  @Test func numbersWrittenAsStringsLoadWithAWarningNamingTheKey() throws {
    let config = try Self.parse(
      """
      {"default": {"firstScene": "a", "hfov": "110"},
       "scenes": {"a": {"panorama": "a.jpg", "pitch": "0", "yaw": " -12.5 ", "friction": "0.2", "hotSpots": [
         {"pitch": "5", "yaw": "30", "type": "scene", "sceneId": "b", "targetYaw": "90", "targetPitch": "same"}]},
        "b": {"type": "multires", "multiRes": {"path": "/%l/%s%x%y", "extension": "jpg", "tileResolution": "256",
          "maxLevel": "3", "cubeResolution": "1024"}}}}
      """)
    let a = try #require(config.scene("a")), b = try #require(config.scene("b"))
    #expect(a.settings.hfov == 110 && a.settings.pitch == 0 && a.settings.yaw == -12.5 && a.settings.friction == 0.2)
    #expect(a.hotSpots[0].pitch == 5 && a.hotSpots[0].yaw == 30)
    #expect(a.hotSpots[0].targetYaw == .degrees(90) && a.hotSpots[0].targetPitch == .same, "words stay words")
    #expect(b.settings.multiRes?.tileResolution == 256 && b.settings.multiRes?.maxLevel == 3)
    let paths = config.warnings.map(\.path)
    for key in [
      "default.hfov", "scenes.a.pitch", "scenes.a.yaw", "scenes.a.friction", "scenes.a.hotSpots[0].pitch",
      "scenes.a.hotSpots[0].yaw", "scenes.a.hotSpots[0].targetYaw", "scenes.b.multiRes.tileResolution",
    ] {
      #expect(paths.contains(key), "\(key) warned: \(config.warnings)")
    }
    #expect(
      config.warnings.contains { $0.description == #"default.hfov: a number written as a string ("110"); read as 110"# },
      "\(config.warnings)")
    // Not a number: still refused, at its key; and a string number must still be in range.
    for (text, message) in [
      (#"{"hfov": ""}"#, "hfov: expected a number, found a string"),
      (#"{"pitch": "ten"}"#, "pitch: expected a number, found a string"),
      (#"{"hfov": "-3"}"#, "hfov: must be positive"),
      (#"{"hotSpots": [{"pitch": "x", "yaw": 0}]}"#, "hotSpots[0].pitch: expected a number"),
    ] {
      #expect(throws: InputError.self) { try Self.parse(text) }
      do {
        _ = try Self.parse(text)
      } catch {
        #expect(error.description.contains(message), "\(error)")
      }
    }
  }

  @Test func unknownAndUnsupportedKeysAreWarningsWithTheirPath() throws {
    let config = try Self.parse(
      """
      {"panorama": "p.jpg", "colour": "red", "touchPanSpeedCoeffFactor": 2,
       "hotSpots": [{"pitch": 1, "yaw": 2, "colour": 3, "scale": true}]}
      """)
    #expect(
      config.warnings.map(\.description) == [
        "colour: unknown key, ignored",
        "touchPanSpeedCoeffFactor: not supported yet: touch panning follows the finger exactly",
        "hotSpots[0].colour: unknown hotspot key, ignored",
        "hotSpots[0].scale: not supported yet",
      ])
    #expect(config.scenes[0].settings.panorama == "p.jpg")
  }
}

extension ViewerConfigTests {
  /// Ours: `video` with `loop`, `muted` and `autoplay` beside Pannellum's keys, in a tour's
  /// defaults and scenes like any other key; `getConfig` writes them back.
  @Test func aVideoSceneReadsItsKeysAndWritesThemBack() throws {
    let config = try Self.parse(
      """
      {"default": {"firstScene": "clip", "muted": true},
       "scenes": {"clip": {"video": "clip.webm", "loop": true, "autoplay": true, "panorama": "still.jpg"},
                  "hall": {"panorama": "hall.jpg"}}}
      """)
    let clip = try #require(config.scene("clip")).settings
    #expect(clip.video == "clip.webm" && clip.loop == true && clip.autoplay == true && clip.muted == true)
    #expect(clip.panorama == "still.jpg")
    #expect(config.scene("hall")?.settings.video == nil)
    #expect(config.warnings.isEmpty)
    guard case .object(let members) = clip.json else { Issue.record("not an object"); return }
    let keys = members.map(\.0)
    #expect(keys.contains("video") && keys.contains("loop") && keys.contains("muted") && keys.contains("autoplay"))
  }

  @Test(arguments: [
    ("{\"video\": 3}", "video: expected a string, found a number"),
    ("{\"video\": \"v.webm\", \"loop\": \"yes\"}", "loop: expected true or false"),
    ("{\"video\": \"v.webm\", \"type\": \"multires\"}", "video: a video scene is equirectangular; this scene's type is multires"),
    (
      "{\"scenes\": {\"c\": {\"type\": \"cubemap\", \"video\": \"v.webm\"}}}",
      "scenes.c.video: a video scene is equirectangular; this scene's type is cubemap"
    ),
  ])
  func aWrongVideoKeyIsAnErrorNamingIt(text: String, message: String) {
    do {
      _ = try Self.parse(text)
      Issue.record("\(text) was read")
    } catch {
      #expect(error.description.contains(message), "\(error)")
    }
  }

  @Test func aTiledSceneAddedWithAVideoIsRefused() throws {
    var config = try Self.parse("{\"panorama\": \"p.jpg\"}")
    #expect(throws: InputError.self) {
      try config.addScene("v", json: Array("{\"type\": \"multires\", \"video\": \"v.webm\"}".utf8), source: "addScene")
    }
    try config.addScene("v", json: Array("{\"video\": \"v.webm\"}".utf8), source: "addScene")
    #expect(config.scene("v")?.settings.video == "v.webm")
  }
}

@Suite("Viewer URL parameters")
struct ViewerURLParameterTests {
  /// Pannellum's own example: `pannellum.htm#panorama=examplepano.jpg&autoLoad=true` in an
  /// iframe (examples/example.htm), and the rest of its documented list.
  @Test func pannellumsParametersAreTypedAsItsConfigIs() throws {
    let p = try ViewerURLParameters([
      ("panorama", "../examples/examplepano.jpg"), ("autoLoad", "true"), ("yaw", "30"), ("hfov", "75.5"),
      ("title", "100"), ("mouseZoom", "ctrl"), ("dragConfirm", "yaw"), ("lens", "stereographic"), ("config", "tour.json"),
    ])
    #expect(p.config == "tour.json")
    #expect(p.settings.panorama == "../examples/examplepano.jpg" && p.settings.autoLoad == true)
    #expect(p.settings.yaw == 30 && p.settings.hfov == 75.5)
    #expect(p.settings.mouseZoom == "ctrl" && p.settings.dragConfirm == "yaw" && p.settings.lens == "stereographic")
    #expect(p.warnings.isEmpty)
  }

  @Test func aWrongValueNamesItsParameterAndAStrangerIsAWarning() throws {
    #expect {
      _ = try ViewerURLParameters([("hfov", "wide")])
    } throws: { error in "\(error)".hasPrefix("URL parameter hfov: expected a number, found a string") }
    #expect {
      _ = try ViewerURLParameters([("autoLoad", "yes")])
    } throws: { error in "\(error)".contains("URL parameter autoLoad: expected true or false") }
    let p = try ViewerURLParameters([("utm_source", "mail"), ("pitch", "-10")])
    #expect(p.settings.pitch == -10)
    #expect(p.warnings.map(\.description) == ["URL parameter utm_source: not a viewer parameter, ignored"])
  }

  /// `viewer.html#video=clip.webm&loop=true&muted=false`: the video keys as parameters, the
  /// address kept as text.
  @Test func theVideoKeysAreParameters() throws {
    let p = try ViewerURLParameters([("video", "2024.webm"), ("loop", "true"), ("muted", "false"), ("autoplay", "true")])
    #expect(p.settings.video == "2024.webm" && p.settings.loop == true && p.settings.muted == false)
    #expect(p.settings.autoplay == true && p.warnings.isEmpty)
  }
}
