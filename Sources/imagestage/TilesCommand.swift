import CoreMath
import HostIO
import Panorama
import Raster
import StageJSON

#if canImport(Glibc)
  import Glibc
#endif

/// `imagestage pano tiles IN -o DIR`: a multiresolution cube pyramid in Pannellum's layout
/// (its generate.py's: `DIR/config.json`, `DIR/L/FACE{Y}_{X}.jpg`, `DIR/fallback/FACE.jpg`,
/// `DIR/preview.jpg`), made by the renderer: the finest level's faces are 90° views of the
/// source, each coarser level the finer one halved (2×2 box, sizes rounded up), as generate.py
/// halves them. Written into `DIR.partial-PID` and renamed to DIR at the end, so an
/// interrupted run leaves nothing under DIR.
///
/// This first version decodes the whole image (no streaming yet: issue 18's 512 MB aim for a
/// 32000×16000 JPEG is not met).
enum TilesCommand {
  static func run(_ args: [String]) throws {
    let parsed = try PanoCommand.parse(args, Commands.spec("pano tiles"))
    guard let output = parsed.value("output") else { throw CommandError(message: "-o DIR is required") }
    if FileIO.exists(output) { throw CommandError(message: "-o \(output): already exists; choose a new directory") }
    let tileSize = Int(try parsed.number("tile-size", in: 16...4096) ?? 512)
    let quality = Int(try parsed.number("quality", in: 1...100) ?? 75)
    let png = parsed.flag("png")
    let threads = Int(try parsed.number("threads", in: 1...64) ?? 2)
    let pano = try PanoCommand.input(parsed, projection: try PanoCommand.projection(parsed))
    // generate.py's default: the face as wide as the source's pixels per 90°, a multiple of 8.
    let fullWidth = Int(pano.geometry.fullWidth)
    let defaultCube = 8 * Int(Double(fullWidth) / Double.pi / 8)
    let cubeSize = Int(try parsed.number("cube-size", in: 16...65536) ?? Double(max(defaultCube, 16)))
    let fallbackSize = min(cubeSize, Int(try parsed.number("fallback-size", in: 16...8192) ?? 1024))
    var levels = 1
    var size = cubeSize
    while size > tileSize {
      size = (size + 1) / 2
      levels += 1
    }
    guard let layout = MultiresLayout(cubeResolution: cubeSize, tileResolution: tileSize, maxLevel: levels) else {
      throw CommandError(message: "--cube-size \(cubeSize) and --tile-size \(tileSize) make no pyramid")
    }
    let ext = png ? "png" : "jpg"
    let work = "\(output).partial-\(getpid())"
    try FileIO.makeDirectories(work)
    do {
      var renderer = PanoramaRenderer(source: pano.image, geometry: pano.geometry)
      renderer.groupKernel = BlendKernels.chosen()
      let executor = ThreadedRows(threads: threads)
      renderer.buildMipLevels(executor: executor)  // the fallback faces and preview are smaller than the source
      let total = (1...levels).reduce(0) { $0 + layout.tileCount(level: $1) }
      var progress = Progress(total: total)
      progress.unit = "tiles"
      var written = 0
      func encode(_ image: RGBAImage) throws -> [UInt8] {
        png ? try Raster.encodePNG(image, executor: InlineRows()) : try Raster.encodeJPEG(image, quality: quality)
      }
      var faces = CubeMap.faces(from: &renderer, size: cubeSize, executor: executor).faces
      for level in stride(from: levels, through: 1, by: -1) {
        if level < levels { faces = faces.map(halve) }
        try FileIO.makeDirectories("\(work)/\(level)")
        let n = layout.tilesPerSide(level: level)
        for (f, face) in faces.enumerated() {
          for y in 0..<n {
            for x in 0..<n {
              let (w, h) = layout.tileSize(level: level, x: x, y: y)
              let tile = crop(face, x: x * tileSize, y: y * tileSize, width: w, height: h)
              let path = work + MultiresLayout.path("/%l/%s%y_%x", level: level, face: f, x: x, y: y) + "." + ext
              try FileIO.writeAtomically(try encode(tile), to: path)
              written += 1
              progress.update(written)
            }
          }
        }
      }
      try FileIO.makeDirectories("\(work)/fallback")
      let fallback = CubeMap.faces(from: &renderer, size: fallbackSize, executor: executor)
      for (f, face) in fallback.faces.enumerated() {
        try FileIO.writeAtomically(try encode(face), to: "\(work)/fallback/\(MultiresLayout.faces[f]).\(ext)")
      }
      var preview = RGBAImage(width: 1024, height: 512)
      renderer.renderPerspective(
        view: ViewAngles(), hfov: 2 * Double.pi, lens: .equirectangular, into: &preview, executor: executor)
      try FileIO.writeAtomically(try Raster.encodeJPEG(preview, quality: 70), to: "\(work)/preview.jpg")
      var config: [(String, JSONValue)] = [
        ("type", "multires"), ("preview", "/preview.jpg"),  // after basePath, as Pannellum joins them
        (
          "multiRes",
          [
            "path": "/%l/%s%y_%x", "fallbackPath": "/fallback/%s", "extension": .string(ext),
            "tileResolution": .number(tileSize), "maxLevel": .number(levels), "cubeResolution": .number(cubeSize),
          ]
        ),
      ]
      let g = pano.geometry
      if !g.wraps || g.croppedHeight < g.fullHeight - 0.5 {
        // A partial panorama: the part it covers, in Pannellum's keys.
        let vOffset = (g.fullHeight / 2 - g.croppedTop - g.croppedHeight / 2) / g.fullHeight * 180
        config += [
          ("haov", .number(Angle(radians: g.horizontalFOV).degrees)), ("vaov", .number(Angle(radians: g.verticalFOV).degrees)),
          ("vOffset", .number(vOffset)), ("avoidShowingBackground", true),
        ]
      }
      try FileIO.writeAtomically(Array((JSONValue.object(config).text + "\n").utf8), to: "\(work)/config.json")
      progress.finish()
      guard rename(work, output) == 0 else {
        throw CommandError(message: "cannot rename \(work) to \(output): \(String(cString: strerror(errno)))", code: 1)
      }
      Console.writeAll(
        1, Array("wrote \(output): \(total) tiles in \(levels) levels (\(cubeSize) px faces, \(tileSize) px tiles)\n".utf8))
    } catch {
      removeTree(work)
      throw error
    }
  }

