import Foundation
import Panorama
import Raster
import Testing

/// The app in a real X server (Xvfb), driven by real mouse events from xdotool: press,
/// drag in steps, release. Checks the event lines it prints and the pixels it draws.
@Suite("imagestage-app under Xvfb", .serialized)
struct AppGUITests {
  /// A private X display for one test.
  final class Display {
    let number: Int
    let server: Process

    init() throws {
      server = Process()
      server.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
      // Xvfb picks a free display itself and writes its number once it accepts clients. (A
      // random number collided with displays whose killed servers left their locks behind.)
      server.arguments = ["-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"]
      let ready = Pipe()
      server.standardOutput = ready
      server.standardError = FileHandle.nullDevice
      try server.run()
      var text = ""
      while !text.contains("\n") {
        let data = ready.fileHandleForReading.availableData
        guard !data.isEmpty else { throw XvfbError() }
        text += String(decoding: data, as: UTF8.self)
      }
      guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw XvfbError() }
      self.number = number
    }

    struct XvfbError: Error {}

    var name: String { ":\(number)" }

    /// The app's window id (its title contains ImageStage).
    func appWindow() throws -> String {
      try xdotool(["search", "--sync", "--name", "ImageStage"]).split(separator: "\n").first.map(String.init) ?? ""
    }

