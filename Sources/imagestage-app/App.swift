import CSDL2
import CoreMath
import Dispatch
import HostIO
import Panorama
import Raster
import Scenes
import Stage
import StageJSON
import StageSDL
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Set by SIGUSR1 (tests ask this way) or F12: write a screenshot of the next frame drawn.
nonisolated(unsafe) var screenshotSignal: Int32 = 0

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

/// The desktop host: SDL events in as scene input, the studio's display list out as SDL
/// draw calls, plus what only a host can do (files, threads, the clock).
final class App {
  let options: AppOptions
  let window: Window
  var studio: Studio
  var running = true
  let start: UInt64
  let frequency: Double
  var workTimes: [Double] = []
  var busyFrames = 0
  var busySeconds = 0.0
  var drewIdleFrame = false
  var mouseDown = false
  var gameController: OpaquePointer?
  var store: SceneStore
  var textures: [ImageID: Texture] = [:]
  /// Photo item id → the image it shows. Generated photos share one image, and so one
  /// texture: a board of 1 000 generated photos makes one texture, not 1 000.
  var photoImages: [String: RGBAImage] = [:]
  var photoTextures: [String: Texture] = [:]
  var photoTextureKey: [String: String] = [:]
  var panoramaFrame = RGBAImage(width: 1, height: 1)
  var panoramaTexture: Texture?
  var renderedKey: PanoramaFrameKey?
  /// The video on the Panorama tab, when it shows one, and the number of its frame drawn.
  var player: VideoPlayer?
  var renderedVideoFrame = -1
  /// Whether the video's first frame was looked at for an unstitched dual-fisheye layout.
  var checkedVideoLayout = false
  /// Whether the video's early end (a file cut short) was said.
  var saidPictureEnd = false
  var droppedFiles: [String] = []
  var lastStoreCheck = 0.0
  var screenshotCount = 0
  /// Set once start-up is done: layout lines before then would describe a scene not shown.
  var started = false
  let executor = ThreadedRows(threads: 2)
  /// The panorama's mip levels and polar caps, built on another thread after it opens (so
  /// the first frame does not wait for them), tagged with the opening they belong to.
  let extras = FinishedExtras()
  var opening = 0
  var extrasPending = false
  /// Frames drawn since the extras came in (or since start, for a scene without them).
  var framesWithExtras = 0
  var exitCode: Int32 = 0