  /// A face halved, sizes rounded up (the last column or row then averages with itself).
  static func halve(_ face: RGBAImage) -> RGBAImage {
    let w = (face.width + 1) / 2, h = (face.height + 1) / 2
    var out = RGBAImage(width: w, height: h)
    for y in 0..<h {
      for x in 0..<w {
        let x0 = 2 * x, y0 = 2 * y, x1 = min(2 * x + 1, face.width - 1), y1 = min(2 * y + 1, face.height - 1)
        let a = face[x0, y0], b = face[x1, y0], c = face[x0, y1], d = face[x1, y1]
        var value: UInt32 = 0
        // Per channel, without an array per pixel: this runs for every texel of every level.
        for shift in stride(from: UInt32(0), through: 24, by: 8) {
          let sum = ((a >> shift) & 0xFF) + ((b >> shift) & 0xFF) + ((c >> shift) & 0xFF) + ((d >> shift) & 0xFF)
          value |= ((sum + 2) / 4) << shift
        }
        out[x, y] = value
      }
    }
    return out
  }

  static func crop(_ image: RGBAImage, x: Int, y: Int, width: Int, height: Int) -> RGBAImage {
    var out = RGBAImage(width: width, height: height)
    for row in 0..<height {
      for column in 0..<width { out[column, row] = image[x + column, y + row] }
    }
    return out
  }

  /// Removes a directory the tiler made (files and their directories), best effort.
  static func removeTree(_ path: String) {
    guard let dir = opendir(path) else {
      unlink(path)
      return
    }
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if name == "." || name == ".." { continue }
      let child = path + "/" + name
      if entry.pointee.d_type == UInt8(DT_DIR) { removeTree(child) } else { unlink(child) }
    }
    closedir(dir)
    rmdir(path)
  }
}