    /// Runs xdotool against this display.
    @discardableResult
    func xdotool(_ args: [String]) throws -> String {
      let p = Process()
      p.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
      p.arguments = args
      p.environment = ["DISPLAY": name]
      let out = Pipe()
      p.standardOutput = out
      p.standardError = FileHandle.nullDevice
      try p.run()
      let data = out.fileHandleForReading.readDataToEndOfFile()
      p.waitUntilExit()
      return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
      // Children of test threads may inherit blocked signals; SIGKILL always arrives, but
      // leaves the display's lock and socket behind, so remove them.
      kill(server.processIdentifier, SIGKILL)
      server.waitUntilExit()
      try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
      try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
    }
  }

  /// The running app, its event lines collected as they arrive. Tests wait on these lines
  /// (`wait`, `screenshot`), each with a time limit, never for a fixed time: a line is
  /// taken the moment it comes, and a slow machine only takes longer.
  final class RunningApp: @unchecked Sendable {
    let process = Process()
    /// Guards `buffer` and `lines`; broadcast at every new line.
    let arrived = NSCondition()
    var buffer = Data()
    var lines: [[String: Any]] = []
    let directory: URL
    /// Signalled when the app exits.
    let exited = DispatchSemaphore(value: 0)

    init(display: Display, arguments: [String], directory: URL, environment: [String: String] = [:]) throws {
      self.directory = directory
      process.executableURL = Tool.productsDirectory.appendingPathComponent("imagestage-app")
      process.arguments = arguments + ["--events", "--window", "800x600", "--config-dir", directory.path]
      process.currentDirectoryURL = directory
      process.environment = AppGUITests.appEnvironment.merging(
        ["DISPLAY": display.name, "HOME": directory.path, "PATH": "/usr/bin:/bin"].merging(environment) { $1 }
      ) { $1 }
      let out = Pipe()
      process.standardOutput = out
      // Kept beside the test's files: what the app said when a test fails.
      _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("app-stderr.log").path, contents: nil)
      process.standardError = try FileHandle(forWritingTo: directory.appendingPathComponent("app-stderr.log"))
      // Weak: a test that fails before `stop()` drops the app while its pipe may still speak
      // (an unowned reference crashed the whole test process under ASan).
      out.fileHandleForReading.readabilityHandler = { [weak self] handle in
        guard let self else { return }
        let data = handle.availableData
        arrived.lock()
        buffer.append(data)
        while let newline = buffer.firstIndex(of: 0x0A) {
          let line = buffer[buffer.startIndex..<newline]
          buffer.removeSubrange(buffer.startIndex...newline)
          if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] { lines.append(object) }
        }
        arrived.broadcast()
        arrived.unlock()
      }
      process.terminationHandler = { [exited] _ in exited.signal() }
      try process.run()
    }

    deinit {
      (process.standardOutput as? Pipe)?.fileHandleForReading.readabilityHandler = nil
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// The first line after the first `skip` matching `predicate`, waiting for it up to
    /// `seconds`; nil when none came. The limit is generous (30 s): under a load of 11 on two
    /// cores, a panorama's extras took over 10 s to come, and a wait returns at the line.
    func wait(after skip: Int = 0, seconds: Int = 30, for predicate: ([String: Any]) -> Bool) -> [String: Any]? {
      let deadline = Date(timeIntervalSinceNow: Double(seconds))
      arrived.lock()
      defer { arrived.unlock() }
      var seen = skip
      while true {
        if let found = lines.dropFirst(seen).first(where: predicate) { return found }
        seen = max(seen, lines.count)
        guard arrived.wait(until: deadline) else { return lines.dropFirst(seen).first(where: predicate) }
      }
    }

    var count: Int {
      arrived.lock()
      defer { arrived.unlock() }
      return lines.count
    }

    func lines(ofType type: String, after skip: Int = 0) -> [[String: Any]] {
      arrived.lock()
      defer { arrived.unlock() }
      return lines.dropFirst(skip).filter { $0["type"] as? String == type }
    }

    /// Asks for a screenshot (SIGUSR1) and decodes it.
    func screenshot() throws -> RGBAImage {
      let before = count
      kill(process.processIdentifier, SIGUSR1)
      let line = try #require(wait(after: before) { $0["type"] as? String == "screenshot" })
      let path = directory.appendingPathComponent(line["path"] as! String).path
      return try Raster.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path)))).image
    }

    /// Screenshots until `accept` holds for one, up to `seconds`: for a picture that settles
    /// after an animation, which says nothing when it ends. Returns the last one taken; the
    /// caller checks it (a picture that never settles fails there, not here).
    func screenshot(seconds: Double = 10, until accept: (RGBAImage) -> Bool) throws -> RGBAImage {
      let deadline = Date(timeIntervalSinceNow: seconds)
      var image = try screenshot()
      while !accept(image) && Date() < deadline { image = try screenshot() }
      return image
    }

    /// Asks the app to quit (SIGTERM becomes SDL's quit event); kills it after 5 s.
    func stop() {
      process.terminate()
      if exited.wait(timeout: .now() + 5) == .timedOut { kill(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
    }
  }

  /// The sanitizers' settings, passed on to the app (`make asan` sets them): the app's
  /// environment is otherwise built from scratch.
  /// What every app these tests start gets: the sanitizer's options, and the vendor's kernel.
  /// Each test gives the app a fresh HOME, so without a fixed kernel every start would time the
  /// kernels first (KernelWisdom), on cores the parallel GUI tests share: the first layout line
  /// then came after the tests' 10 s wait. Choosing is KernelWisdomTests' job.
  static var appEnvironment: [String: String] {
    ProcessInfo.processInfo.environment.filter { $0.key == "ASAN_OPTIONS" || $0.key == "LSAN_OPTIONS" }
      .merging(["IMAGESTAGE_KERNEL": "vendor"]) { $1 }
  }

  static var available: Bool {
    FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb")
      && FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool")
  }

  static func center(_ entry: [String: Any]) -> (Int, Int) {
    let f = entry["frame"] as! [Double]
    return (Int(f[0] + f[2] / 2), Int(f[1] + f[3] / 2))
  }

  /// Press at `from`, move in ten steps to `to`, release: real X pointer events. The pauses
  /// are the drag's pace, as a hand moves, not waits for the app: the caller waits for the
  /// line the drop causes.
  static func drag(_ display: Display, window: String, from: (Int, Int), to: (Int, Int)) throws {
    try hold(display, window: window, from: from, to: to)
    try display.xdotool(["mouseup", "1"])
  }

  /// Press at `from` and move in ten steps to `to`, still holding the button: a drag caught
  /// in the middle.
  static func hold(_ display: Display, window: String, from: (Int, Int), to: (Int, Int)) throws {
    try display.xdotool(["mousemove", "--window", window, "\(from.0)", "\(from.1)"])
    usleep(100_000)
    try display.xdotool(["mousedown", "1"])
    usleep(100_000)
    for k in 1...10 {
      let x = from.0 + (to.0 - from.0) * k / 10, y = from.1 + (to.1 - from.1) * k / 10
      try display.xdotool(["mousemove", "--window", window, "\(x)", "\(y)"])
      usleep(40_000)
    }
  }

  static func rgb(_ image: RGBAImage, _ p: (Int, Int)) -> (Int, Int, Int) {
    let c = RGBAImage.unpack(image[p.0, p.1])
    return (Int(c.r), Int(c.g), Int(c.b))
  }

  @Test(.enabled(if: available))
  func locationsDragSnapsAndReturns() throws {
    let display = try Display()
    let app = try RunningApp(display: display, arguments: ["--scene", "locations"], directory: try Tool.temporaryDirectory())
    defer { app.stop() }
    let layout = try #require(app.wait { $0["type"] as? String == "layout" })
    let slots = layout["slots"] as! [[String: Any]]
    let item = (layout["items"] as! [[String: Any]])[0]
    let window =
      try display.appWindow()
    #expect(!window.isEmpty)

    // Drop 20 px from slot 1's centre: within the seed's 50 pt, so it snaps there.
    let target = Self.center(slots[1])
    try Self.drag(display, window: window, from: Self.center(item), to: (target.0 + 20, target.1 + 10))
    let status = try #require(app.wait { $0["type"] as? String == "status" && $0["text"] as? String == "location #1" })
    _ = status
    #expect(app.lines(ofType: "pickup").count == 1)
    #expect(app.lines(ofType: "hover").contains { $0["slot"] as? Int == 1 })
    #expect(app.lines(ofType: "drop").first?["slot"] as? Int == 1)
    // Once the 0.2 s snap is over: slot 0 empty, the photo on slot 1.
    let empty = (226, 230, 236)
    let image = try app.screenshot { Self.rgb($0, Self.center(slots[0])) == empty && Self.rgb($0, target) != empty }
    let onTarget = Self.rgb(image, target), onStart = Self.rgb(image, Self.center(slots[0]))
    #expect(onStart == (226, 230, 236), "slot 0 is empty again: \(onStart)")
    #expect(onTarget != (226, 230, 236), "the photo is drawn on slot 1: \(onTarget)")

    // Drop far from every slot: it returns to slot 1.
    let before = app.count
    try Self.drag(display, window: window, from: target, to: (target.0 + 60, 585))
    #expect(app.wait(after: before) { $0["type"] as? String == "return" && $0["slot"] as? Int == 1 } != nil)

    // Resize the window once the photo is back at rest (the return says nothing when it ends):
    // nothing is left where it was let go, and two screenshots in a row draw the board alike
    // (above the notice a screenshot leaves). Then a new layout line, and the photo still
    // sits on slot 1's new centre.
    let release = (target.0 + 60, 585), background = Self.rgb(image, (target.0 + 60, 585))
    var previous: RGBAImage?
    let rested = try app.screenshot { shot in
      defer { previous = shot }
      guard let previous, Self.rgb(shot, release) == background else { return false }
      return (44..<470).allSatisfy { y in (0..<shot.width).allSatisfy { shot[$0, y] == previous[$0, y] } }
    }
    #expect(Self.rgb(rested, release) == background, "the photo left where it was let go")
    let beforeResize = app.count
    try display.xdotool(["windowsize", window, "600", "700"])
    let relaid = try #require(
      app.wait(after: beforeResize) {
        $0["type"] as? String == "layout" && ($0["window"] as? [String: Int])?["width"] == 600
      })
    let newSlot = Self.center((relaid["slots"] as! [[String: Any]])[1])
    let newItem = Self.center((relaid["items"] as! [[String: Any]])[0])
    #expect(abs(newSlot.0 - newItem.0) <= 1 && abs(newSlot.1 - newItem.1) <= 1)
    #expect(newSlot != target, "the slots moved")
  }

  @Test(.enabled(if: available))
  func keyboardOperationAndUndo() throws {
    let display = try Display()
    let app = try RunningApp(display: display, arguments: ["--scene", "locations"], directory: try Tool.temporaryDirectory())
    defer { app.stop() }
    _ = try #require(app.wait { $0["type"] as? String == "layout" })
    let window =
      try display.appWindow()
    try display.xdotool(["windowfocus", "--sync", window])
    try display.xdotool(["key", "--delay", "50", "Tab", "space", "Right", "Return"])
    #expect(app.wait { $0["type"] as? String == "drop" && $0["slot"] as? Int == 1 } != nil)
    let announcements = app.lines(ofType: "announce").compactMap { $0["text"] as? String }
    #expect(
      announcements.contains("Picked up Photo, in location #0. Use the arrow keys to move, Space to drop, Escape to cancel."))
    #expect(announcements.contains("Photo is over location #1."))
    #expect(app.lines(ofType: "pickup").first?["pointer"] is NSNull)
    try display.xdotool(["key", "ctrl+z"])
    #expect(app.wait { $0["type"] as? String == "status" && $0["text"] as? String == "location #0" } != nil)
  }

  @Test(.enabled(if: available))
  func shortcutsGhostAssignsPersistsAndSurvivesACorruptFile() throws {
    let display = try Display()
    let directory = try Tool.temporaryDirectory()
    do {
      let app = try RunningApp(display: display, arguments: ["--scene", "shortcuts"], directory: directory)
      defer { app.stop() }
      let layout = try #require(app.wait { $0["type"] as? String == "layout" })
      let slots = layout["slots"] as! [[String: Any]]
      let mail = (layout["items"] as! [[String: Any]])[0]
      let window = try display.appWindow()
      let target = Self.center(slots[1])
      try Self.drag(display, window: window, from: Self.center(mail), to: target)
      #expect(
        app.wait { $0["type"] as? String == "assign" && $0["slot"] as? String == "slot2" && $0["item"] as? String == "mail" }
          != nil)
      #expect(app.lines(ofType: "hover").contains { $0["slot"] as? String == "slot2" })
      let image = try app.screenshot()
      // Left of the white letter, inside the tile: the icon's blue.
      func leftOfCentre(_ entry: [String: Any]) -> (Int, Int) {
        let f = entry["frame"] as! [Double]
        return (Int(f[0] + f[2] * 0.2), Int(f[1] + f[3] / 2))
      }
      #expect(Self.rgb(image, leftOfCentre(slots[1])) == (52, 120, 246), "the mail icon fills slot 2")
      #expect(Self.rgb(image, leftOfCentre(mail)) == (52, 120, 246), "the source stays")
      #expect(Self.rgb(image, leftOfCentre(slots[0])) == (210, 212, 218), "slot 1 stays empty")
      // A miss: the ghost flies home and nothing is assigned.
      let before = app.count
      try Self.drag(display, window: window, from: Self.center(mail), to: (300, 560))
      #expect(app.wait(after: before) { $0["type"] as? String == "return" } != nil)
      #expect(app.lines(ofType: "assign", after: before).isEmpty)
    }
    let saved = try String(contentsOf: directory.appendingPathComponent("shortcuts.json"), encoding: .utf8)
    #expect(saved.contains(#"{"id":"slot2","content":"mail"}"#))

    // A restart restores it.
    do {
      let app = try RunningApp(display: display, arguments: ["--scene", "shortcuts"], directory: directory)
      defer { app.stop() }
      let layout = try #require(app.wait { $0["type"] as? String == "layout" })
      #expect((layout["slots"] as! [[String: Any]])[1]["content"] as? String == "mail")
    }

    // A corrupt file is kept aside, not overwritten, and the app starts empty.
    try "{not json".write(to: directory.appendingPathComponent("shortcuts.json"), atomically: true, encoding: .utf8)
    do {
      let app = try RunningApp(display: display, arguments: ["--scene", "shortcuts"], directory: directory)
      defer { app.stop() }
      let layout = try #require(app.wait { $0["type"] as? String == "layout" })
      #expect((layout["slots"] as! [[String: Any]]).allSatisfy { $0["content"] is NSNull })
    }
    #expect(try String(contentsOf: directory.appendingPathComponent("shortcuts.json.corrupt"), encoding: .utf8) == "{not json")
  }

  @Test(.enabled(if: available))
  func panoramaFrameShowsSkyAboveGround() throws {
    let display = try Display()
    let directory = try Tool.temporaryDirectory()
    let shot = directory.appendingPathComponent("pano.png").path
    let run = try Self.runApp(
      ["--scene", "panorama", "--window", "640x480", "--screenshot", shot],
      environment: ["DISPLAY": display.name, "HOME": directory.path])
    #expect(run.status == 0)
    let image = try Raster.decode(Array(try Data(contentsOf: URL(fileURLWithPath: shot)))).image
    let sky = Self.rgb(image, (320, 80)), ground = Self.rgb(image, (100, 400))
    #expect(sky.2 > sky.0 + 40, "blue sky at the top: \(sky)")
    #expect(ground.1 > ground.0 && ground.1 > ground.2, "green ground below: \(ground)")
    // Yaw 0 faces north: the red N sits on the centre column just below the horizon.
    var red = false
    for y in 240..<330 where !red {
      let c = Self.rgb(image, (320, y))
      red = c.0 > 180 && c.1 < 90
    }
    #expect(red, "the red N is centred")
  }

  /// A tiled pyramid's config.json opens in the app: the coarse level at once, the finer
  /// one from a background thread (the screenshot waits for it); a broken tile is named and
  /// drawn coarser.
  @Test(.enabled(if: available))
  func aTiledConfigOpensWithItsTilesReadOnAnotherThread() throws {
    let display = try Display()
    let directory = try Tool.temporaryDirectory()
    let tiles = directory.appendingPathComponent("tiles").path
    // Three levels of 128 px tiles: the debug tiler and the debug app draw a quarter of what
    // 1024 px faces were (86 s of this suite's 140).
    #expect(
      try Tool.run("imagestage", ["pano", "tiles", "sample", "-o", tiles, "--tile-size", "128", "--cube-size", "512"])
        .status == 0)
    try Data("not a picture".utf8).write(to: URL(fileURLWithPath: tiles + "/3/f1_1.jpg"))
    let shot = directory.appendingPathComponent("tiled.png").path
    let run = try Self.runApp(
      ["--panorama", tiles, "--window", "640x480", "--screenshot", shot, "--events"],
      environment: ["DISPLAY": display.name, "HOME": directory.path])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("3/f1_1.jpg: not a JPEG or PNG file; drawn from a coarser level"), "\(run.stderr)")
    #expect(
      run.stderr.contains("tiles: detail from level 3 of 3 (cube faces of 512 px, the finest), drawn as a 2048×1024 panorama"),
      "\(run.stderr)")
    let image = try Raster.decode(Array(try Data(contentsOf: URL(fileURLWithPath: shot)))).image
    let sky = Self.rgb(image, (320, 80)), ground = Self.rgb(image, (100, 420))
    #expect(sky.2 > sky.0 + 40, "blue sky at the top: \(sky)")
    #expect(ground.1 > ground.0 && ground.1 > ground.2, "green ground below: \(ground)")
    var red = false
    for y in 240..<360 where !red {
      let c = Self.rgb(image, (320, y))
      red = c.0 > 180 && c.1 < 90
    }
    #expect(red, "the red N is centred: the faces are where the sample's directions are")
  }

  @Test(.enabled(if: available))
  func lensKeyLookingDownMakesALittlePlanet() throws {
    let display = try Display()
    let app = try RunningApp(display: display, arguments: ["--scene", "panorama"], directory: try Tool.temporaryDirectory())
    defer { app.stop() }
    _ = try #require(app.wait { $0["type"] as? String == "layout" })
    // Input once the mip levels and caps are in: their build shares the cores with the frames.
    _ = try #require(app.wait { $0["type"] as? String == "panorama" })
    let window = try display.appWindow()
    try display.xdotool(["windowfocus", "--sync", window])
    // L: the stereographic lens; minus 30 times: zoomed out to the widest (330°); Down held
    // for a second and a half: the glide turns it straight down (and stops there).
    let keys = ["l"] + Array(repeating: "minus", count: 30)
    try display.xdotool(["key", "--delay", "20"] + keys)
    let before = app.count
    try display.xdotool(["keydown", "Down"])
    let down = app.wait(after: before) { $0["type"] as? String == "view" && ($0["pitch"] as? Double ?? 0) <= -89.9 }
    try display.xdotool(["keyup", "Down"])
    #expect(down != nil, "the view turned straight down: \(app.lines(ofType: "view").last ?? [:])")
    // The view fills the 800 × 600 window below the 44-point tab bar: the nadir at its centre
    // is ground, and 200 px out (60° above the horizon) it is sky all round.
    let centre = (400, 44 + (600 - 44) / 2)
    let image = try app.screenshot { image in
      let ground = Self.rgb(image, centre)
      return ground.1 > ground.0 && ground.1 > ground.2
        && [(-200, 0), (200, 0), (0, -200), (0, 200)].allSatisfy { (dx, dy) in
          let sky = Self.rgb(image, (centre.0 + dx, centre.1 + dy))
          return sky.2 > sky.0 + 40
        }
    }
    let ground = Self.rgb(image, centre)
    #expect(ground.1 > ground.0 && ground.1 > ground.2, "ground at the centre: \(ground)")
    for (dx, dy) in [(-200, 0), (200, 0), (0, -200), (0, 200)] {
      let sky = Self.rgb(image, (centre.0 + dx, centre.1 + dy))
      #expect(sky.2 > sky.0 + 40, "sky at (\(dx), \(dy)): \(sky)")
    }
  }

  @Test(.enabled(if: available))
  func unreadablePanoramaIsReportedAndTheSampleShown() throws {
    let display = try Display()
    let directory = try Tool.temporaryDirectory()
    let bad = directory.appendingPathComponent("broken.jpg")
    try Data([0xFF, 0xD8, 0xFF, 0xDB, 0, 4, 1, 2]).write(to: bad)
    let (status, message) = try Self.runApp(
      [
        "--scene", "panorama", "--window", "320x240", "--panorama", bad.path, "--screenshot",
        directory.appendingPathComponent("s.png").path,
      ], environment: ["DISPLAY": display.name, "HOME": directory.path])
    #expect(status == 0)
    #expect(message.contains("broken.jpg") && message.contains("Showing the sample panorama"), "\(message)")
  }

  /// The README's headless example: a looping motion log never goes still, yet the
  /// screenshot is taken (once the extras are in) and the app exits.
  @Test(.enabled(if: available))
  func aScreenshotWithMotionPlayingEnds() throws {
    let display = try Display()
    let directory = try Tool.temporaryDirectory()
    let shot = directory.appendingPathComponent("turn.png").path
    let log = Tool.packageRoot.appendingPathComponent("docs/examples/turn.csv").path
    let run = try Self.runApp(
      ["--scene", "panorama", "--window", "640x480", "--motion", log, "--screenshot", shot],
      environment: ["DISPLAY": display.name, "HOME": directory.path], timeout: 60)
    #expect(run.status == 0, "\(run.stderr)")
    let image = try Raster.decode(Array(try Data(contentsOf: URL(fileURLWithPath: shot)))).image
    #expect(image.width == 640 && image.height == 480, "\(image.width)×\(image.height)")
  }

  @Test(.enabled(if: available))
  func aScreenshotThatCannotBeWrittenFailsBeforeTheWindowOpens() throws {
    let display = try Display()
    let run = try Self.runApp(
      ["--screenshot", "/nonexistent/dir/x.png"], environment: ["DISPLAY": display.name, "HOME": NSTemporaryDirectory()])
    #expect(run.status == 2)
    #expect(run.stderr.contains("/nonexistent/dir") && run.stderr.contains("does not exist"), "\(run.stderr)")
  }

  /// With nothing moving the app sleeps: it once drew 4 frames a second, 4-6 % of a core.
  @Test(.enabled(if: available), arguments: ["locations", "panorama"])
  func anIdleAppUsesNoCPU(scene: String) throws {
    let display = try Display()
    let app = try RunningApp(display: display, arguments: ["--scene", scene], directory: try Tool.temporaryDirectory())
    defer { app.stop() }
    _ = try #require(app.wait { $0["type"] as? String == "layout" })
    if scene == "panorama" { _ = try #require(app.wait { $0["type"] as? String == "panorama" }) }
    // Not a wait for the app but the measurement itself: a second to settle, then 3 s of
    // CPU time with nothing happening (no event says "asleep").
    usleep(1_000_000)
    func cpuSeconds() throws -> Double {
      // utime and stime, fields 14 and 15 of /proc/PID/stat, in clock ticks.
      let stat = try String(contentsOfFile: "/proc/\(app.process.processIdentifier)/stat", encoding: .utf8)
      let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
      return (Double(fields[11])! + Double(fields[12])!) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
    let before = try cpuSeconds()
    usleep(3_000_000)
    let used = try cpuSeconds() - before
    #expect(used < 0.06, "\(scene): \(used) s of CPU in 3 s idle")
  }

  @Test func noDisplayIsAClearError() throws {
    let (status, message) = try Self.runApp(["--window", "100x100"], environment: ["DISPLAY": ":9999", "PATH": "/usr/bin:/bin"])
    #expect(status == 1)
    #expect(message.contains("cannot start SDL video: no X server answers on DISPLAY=:9999"), "\(message)")
    #expect(!message.contains("XDG_RUNTIME_DIR"), "no stray line from SDL's Wayland probe: \(message)")
  }

  /// Runs the app to its end (a `--screenshot` run, or a start-up failure).
  /// Killed after `timeout` seconds (the test then fails on its status, not by hanging).
  static func runApp(_ arguments: [String], environment: [String: String], timeout: Double = 120) throws -> (
    status: Int32, stderr: String
  ) {
    let p = Process()
    p.executableURL = Tool.productsDirectory.appendingPathComponent("imagestage-app")
    p.arguments = arguments
    p.environment = appEnvironment.merging(environment) { $1 }
    let err = Pipe()
    p.standardError = err
    p.standardOutput = FileHandle.nullDevice
    try p.run()
    let pid = p.processIdentifier
    let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    watchdog.cancel()
    return (p.terminationStatus, message)
  }
}
