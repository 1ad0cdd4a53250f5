import CSDL2
import CoreMath
import Panorama
import Raster
import Stage
import StageFiles
import StageSDL

#if canImport(Glibc)
  import Glibc
#endif

/// Set by SIGUSR1: write a screenshot at the next frame (tests ask for one this way).
nonisolated(unsafe) var screenshotSignal: Int32 = 0

struct AppOptions {
  var scene = 0
  var width = 1024
  var height = 720
  var events = false
  var screenshot: String?
  var stats = false
  var panorama: String?
  var motion: String?
  var slots = 6
  var items = 1
  var configDirectory: String?
}

/// The desktop app: three scenes in one SDL window. Input events are translated to the
/// cores' inputs; the cores' state is drawn; engine events are printed with `--events`.
final class App {
  let options: AppOptions
  let window: Window
  var boards: [BoardScene] = []
  var panorama: PanoramaScene?
  var active: Int
  var running = true
  let start: UInt64
  let frequency: Double
  var workTimes: [Double] = []
  var frameCount = 0
  var drewIdleFrame = false
  var mouseDown = false
  var settingsPath: String?
  var gameController: OpaquePointer?

  init(options: AppOptions) throws {
    self.options = options
    let fontCandidates: [String] = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"]
    let font = fontCandidates.first { access($0, R_OK) == 0 }
    if font == nil { Console.error("no font found (apt-get install fonts-dejavu-core): text is not drawn") }
    window = try Window(title: "ImageStage", width: options.width, height: options.height, fontPath: font)
    window.matchScaleToWindow()
    active = options.scene
    start = SDL_GetPerformanceCounter()
    frequency = Double(SDL_GetPerformanceFrequency())
    let (w, h) = window.size
    boards = [
      try BoardScene(preset: .locations, window: window, width: w, height: h, slots: options.slots, items: options.items),
      try BoardScene(preset: .shortcuts, window: window, width: w, height: h),
    ]
    loadShortcuts()
    if active == 2 { preparePanorama() }
    openGameController()
    updateTitle()
    emitLayout()
  }

  var now: Double { Double(SDL_GetPerformanceCounter() - start) / frequency }

  // MARK: Settings

  func loadShortcuts() {
    let base: String
    if let dir = options.configDirectory {
      base = dir
    } else if let xdg = getenv("XDG_CONFIG_HOME"), xdg.pointee != 0 {
      base = String(cString: xdg) + "/imagestage"
    } else if let home = getenv("HOME") {
      base = String(cString: home) + "/.config/imagestage"
    } else {
      return
    }
    let path = base + "/shortcuts.json"
    settingsPath = path
    guard FileIO.exists(path) else { return }
    do {
      try boards[1].restore(try FileIO.read(path, limit: 1 << 20), file: path)
    } catch {
      // Keep the broken file for the user; never overwrite it silently.
      let aside = FileIO.moveAside(path)
      boards[1].message = "Settings file was unreadable (\(error)); " + (aside.map { "kept as \($0)" } ?? "left in place")
      Console.error(boards[1].message)
    }
  }

