import CoreMath
import HostIO
import Panorama
import Raster
import StageJSON
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// One error message per slot, written by parallel workers.
final class ErrorSlots: @unchecked Sendable {
  private var messages: [String?]
  private let lock = Mutex<Void>(())
  init(count: Int) { messages = Array(repeating: nil, count: count) }
  func set(_ i: Int, _ message: String) { lock.withLock { _ in messages[i] = message } }
  var first: String? { lock.withLock { _ in messages.compactMap { $0 }.first } }
}

/// `imagestage pano tiles IN -o DIR`: a multiresolution cube pyramid in Pannellum's layout
/// (its generate.py's: `DIR/config.json`, `DIR/L/FACE{Y}_{X}.jpg`, `DIR/fallback/FACE.jpg`,
/// `DIR/preview.jpg`). Streams: a JPEG is decoded a band of rows at a time and each finest
/// tile drawn as soon as its rows are in (``CubeTiler``), the coarser levels built as their
/// children arrive, so memory is a band of the source, not the source. Written into
/// `DIR.partial-PID` (`StagedOutput`) and renamed to DIR at the end; a failure or an
/// interrupt removes it.
enum TilesCommand {
  static func run(_ args: [String]) throws {
    let parsed = try PanoCommand.parse(args, Commands.spec("pano tiles"))
    guard let output = parsed.value("output") else { throw CommandError(message: "-o DIR is required") }
    try checkOutput(output, force: parsed.flag("force"))
    Interrupts.install()
    let tileSize = try parsed.integer("tile-size", in: 16...4096) ?? 512
    guard tileSize % 2 == 0 else {
      throw CommandError(message: "--tile-size \(tileSize): must be even (each coarser level halves tiles in pairs)")
    }
    let quality = try parsed.integer("quality", in: 1...100) ?? 75
    let png = parsed.flag("png")
    let threads = try parsed.integer("threads", in: 1...64) ?? 2
    let maxMemory = (try parsed.integer("max-memory", in: 64...1_000_000) ?? 2048) << 20
    let background = try parsed.value("background").map(parseBackground)
    guard parsed.positional.count == 1 else { throw CommandError(message: "expected one input image (or \"sample\")") }
    var limits = ImageLimits(maxMemory: maxMemory)
    if let megapixels = try parsed.number("max-pixels", in: 0.001...1000) { limits.maxPixels = Int(megapixels * 1_000_000) }
    try TiledScene.refuseFolder(parsed.positional[0])
    let source = try PanoramaRows(parsed.positional[0], projection: try PanoCommand.projection(parsed), limits: limits)
    let geometry = source.geometry
    // generate.py's default: the face as wide as the source's pixels per 90°, a multiple of 8.
    let fullWidth = Int(geometry.fullWidth * Double(source.width) / geometry.croppedWidth)
    let defaultCube = 8 * Int(Double(fullWidth) / Double.pi / 8)
    let givenCube = try parsed.integer("cube-size", in: 16...65536)
    // The default face comes from the file's GPano fields, which may claim a full panorama
    // far beyond the image (a 64-px crop of a 100 000-px panorama: faces of 31 832 px, days of
    // empty tiles). A pyramid may hold at most `maxFill` times the image's own pixels.
    let maxFill = 256
    let defaultPixels = 6.0 * Double(defaultCube) * Double(defaultCube)
    if givenCube == nil, defaultCube > 65536 || defaultPixels > Double(maxFill * source.width * source.height) {
      throw CommandError(
        message:
          "\(parsed.positional[0]): its GPano metadata puts its \(source.width)×\(source.height) px in a panorama \(Int(geometry.fullWidth)) px wide, so the pyramid's faces would be \(defaultCube) px: over \(maxFill) times the pixels the image has. Check the metadata, or give --cube-size"
      )
    }
    let cubeSize = givenCube ?? max(defaultCube, 16)
    let fallbackSize = min(cubeSize, try parsed.integer("fallback-size", in: 16...8192) ?? 1024)
    let levels = MultiresLayout.levels(cubeResolution: cubeSize, tileResolution: tileSize)
    guard let layout = MultiresLayout(cubeResolution: cubeSize, tileResolution: tileSize, maxLevel: levels) else {
      throw CommandError(message: "--cube-size \(cubeSize) and --tile-size \(tileSize) make no pyramid")
    }
    let plan = CubeTilePlan(layout: layout, geometry: geometry, sourceWidth: source.width, sourceHeight: source.height)
    let chunk = 16
    let bufferRows = CubeTiler.bufferRows(plan: plan, sourceHeight: source.height, chunk: chunk)
    var reducer = BoxReducer(
      sourceWidth: source.width, sourceHeight: source.height,
      factor: BoxReducer.factor(width: source.width, target: 4 * fallbackSize))
    // What the run holds: the JPEG decoder's own buffers (a progressive JPEG's whole
    // coefficients), the band of rows, the reduced copy, (at most) a row of waiting parent
    // tiles per level and face, and a batch of drawn tiles with the coarser ones they
    // complete (a third more) and their encoded bytes (as much again, at most).
    let bandBytes = bufferRows * source.width * 4
    let tileBytes = tileSize * tileSize * 4
    let batchBytes =
      3
      * min(
        CubeTiler.batchTiles(tileResolution: tileSize),
        6 * layout.tilesPerSide(level: levels)
          * layout.tilesPerSide(level: levels)) * tileBytes
    let estimate =
      source.decoderBytes + bandBytes + reducer.image.pixels.count * 4 + 6 * levels * layout.tilesPerSide(level: levels) / 2
      * tileBytes + batchBytes
    guard estimate <= maxMemory else {
      throw CommandError(
        message:
          "tiling \(source.width)×\(source.height) into \(cubeSize) px faces of \(tileSize) px tiles needs about \(estimate >> 20) MB (a band of \(bufferRows) rows, tiles waiting for their parents and a batch being written\(source.decoderBytes >= 1 << 20 ? ", and \(source.decoderBytes >> 20) MB the JPEG decoder holds" : "")), over --max-memory \(maxMemory >> 20) (MB): give a smaller --cube-size or --tile-size, or a larger --max-memory"
      )
    }
    try source.start()
    let ext = png ? "png" : "jpg"
    let staged = try StagedOutput(output, kind: .directory)
    for path in staged.removedLeftovers { Console.error("removed \(path), left by an earlier run that was killed") }
    let work = staged.temporary
    for level in 1...levels { try FileIO.makeDirectories("\(work)/\(level)") }
    try FileIO.makeDirectories("\(work)/fallback")
    let total = (1...levels).reduce(0) { $0 + layout.tileCount(level: $1) }
    var progress = Progress(total: total)
    progress.unit = "tiles"
    do {
      let executor = ThreadedRows(threads: threads)
      var written = 0
      @Sendable func encode(_ image: RGBAImage) throws(RasterError) -> [UInt8] {
        png ? try Raster.encodePNG(image, executor: InlineRows()) : try Raster.encodeJPEG(image, quality: quality)
      }
      let failure = CubeTiler.run(
        plan: plan, geometry: geometry, sourceWidth: source.width, sourceHeight: source.height,
        background: background ?? RGBAImage.pack(r: 0, g: 0, b: 0), reducer: &reducer, chunk: chunk, executor: executor,
        read: { buffer, at, count in
          do throws(RasterError) {
            try buffer.pixels.withUnsafeMutableBufferPointer { (p) throws(RasterError) in
              try source.read(into: p.baseAddress! + at * source.width, count: count)
            }
          } catch {
            return error.message
          }
          return nil
        },
        emit: { batch in
          // Encoding is most of the work: the batch's tiles on every thread.
          let errors = ErrorSlots(count: batch.count)
          executor.run(batch.count) { i in
            let tile = batch[i]
            let path = work + MultiresLayout.path("/%l/%s%y_%x", level: tile.level, face: tile.face, x: tile.x, y: tile.y)
            do {
              try FileIO.writeNew(try encode(tile.image), to: path + "." + ext)
            } catch let error as RasterError {
              errors.set(i, "\(path).\(ext): \(error.message)")
            } catch {
              errors.set(i, "\(error)")
            }
          }
          if let error = errors.first { return error }
          written += batch.count
          progress.update(written)
          return nil
        })
      if let failure { throw CommandError(message: failure, code: 1) }
      // The fallback faces and the preview, from the reduced copy (with mip levels: they are
      // smaller than it).
      var small = try PanoramaRenderer(source: reducer.image, geometry: reducer.geometry(of: geometry))
      small.groupKernel = BlendKernels.chosen()
      if let background { small.background = background }
      small.buildMipLevels(executor: executor)
      let fallback = CubeMap.faces(from: &small, size: fallbackSize, executor: executor)
      for (f, face) in fallback.faces.enumerated() {
        try FileIO.writeNew(try encode(face), to: "\(work)/fallback/\(MultiresLayout.faces[f]).\(ext)")
      }
      var preview = RGBAImage(width: 1024, height: 512)
      small.renderPerspective(
        view: ViewAngles(), hfov: 2 * Double.pi, lens: .equirectangular, into: &preview, executor: executor)
      try FileIO.writeNew(try Raster.encodeJPEG(preview, quality: 70), to: "\(work)/preview.jpg")
      var config: [(String, JSONValue)] = [
        ("type", "multires"), ("preview", "preview.jpg"),  // relative to the config, as the levels' paths are (no basePath)
        (
          "multiRes",
          [
            "path": "/%l/%s%y_%x", "fallbackPath": "/fallback/%s", "extension": .string(ext),
            "tileResolution": .number(tileSize), "maxLevel": .number(levels), "cubeResolution": .number(cubeSize),
          ]
        ),
      ]
      let g = geometry
      if !g.wraps || g.croppedHeight < g.fullHeight - 0.5 {
        // A partial panorama: the part it covers, in Pannellum's keys.
        let vOffset = (g.fullHeight / 2 - g.croppedTop - g.croppedHeight / 2) / g.fullHeight * 180
        config += [
          ("haov", .number(Angle(radians: g.horizontalFOV).degrees)), ("vaov", .number(Angle(radians: g.verticalFOV).degrees)),
          ("vOffset", .number(vOffset)), ("avoidShowingBackground", .bool(background == nil)),
        ]
      }
      if let background {
        let c = RGBAImage.unpack(background)
        config.append(
          ("backgroundColor", [.number(Double(c.r) / 255), .number(Double(c.g) / 255), .number(Double(c.b) / 255)]))
      }
      try FileIO.writeNew(Array((JSONValue.object(config).text + "\n").utf8), to: "\(work)/config.json")
      progress.finish()
      try staged.commit()
      Console.writeAll(
        1,
        Array(
          "wrote \(output): \(total) tiles in \(levels) \(levels == 1 ? "level" : "levels") (\(cubeSize) px faces, \(tileSize) px tiles)\(source.isStreamed ? "" : "; decoded whole, not streamed")\n"
            .utf8))
    } catch {
      progress.finish()
      staged.discard()
      throw error
    }
  }

