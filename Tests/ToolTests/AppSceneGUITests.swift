import Foundation
import Panorama
import Raster
import Testing

/// The scene layer's behaviours as a user meets them: the release app under Xvfb, real
/// xdotool input, the event lines and the pixels it draws.
@Suite("imagestage-app scenes under Xvfb", .serialized)
struct AppSceneGUITests {
  typealias GUI = AppGUITests

  static func start(_ args: [String], directory: URL? = nil) throws -> (GUI.Display, GUI.RunningApp, String, [String: Any]) {
    let display = try GUI.Display()
    let app = try GUI.RunningApp(display: display, arguments: args, directory: try directory ?? Tool.temporaryDirectory())
    // The first line can take a while under ASan with other suites running beside it.
    let layout = try #require(app.wait(seconds: 30) { $0["type"] as? String == "layout" })
    let window = try display.appWindow()
    try display.xdotool(["windowfocus", "--sync", window])
    return (display, app, window, layout)
  }

  static func frames(_ layout: [String: Any], _ key: String) -> [[String: Any]] { layout[key] as! [[String: Any]] }

  @Test(.enabled(if: GUI.available))
  func layoutNamesThePhotoOnItsSlotAndADropInsideABigSlotLands() throws {
    let (display, app, window, layout) = try Self.start(["--scene", "locations"])
    defer { app.stop() }
    let slots = Self.frames(layout, "slots")
    #expect(slots[0]["content"] as? String == "photo", "the photo starts on slot 0")
    #expect(slots[1]["content"] is NSNull)
    let slotFrame = slots[1]["frame"] as! [Double]
    #expect(slotFrame[2] > 120, "big slots in an 800×600 window: \(slotFrame[2])")
    let target = GUI.center(slots[1])
    // Over 50 pt from the centre, visibly inside the slot.
    let drop = (target.0 + Int(slotFrame[2] / 2) - 12, target.1)
    try GUI.drag(display, window: window, from: GUI.center(Self.frames(layout, "items")[0]), to: drop)
    #expect(app.wait { $0["type"] as? String == "drop" && $0["slot"] as? Int == 1 } != nil)
  }

  @Test(.enabled(if: GUI.available))
  func escapeCancelsAMouseDrag() throws {
    let (display, app, window, layout) = try Self.start(["--scene", "locations"])
    defer { app.stop() }
    let from = GUI.center(Self.frames(layout, "items")[0])
    try display.xdotool(["mousemove", "--window", window, "\(from.0)", "\(from.1)"])
    try display.xdotool(["mousedown", "1"])
    for k in 1...5 {
      try display.xdotool(["mousemove", "--window", window, "\(from.0 + 40 * k)", "\(from.1 + 20 * k)"])
      usleep(30_000)  // the drag's pace, as a hand moves
    }
    #expect(app.wait { $0["type"] as? String == "pickup" } != nil)
    try display.xdotool(["key", "Escape"])
    #expect(app.wait { $0["type"] as? String == "cancel" && $0["item"] as? String == "photo" } != nil)
    try display.xdotool(["mouseup", "1"])
    // X delivers events in the order sent: once Tab's announcement is out, the release was
    // handled, and it dropped nothing.
    let beforeTab = app.count
    try display.xdotool(["key", "Tab"])
    #expect(app.wait(after: beforeTab) { $0["type"] as? String == "announce" } != nil)
    #expect(app.lines(ofType: "drop").isEmpty)
  }

