import CoreMath
import HostIO
import Panorama
import Raster
import Scenes
import StageJSON

/// `pano render --config` and `pano info` on a tiled (`multires`) config: the tiles a view
/// needs read from disk (only those: the coarsest level and what the frame sees at its
/// level), a missing, broken or wrongly sized tile named on stderr and drawn from a coarser
/// level, never a hole or a crash.
enum TiledScene {
  /// Where `tile` is on disk, inside the config's folder unless `--allow-outside-paths`
  /// (`ConfigFolder`); a web address, or a path refused, is an error. Nil for a cube's face
  /// given as null (a partial cube: nothing to read, the background shows there).
  static func path(_ tour: ViewerTour, _ tile: TileID, in folder: ConfigFolder) throws -> String? {
    if tour.settings.type == .cubemap, tour.tileURL(tile) == nil { return nil }
    guard let ref = tour.tileReference(tile) else {
      throw CommandError(message: "\(Console.escaped(folder.configPath)): no multiRes settings")
    }
    guard let file = try folder.file(ref.url, key: ref.key, rootIsFolder: ref.rootIsFolder) else {
      throw CommandError(
        message:
          "\(Console.escaped(ref.url)): the CLI reads files, not web addresses; download the tiles and point basePath at them")
    }
    return file
  }

  /// Reads `tile`: nil (with the reason on stderr) when it is missing, not an image, or not
  /// the size the layout gives it.
  static func load(
    _ tour: ViewerTour, _ layout: MultiresLayout, _ tile: TileID, in folder: ConfigFolder, quiet: Bool = false
  ) throws -> RGBAImage? {
    guard let file = try path(tour, tile, in: folder) else { return nil }
    switch TileFiles.load(file, tile: tile, layout: layout) {
    case .success(let image): return image
    case .failure(let problem):
      if !quiet { Console.error("warning: \(problem.message); drawn from a coarser level") }
      return nil
    }
  }

  /// How many tile problems a render names one by one; the rest are counted.
  static let namedProblems = 20

  /// Renders the shown tiled scene of `tour` (the camera already set) into `frame`.
  static func render(
    _ tour: inout ViewerTour, in folder: ConfigFolder, into frame: inout RGBAImage, threads: Int
  ) throws {
    guard let layout = tour.tileLayout, let viewer = tour.panorama?.viewer else { return }
    // A still: the tiles are local files and only the picture counts.
    var schedule = TileSchedule(layout: layout, budget: Int.max, sharpness: .everyPixel)
    schedule.maxInFlight = Int.max
    let plan = schedule.plan(
      view: viewer.renderedView, hfov: viewer.hfov, lens: viewer.lens, width: frame.width, height: frame.height)
    var cube = TiledCube(layout: layout, level: plan.level)
    var failed = 0, failedAtLevel = 0
    for tile in plan.fetch {
      if let image = try load(tour, layout, tile, in: folder, quiet: failed >= namedProblems) {
        cube.tiles[tile] = image
      } else {
        failed += 1
        if tile.level == plan.level { failedAtLevel += 1 }
      }
    }
    cube.render(
      view: viewer.renderedView, hfov: viewer.hfov, lens: viewer.lens, into: &frame, executor: ThreadedRows(threads: threads),
      kernel: BlendKernels.chosen())
    if failed > 0 {
      let unnamed = failed > namedProblems ? " (the first \(namedProblems) named above)" : ""
      Console.error(
        "warning: \(failed) of \(plan.fetch.count) tiles could not be used\(unnamed); the view shows coarser levels there")
    }
    // A whole level unreadable is a config that does not describe its files, not damage.
    let atLevel = plan.fetch.filter { $0.level == plan.level }.count
    if atLevel > 1, failedAtLevel == atLevel {
      Console.error(
        "warning: none of level \(plan.level)'s \(atLevel) tiles this view needs could be read: do multiRes.cubeResolution \(layout.cubeResolution), tileResolution \(layout.tileResolution) and maxLevel \(layout.maxLevel) describe the files (imagestage pano info CONFIG checks every tile)?"
      )
    }
  }

