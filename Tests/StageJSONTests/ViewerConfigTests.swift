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
    #expect(pond.settings[text: .panorama] == "./examplepano.jpg" && pond.settings[text: .title] == "Jordan Pond")
    #expect(
      pond.settings[text: .author] == "Matthew Petroff" && pond.settings[number: .sceneFadeDuration] == 2000, "defaults merged in"
    )
    #expect(pond.hotSpots == [pond.hotSpots[0]] && pond.hotSpots[0].kind == .scene && pond.hotSpots[0].sceneId == "pondCube")
    let cube = try #require(config.scene("pondCube"))
    #expect(cube.settings.type == .cubemap)
    #expect(cube.hotSpots.map(\.kind) == [.info, .info, .scene])
    #expect(cube.hotSpots[1].url == "https://github.com/mpetroff/pannellum")
    #expect(!config.warnings.contains { $0.path.hasPrefix("scenes.pondCube") }, "a cube scene is a scene: \(config.warnings)")
    #expect(cube.settings[list: .cubeMap]?.count == 6 && cube.settings[list: .cubeMap]?[4].hasSuffix("4.jpg") == true)
  }

  @Test func pannellumsMultiresExampleIsOneSceneWithItsPyramid() throws {
    let bytes = Array(try Data(contentsOf: Self.fixtures.appendingPathComponent("example-multires.json")))
    let config = try ViewerConfig.parse(bytes, source: "example-multires.json")
    #expect(config.scenes.count == 1 && config.scenes[0].settings.type == .multires)
    #expect(config.scenes[0].settings[text: .title] == "Multires Test")
    let m = try #require(config.scenes[0].settings.multiRes)
    #expect(m.basePath == "./multires" && m.path == "/%l/%s%x%y" && m.fallbackPath == "/fallback/%s")
    #expect(m.fileExtension == "png" && m.tileResolution == 256 && m.maxLevel == 4 && m.cubeResolution == 2048)
    #expect(config.warnings.isEmpty, "\(config.warnings)")
    // Written back as read.
    #expect(config.scenes[0].settings.json.text.contains(#""multiRes":{"basePath":"./multires","path":"/%l/%s%x%y""#))
  }

  /// A pyramid that cannot be: a warning at the key, never an allocation; the scene is left
  /// without one (it says so when shown).
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
    let config = try ViewerConfig.parse(Array(#"{"type": "multires", "multiRes": \#(multiRes)}"#.utf8), source: "c.json")
    #expect(config.warnings.contains { $0.description.contains(expected) }, "\(config.warnings)")
    #expect(config.scenes[0].settings.multiRes == nil)
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
    #expect(a.settings[number: .yaw] == 20 && a.settings[number: .hfov] == 100 && a.settings[number: .autoRotate] == -2)
    #expect(b.settings[number: .yaw] == 10 && b.settings[number: .hfov] == 60)
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
    #expect(s[text: .lens] == "stereographic" && s[text: .mouseZoom] == "ctrl" && s[text: .dragConfirm] == "true")
    #expect(s[numbers: .backgroundColor] == [0, 0.5, 1] && s[texts: .strings]?["loadButtonLabel"] == "Load")
    #expect(config.scenes[0].hotSpots[0].text == "<img src=x onerror=alert(1)>", "text stays text")
  }

  /// Only what leaves nothing to show is an error: text that is not JSON, a config that is
  /// not an object, a tour without scenes.
  @Test(arguments: [
    ("{\"scenes\": {}}", "scenes: a tour needs at least one scene"),
    ("{\"title\": 1,}", "invalid JSON"),
    ("[1]", "expected an object, found an array"),
  ])
  func configsThatShowNothingAreClearErrors(text: String, message: String) {
    #expect {
      _ = try Self.parse(text)
    } throws: { error in
      let description = "\(error)"
      return description.hasPrefix("test.json") && description.contains(message)
    }
  }

  /// What Pannellum takes and the viewer's types declare: the zoom only in fullscreen, two
  /// fingers for both axes, a cube face given as null (a missing face: "" here, null again in
  /// `json`), and a hotspot without pitch or yaw (placed at 0, as Pannellum places it).
  @Test func pannellumsWholeVocabularyReadsWithoutAWarning() throws {
    let config = try Self.parse(
      """
      {"type": "cubemap", "cubeMap": ["f.jpg", null, "b.jpg", null, "u.jpg", "d.jpg"],
       "mouseZoom": "fullscreenonly", "dragConfirm": "both", "crossOrigin": "use-credentials",
       "hotSpots": [{"text": "no angles"}, {"pitch": 12}]}
      """)
    #expect(config.warnings.isEmpty, "\(config.warnings)")
    let s = config.scenes[0].settings
    #expect(
      s[text: .mouseZoom] == "fullscreenonly" && s[text: .dragConfirm] == "both" && s[text: .crossOrigin] == "use-credentials")
    #expect(s[list: .cubeMap] == ["f.jpg", "", "b.jpg", "", "u.jpg", "d.jpg"])
    guard case .object(let members) = s.json, let faces = members.first(where: { $0.0 == "cubeMap" })?.1 else {
      Issue.record("no cubeMap in the settings' JSON")
      return
    }
    #expect(faces.text == #"["f.jpg",null,"b.jpg",null,"u.jpg","d.jpg"]"#)
    let spots = config.scenes[0].hotSpots
    #expect(spots.count == 2 && spots[0].pitch == 0 && spots[0].yaw == 0 && spots[1].pitch == 12 && spots[1].yaw == 0)
  }

  /// Pannellum shows a tour with a stale entry in it and fails only the broken link: each of
  /// these is a warning naming its key path, and the value keeps its default (nil here).
  @Test(arguments: [
    ("{\"hfov\": \"wide\"}", "hfov: expected a number, found a string; ignored", 0),
    ("{\"hfov\": -3}", "hfov: must be positive (found -3); ignored", 0),
    ("{\"type\": \"sphere\"}", "type: unknown type \"sphere\"", 0),
    ("{\"friction\": 2}", "friction: must be in (0, 1]", 0),
    ("{\"backgroundColor\": [1, 2, 3]}", "backgroundColor[1]: must be from 0 to 1", 0),
    ("{\"lens\": \"mirror\"}", "lens: unknown value \"mirror\"", 0),
    ("{\"default\": {\"firstScene\": \"x\"}, \"scenes\": {\"a\": {}}}", "firstScene: names no scene (\"x\"); scenes: a", 0),
    (
      "{\"scenes\": {\"a\": {\"hotSpots\": [{\"pitch\": 0, \"yaw\": 0, \"type\": \"scene\", \"sceneId\": \"b\"}]}}}",
      "scenes.a.hotSpots[0].sceneId: names no scene (\"b\"); scenes: a; the hotspot leads nowhere", 1
    ),
    ("{\"crossOrigin\": \"yes\"}", "crossOrigin: unknown value \"yes\"", 0),
    ("{\"hotSpots\": [{\"pitch\": \"x\", \"yaw\": 0}]}", "hotSpots[0].pitch: expected a number", 0),
    ("{\"hotSpots\": [{\"pitch\": 1, \"yaw\": 0, \"text\": 7, \"type\": \"link\"}]}", "hotSpots[0].text: expected a string", 1),
    ("{\"hotSpots\": 3}", "hotSpots: expected an array, found a number; ignored", 0),
    ("{\"default\": 3, \"panorama\": \"p.jpg\"}", "default: expected an object, found a number; ignored", 0),
  ])
  func staleEntriesAreWarningsAndTheRestReads(text: String, warning: String, hotSpots: Int) throws {
    let config = try Self.parse(text)
    #expect(config.warnings.contains { $0.description.hasPrefix(warning) }, "\(config.warnings)")
    let s = config.scenes[0].settings
    #expect(
      s[number: .hfov] == nil && s.type == nil && s[number: .friction] == nil && s[numbers: .backgroundColor] == nil
        && s[text: .lens] == nil)
    #expect(config.scenes[0].hotSpots.count == hotSpots)
    #expect(!config.warnings.contains { $0.description.contains("line ") }, "no position in what the web shows")
  }

  /// A real-estate tour after an edit: a scene deleted but still linked to, a wrong value in a
  /// scene the visitor may never open, a hotspot key mistyped. The tour reads; each entry is
  /// warned about once, with its path; the stale link stays (inert until a scene of that id is
  /// added, as Pannellum's `addScene` may do) and the rest is as written.
  @Test func aTourWithStaleEntriesReadsWithAWarningForEach() throws {
    let config = try Self.parse(
      """
      {"default": {"firstScene": "hall", "sceneFadeDuration": 500},
       "scenes": {
        "hall": {"panorama": "hall.jpg", "hfov": 100, "hotSpots": [
          {"pitch": 0, "yaw": 10, "type": "scene", "sceneId": "kitchen", "text": "Kitchen"},
          {"pitch": 0, "yaw": 90, "type": "scene", "sceneId": "garden"},
          {"pitch": 0, "yaw": 180, "type": "scene", "sceneID": "kitchen"}]},
        "kitchen": {"panorama": "kitchen.jpg", "pitch": "level", "yaw": 30, "hotSpotDebug": false}}}
      """)
    #expect(config.firstScene == "hall" && config.scenes.map(\.id) == ["hall", "kitchen"])
    let hall = try #require(config.scene("hall")), kitchen = try #require(config.scene("kitchen"))
    #expect(hall.hotSpots.count == 3 && hall.settings[number: .hfov] == 100)
    #expect(
      kitchen.settings[number: .pitch] == nil && kitchen.settings[number: .yaw] == 30
        && kitchen.settings[number: .sceneFadeDuration] == 500)
    let said = config.warnings.map(\.description)
    #expect(
      said == [
        "scenes.hall.hotSpots[2].sceneID: unknown hotspot key (did you mean sceneId?), ignored",
        "scenes.kitchen.pitch: expected a number, found a string; ignored",
        "scenes.hall.hotSpots[1].sceneId: names no scene (\"garden\"); scenes: hall, kitchen; the hotspot leads nowhere",
        "scenes.hall.hotSpots[2].sceneId: missing; scenes: hall, kitchen; the hotspot leads nowhere",
      ], "\(said)")
    // The CLI and the app say where in the file.
    #expect(config.warnings[2].located.hasSuffix("(line 5, column 5)"), "\(config.warnings[2].located)")
    // `addScene` gives the stale link somewhere to go, and its own mistakes are warnings too.
    var later = config
    let added = try later.addScene("garden", json: Array(#"{"panorama": "g.jpg", "hfov": true}"#.utf8), source: "addScene")
    #expect(added.map(\.description) == ["addScene garden.hfov: expected a number, found a boolean; ignored"])
    #expect(later.scene("garden")?.settings[text: .panorama] == "g.jpg" && later.scene("garden")?.settings[number: .hfov] == nil)
  }

  /// A tour of many scenes whose links are all stale: each warning names a few scenes and
  /// how many there are, not every id (a hostile tour made each warning as long as the tour).
  @Test func staleLinksInABigTourNameAFewScenesAndTheCount() throws {
    let spots = (0..<5).map { _ in #"{"pitch": 0, "yaw": 0, "type": "scene", "sceneId": "gone"}"# }
    let scenes = (0..<2000).map { #""s\#($0)": {"panorama": "p.jpg", "hotSpots": [\#(spots.joined(separator: ","))]}"# }
    let config = try Self.parse(#"{"firstScene": "nowhere", "scenes": {\#(scenes.joined(separator: ","))}}"#)
    #expect(config.scenes.count == 2000 && config.firstScene == "s0")
    let stale = config.warnings.filter { $0.message.hasSuffix("the hotspot leads nowhere") }
    #expect(stale.count == 10_000)
    #expect(
      stale.first?.description
        == "scenes.s0.hotSpots[0].sceneId: names no scene (\"gone\"); scenes: s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, … (2000 in all); the hotspot leads nowhere"
    )
    #expect(config.warnings.allSatisfy { $0.description.utf8.count < 200 })
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
    #expect(
      a.settings[number: .hfov] == 110 && a.settings[number: .pitch] == 0 && a.settings[number: .yaw] == -12.5
        && a.settings[number: .friction] == 0.2)
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
    // Not a number: a warning at its key, the key left at its default; and a string number
    // must still be in range.
    for (text, message) in [
      (#"{"hfov": ""}"#, "hfov: expected a number, found a string"),
      (#"{"pitch": "ten"}"#, "pitch: expected a number, found a string"),
      (#"{"hfov": "-3"}"#, "hfov: must be positive"),
    ] {
      let read = try Self.parse(text)
      #expect(read.warnings.contains { $0.description.hasPrefix(message) }, "\(read.warnings)")
      #expect(read.scenes[0].settings[number: .hfov] == nil && read.scenes[0].settings[number: .pitch] == nil)
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
    #expect(config.scenes[0].settings[text: .panorama] == "p.jpg")
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
    #expect(
      clip[text: .video] == "clip.webm" && clip[flag: .loop] == true && clip[flag: .autoplay] == true
        && clip[flag: .muted] == true)
    #expect(clip[text: .panorama] == "still.jpg")
    #expect(config.scene("hall")?.settings[text: .video] == nil)
    #expect(config.warnings.isEmpty)
    guard case .object(let members) = clip.json else { Issue.record("not an object"); return }
    let keys = members.map(\.0)
    #expect(keys.contains("video") && keys.contains("loop") && keys.contains("muted") && keys.contains("autoplay"))
  }

  /// A wrong video key is a warning naming it; a video on a tiled scene is dropped with one.
  @Test(arguments: [
    ("{\"video\": 3}", "video: expected a string, found a number"),
    ("{\"video\": \"v.webm\", \"loop\": \"yes\"}", "loop: expected true or false"),
    ("{\"video\": \"v.webm\", \"type\": \"multires\"}", "video: a video scene is equirectangular; this scene's type is multires"),
    (
      "{\"scenes\": {\"c\": {\"type\": \"cubemap\", \"video\": \"v.webm\"}}}",
      "scenes.c.video: a video scene is equirectangular; this scene's type is cubemap"
    ),
  ])
  func aWrongVideoKeyIsAWarningNamingIt(text: String, message: String) throws {
    let config = try Self.parse(text)
    #expect(config.warnings.contains { $0.description.hasPrefix(message) }, "\(config.warnings)")
    #expect(config.scenes[0].settings[flag: .loop] == nil)
    if config.scenes[0].settings.type != nil { #expect(config.scenes[0].settings[text: .video] == nil) }
  }

  @Test func aTiledSceneAddedWithAVideoDropsTheVideo() throws {
    var config = try Self.parse("{\"panorama\": \"p.jpg\"}")
    let warnings = try config.addScene(
      "t", json: Array("{\"type\": \"multires\", \"video\": \"v.webm\"}".utf8), source: "addScene")
    #expect(warnings.map(\.path) == ["addScene t.video"])
    #expect(config.scene("t")?.settings[text: .video] == nil)
    try config.addScene("v", json: Array("{\"video\": \"v.webm\"}".utf8), source: "addScene")
    #expect(config.scene("v")?.settings[text: .video] == "v.webm")
  }

  /// Pannellum's `hotSpotDebug: false` is what we do anyway: nothing said. `true` is said.
  @Test func aSettingTurnedOffThatWeLackSaysNothing() throws {
    #expect(try Self.parse(#"{"hotSpotDebug": false, "dynamic": false}"#).warnings.isEmpty)
    #expect(
      try Self.parse(#"{"hotSpotDebug": true}"#).warnings.map(\.description) == ["hotSpotDebug: not supported yet: not offered"])
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
    #expect(p.settings[text: .panorama] == "../examples/examplepano.jpg" && p.settings[flag: .autoLoad] == true)
    #expect(p.settings[number: .yaw] == 30 && p.settings[number: .hfov] == 75.5)
    #expect(
      p.settings[text: .mouseZoom] == "ctrl" && p.settings[text: .dragConfirm] == "yaw"
        && p.settings[text: .lens] == "stereographic")
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
    #expect(p.settings[number: .pitch] == -10)
    #expect(p.warnings.map(\.description) == ["URL parameter utm_source: not a viewer parameter, ignored"])
  }

  /// The web viewer's JS looks the names up in the key table (a config's keys and the URL's)
  /// and passes the key, so the wasm compares no names: a key found there that is no URL
  /// parameter (`basePath`, `scenes`) and a name the table lacks are the same warning as from
  /// names, and the rest read as from names.
  @Test func parametersGivenByKeyReadAsByName() throws {
    let pairs: [(name: String, value: String)] = [
      ("hfov", "75"), ("basePath", "/x/"), ("scenes", "1"), ("utm_source", "mail"), ("title", "100"), ("config", "t.json"),
    ]
    let byName = try ViewerURLParameters(pairs)
    let byKey = try ViewerURLParameters(
      given: [
        .init(key: .hfov, name: "hfov", value: "75"), .init(key: .basePath, name: "basePath", value: "/x/"),
        .init(key: .scenes, name: "scenes", value: "1"), .init(key: nil, name: "utm_source", value: "mail"),
        .init(key: .title, name: "title", value: "100"), .init(key: .config, name: "config", value: "t.json"),
      ])
    #expect(byKey.settings == byName.settings && byKey.config == "t.json" && byName.config == "t.json")
    #expect(byKey.settings[number: .hfov] == 75 && byKey.settings[text: .title] == "100")
    #expect(byKey.warnings == byName.warnings)
    #expect(
      byKey.warnings.map(\.description) == [
        "URL parameter basePath: not a viewer parameter, ignored", "URL parameter scenes: not a viewer parameter, ignored",
        "URL parameter utm_source: not a viewer parameter, ignored",
      ])
  }

  /// `viewer.html#video=clip.webm&loop=true&muted=false`: the video keys as parameters, the
  /// address kept as text.
  @Test func theVideoKeysAreParameters() throws {
    let p = try ViewerURLParameters([("video", "2024.webm"), ("loop", "true"), ("muted", "false"), ("autoplay", "true")])
    #expect(p.settings[text: .video] == "2024.webm" && p.settings[flag: .loop] == true && p.settings[flag: .muted] == false)
    #expect(p.settings[flag: .autoplay] == true && p.warnings.isEmpty)
  }

  /// 100 000 unknown keys: the first 20 are named (a misspelt one with its hint), the rest
  /// counted on one line, and reading them costs less than 3× parsing their JSON (a "did you
  /// mean" edit distance for each took 2.3 s in a release build, and a search of the key
  /// table for each most of the rest). Measured as a ratio: this machine's load varies.
  @Test func aFloodOfUnknownKeysIsCountedNotHintedOneByOne() throws {
    var text = "{\"panorama\": \"p.jpg\", \"hfvo\": 100"
    for k in 0..<100_000 { text += ", \"key\(k)\": 1" }
    text += ", \"hotSpots\": [{\"pitch\": 0, \"yaw\": 0, \"txet\": \"x\"}]}"
    let bytes = Array(text.utf8)
    let clock = ContinuousClock()
    let json = clock.measure { _ = try? JSONParser.parse(bytes) }
    var config: ViewerConfig?
    let elapsed = try clock.measure { config = try ViewerConfig.parse(bytes, source: "flood.json") }
    let warnings = try #require(config).warnings
    print("100 000 unknown keys: \(elapsed), of which parsing the JSON \(json) (debug build)")
    #expect(warnings.count == 21, "\(warnings.prefix(3)) … \(warnings.suffix(2))")
    #expect(warnings.first?.message == "unknown key (did you mean hfov?), ignored")
    #expect(warnings.last?.message == "… and 99982 more unknown keys (from here on), ignored", "\(warnings.last!)")
    #expect(warnings.last?.path == "key19")
    #expect(elapsed - json < json * 3, "\(elapsed) in all, \(json) parsing the JSON")
  }
}
