import Dispatch
import HostIO
import Panorama
import Raster
import Scenes
import StageJSON

/// Tours (`--config`): a viewer config's scenes, each a still from disk or a tile pyramid.
extension App {
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
        picture.renderedKey = nil
        drewIdleFrame = false
        studio.showMessage(nil, in: .panorama)
        return true
      } catch {
        problem = "Scene \"\(tour.sceneID)\": \(error.message)"
      }
    } else if problem != nil {
      // Refused by the config's folder (said in `problem`).
    } else if tour.settings[text: .panorama] == nil, let video = tour.videoURL {
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
    let image = coarse.equirectangular(width: size, executor: picture.executor)
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
    let opening = extras.expect(), finished = extras.finished, events = options.events
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
      finished.value.withLock { $0 = (opening, renderer) }
    }
    picture.renderedKey = nil
    drewIdleFrame = false
    studio.showMessage(nil, in: .panorama)
    return true
  }
}