  @Test(.enabled(if: GUI.available))
  func aDropOnAFullSlotSwapsAndPositionsSurviveARestart() throws {
    let directory = try Tool.temporaryDirectory()
    do {
      let (display, app, window, layout) = try Self.start(["--scene", "locations", "--items", "2"], directory: directory)
      defer { app.stop() }
      let slots = Self.frames(layout, "slots"), items = Self.frames(layout, "items")
      try GUI.drag(display, window: window, from: GUI.center(items[0]), to: GUI.center(slots[1]))
      #expect(
        app.wait { $0["type"] as? String == "displace" && $0["item"] as? String == "photo1" && $0["slot"] as? Int == 0 } != nil)
      // Saved at the drop; quitting (`stop`) finishes the write.
    }
    let saved = try String(contentsOf: directory.appendingPathComponent("locations.json"), encoding: .utf8)
    #expect(saved.contains(#"{"id":"photo","slot":1"#))
    let (display, app, _, layout) = try Self.start(["--scene", "locations", "--items", "2"], directory: directory)
    defer { withExtendedLifetime(display) {} }  // the X server lives as long as the app
    defer { app.stop() }
    let slots = Self.frames(layout, "slots")
    #expect(slots[0]["content"] as? String == "photo1" && slots[1]["content"] as? String == "photo")
  }

  @Test(.enabled(if: GUI.available))
  func aShortcutDraggedOutOfItsSlotIsRemoved() throws {
    let (display, app, window, layout) = try Self.start(["--scene", "shortcuts"])
    defer { app.stop() }
    let slots = Self.frames(layout, "slots"), mail = Self.frames(layout, "items")[0]
    try GUI.drag(display, window: window, from: GUI.center(mail), to: GUI.center(slots[2]))
    #expect(app.wait { $0["type"] as? String == "assign" && $0["item"] as? String == "mail" } != nil)
    // Once the icon has landed in the slot (its blue left of the centre), drag it out.
    let f = slots[2]["frame"] as! [Double]
    let inSlot = (Int(f[0] + f[2] * 0.2), Int(f[1] + f[3] / 2))
    let landed = try app.screenshot { GUI.rgb($0, inSlot) == (52, 120, 246) }
    #expect(GUI.rgb(landed, inSlot) == (52, 120, 246), "the mail icon fills slot 3")
    let before = app.count
    try GUI.drag(display, window: window, from: GUI.center(slots[2]), to: (420, 590))
    #expect(
      app.wait(after: before) { $0["type"] as? String == "assign" && $0["item"] is NSNull && $0["slot"] as? String == "slot3" }
        != nil)
    let said = app.lines(ofType: "announce", after: before).compactMap { $0["text"] as? String }
    #expect(said.contains("Removed Mail from Shortcut 3. Press Ctrl+Z to undo."), "\(said)")
  }

  @Test(.enabled(if: GUI.available))
  func tabDrawsAVisibleFocusRing() throws {
    let (display, app, _, layout) = try Self.start(["--scene", "locations"])
    defer { app.stop() }
    let f = Self.frames(layout, "items")[0]["frame"] as! [Double]
    // Just outside the photo's frame: the ring's blue appears only once Tab focuses it.
    let probe = (Int(f[0]) - 3, Int(f[1] + f[3] / 2))
    let before = GUI.rgb(try app.screenshot(), probe)
    try display.xdotool(["key", "Tab"])
    #expect(app.wait { $0["type"] as? String == "announce" && ($0["text"] as? String ?? "").hasPrefix("Photo") } != nil)
    let after = GUI.rgb(try app.screenshot { GUI.rgb($0, probe) == (30, 110, 255) }, probe)
    #expect(after == (30, 110, 255), "focus ring colour at \(probe): before \(before), after \(after)")
    try display.xdotool(["key", "shift+Tab"])
    #expect(app.wait { $0["type"] as? String == "announce" && ($0["text"] as? String ?? "").contains("Panorama tab") } != nil)
  }

  @Test(.enabled(if: GUI.available))
  func photosFromAFolderAreOnTheBoard() throws {
    let directory = try Tool.temporaryDirectory()
    let photos = directory.appendingPathComponent("photos")
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    for (name, color) in [("a-red", RGBAImage.pack(r: 220, g: 30, b: 30)), ("b-blue", RGBAImage.pack(r: 30, g: 60, b: 220))] {
      let image = RGBAImage(width: 400, height: 300, fill: color)
      try Data(try Raster.encodePNG(image)).write(to: photos.appendingPathComponent("\(name).png"))
    }
    try Data("not an image".utf8).write(to: photos.appendingPathComponent("c-broken.jpg"))
    let (display, app, _, layout) = try Self.start(["--scene", "locations", "--photos", photos.path], directory: directory)
    defer { withExtendedLifetime(display) {} }  // the X server lives as long as the app
    defer { app.stop() }
    let items = Self.frames(layout, "items")
    #expect(items.map { $0["id"] as? String } == ["a-red", "b-blue"])
    let image = try app.screenshot()
    let red = GUI.rgb(image, GUI.center(items[0])), blue = GUI.rgb(image, GUI.center(items[1]))
    #expect(red.0 > 180 && red.2 < 80, "\(red)")
    #expect(blue.2 > 180 && blue.0 < 80, "\(blue)")
  }

  /// `--panorama FILE|DIR` opens on the Panorama tab (it opened on Locations: the README's
  /// `--panorama tiles/` showed a board), and an error about Locations' photos stays on the
  /// Locations tab instead of covering the panorama.
  @Test(.enabled(if: GUI.available))
  func aPanoramaOpensOnItsTabAndLocationsErrorsStayOnTheirs() throws {
    let directory = try Tool.temporaryDirectory()
    let photos = directory.appendingPathComponent("photos")
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    try Data(try Raster.encodePNG(RGBAImage(width: 64, height: 48, fill: RGBAImage.pack(r: 20, g: 200, b: 20)))).write(
      to: photos.appendingPathComponent("a-green.png"))
    try Data("not an image".utf8).write(to: photos.appendingPathComponent("b-broken.jpg"))
    let pano = directory.appendingPathComponent("pano.jpg").path
    #expect(try Tool.run("imagestage", ["pano", "sample", "-o", pano, "--size", "1024x512"]).status == 0)
    func isBanner(_ c: (Int, Int, Int)) -> Bool { c.0 > 140 && c.1 < 70 && c.2 < 70 }
    do {
      let (display, app, _, layout) = try Self.start(["--panorama", pano, "--photos", photos.path], directory: directory)
      defer { withExtendedLifetime(display) {} }
      defer { app.stop() }
      #expect(layout["scene"] as? String == "panorama", "\(layout)")
      let onPanorama = try app.screenshot()
      #expect(!isBanner(GUI.rgb(onPanorama, (200, 52))), "\(GUI.rgb(onPanorama, (200, 52)))")
      let before = app.count
      try display.xdotool(["key", "1"])
      #expect(app.wait(after: before) { $0["type"] as? String == "layout" && $0["scene"] as? String == "locations" } != nil)
      let onLocations = try app.screenshot()
      #expect(isBanner(GUI.rgb(onLocations, (200, 52))), "the error is on its own tab: \(GUI.rgb(onLocations, (200, 52)))")
    }
    // A pyramid's folder, as the README runs it.
    let tiles = directory.appendingPathComponent("tiles").path
    #expect(
      try Tool.run("imagestage", ["pano", "tiles", pano, "-o", tiles, "--cube-size", "256", "--tile-size", "128"]).status == 0)
    let (display, app, _, layout) = try Self.start(["--panorama", tiles + "/"], directory: directory)
    defer { withExtendedLifetime(display) {} }
    defer { app.stop() }
    #expect(layout["scene"] as? String == "panorama", "\(layout)")
  }

  @Test(.enabled(if: GUI.available))
  func aSidewaysScrollPansTheViewAndDoesNotZoom() throws {
    let (display, app, window, _) = try Self.start(["--scene", "panorama"])
    defer { app.stop() }
    let first = try #require(app.wait { $0["type"] as? String == "view" })
    // Input once the mip levels and caps are in: their build shares the cores with the frames.
    _ = try #require(app.wait { $0["type"] as? String == "panorama" })
    try display.xdotool(["mousemove", "--window", window, "400", "300"])
    let before = app.count
    try display.xdotool(["click", "--repeat", "5", "--delay", "30", "7"])
    let panned = app.wait(after: before) { $0["type"] as? String == "view" && ($0["yaw"] as? Double ?? 0) > 5 }
    #expect(panned != nil, "panned right: \(app.lines(ofType: "view").last ?? [:])")
    // X delivers events in the order sent: once Tab's announcement is out, every click was
    // handled. None of them zoomed.
    let beforeTab = app.count
    try display.xdotool(["key", "Tab"])
    _ = try #require(app.wait(after: beforeTab) { $0["type"] as? String == "announce" })
    let views = app.lines(ofType: "view", after: before)
    #expect(
      !views.isEmpty && views.allSatisfy { $0["hfov"] as? Double == first["hfov"] as? Double }, "no zoom: \(views.last ?? [:])")
    let beforeZoom = app.count
    try display.xdotool(["click", "--repeat", "3", "--delay", "30", "4"])
    // The zoom animates: wait for it to get there (under AddressSanitizer frames come slower;
    // a fixed 400 ms once caught it at 81°).
    let zoomed = app.wait(after: beforeZoom) { $0["type"] as? String == "view" && ($0["hfov"] as? Double ?? 90) < 70 }
    #expect(zoomed != nil, "the vertical wheel zooms in: \(app.lines(ofType: "view").last ?? [:])")
  }

  /// F12 once saved a screenshot and said nothing on screen.
  @Test(.enabled(if: GUI.available))
  func f12SaysOnScreenWhereTheScreenshotWent() throws {
    let (display, app, _, _) = try Self.start(["--scene", "locations"])
    defer { app.stop() }
    try display.xdotool(["key", "F12"])
    let shot = try #require(app.wait { $0["type"] as? String == "screenshot" })
    let said = app.wait { $0["type"] as? String == "announce" && ($0["text"] as? String ?? "").hasPrefix("Saved screenshot") }
    #expect(said != nil && (said?["text"] as? String ?? "").contains(shot["path"] as? String ?? "?"), "\(said ?? [:])")
    // The notice is drawn for 2.5 s: a dark pill near the bottom, where the board's background
    // was. A clean-clone run once caught a frame without it right after the line came out
    // (screenshots were then read after the frame was presented): look again, within its time.
    func isPill(_ c: (Int, Int, Int)) -> Bool { c.0 < 80 && c.1 < 80 && c.2 < 80 }
    let pill = GUI.rgb(try app.screenshot(seconds: 2.5) { isPill(GUI.rgb($0, (400, 600 - 120 + 17))) }, (400, 600 - 120 + 17))
    #expect(isPill(pill), "\(pill)")
  }

  /// The keyboard trap: after one Tab the arrows switched tabs and nothing gave them back.
  @Test(.enabled(if: GUI.available))
  func afterTabbingToATabEscapeGivesTheArrowsBackToTheView() throws {
    let (display, app, _, _) = try Self.start(["--scene", "panorama"])
    defer { app.stop() }
    _ = try #require(app.wait { $0["type"] as? String == "panorama" })
    // Tab: the view; Tab: the Locations tab (the arrows would switch tabs there); Escape.
    try display.xdotool(["key", "--delay", "60", "Tab", "Tab", "Escape"])
    let before = app.count
    try display.xdotool(["keydown", "Right"])
    let turned = app.wait(after: before) { $0["type"] as? String == "view" && ($0["yaw"] as? Double ?? 0) > 5 }
    try display.xdotool(["keyup", "Right"])
    #expect(turned != nil, "the arrow turned the view: \(app.lines(ofType: "view").last ?? [:])")
    #expect(app.lines(ofType: "layout", after: before).allSatisfy { $0["scene"] as? String != "locations" }, "no tab switch")
  }

  /// `--config`: a Pannellum-style tour opens on its first scene with its hotspots drawn, and
  /// a click on a scene link opens the scene it names, with that scene's camera.
  @Test(.enabled(if: GUI.available))
  func aTourShowsItsHotspotsAndAClickFollowsASceneLink() throws {
    let directory = try Tool.temporaryDirectory()
    let image = directory.appendingPathComponent("hall.png").path
    #expect(try Tool.run("imagestage", ["pano", "sample", "-o", image, "--size", "1024x512"]).status == 0)
    try Data(
      """
      {"default": {"firstScene": "hall"},
       "scenes": {
         "hall": {"title": "Hall", "panorama": "hall.png", "yaw": 0, "hfov": 90,
                  "hotSpots": [{"type": "scene", "sceneId": "garden", "yaw": 10, "pitch": -5, "text": "To the garden"},
                               {"type": "info", "yaw": 180, "pitch": 0, "text": "Behind"}]},
         "garden": {"title": "Garden", "panorama": "hall.png", "yaw": 120, "hotSpots": [{"type": "scene", "sceneId": "hall", "yaw": 130, "pitch": 0}]}}}
      """.utf8
    ).write(to: directory.appendingPathComponent("tour.json"))
    let (display, app, window, layout) = try Self.start(
      ["--config", directory.appendingPathComponent("tour.json").path], directory: directory)
    defer { app.stop() }
    #expect(layout["scene"] as? String == "panorama" && layout["tourScene"] as? String == "hall")
    let spots = try #require(layout["hotSpots"] as? [[String: Any]])
    #expect(spots.map { $0["name"] as? String } == ["To the garden", "Behind"])
    #expect(spots[1]["at"] is NSNull, "the one behind the camera is not drawn")
    let at = try #require(spots[0]["at"] as? [Double])
    let size = try #require(layout["window"] as? [String: Any])
    let width = try #require(size["width"] as? Double), height = try #require(size["height"] as? Double)
    #expect(at[0] > width / 2 && at[1] > (height + 44) / 2, "right of and below the view's centre (yaw 10, pitch −5): \(at)")
    try display.xdotool(["mousemove", "--window", window, "\(Int(at[0]))", "\(Int(at[1]))"])
    try display.xdotool(["click", "1"])
    let moved = try #require(app.wait { $0["type"] as? String == "layout" && $0["tourScene"] as? String == "garden" })
    #expect((moved["hotSpots"] as? [[String: Any]])?.first?["name"] as? String == "Go to Hall")
    let view = try #require(app.wait { $0["type"] as? String == "view" && abs(($0["yaw"] as? Double ?? 0) - 120) < 0.5 })
    #expect(view["hfov"] as? Double != nil)
    #expect(app.wait { ($0["text"] as? String)?.contains("going to Garden") == true } != nil, "said aloud")
  }

  @Test(.enabled(if: GUI.available))
  func thePanoramaTakesItsMipLevelsAndCapsOnceBuilt() throws {
    let (display, app, _, _) = try Self.start(["--scene", "panorama"])
    defer { withExtendedLifetime(display) {} }
    defer { app.stop() }
    // (Which comes first is a race with a small panorama: the extras take tens of ms.)
    #expect(app.wait { $0["type"] as? String == "view" } != nil)
    let ready = try #require(app.wait { $0["type"] as? String == "panorama" })
    #expect((ready["mipLevels"] as? Int ?? 0) > 0 && ready["polarCaps"] as? Bool == true, "\(ready)")
  }

  @Test(.enabled(if: GUI.available))
  func aFourByThreePhotoOpensWithNoSeamAndNoBackground() throws {
    let directory = try Tool.temporaryDirectory()
    // A 4:3 photo, bright everywhere: black in the view would be background outside it.
    var image = RGBAImage(width: 800, height: 600)
    for y in 0..<600 {
      for x in 0..<800 { image[x, y] = RGBAImage.pack(r: UInt8(60 + x / 5), g: UInt8(60 + y / 4), b: 160) }
    }
    let path = directory.appendingPathComponent("photo.png")
    try Data(try Raster.encodePNG(image)).write(to: path)
    let (display, app, window, _) = try Self.start(["--scene", "panorama", "--panorama", path.path], directory: directory)
    defer { app.stop() }
    _ = try #require(app.wait { $0["type"] as? String == "view" })
    _ = try #require(app.wait { $0["type"] as? String == "panorama" })
    // Drag hard toward each corner and zoom all the way out: the photo still fills the view.
    try GUI.drag(display, window: window, from: (400, 300), to: (780, 580))
    try display.xdotool(["click", "--repeat", "10", "--delay", "20", "5"])
    func darkSamples(_ shot: RGBAImage) -> Int {
      var dark = 0
      for y in stride(from: 50, to: 560, by: 10) {
        for x in stride(from: 5, to: 795, by: 10) {
          let c = GUI.rgb(shot, (x, y))
          if c.0 < 40 && c.1 < 40 && c.2 < 40 { dark += 1 }
        }
      }
      return dark
    }
    func zoomStopped() -> Bool { (app.lines(ofType: "view").last?["hfov"] as? Double ?? 999) <= 70.001 }
    // Once the zoom's animation has stopped at the photo's width.
    let shot = try app.screenshot { zoomStopped() && darkSamples($0) == 0 }
    let dark = darkSamples(shot)
    #expect(dark == 0, "\(dark) background samples in view")
    let view = try #require(app.lines(ofType: "view").last)
    #expect((view["hfov"] as? Double ?? 999) <= 70.001, "zoom stops at the photo's width: \(view)")
  }
}
