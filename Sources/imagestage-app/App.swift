import HostIO
import Panorama
import Raster
import Scenes
import Stage
import StageJSON
import StageSDL

#if canImport(Glibc)
  import Glibc
#endif

struct AppOptions {
  var scene = SceneKind.locations
  var width = 1024
  var height = 720
  var events = false
  var screenshot: String?
  var stats = false
  var panorama: String?
  /// A viewer config (`--config`): its tour in the Panorama tab.
  var tourConfig: String?
  /// `--allow-outside-paths`: the config may name files outside its folder (`ConfigFolder`).
  var allowOutsidePaths = false
  var motion: String?
  var levelHorizon = false
  var photos: String?
  var slots = 6
  var items = 1
  var swap = true
  var configDirectory: String?
}

/// The desktop host: SDL's events in as scene input, the studio's display list out as draw
/// calls through StageSDL, plus what only a host can do (files, threads, the clock).
///
/// This file holds the loop and the state every part reads; each concern keeps its own
/// state in a type of its own, with the app's side of it in `App+Concern.swift`: the images
/// and their textures (`ImageTextures`, App+Photos), the panorama's picture and its extras
/// (`PanoramaPicture`, `PanoramaExtras`, App+Panorama), tours and tile pyramids (App+Tour),
/// the video (`VideoSession`, App+Video), screenshots (`Screenshots`, App+Screenshots),
/// frame timing (`FrameStats`) and input (App+Input).
final class App {
  let options: AppOptions
  let window: Window
  let clock: PerformanceClock
  var studio: Studio
  var store: SceneStore
  /// The gyroscope of a game controller, when one has it: kept open for its readings.
  let gyro: GyroController?
  var running = true
  /// Set once start-up is done: layout lines before then would describe a scene not shown.
  var started = false
  var exitCode: Int32 = 0
  /// Whether the frame on screen shows the scene at rest (see `isResting`).
  var drewIdleFrame = false
  var mouseDown = false
  var lastStoreCheck = 0.0
  var images = ImageTextures()
  var picture = PanoramaPicture()
  var extras = PanoramaExtras()
  /// The video on the Panorama tab, when it shows one.
  var video: VideoSession?
  var screenshots = Screenshots()
  var stats = FrameStats()

  init(options: AppOptions) throws {
    self.options = options
    let fontCandidates: [String] = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"]
    let font = fontCandidates.first { access($0, R_OK) == 0 }
    if font == nil { Console.error("no font found (apt-get install fonts-dejavu-core): text is not drawn") }
    let width = max(options.width, Int(Studio.minimumSize.width)), height = max(options.height, Int(Studio.minimumSize.height))
    window = try Window(title: "ImageStage", width: width, height: height, fontPath: font)
    window.setMinimumSize(width: Int(Studio.minimumSize.width), height: Int(Studio.minimumSize.height))
    window.matchScaleToWindow()
    clock = PerformanceClock()
    store = SceneStore(directory: options.configDirectory)
    gyro = GyroController()

    var photos: [Photo] = []
    let generated = DefaultArt.photo(size: 256)
    for k in 0..<min(options.items, options.slots) {
      let id = k == 0 ? "photo" : "photo\(k)"
      // Numbered from 0 like the locations (the seed's "location #0"): Photo 5 starts on #5.
      photos.append(Photo(id: id, name: options.items == 1 ? "Photo" : "Photo \(k)"))
      images.addGenerated(id: id, image: generated)
    }
    var messages: [SceneKind: [String]] = [:]
    if let dir = options.photos {
      let (loaded, problems) = PhotoFolder.load(dir)
      messages[.locations, default: []] += problems
      if !loaded.isEmpty { photos = [] }
      for p in loaded {
        photos.append(p.photo)
        images.photoImages[p.photo.id] = p.image
      }
    }
    var locations = BoardScene.locations(photos: photos, slots: options.slots)
    locations.swapsOccupied = options.swap
    studio = Studio(active: .locations, locations: locations)
    emit(studio.layout(viewport: viewportSize, at: 0))
    for kind in SceneKind.allCases where kind.isBoard {
      if let problem = store.load(kind, into: &studio, at: 0) { messages[kind, default: []].append(problem) }
    }
    // Each on its own tab: a photo that failed is not news on the Panorama tab.
    for (kind, texts) in messages where !texts.isEmpty { studio.showMessage(texts.joined(separator: " · "), in: kind) }
    if options.scene != .locations { emit(studio.show(options.scene, at: 0)) }
    window.setTitle(studio.title)
    started = true
    emitLayout()
  }

  var now: Double { clock.seconds }

  var viewportSize: StageSize {
    let (w, h) = window.size
    return StageSize(width: Double(w), height: Double(h))
  }

  // MARK: Scene output