  func saveShortcuts() {
    guard let path = settingsPath else { return }
    let text = SavedState.encode(boards[1].engine, numericIDs: [])
    do {
      try FileIO.makeDirectories(String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]))
      try FileIO.writeAtomically(Array(text.utf8), to: path)
    } catch {
      boards[1].message = "Cannot save shortcuts: \(error)"
      Console.error(boards[1].message)
    }
  }

  // MARK: Panorama

  func preparePanorama() {
    guard panorama == nil else { return }
    var message = ""
    var loaded: LoadedPanorama?
    var name = "sample panorama"
    if let path = options.panorama {
      do {
        loaded = try LoadedPanorama.load(path)
        name = String(path.split(separator: "/").last ?? "")
      } catch {
        message = "\(error.message) — showing the sample panorama"
        Console.error(message)
      }
    }
    let scene = PanoramaScene(panorama: loaded ?? LoadedPanorama.sample(), name: name)
    scene.message = message
    if let motion = options.motion {
      do {
        scene.motionLog = try MotionLog.parse(try FileIO.read(motion))
      } catch {
        scene.message = "\(motion): \(error)"
        Console.error(scene.message)
      }
    }
    panorama = scene
  }

  func openGameController() {
    for i in 0..<SDL_NumJoysticks() where SDL_IsGameController(i) == SDL_TRUE {
      guard let gc = SDL_GameControllerOpen(i) else { continue }
      if SDL_GameControllerHasSensor(gc, SDL_SENSOR_GYRO) == SDL_TRUE {
        SDL_GameControllerSetSensorEnabled(gc, SDL_SENSOR_GYRO, SDL_TRUE)
        gameController = gc
        return
      }
      SDL_GameControllerClose(gc)
    }
  }

  // MARK: Output

  func emit(_ events: [StageEvent], scene: Int) {
    guard scene < 2 else { return }
    var changedContents = false
    if options.events {
      let lines = EventLines(numericIDs: boards[scene].numericIDs)
      for e in events { Console.line(lines.line(e, at: now)) }
    }
    for e in events { if case .assign = e { changedContents = true } }
    if changedContents && scene == 1 { saveShortcuts() }
  }

  func emitLayout() {
    guard options.events else { return }
    guard active < 2 else {
      let (w, h) = window.size
      Console.line(
        "{\"type\":\"layout\",\"scene\":\"panorama\",\"window\":{\"width\":\(w),\"height\":\(h)},\"slots\":[],\"items\":[]}")
      Console.flush()
      return
    }
    let board = boards[active]
    Console.line(board.layoutLine(window: window.size, lines: EventLines(numericIDs: board.numericIDs)))
    Console.flush()
  }

  func updateTitle() {
    let names = ["Locations", "Shortcuts", "Panorama"]
    window.setTitle("ImageStage — \(names[active])")
  }

  func switchScene(_ scene: Int) {
    guard scene != active else { return }
    if active < 2 { emit(boards[active].handle(.cancelAll, at: now), scene: active) }
    active = scene
    if scene == 2 { preparePanorama() }
    updateTitle()
    emitLayout()
    drewIdleFrame = false
  }

  // MARK: Loop

  func run() -> Int32 {
    var event = SDL_Event()
    while running {
      let idle = isIdle
      // Sleep in the event queue when nothing moves; otherwise poll and draw every frame.
      if idle && drewIdleFrame && options.screenshot == nil && screenshotSignal == 0 {
        if SDL_WaitEventTimeout(&event, 100) != 0 { handle(event) }
      }
      let frameStart = now
      while SDL_PollEvent(&event) != 0 { handle(event) }
      let t = now
      for b in boards { b.advance(to: t) }
      if active == 2 { panorama?.advance(to: t) }
      draw()
      workTimes.append(now - frameStart)
      if workTimes.count > 100_000 { workTimes.removeFirst(50_000) }
      window.present()
      frameCount += 1
      Console.flush()
      let idleNow = isIdle
      if screenshotSignal != 0 {
        screenshotSignal = 0
        screenshot(to: timestampedScreenshotPath())
      }
      if let path = options.screenshot, idleNow, frameCount >= 2 {
        screenshot(to: path)
        running = false
      }
      drewIdleFrame = idleNow
    }
    if options.stats { printStats() }
    Console.flush()
    return 0
  }

  var isIdle: Bool {
    if active < 2 { return boards[active].isIdle }
    return !(panorama?.isMoving ?? false)
  }

  func timestampedScreenshotPath() -> String {
    var tv = timeval()
    gettimeofday(&tv, nil)
    return "imagestage-\(tv.tv_sec).png"
  }

  func screenshot(to path: String) {
    do {
      let image = try window.readPixels()
      try FileIO.writeAtomically(try Raster.encodePNG(image), to: path)
      if options.events { Console.line("{\"type\":\"screenshot\",\"path\":\(JSONText.quoted(path))}") }
    } catch {
      Console.error("screenshot \(path): \(error)")
    }
    Console.flush()
  }

  func printStats() {
    let sorted = workTimes.sorted()
    guard !sorted.isEmpty else { return }
    func ms(_ q: Double) -> String { JSONText.number(sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] * 1000) }
    let seconds = max(now, 0.001)
    let line =
      "{\"type\":\"stats\",\"frames\":\(frameCount),\"fps\":\(JSONText.number(Double(frameCount) / seconds)),\"workP50ms\":\(ms(0.5)),\"workP99ms\":\(ms(0.99))}"
    if options.events { Console.line(line) } else { Console.error(line) }
  }

  // MARK: Drawing

  func draw() {
    window.clear(Color(246, 247, 249))
    let (w, _) = window.size
    if active < 2 {
      boards[active].draw(window)
    } else if let panorama {
      do { try panorama.draw(window, top: BoardScene.tabHeight) } catch { Console.error("\(error)") }
    }
    let names = ["1  Locations", "2  Shortcuts", "3  Panorama"]
    let tabW = Double(w) / 3
    for (i, name) in names.enumerated() {
      let r = PixelRect(x: Double(i) * tabW, y: 0, w: tabW, h: BoardScene.tabHeight)
      window.fill(r, i == active ? Color(255, 255, 255) : Color(222, 225, 231))
      window.outline(r, Color(190, 194, 202))
      window.text(
        name, x: Double(i) * tabW + tabW / 2, y: 12, size: 16, color: i == active ? Color(20, 20, 20) : Color(90, 96, 106),
        centered: true)
    }
  }

  // MARK: Input

  func handle(_ event: SDL_Event) {
    let t = now
    switch SDL_EventType(event.type) {
    case SDL_QUIT:
      running = false
    case SDL_WINDOWEVENT:
      switch SDL_WindowEventID(UInt32(event.window.event)) {
      case SDL_WINDOWEVENT_SIZE_CHANGED:
        window.matchScaleToWindow()
        let (w, h) = window.size
        for (i, b) in boards.enumerated() { emit(b.relayout(width: w, height: h, at: t), scene: i) }
        emitLayout()
        drewIdleFrame = false
      case SDL_WINDOWEVENT_FOCUS_LOST, SDL_WINDOWEVENT_HIDDEN, SDL_WINDOWEVENT_MINIMIZED:
        // A drag cannot go on without the window: every drag returns cleanly.
        if active < 2 { emit(boards[active].handle(.cancelAll, at: t), scene: active) }
        mouseDown = false
        panorama?.pointerUp()
      case SDL_WINDOWEVENT_EXPOSED:
        drewIdleFrame = false
      default: break
      }
    case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT):
      let x = Double(event.button.x), y = Double(event.button.y)
      if y < BoardScene.tabHeight {
        switchScene(min(2, Int(x / (Double(window.size.width) / 3))))
        return
      }
      mouseDown = true
      pointer(.down, id: 0, x: x, y: y, at: t)
    case SDL_MOUSEMOTION where mouseDown:
      pointer(.move, id: 0, x: Double(event.motion.x), y: Double(event.motion.y), at: t)
    case SDL_MOUSEBUTTONUP where event.button.button == UInt8(SDL_BUTTON_LEFT):
      guard mouseDown else { return }
      mouseDown = false
      pointer(.up, id: 0, x: Double(event.button.x), y: Double(event.button.y), at: t)
    case SDL_MOUSEWHEEL where active == 2:
      panorama?.zoom(by: event.wheel.y > 0 ? 0.9 : 1.1)
    case SDL_FINGERDOWN, SDL_FINGERMOTION, SDL_FINGERUP:
      let (w, h) = window.size
      let x = Double(event.tfinger.x) * Double(w), y = Double(event.tfinger.y) * Double(h)
      let id = Int(truncatingIfNeeded: event.tfinger.fingerId) &+ 1
      let phase: PointerPhase =
        event.type == SDL_FINGERDOWN.rawValue ? .down : (event.type == SDL_FINGERUP.rawValue ? .up : .move)
      if phase == .down && y < BoardScene.tabHeight {
        switchScene(min(2, Int(x / (Double(w) / 3))))
        return
      }
      pointer(phase, id: id, x: x, y: y, at: t)
    case SDL_KEYDOWN:
      key(event.key.keysym, at: t)
    case SDL_DROPFILE:
      if let file = event.drop.file {
        let path = String(cString: file)
        SDL_free(file)
        openPanorama(path)
      }
    case SDL_CONTROLLERSENSORUPDATE where event.csensor.sensor == SDL_SENSOR_GYRO.rawValue:
      let d = event.csensor.data
      panorama?.gyro(Vector3(Double(d.0), Double(d.1), Double(d.2)), at: t)
    default:
      break
    }
  }

  func pointer(_ phase: PointerPhase, id: Int, x: Double, y: Double, at t: Double) {
    if active < 2 {
      emit(boards[active].handle(.pointer(phase, id: id, at: Point(x: x, y: y)), at: t), scene: active)
    } else if let panorama {
      switch phase {
      case .down: panorama.pointerDown(x, y)
      case .move: panorama.pointerMove(x, y, width: window.size.width)
      case .up, .cancel: panorama.pointerUp()
      }
    }
  }

  func openPanorama(_ path: String) {
    switchScene(2)
    guard let panorama else { return }
    do {
      panorama.load(try LoadedPanorama.load(path), name: String(path.split(separator: "/").last ?? ""))
      panorama.message = ""
    } catch {
      panorama.message = error.message
      Console.error(error.message)
    }
  }

  func key(_ keysym: SDL_Keysym, at t: Double) {
    let sym = keysym.sym
    let ctrl = (keysym.mod & UInt16(KMOD_CTRL.rawValue)) != 0
    let shift = (keysym.mod & UInt16(KMOD_SHIFT.rawValue)) != 0
    func k(_ c: Character) -> Int32 { Int32(c.asciiValue!) }
    switch sym {
    case k("1"): switchScene(0)
    case k("2"): switchScene(1)
    case k("3"): switchScene(2)
    case Int32(SDLK_F12.rawValue): screenshot(to: timestampedScreenshotPath())
    case k("q") where ctrl: running = false
    default:
      if active < 2 { boardKey(sym, ctrl: ctrl, shift: shift, at: t) } else { panoramaKey(sym) }
    }
  }

  func boardKey(_ sym: Int32, ctrl: Bool, shift: Bool, at t: Double) {
    func k(_ c: Character) -> Int32 { Int32(c.asciiValue!) }
    let input: Input?
    switch sym {
    case Int32(SDLK_TAB.rawValue): input = .key(.tab)
    case Int32(SDLK_SPACE.rawValue): input = .key(.space)
    case Int32(SDLK_RETURN.rawValue), Int32(SDLK_KP_ENTER.rawValue): input = .key(.enter)
    case Int32(SDLK_ESCAPE.rawValue): input = .key(.escape)
    case Int32(SDLK_LEFT.rawValue): input = .key(.left)
    case Int32(SDLK_RIGHT.rawValue): input = .key(.right)
    case Int32(SDLK_UP.rawValue): input = .key(.up)
    case Int32(SDLK_DOWN.rawValue): input = .key(.down)
    case k("z") where ctrl: input = .key(shift ? .redo : .undo)
    case k("y") where ctrl: input = .key(.redo)
    case k("c") where !ctrl && active == 1: input = .clearContents
    default: input = nil
    }
    if let input { emit(boards[active].handle(input, at: t), scene: active) }
  }

  func panoramaKey(_ sym: Int32) {
    guard let panorama else { return }
    func k(_ c: Character) -> Int32 { Int32(c.asciiValue!) }
    let step = Angle(degrees: 5).radians
    switch sym {
    case Int32(SDLK_LEFT.rawValue): panorama.turn(yaw: -step, pitch: 0)
    case Int32(SDLK_RIGHT.rawValue): panorama.turn(yaw: step, pitch: 0)
    case Int32(SDLK_UP.rawValue): panorama.turn(yaw: 0, pitch: step)
    case Int32(SDLK_DOWN.rawValue): panorama.turn(yaw: 0, pitch: -step)
    case k("m"): panorama.toggleMode()
    case k("l"): panorama.toggleLens()
    case k("r"): panorama.recenter()
    case k("="), k("+"), Int32(SDLK_KP_PLUS.rawValue): panorama.zoom(by: 0.9)
    case k("-"), Int32(SDLK_KP_MINUS.rawValue): panorama.zoom(by: 1.1)
    default: break
    }
  }
}