  /// `pano info` on a tiled config: the pyramid's shape, and every tile checked (present, an
  /// image, the size the layout gives it). Problems are listed (the first 20) and counted;
  /// the exit status is 1 when there are any.
  static func info(_ folder: ConfigFolder) throws {
    let configPath = Console.escaped(folder.configPath)
    var tour = ViewerTour(config: try readConfig(folder.configPath))
    if tour.settings.type == .cubemap { try measureCube(&tour, in: folder) }
    guard let layout = tour.tileLayout else {
      throw CommandError(
        message: "\(configPath): not a multires config (type \(tour.settings.type?.rawValue ?? "equirectangular"))")
    }
    var problems: [JSONValue] = []
    var count = 0, tileCount = 0
    var levels: [JSONValue] = []
    for level in 1...layout.maxLevel {
      let n = layout.tilesPerSide(level: level)
      levels.append(["level": .number(level), "faceSize": .number(layout.faceSize(level: level)), "tilesPerSide": .number(n)])
      for face in 0..<6 {
        for y in 0..<n {
          for x in 0..<n {
            let tile = TileID(level: level, face: face, x: x, y: y)
            guard let file = try path(tour, tile, in: folder) else { continue }
            tileCount += 1
            let expected = layout.tileSize(level: level, x: x, y: y)
            var problem: String?
            do {
              let head = try FileIO.readPrefix(file, count: 1 << 16)
              let size = try Raster.imageSize(head)
              if size != expected {
                problem = "is \(size.width)×\(size.height), expected \(expected.width)×\(expected.height)"
              } else if !Raster.endsWhole(head: head, tail: try FileIO.readSuffix(file, count: 1024)) {
                problem = "is cut short (no end of image: truncated)"
              }
            } catch let error as FileError {
              problem = error.reason
            } catch let error as RasterError {
              problem = error.message
            }
            if let problem {
              count += 1
              if problems.count < 20 { problems.append(.string("\(Console.escaped(file)): \(problem)")) }
            }
          }
        }
      }
    }
    let line: JSONValue = [
      "type": .string(tour.settings.type?.rawValue ?? "multires"), "cubeResolution": .number(layout.cubeResolution),
      "tileResolution": .number(layout.tileResolution), "maxLevel": .number(layout.maxLevel),
      "path": .string(tour.settings.multiRes?.path), "extension": .string(tour.settings.multiRes?.fileExtension),
      "levels": .array(levels),
      "tiles": .number(tileCount), "problemCount": .number(count), "problems": .array(problems),
    ]
    Console.line(line.text)
    Console.flush()
    // Exit 1, as docs/cli.md says: the command ran, and found the pyramid broken.
    if count > 0 {
      throw CommandError(
        message: "\(configPath): \(count) of \(tileCount) tiles missing or wrong (see \"problems\")", code: 1)
    }
  }

  /// A cubemap scene's face size, from its front face's header (each face is then checked
  /// against it as it is read).
  static func measureCube(_ tour: inout ViewerTour, in folder: ConfigFolder) throws {
    var given: String?
    for face in 0..<6 where given == nil { given = try path(tour, TileID(level: 1, face: face, x: 0, y: 0), in: folder) }
    guard let file = given else { throw CommandError(message: "the cubeMap gives no face image (all six are null)") }
    switch TileFiles.cubeFaceSize(file) {
    case .success(let size): tour.cubeFaceSize = size
    case .failure(let problem): throw CommandError(message: problem.message)
    }
  }

  /// A viewer config read and checked, its errors as the CLI's; what it ignores (a stale
  /// link, a value of the wrong type) is a warning on stderr with its key path and line.
  static func readConfig(_ path: String) throws -> ViewerConfig {
    let bytes: [UInt8]
    do { bytes = try FileIO.read(path, limit: 16 << 20) } catch { throw CommandError(message: error.description) }
    do throws(InputError) {
      let config = try ViewerConfig.parse(bytes, source: path)
      for w in config.warnings { Console.error("warning: \(Console.escaped(path)): \(w.located)") }
      return config
    } catch {
      throw CommandError(message: error.description)
    }
  }