  /// DIR's folder must exist; DIR itself may be missing or an empty folder, or any folder
  /// with `--force` (replaced whole once the new pyramid is complete).
  static func checkOutput(_ output: String, force: Bool) throws {
    try PanoCommand.checkDestination(output)
    var status = stat()
    guard stat(output, &status) == 0 else { return }
    guard (status.st_mode & S_IFMT) == S_IFDIR else {
      throw CommandError(message: "-o \(output): that is a file; pano tiles writes a folder")
    }
    let entries = FileIO.entries(output)
    if !force, let first = entries.first {
      // Named as an entry, never bare: "holds 1" (a pyramid's level folder) read as a count.
      let others = entries.count > 1 ? " and \(entries.count - 1) more" : ""
      throw CommandError(
        message:
          "-o \(output): already exists and is not empty (it holds \(Self.entryName(first, in: output))\(others)); choose a new or empty folder, or add --force to replace it once the new pyramid is complete"
      )
    }
  }

  /// `the folder "1"` or `the file "notes.txt"`: an entry of `folder`, said as one.
  static func entryName(_ name: String, in folder: String) -> String {
    var status = stat()
    let isFolder = lstat(folder + "/" + name, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    return "the \(isFolder ? "folder" : "file") \"\(name)\""
  }

  /// `--background R,G,B` with components 0…1 (generate.py's `-b`, brackets allowed), or `#RRGGBB`.
  static func parseBackground(_ text: String) throws -> UInt32 {
    let bad = CommandError(message: "--background \"\(text)\": expected R,G,B with each 0…1 (as generate.py's -b) or #RRGGBB")
    if text.hasPrefix("#") {
      guard text.count == 7, let v = UInt32(text.dropFirst(), radix: 16) else { throw bad }
      return RGBAImage.pack(r: UInt8(v >> 16), g: UInt8((v >> 8) & 0xFF), b: UInt8(v & 0xFF))
    }
    let parts = text.split(whereSeparator: { "[], ".contains($0) }).map { Double($0) }
    guard parts.count == 3, parts.allSatisfy({ $0 != nil && (0...1).contains($0!) }) else { throw bad }
    let c = parts.map { UInt8(($0! * 255).rounded()) }
    return RGBAImage.pack(r: c[0], g: c[1], b: c[2])
  }
}