  func emit(_ events: [SceneEvent]) {
    let t = now
    for event in events {
      switch event {
      case .engine(let kind, let e):
        if options.events { Console.line(EventLines(numericIDs: studio.board(kind).numericIDs).line(e, at: t)) }
      case .announce(let a):
        if options.events { Console.line(SceneLines.announcement(a, at: t)) }
      case .sort(_, let e):
        if options.events { Console.line(SortEventLines().line(e, at: t)) }
      case .layout(let kind):
        if kind == studio.active && started { emitLayout() }
      case .save(let kind):
        store.save(kind, studio)
      case .shown(let kind):
        window.setTitle(studio.title)
        if kind == .panorama { preparePanorama() }
        if kind == .panorama && started { emitLayout() }
        drewIdleFrame = false
      case .request(.screenshot):
        // Taken once the next frame is drawn, before it is presented (`run`).
        screenshotRequested.store(true, ordering: .relaxed)
      case .request(.quit):
        running = false
      case .request(.loadTourScene):
        openTourScene()
        if started { emitLayout() }
      }
    }
  }

  func emitLayout() {
    guard options.events else { return }
    Console.line(SceneLines.layout(studio, window: window.size))
    Console.flush()
  }

  // MARK: Loop

  /// Whether nothing on screen can change until an event comes: the scene is still and the
  /// frame shown was drawn so, no screenshot is on its way, and no video waits for the frame
  /// of a seek (it comes from the video's thread, not as an event). The loop then sleeps in
  /// the event queue and draws nothing.
  ///
  /// Extras on their way (mip levels, caps) do not wake it: they change nothing until they
  /// are taken, and drawing the same frame again meanwhile took the core their build needs
  /// (a `--screenshot` run of the debug app drew frames for 20 s while they built). A
  /// `--screenshot` waits for them at rest, then takes the frame drawn with them.
  var isResting: Bool {
    studio.isIdle && drewIdleFrame && (options.screenshot == nil || extras.pending)
      && !screenshotRequested.load(ordering: .relaxed) && !awaitingVideo
  }

  /// A video on the Panorama tab waits for the frame of a seek.
  var awaitingVideo: Bool { studio.active == .panorama && video?.player.awaitingFrame == true }

  func run() -> Int32 {
    while running {
      // Sleep in the event queue when nothing moves; otherwise poll and draw every frame.
      // Waking only to look at the files and the extras draws nothing (that took 4 frames a
      // second, 4-6 % of a core, with nothing on screen changing).
      let resting = isResting
      var changed = !resting
      // Extras on their way are looked for every 10 ms, so they show as soon as they are built.
      if resting, let event = window.waitEvent(milliseconds: extras.pending ? 10 : 250) {
        handle(event)
        changed = true
      }
      let frameStart = now
      var handled = false
      while let event = window.pollEvent() {
        handle(event)
        changed = true
        handled = true
      }
      if let problem = store.collect().last {
        studio.showMessage(problem)
        changed = true
      }
      if frameStart - lastStoreCheck > 1 {
        lastStoreCheck = frameStart
        // Another copy of the app saved: take its positions and shortcuts (see SceneStore).
        for kind in store.changedOutside() {
          _ = store.load(kind, into: &studio, at: frameStart)
          emit([.layout(kind)])
          drewIdleFrame = false
        }
      }
      takeExtras()
      studio.advance(to: now)
      let videoChanged = driveVideo()
      if videoChanged {
        changed = true
        drewIdleFrame = false
      }
      // Still resting after the files, the extras and the clock had their say.
      if !changed && isResting { continue }
      if !handled, !videoChanged, videoOnlyMoves || awaitingVideo,
        picture.renderedVideoFrame == video?.player.frameNumber, !screenshotRequested.load(ordering: .relaxed)
      {
        // Only the video moves (or a seek's frame is on its way), its frame on screen is drawn
        // and the next is not due: sleep in the event queue until it is (at most 10 ms),
        // rather than drawing the same frame again.
        let due = video?.player.nextFrameDue(now: now) ?? 0.01
        guard due > 0.001, let event = window.waitEvent(milliseconds: Int(max(1, min(due, 0.01) * 1000))) else { continue }
        handle(event)
      }
      draw()
      stats.record(work: now - frameStart)
      // Screenshots read the frame just drawn, before it is presented: after the present the
      // back buffer's contents are undefined (a test once read the frame before).
      if screenshotRequested.exchange(false, ordering: .relaxed) {
        confirmScreenshot(screenshots.nextPath())
      }
      if let path = options.screenshot, !extras.pending, stats.frames >= 2,
        studio.isIdle || (studio.active == .panorama && extras.framesSince >= 1),
        video == nil || picture.renderedVideoFrame > 0 || studio.panorama?.video == nil
      {
        // Still, or (motion playing, which never goes still) a full frame drawn with the extras.
        if screenshot(to: path) != nil { exitCode = 1 }
        running = false
      }
      window.present()
      if !(studio.isIdle && drewIdleFrame) { stats.recordBusy(seconds: now - frameStart) }
      Console.flush()
      if !extras.pending { extras.framesSince += 1 }
      drewIdleFrame = studio.isIdle
    }
    _ = store.finish()
    if options.stats, let line = stats.line() {
      if options.events { Console.line(line) } else { Console.error(line) }
    }
    Console.flush()
    return exitCode
  }

  // MARK: Drawing

  func draw() {
    if studio.active == .panorama { renderPanorama() }
    DisplayListPainter(window: window).paint(studio.displayList()) { self.texture(for: $0) }
  }

  func texture(for id: ImageID) -> Texture? {
    if id == .panorama { return picture.texture }
    return images.texture(for: id, in: window)
  }
}

func fileName(_ path: String) -> String { String(path.split(separator: "/").last ?? Substring(path)) }