  /// `--config`'s value: a config file, or a folder holding one (`DIR/config.json`, as
  /// `pano tiles` writes it).
  static func configArgument(_ argument: String) throws -> String {
    guard FileIO.isDirectory(argument) else { return argument }
    guard let config = configPath(argument) else {
      throw CommandError(message: "--config \(argument): a folder with no config.json; give the config file itself")
    }
    return config
  }

  /// An input that is a folder but not a pyramid: said as such, not "not a regular file".
  static func refuseFolder(_ argument: String) throws {
    guard FileIO.isDirectory(argument) else { return }
    throw CommandError(
      message: "\(argument): a folder with no config.json; give an image (JPEG or PNG) or a tile pyramid's folder")
  }

  /// The config of a pyramid named on the command line: DIR (its config.json) or a .json file.
  static func configPath(_ argument: String) -> String? {
    if argument.hasSuffix(".json") { return argument }
    let folder = argument.hasSuffix("/") ? String(argument.dropLast()) : argument
    return FileIO.exists(folder + "/config.json") ? folder + "/config.json" : nil
  }

  /// `pano video` from a pyramid: each frame reads the tiles it needs that are not held yet
  /// (the web viewer's schedule, with a budget), drops those the schedule drops, and draws
  /// from the finest loaded cover of each.
  struct Frames {
    let folder: ConfigFolder
    let tour: ViewerTour
    let layout: MultiresLayout
    var schedule: TileSchedule
    var tiles: [TileID: RGBAImage] = [:]
    var reported: Set<TileID> = []
    /// The tile table of `tiles` at `tableLevel`, kept while neither changes (most frames).
    var table: TiledCube.Texels?
    var tableLevel = 0
    /// The CPU's kernel, as `pano render` uses it (chosen once: it reads the wisdom file).
    let kernel = BlendKernels.chosen()

    init(_ folder: ConfigFolder) throws {
      self.folder = folder
      var tour = ViewerTour(config: try TiledScene.readConfig(folder.configPath))
      if tour.settings.type == .cubemap { try TiledScene.measureCube(&tour, in: folder) }
      self.tour = tour
      guard let layout = tour.tileLayout else {
        throw CommandError(
          message: "\(Console.escaped(folder.configPath)): not a multires or cubemap config; give the image itself")
      }
      self.layout = layout
      // Frames of a video file: as sharp as a still, at the cost of more tiles read.
      schedule = TileSchedule(layout: layout, budget: 512, sharpness: .everyPixel)
      schedule.maxInFlight = Int.max  // read now: a frame waits for its tiles
    }

    /// The full sphere the viewer's camera moves over.
    var geometry: PanoramaGeometry {
      PanoramaGeometry(width: 4 * layout.cubeResolution, height: 2 * layout.cubeResolution)
    }

    mutating func draw(view: ViewAngles, camera: PanoCommand.Camera, into frame: inout RGBAImage) throws {
      let plan = schedule.plan(view: view, hfov: camera.hfov, lens: camera.lens, width: frame.width, height: frame.height)
      for t in plan.evict where tiles.removeValue(forKey: t) != nil { table = nil }
      for t in plan.fetch {
        guard let file = try TiledScene.path(tour, t, in: folder) else {
          schedule.loaded(t)  // a missing face: nothing to read, the background shows there
          continue
        }
        switch TileFiles.load(file, tile: t, layout: layout) {
        case .success(let image):
          tiles[t] = image
          table = nil
          schedule.loaded(t)
        case .failure(let problem):
          // Said once, when the schedule gives up on it.
          if !schedule.failed(t), reported.insert(t).inserted {
            Console.error("warning: \(problem.message); drawn from a coarser level")
          }
        }
      }
      if table == nil || tableLevel != plan.level {
        var cube = TiledCube(layout: layout, level: plan.level)
        cube.tiles = tiles
        table = cube.texels()
        tableLevel = plan.level
      }
      table?.render(
        view: view, hfov: camera.hfov, lens: camera.lens, into: &frame, executor: ThreadedRows(threads: camera.threads),
        kernel: kernel)
    }
  }
}