  init(options: AppOptions) throws {
    self.options = options
    let fontCandidates: [String] = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"]
    let font = fontCandidates.first { access($0, R_OK) == 0 }
    if font == nil { Console.error("no font found (apt-get install fonts-dejavu-core): text is not drawn") }
    let width = max(options.width, Int(Studio.minimumSize.width)), height = max(options.height, Int(Studio.minimumSize.height))
    window = try Window(title: "ImageStage", width: width, height: height, fontPath: font)
    window.setMinimumSize(width: Int(Studio.minimumSize.width), height: Int(Studio.minimumSize.height))
    window.matchScaleToWindow()
    start = SDL_GetPerformanceCounter()
    frequency = Double(SDL_GetPerformanceFrequency())
    store = SceneStore(directory: options.configDirectory)

    var photos: [Photo] = []
    let generated = DefaultArt.photo(size: 256)
    for k in 0..<min(options.items, options.slots) {
      let id = k == 0 ? "photo" : "photo\(k)"
      // Numbered from 0 like the locations (the seed's "location #0"): Photo 5 starts on #5.
      photos.append(Photo(id: id, name: options.items == 1 ? "Photo" : "Photo \(k)"))
      photoImages[id] = generated
      photoTextureKey[id] = "generated"
    }
    var messages: [SceneKind: [String]] = [:]
    if let dir = options.photos {
      let (loaded, problems) = PhotoFolder.load(dir)
      messages[.locations, default: []] += problems
      if !loaded.isEmpty { photos = [] }
      for p in loaded {
        photos.append(p.photo)
        photoImages[p.photo.id] = p.image
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
    openGameController()
    window.setTitle(studio.title)
    started = true
    emitLayout()
  }

  var now: Double { Double(SDL_GetPerformanceCounter() - start) / frequency }

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
        // Taken once the next frame is drawn, before it is presented (below).
        screenshotSignal = 1
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

  // MARK: Panorama

  func preparePanorama() {
    guard studio.panorama == nil else { return }
    if let config = options.tourConfig, openTour(config) { return }
    var message: String?
    var loaded = LoadedPanorama.sample()
    var name = "Sample panorama"
    if let path = options.panorama, VideoDecoder.isVideo(path) {
      do {
        try openVideo(path)
        // The log turns the video's view as it turns a still's (it was ignored, unsaid).
        if let problem = playMotion() {
          Console.error(problem)
          studio.showMessage(problem, in: .panorama)
        }
        return
      } catch {
        message = "\(error.message). Showing the sample panorama."
      }
    } else if let path = options.panorama {
      do {
        loaded = try LoadedPanorama.load(path)
        name = fileName(path)
      } catch {
        message = "\(error.message). Showing the sample panorama."
      }
    }
    let renderer = Self.renderer(loaded)
    studio.setPanorama(PanoramaScene(renderer: renderer, name: name))
    if options.levelHorizon { studio.updatePanorama { $0.update { $0.levelsHorizon = true } } }
    buildExtras(renderer)
    if let problem = playMotion() { message = problem }
    if let message {
      Console.error(message)
      studio.showMessage(message, in: .panorama)
    }
  }

  /// Replays `--motion`'s log, looping, in the panorama shown (a still or a video); what
  /// went wrong when it does not read.
  func playMotion() -> String? {
    guard let motion = options.motion else { return nil }
    do {
      let log = try MotionLog.parse(try FileIO.read(motion))
      studio.updatePanorama { $0.update { $0.play(log, loops: true) } }
      return nil
    } catch {
      return "\(motion): \(error)"
    }
  }

  static func renderer(_ panorama: LoadedPanorama) -> PanoramaRenderer {
    // LoadedPanorama.load refuses an image without pixels (and the sample has them), so the
    // renderer's one refusal cannot happen here.
    guard var renderer = try? PanoramaRenderer(source: panorama.image, geometry: panorama.geometry) else {
      preconditionFailure("a loaded panorama with no pixels")
    }
    renderer.groupKernel = BlendKernels.chosen()
    return renderer
  }

  /// A viewer shows zoomed-out views and the strip: mip levels keep them from aliasing. Users
  /// look up and down: the polar caps keep those views as fast as level ones. Built on
  /// another thread (100–200 ms for an 8192–10800-wide panorama) while the first frames show
  /// without them, then swapped in by `takeExtras`.
  func buildExtras(_ renderer: PanoramaRenderer) {
    opening += 1
    extrasPending = true
    let opening = self.opening, extras = self.extras
    DispatchQueue.global().async {
      var renderer = renderer
      renderer.buildMipLevels(executor: ThreadedRows(threads: 2))
      renderer.buildPolarCaps(executor: ThreadedRows(threads: 2))
      extras.value.withLock { $0 = (opening, renderer) }
    }
  }

  /// Puts the finished extras into the panorama on screen, unless another one opened since.
  func takeExtras() {
    guard extrasPending,
      let finished = extras.value.withLock({ value in
        defer { value = nil }
        return value
      })
    else { return }
    guard finished.opening == opening else { return }
    extrasPending = false
    framesWithExtras = 0
    studio.updatePanorama { $0.updateRenderer { $0 = finished.renderer } }
    renderedKey = nil
    drewIdleFrame = false
    if options.events {
      Console.line(
        JSONLine.panoramaReady(
          mipLevels: finished.renderer.mipLevels.levels.count, polarCaps: finished.renderer.polarCaps != nil))
    }
  }

  /// Reads a viewer config and opens its first scene; false (with the error shown) when it
  /// does not read, so the sample shows instead.
  func openTour(_ path: String) -> Bool {
    do {
      let config = try ViewerConfig.parse(try FileIO.read(path, limit: 16 << 20), source: path)
      for w in config.warnings { Console.error("warning: \(path): \(w.located)") }
      studio.setTour(ViewerTour(config: config))
      return openTourScene()
    } catch {
      let message = "\(error). Showing the sample panorama."
      Console.error(message)
      studio.showMessage(message, in: .panorama)
      return false
    }
  }

  /// Opens the tour's current scene: its image from disk, its camera from the config.
  @discardableResult
  func openTourScene() -> Bool {
    guard let tour = studio.tour, let config = options.tourConfig else { return false }
    let folder = ConfigFolder(configPath: config, allowsOutside: options.allowOutsidePaths)
    var problem: String?
    if let unsupported = tour.unsupported {
      problem = "Scene \"\(tour.sceneID)\": \(unsupported)"
    } else if var layout = tour.tileLayout {
      // A cubemap's faces are as large as its front face says.
      if tour.settings.type == .cubemap, let ref = tour.tileReference(TileID(level: 1, face: 0, x: 0, y: 0)),
        let file = try? folder.file(ref.url, key: ref.key), case .success(let size) = TileFiles.cubeFaceSize(file),
        let faces = MultiresLayout(cubeResolution: size, tileResolution: size, maxLevel: 1)
      {
        layout = faces
      }
      return openTiledScene(tour, layout, folder)
    } else if let ref = tour.imageReference, let path = resolve(ref, in: folder, problem: &problem) {
      do {
        let loaded = try LoadedPanorama.load(path)
        guard
          let geometry = studio.openTourScene(
            width: loaded.image.width, height: loaded.image.height, gpano: loaded.gpano, name: fileName(path))
        else { return false }
        var located = loaded
        located.geometry = geometry
        let renderer = Self.renderer(located)
        studio.updatePanorama { $0.attach(renderer) }
        if options.levelHorizon { studio.updatePanorama { $0.update { $0.levelsHorizon = true } } }
        buildExtras(renderer)
        renderedKey = nil
        drewIdleFrame = false
        studio.showMessage(nil, in: .panorama)
        return true
      } catch {
        problem = "Scene \"\(tour.sceneID)\": \(error.message)"
      }
    } else if problem != nil {
      // Refused by the config's folder (said in `problem`).
    } else if tour.settings.panorama == nil, let video = tour.videoURL {
      problem =
        "Scene \"\(tour.sceneID)\" is a video (\(video)) without a still \"panorama\"; a tour's videos play in the web viewer"
    } else {
      problem = "Scene \"\(tour.sceneID)\": \(tour.imageURL ?? "no panorama") is a web address; the app reads files"
    }
    Console.error(problem!)
    studio.showMessage(problem, in: .panorama)
    return studio.panorama != nil
  }

  /// The file `ref` names, inside the config's folder unless trusted; nil with `problem` set
  /// when it is refused, nil alone for a web address.
  func resolve(_ ref: ViewerTour.FileReference, in folder: ConfigFolder, problem: inout String?) -> String? {
    do { return try folder.file(ref.url, key: ref.key, rootIsFolder: ref.rootIsFolder) } catch {
      problem = error.description
      return nil
    }
  }

  /// A tiled (`multires`) scene: the coarsest level's six tiles drawn at once, then, on
  /// another thread, the finest level up to 2048 px faces (an 8192-wide panorama's detail),
  /// with mip levels and polar caps, swapped in when done (`takeExtras`). Problem tiles are
  /// named on stderr and drawn from their coarser cover.
  @discardableResult
  func openTiledScene(_ tour: ViewerTour, _ layout: MultiresLayout, _ folder: ConfigFolder) -> Bool {
    let config = folder.configPath
    // `known`: tiles already read (the first pass's), not read again.
    @Sendable func cube(level: Int, known: [TileID: RGBAImage] = [:]) -> (TiledCube, [String]) {
      var cube = TiledCube(layout: layout, level: level)
      cube.tiles = known
      var problems: [String] = []
      // This level and every coarser one: a tile that fails is covered by its parent.
      for l in 1...level {
        let n = layout.tilesPerSide(level: l)
        for face in 0..<6 {
          for y in 0..<n {
            for x in 0..<n {
              let tile = TileID(level: l, face: face, x: x, y: y)
              if known[tile] != nil { continue }
              let file: String
              do {
                guard let ref = tour.tileReference(tile),
                  let found = try folder.file(ref.url, key: ref.key, rootIsFolder: ref.rootIsFolder)
                else {
                  problems.append("\(Console.escaped(tour.tileURL(tile) ?? "a tile")): a web address; the app reads files")
                  continue
                }
                file = found
              } catch {
                problems.append(error.description)
                continue
              }
              switch TileFiles.load(file, tile: tile, layout: layout) {
              case .success(let image): cube.tiles[tile] = image
              case .failure(let problem): problems.append(problem.message)
              }
            }
          }
        }
      }
      return (cube, problems)
    }
    let (coarse, problems) = cube(level: 1)
    for p in problems { Console.error("warning: \(p); drawn from a coarser level") }
    let size = 4 * layout.faceSize(level: 1)
    let image = coarse.equirectangular(width: size, executor: executor)
    // Named after the pyramid's folder (a config's title wins).
    let folder = config.split(separator: "/").dropLast().last.map(String.init) ?? "tiles"
    guard studio.openTourScene(width: image.width, height: image.height, gpano: nil, name: folder) != nil else {
      return false
    }
    let geometry = PanoramaGeometry(width: image.width, height: image.height)
    guard var renderer = try? PanoramaRenderer(source: image, geometry: geometry) else { return false }
    renderer.groupKernel = BlendKernels.chosen()
    studio.updatePanorama { $0.attach(renderer) }
    if options.levelHorizon { studio.updatePanorama { $0.update { $0.levelsHorizon = true } } }
    let finest = (1...layout.maxLevel).last { layout.faceSize(level: $0) <= 2048 } ?? 1
    let reported = Set(problems)
    opening += 1
    extrasPending = true
    let opening = self.opening, extras = self.extras, events = options.events
    DispatchQueue.global().async {
      let (fine, problems) = cube(level: finest, known: coarse.tiles)
      for p in problems where !reported.contains(p) { Console.error("warning: \(p); drawn from a coarser level") }
      let image = fine.equirectangular(width: 4 * layout.faceSize(level: finest), executor: ThreadedRows(threads: 2))
      guard
        var renderer = try? PanoramaRenderer(
          source: image, geometry: PanoramaGeometry(width: image.width, height: image.height))
      else { return }
      renderer.groupKernel = BlendKernels.chosen()
      renderer.buildMipLevels(executor: ThreadedRows(threads: 2))
      renderer.buildPolarCaps(executor: ThreadedRows(threads: 2))
      if events {
        // Which level the view's detail comes from, and why not a finer one.
        let why = finest < layout.maxLevel ? "; finer levels are not read: the app's faces stop at 2048 px" : ", the finest"
        Console.error(
          "tiles: detail from level \(finest) of \(layout.maxLevel) (cube faces of \(layout.faceSize(level: finest)) px\(why)), drawn as a \(image.width)×\(image.height) panorama"
        )
      }
      extras.value.withLock { $0 = (opening, renderer) }
    }
    renderedKey = nil
    drewIdleFrame = false
    studio.showMessage(nil, in: .panorama)
    return true
  }

  func openPanorama(_ path: String) {
    emit(studio.show(.panorama, at: now))
    preparePanorama()
    if VideoDecoder.isVideo(path) {
      do {
        try openVideo(path)
        studio.showMessage(nil, in: .panorama)
      } catch {
        Console.error(error.message)
        studio.showMessage(error.message, in: .panorama)
      }
      return
    }
    do {
      let loaded = try LoadedPanorama.load(path)
      let renderer = Self.renderer(loaded)
      closeVideo()
      studio.updatePanorama { $0.load(renderer, name: fileName(path)) }
      buildExtras(renderer)
      studio.showMessage(nil, in: .panorama)
    } catch {
      Console.error(error.message)
      studio.showMessage(error.message, in: .panorama)
    }
  }

  // MARK: Video

  /// Opens a 360° video on the Panorama tab, playing from its start; throws (nothing
  /// changed) when it cannot play.
  func openVideo(_ path: String) throws(VideoError) {
    let player = try VideoPlayer(path: path, now: now)
    closeVideo()
    self.player = player
    let playback = VideoPlayback(duration: player.duration, frameDuration: player.frameDuration)
    if studio.panorama == nil {
      studio.setPanorama(PanoramaScene(video: playback, geometry: player.geometry, name: fileName(path)))
    } else {
      studio.updatePanorama { $0.load(video: playback, geometry: player.geometry, name: fileName(path)) }
    }
    // No extras for a video: its frames are drawn straight from the decoder's planes.
    opening += 1
    extrasPending = false
    renderedKey = nil
    renderedVideoFrame = -1
    checkedVideoLayout = false
    saidPictureEnd = false
    drewIdleFrame = false
    if options.levelHorizon { studio.updatePanorama { $0.update { $0.levelsHorizon = true } } }
    if let problem = player.soundProblem {
      Console.error("\(path): \(problem)")
      emit(studio.notify("Playing without sound: \(problem.dropFirst("no sound: ".count))", at: now))
    }
  }

  /// Warns, as the CLI does, when a clip without spherical metadata looks like an
  /// unstitched dual-fisheye file: it would be drawn as equirectangular without a word.
  func warnIfDualFisheye(_ player: VideoPlayer, _ frame: VideoFrame) {
    guard player.spherical.source.hasPrefix("no spherical metadata"), DualFisheye.looksUnstitched(frame.planes) else {
      return
    }
    Console.error("warning: \(DualFisheye.warning(player.path))")
    studio.showMessage(
      "\(fileName(player.path)) looks like an unstitched dual-fisheye clip (two lens circles side by side): stitch it with the camera's software first.",
      in: .panorama)
  }

  func closeVideo() {
    player?.stop()
    player = nil
  }

  /// Does what the playback state asks (seek, play, pause), takes the frame the clock has
  /// reached, and reports it back; whether the picture changed.
  func driveVideo() -> Bool {
    guard let player, let playback = studio.panorama?.video else { return false }
    let t = now
    var changed = false
    // Leaving the tab pauses, as a hidden player should.
    if studio.active != .panorama && playback.isPlaying {
      studio.updatePanorama { $0.updateVideo { $0.pause() } }
    }
    var seek: Double?
    studio.updatePanorama { $0.updateVideo { seek = $0.takeSeek() } }
    if let seek {
      player.seek(to: seek, now: t)
      changed = true
    }
    let wanted = studio.panorama?.video?.isPlaying ?? false
    if wanted != player.playing {
      player.setPlaying(wanted, now: t)
      changed = true
    }
    let hadProblem = player.soundProblem
    let tick = player.tick(now: t)
    if let frame = player.current, tick.newFrame {
      studio.updatePanorama { $0.updateVideo { $0.showed(frameAt: frame.time) } }
      changed = true
      if !checkedVideoLayout {
        checkedVideoLayout = true
        warnIfDualFisheye(player, frame)
      }
    }
    if tick.reachedEnd {
      // A file cut short: the bar, its label and the length become what the file holds.
      let short = player.pictureEnd
      studio.updatePanorama { $0.updateVideo { $0.reachedEnd(at: short?.time) } }
      if let short, !saidPictureEnd {
        saidPictureEnd = true
        Console.error(short.note)
        studio.showMessage(short.note, in: .panorama)
      }
      changed = true
    }
    if let error = tick.error {
      Console.error(error)
      studio.updatePanorama { $0.updateVideo { $0.reachedEnd() } }
      studio.showMessage(error, in: .panorama)
      changed = true
    }
    if hadProblem == nil, let problem = player.soundProblem {
      Console.error("\(player.path): \(problem)")
      emit(studio.notify("Playing without sound: \(problem.dropFirst("no sound: ".count))", at: t))
    }
    if changed, options.events, let v = studio.panorama?.video {
      Console.line(SceneLines.video(v, dropped: player.dropped, sound: player.soundPlaying, at: t))
    }
    return changed
  }

  func addPhotos(_ paths: [String]) {
    var photos: [Photo] = []
    var problems: [String] = []
    for path in paths {
      do {
        let p = try PhotoFolder.loadOne(path)
        photos.append(p.photo)
        photoImages[p.photo.id] = p.image
      } catch {
        problems.append("\(fileName(path)): \(error)")
      }
    }
    // SDL's drop events carry no position: the pointer is where the files were let go.
    var x: Int32 = 0, y: Int32 = 0
    SDL_GetMouseState(&x, &y)
    emit(studio.addPhotos(photos, droppedAt: StagePoint(x: Double(x), y: Double(y)), at: now))
    // Ids may have been made unique: map each new item to its image by position.
    let items = studio.locations.engine.board.items
    for (k, p) in photos.enumerated() {
      let item = items[items.count - photos.count + k]
      if item.id != p.id { photoImages[item.id] = photoImages[p.id] }
    }
    if !problems.isEmpty { studio.showMessage(problems.joined(separator: " · "), in: .locations) }
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

  // MARK: Loop

  func run() -> Int32 {
    var event = SDL_Event()
    while running {
      // Sleep in the event queue when nothing moves; otherwise poll and draw every frame.
      // Waking only to look at the files and the extras draws nothing (that took 4 frames a
      // second, 4-6 % of a core, with nothing on screen changing).
      // A video waiting for the frame of a seek is not resting: the frame comes from its thread.
      let awaitingVideo = studio.active == .panorama && player?.awaitingFrame == true
      let resting =
        studio.isIdle && drewIdleFrame && !extrasPending && options.screenshot == nil && screenshotSignal == 0
        && !awaitingVideo
      var changed = !resting
      if resting && SDL_WaitEventTimeout(&event, 250) != 0 {
        handle(event)
        changed = true
      }
      let frameStart = now
      var handled = false
      while SDL_PollEvent(&event) != 0 {
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
      if !changed && drewIdleFrame && studio.isIdle && !extrasPending && screenshotSignal == 0 { continue }
      if !handled, !videoChanged, videoOnlyMoves || awaitingVideo, renderedVideoFrame == player?.frameNumber,
        screenshotSignal == 0
      {
        // Only the video moves (or a seek's frame is on its way), its frame on screen is drawn
        // and the next is not due: sleep in the event queue until it is (at most 10 ms),
        // rather than drawing the same frame again.
        let due = player?.nextFrameDue(now: now) ?? 0.01
        guard due > 0.001, SDL_WaitEventTimeout(&event, Int32(max(1, min(due, 0.01) * 1000))) != 0 else { continue }
        handle(event)
      }
      draw()
      let work = now - frameStart
      workTimes.append(work)
      if workTimes.count > 100_000 { workTimes.removeFirst(50_000) }
      // Screenshots read the frame just drawn, before it is presented: after SDL_RenderPresent
      // the back buffer's contents are undefined (a test once read the frame before).
      if screenshotSignal != 0 {
        screenshotSignal = 0
        confirmScreenshot(nextScreenshotPath())
      }
      if let path = options.screenshot, !extrasPending, workTimes.count >= 2,
        studio.isIdle || (studio.active == .panorama && framesWithExtras >= 1),
        player == nil || renderedVideoFrame > 0 || studio.panorama?.video == nil
      {
        // Still, or (motion playing, which never goes still) a full frame drawn with the extras.
        if screenshot(to: path) != nil { exitCode = 1 }
        running = false
      }
      window.present()
      if !(studio.isIdle && drewIdleFrame) {
        busyFrames += 1
        busySeconds += now - frameStart
      }
      Console.flush()
      if !extrasPending { framesWithExtras += 1 }
      drewIdleFrame = studio.isIdle
    }
    _ = store.finish()
    if options.stats { printStats() }
    Console.flush()
    return exitCode
  }

  func nextScreenshotPath() -> String {
    var tv = timeval()
    gettimeofday(&tv, nil)
    screenshotCount += 1
    // Seconds alone collide when two are taken in one second.
    return "imagestage-\(tv.tv_sec)-\(tv.tv_usec / 1000)-\(screenshotCount).png"
  }

  /// A screenshot the user asked for (F12, SIGUSR1): said on screen, or the error shown.
  func confirmScreenshot(_ path: String) {
    if let problem = screenshot(to: path) {
      studio.showMessage("Could not save the screenshot: \(problem)")
    } else {
      emit(studio.notify("Saved screenshot \(path)", at: now))
    }
    drewIdleFrame = false
  }

  /// Writes the window to `path`; what went wrong (also on stderr) when it cannot.
  @discardableResult
  func screenshot(to path: String) -> String? {
    defer { Console.flush() }
    do {
      let image = try window.readPixels()
      try FileIO.writeAtomically(try Raster.encodePNG(image), to: path)
      if options.events { Console.line(JSONLine.screenshot(path)) }
      return nil
    } catch {
      Console.error("screenshot \(path): \(error)")
      return "\(error)"
    }
  }

  func printStats() {
    // The first frame creates every texture: start-up, not interaction.
    let interactive = Array(workTimes.dropFirst())
    let sorted = interactive.sorted()
    guard !sorted.isEmpty else { return }
    func ms(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] * 1000 }
    // Frames per second while something moved: idle time asleep in the event queue is not
    // counted, and frames are paced by vsync.
    let fps = busySeconds > 0 ? Double(busyFrames) / max(busySeconds, 1e-9) : 0
    // The slowest frames with their numbers: a p99 over a few hundred frames is its two or
    // three worst, and knowing when they came (start-up, a drop) says what they were.
    let worst = interactive.enumerated().sorted { $0.element > $1.element }.prefix(5).map {
      (frame: $0.offset + 1, ms: $0.element * 1000)
    }
    let line = JSONLine.stats(
      frames: workTimes.count, busyFrames: busyFrames, fps: fps, p50: ms(0.5), p99: ms(0.99), worst: Array(worst))
    if options.events { Console.line(line) } else { Console.error(line) }
  }

  // MARK: Drawing

  func draw() {
    if studio.active == .panorama { renderPanorama() }
    DisplayListPainter(window: window).paint(studio.displayList()) { self.texture(for: $0) }
  }

  func texture(for id: ImageID) -> Texture? {
    if id == .panorama { return panoramaTexture }
    if let t = textures[id] { return t }
    let image: RGBAImage?
    switch id {
    case .photo(let name):
      let key = photoTextureKey[name] ?? name
      if let shared = photoTextures[key] {
        textures[id] = shared
        return shared
      }
      guard let photo = photoImages[name], let t = try? Texture(window, image: photo) else { return nil }
      photoTextures[key] = t
      textures[id] = t
      return t
    case .icon(let name): image = ShortcutIcon.all.first { $0.id == name }.map { DefaultArt.tile(size: 128, color: $0.color) }
    case .panorama: image = nil
    }
    guard let image, let t = try? Texture(window, image: image) else { return nil }
    textures[id] = t
    return t
  }

  /// Whether the one thing that moves is the video playing (the camera is still).
  var videoOnlyMoves: Bool {
    guard studio.active == .panorama, player != nil, let scene = studio.panorama, let video = scene.video else {
      return false
    }
    return video.isPlaying && !scene.viewer.isMoving && studio.notice == nil
  }

  func renderPanorama() {
    guard let scene = studio.panorama else { return }
    let (pw, _) = window.pixelSize
    let scale = viewportSize.width > 0 ? Double(pw) / viewportSize.width : 1
    let width = max(1, Int(scene.frame.size.width * scale)), height = max(1, Int(scene.frame.size.height * scale))
    let key = scene.frameKey(width: width, height: height)
    let video = scene.video != nil ? player : nil
    guard key != renderedKey || (video != nil && video!.frameNumber != renderedVideoFrame) else { return }
    if panoramaFrame.width != width || panoramaFrame.height != height {
      panoramaFrame = RGBAImage(width: width, height: height)
      panoramaTexture = try? Texture(window, image: panoramaFrame, streaming: true)
    }
    var frame = panoramaFrame
    if let video {
      let v = scene.viewer
      video.render(view: v.renderedView, hfov: v.hfov, lens: v.lens, into: &frame, executor: executor)
      renderedVideoFrame = video.frameNumber
    } else {
      studio.updatePanorama { $0.render(into: &frame, executor: executor) }
    }
    panoramaFrame = frame
    panoramaTexture?.update(panoramaFrame)
    renderedKey = key
    if options.events, let scene = studio.panorama { Console.line(SceneLines.view(scene.viewer)) }
  }
}

/// Where the thread building a panorama's extras leaves them for the main loop.
final class FinishedExtras: Sendable {
  let value = Mutex<(opening: Int, renderer: PanoramaRenderer)?>(nil)
}

func fileName(_ path: String) -> String { String(path.split(separator: "/").last ?? Substring(path)) }
