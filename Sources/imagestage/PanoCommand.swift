import CoreMath
import Dispatch
import HostIO
import Panorama
import Raster
import Scenes
import StageJSON
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `imagestage pano info|render|video|sample` (docs/cli.md).
enum PanoCommand {
  static func run(_ sub: String, _ args: [String]) -> Int32 {
    Failures.run {
      switch sub {
      case "info": try info(args)
      case "render": try render(args)
      case "video": try video(args)
      case "sample": try sample(args)
      default: throw CommandError(message: "unknown pano command \"\(sub)\"; expected info, render, video or sample")
      }
    }
  }

  static func parse(_ args: [String], _ spec: CommandSpec) throws -> Arguments {
    try Arguments(args, valued: spec.valued, switches: spec.switches, aliases: ["o": "output"])
  }

  static func input(_ parsed: Arguments, projection: SourceProjection?) throws -> LoadedPanorama {
    guard parsed.positional.count == 1 else { throw CommandError(message: "expected one input image (or \"sample\")") }
    var limits = ImageLimits()
    if let megapixels = try parsed.number("max-pixels", in: 0.001...1000) { limits.maxPixels = Int(megapixels * 1_000_000) }
    return try LoadedPanorama.load(parsed.positional[0], projection: projection, limits: limits)
  }

  static func projection(_ parsed: Arguments) throws -> SourceProjection? {
    guard let name = parsed.value("projection") else { return nil }
    guard let p = SourceProjection(rawValue: name) else {
      throw CommandError(message: "--projection: \"\(name)\" is not equirect or cylindrical")
    }
    return p
  }

  // MARK: info

  static func info(_ args: [String]) throws {
    let parsed = try parse(args, Commands.spec("pano info"))
    let pano = try input(parsed, projection: try projection(parsed))
    let g = pano.geometry
    func degrees(_ r: Double) -> JSONValue { .number(Angle(radians: r).degrees) }
    var gpano = JSONValue.null
    if let gp = pano.gpano {
      gpano = [
        "ProjectionType": .string(gp.projectionType), "FullPanoWidthPixels": .number(gp.fullPanoWidth),
        "FullPanoHeightPixels": .number(gp.fullPanoHeight), "CroppedAreaLeftPixels": .number(gp.croppedLeft),
        "CroppedAreaTopPixels": .number(gp.croppedTop), "CroppedAreaImageWidthPixels": .number(gp.croppedWidth),
        "CroppedAreaImageHeightPixels": .number(gp.croppedHeight),
      ]
    }
    let line: JSONValue = [
      "width": .number(pano.image.width), "height": .number(pano.image.height), "format": .string(pano.format),
      "projection": .string(g.projection.rawValue), "hfov": degrees(g.horizontalFOV), "vfov": degrees(g.verticalFOV),
      "wraps": .bool(g.wraps), "exifOrientation": .number(pano.orientation), "coverage": .string(pano.coverage),
      "gpano": gpano,
    ]
    Console.line(line.text)
    Console.flush()
  }

  // MARK: render

  struct Camera {
    var view: ViewAngles
    var hfov: Double
    var lens: Lens
    var width: Int
    var height: Int
    var strip: Bool
    var edges: StripEdges
    var threads: Int
  }

  static func camera(_ parsed: Arguments) throws -> Camera {
    let yaw = try parsed.number("yaw", in: -1e6...1e6) ?? 0
    let pitch = try parsed.number("pitch", in: -90...90) ?? 0
    let roll = try parsed.number("roll", in: -360...360) ?? 0
    let lensName = parsed.value("lens") ?? "rectilinear"
    guard let lens = Lens(rawValue: lensName) else {
      let names = Lens.allCases.map(\.rawValue)
      throw CommandError(
        message: "--lens: \"\(lensName)\" is not \(names.dropLast().joined(separator: ", ")) or \(names.last!)")
    }
    // Whole degrees within what the lens can show: 179, 359 or 360.
    let widest = Angle(radians: lens.maximumFieldOfView).degrees.rounded(.down)
    let hfov = try parsed.number("hfov", in: 1...widest) ?? 90
    let size = try parsed.size("size") ?? (1280, 720)
    let threads = try parsed.integer("threads", in: 1...64) ?? 2
    let mode = parsed.value("mode") ?? "perspective"
    guard mode == "perspective" || mode == "strip" else {
      throw CommandError(message: "--mode: \"\(mode)\" is not perspective or strip")
    }
    let edgesName = parsed.value("edges") ?? "clamp"
    guard let edges = StripEdges(rawValue: edgesName) else {
      throw CommandError(message: "--edges: \"\(edgesName)\" is not clamp or repeat")
    }
    return Camera(
      view: ViewAngles(
        yaw: Angle(degrees: yaw).radians, pitch: Angle(degrees: pitch).radians, roll: Angle(degrees: roll).radians),
      hfov: Angle(degrees: hfov).radians, lens: lens, width: size.width, height: size.height, strip: mode == "strip",
      edges: edges,
      threads: threads)
  }

  static func draw(_ renderer: inout PanoramaRenderer, _ camera: Camera, view: ViewAngles, into frame: inout RGBAImage) {
    let executor = ThreadedRows(threads: camera.threads)
    if camera.strip {
      renderer.renderStrip(yaw: view.yaw, edges: camera.edges, into: &frame, executor: executor)
    } else {
      renderer.renderPerspective(view: view, hfov: camera.hfov, lens: camera.lens, into: &frame, executor: executor)
    }
  }

  /// The renderer for `pano`: mip levels when `--mipmaps` asks for them; polar caps when
  /// `polarCaps` (views near a pole then cost what a level one does). Only a video gets
  /// caps: for one frame they cost more to build than they save (10800 × 5400 at 80° up:
  /// 0.45–0.49 s with, 0.28–0.32 s without).
  static func renderer(
    _ pano: LoadedPanorama, _ parsed: Arguments, _ camera: Camera, polarCaps: Bool = false
  ) -> PanoramaRenderer {
    var renderer = PanoramaRenderer(source: pano.image, geometry: pano.geometry)
    renderer.groupKernel = BlendKernels.chosen()
    let executor = ThreadedRows(threads: camera.threads)
    if polarCaps && !camera.strip && !parsed.flag("no-polar-caps") { renderer.buildPolarCaps(executor: executor) }
    if parsed.flag("mipmaps") { renderer.buildMipLevels(executor: executor) }
    return renderer
  }

  /// Refuses an output an image cannot be written to before any work: an unknown extension
  /// was refused only after the render.
  static func checkImageOutput(_ path: String) throws {
    let lower = path.lowercased()
    guard lower.hasSuffix(".png") || lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") else {
      throw CommandError(message: "-o \(path): unknown image type; use OUT.png, OUT.jpg or OUT.jpeg")
    }
  }

  static func write(_ image: RGBAImage, to path: String, threads: Int = 2) throws {
    // A big PNG takes seconds to compress: past one second, say what is going on.
    let shown = Mutex(false)
    let notice = DispatchWorkItem {
      shown.withLock { $0 = true }
      Console.writeAll(2, Array("writing \(path) (\(image.width)×\(image.height))…".utf8))
    }
    if isatty(2) != 0 { DispatchQueue.global().asyncAfter(deadline: .now() + 1, execute: notice) }
    defer {
      notice.cancel()
      if shown.withLock({ $0 }) { Console.writeAll(2, Array(" done\n".utf8)) }
    }
    let lower = path.lowercased()
    let bytes =
      lower.hasSuffix(".png")
      ? try Raster.encodePNG(image, executor: ThreadedRows(threads: threads)) : try Raster.encode(image, forPath: path)
    try FileIO.writeAtomically(bytes, to: path)
  }

  static func render(_ args: [String]) throws {
    let parsed = try parse(args, Commands.spec("pano render"))
    guard let output = parsed.value("output") else { throw CommandError(message: "pano render needs -o OUT.png|.jpg") }
    try checkImageOutput(output)
    if let config = parsed.value("config") { return try renderScene(config, parsed, output: output) }
    if parsed.value("scene") != nil { throw CommandError(message: "--scene needs --config CONFIG.json") }
    let camera = try camera(parsed)
    let pano = try input(parsed, projection: try projection(parsed))
    var renderer = renderer(pano, parsed, camera)
    var frame = RGBAImage(width: camera.width, height: camera.height)
    draw(&renderer, camera, view: camera.view, into: &frame)
    try write(frame, to: output, threads: camera.threads)
  }

  /// `pano render --config`: a scene of a viewer config, with its camera (the config's yaw,
  /// pitch, hfov, lens and limits, read by the same `ViewerTour` as the web viewer and the
  /// app); --yaw, --pitch, --hfov and --lens given on the command line win.
  static func renderScene(_ configPath: String, _ parsed: Arguments, output: String) throws {
    guard parsed.positional.isEmpty else {
      throw CommandError(message: "--config names the panorama: give no IN (found \"\(parsed.positional[0])\")")
    }
    let bytes: [UInt8]
    do { bytes = try FileIO.read(configPath, limit: 16 << 20) } catch { throw CommandError(message: error.description) }
    let config: ViewerConfig
    do throws(InputError) {
      config = try ViewerConfig.parse(bytes, source: configPath)
    } catch {
      throw CommandError(message: error.description)
    }
    for w in config.warnings { Console.error("warning: \(configPath): \(w)") }
    var tour = ViewerTour(config: config)
    if let id = parsed.value("scene") {
      guard tour.loadScene(id, yaw: nil, pitch: nil, hfov: nil) else {
        throw CommandError(
          message: "--scene: \(configPath) has no scene \"\(id)\"; its scenes: \(config.scenes.map(\.id).joined(separator: ", "))"
        )
      }
    }
    if let problem = tour.unsupported { throw CommandError(message: "\(configPath): scene \"\(tour.sceneID)\": \(problem)") }
    guard let image = tour.imagePath(besides: configPath) else {
      throw CommandError(
        message: "\(tour.imageURL ?? ""): the CLI reads files, not web addresses; download it and point \"panorama\" at the file")
    }
    let camera = try Self.camera(parsed)
    var limits = ImageLimits()
    if let megapixels = try parsed.number("max-pixels", in: 0.001...1000) { limits.maxPixels = Int(megapixels * 1_000_000) }
    let pano = try LoadedPanorama.load(image, projection: try projection(parsed), limits: limits)
    tour.layout(width: Double(camera.width), height: Double(camera.height))
    tour.open(width: pano.image.width, height: pano.image.height, gpano: pano.gpano, name: image)
    let degree = Elementary.pi / 180
    let yaw = try parsed.number("yaw", in: -1e6...1e6), pitch = try parsed.number("pitch", in: -90...90)
    let hfov = try parsed.number("hfov", in: 1...360)
    tour.update { v in
      if let lens = parsed.value("lens").flatMap(Lens.init(rawValue:)) { v.setLens(lens) }
      v.look(yaw: yaw.map { $0 * degree }, pitch: pitch.map { $0 * degree }, hfov: hfov.map { $0 * degree }, duration: 0)
      if camera.strip { v.setMode(.strip) }
    }
    let viewer = tour.panorama!.viewer
    var scene = Camera(
      view: viewer.renderedView, hfov: viewer.hfov, lens: viewer.lens, width: camera.width, height: camera.height,
      strip: camera.strip, edges: camera.edges, threads: camera.threads)
    scene.view.roll = camera.view.roll
    var located = pano
    located.geometry = viewer.geometry
    var renderer = renderer(located, parsed, scene)
    var frame = RGBAImage(width: camera.width, height: camera.height)
    draw(&renderer, scene, view: scene.view, into: &frame)
    try write(frame, to: output, threads: camera.threads)
  }

  // MARK: sample

  static func sample(_ args: [String]) throws {
    let parsed = try parse(args, Commands.spec("pano sample"))
    guard let output = parsed.value("output") else { throw CommandError(message: "pano sample needs -o OUT.jpg|.png") }
    try checkImageOutput(output)
    let size: (width: Int, height: Int)
    size = try parsed.size("size") ?? (4096, 2048)
    guard size.width == size.height * 2 else {
      throw CommandError(message: "--size: the sample is equirectangular, 2:1 (e.g. 4096x2048)")
    }
    try write(SamplePanorama.make(width: size.width), to: output)
  }

  // MARK: video

  static func video(_ args: [String]) throws {
    let parsed = try parse(args, Commands.spec("pano video"))
    guard let output = parsed.value("output") else { throw CommandError(message: "pano video needs -o OUT.mp4|DIR|-") }
    guard let motionPath = parsed.value("motion") else { throw CommandError(message: "pano video needs --motion LOG.csv") }
    try FrameSink.check(output: output)
    let camera = try camera(parsed)
    let fps: Double
    fps = try parsed.number("fps", in: 1...240) ?? 30
    let log: MotionLog
    do { log = try MotionLog.parse(try FileIO.read(motionPath)) } catch let error as MotionLog.ParseError {
      throw InFile(path: motionPath, error: error)
    }
    let pano = try input(parsed, projection: try projection(parsed))
    let writer = FrameWriter(
      try FrameSink(output: output, width: camera.width, height: camera.height, fps: fps), threads: camera.threads)
    var cameraLog: [UInt8] = []

    // The viewers' own controller replays the log: the same timing as the app, once through,
    // at exactly the angles asked for (no coverage limits).
    var viewer = PanoramaViewer(geometry: pano.geometry, smoothing: !parsed.flag("raw-motion"))
    viewer.keepsInsideCoverage = false
    viewer.levelsHorizon = parsed.flag("level-horizon")
    viewer.set(offset: camera.view)
    viewer.play(log, loops: false)
    var renderer = renderer(pano, parsed, camera, polarCaps: true)
    // Two frames in turn: one is written (to the pipe, PNGs or ffmpeg) while the next renders.
    let buffers = (0..<writer.buffers).map { _ in FrameWriter.Buffer(camera.width, camera.height) }
    let duration = log.samples.map(\.t).filter(\.isFinite).max() ?? 0
    // A single bad timestamp must not turn into a years-long render.
    let maxFrames = 1_000_000
    guard duration * fps < Double(maxFrames) else {
      throw CommandError(
        message:
          "\(motionPath): the log spans \(JSONText.number(duration)) s, over \(maxFrames) frames at \(JSONText.number(fps)) fps; check its timestamps"
      )
    }
    let frameCount = max(1, Int((duration * fps).rounded(.down)) + 1)
    let progress = Progress(total: frameCount)
    for f in 0..<frameCount {
      let t = Double(f) / fps
      viewer.advance(to: t)
      let view = viewer.view
      let buffer = buffers[f % buffers.count]
      try writer.waitForFree()
      draw(&renderer, camera, view: view, into: &buffer.image)
      writer.write(buffer, index: f)
      let entry: JSONValue = [
        "frame": .number(f), "t": .number(t), "yaw": .number(Angle(radians: view.yaw).degrees),
        "pitch": .number(Angle(radians: view.pitch).degrees), "roll": .number(Angle(radians: view.roll).degrees),
      ]
      cameraLog += Array((entry.text + "\n").utf8)
      progress.update(f + 1)
    }
    try writer.finish()
    progress.finish()
    let dropped = viewer.tracker.dropped
    if dropped.total > 0 {
      Console.error(
        "dropped \(dropped.total) motion samples (out of order: \(dropped.outOfOrder), not finite: \(dropped.notFinite), not unit: \(dropped.notUnit), too fast: \(dropped.tooFast))"
      )
    }
    if let path = parsed.value("camera-log") {
      try FileIO.writeAtomically(cameraLog, to: path)
    }
  }
}

/// Writes frames on its own thread, in order, so frame N is written while N + 1 renders; at
/// most `buffers` frames are in flight. PNG files are independent, so a folder's frames are
/// encoded on several threads at once (PNG compression costs far more than rendering). The
/// first error stops the writing and is thrown from the next `waitForFree` or `finish`.
final class FrameWriter: @unchecked Sendable {
  /// A frame buffer shared with the writer without copying: the renderer draws into it only
  /// after the writer has let it go (`waitForFree`).
  final class Buffer: @unchecked Sendable {
    var image: RGBAImage
    init(_ width: Int, _ height: Int) { image = RGBAImage(width: width, height: height) }
  }

  /// Touched only on `queue` (serial for a stream; a folder's frames never touch it).
  var sink: FrameSink
  /// The first write error (a lock, not the queue: reading it must not wait for a write).
  let error = Mutex<(any Error)?>(nil)
  let queue: DispatchQueue
  let free: DispatchSemaphore
  /// The folder frames go to, encoded concurrently; nil for a stream (pipe, ffmpeg).
  let folder: String?
  /// How many frame buffers the caller should cycle through.
  let buffers: Int

  init(_ sink: FrameSink, threads: Int) {
    self.sink = sink
    if case .directory(let path) = sink.kind {
      folder = path
      buffers = max(2, threads + 1)
      queue = DispatchQueue(label: "imagestage.video-frames", attributes: .concurrent)
    } else {
      folder = nil
      buffers = 2
      queue = DispatchQueue(label: "imagestage.video-frames")
    }
    free = DispatchSemaphore(value: buffers)
  }

  /// Waits until a buffer is free; throws the writer's error, if it met one.
  func waitForFree() throws {
    free.wait()
    if let error = error.withLock({ $0 }) {
      // Hand the buffer back: a semaphore released below its starting count traps.
      free.signal()
      throw error
    }
  }

  func write(_ buffer: Buffer, index: Int) {
    let folder = self.folder
    queue.async {
      if self.error.withLock({ $0 == nil }) {
        do {
          if let folder {
            try FrameSink.writePNG(buffer.image, index: index, in: folder)
          } else {
            try self.sink.write(buffer.image, index: index)
          }
        } catch {
          self.error.withLock { if $0 == nil { $0 = error } }
        }
      }
      self.free.signal()
    }
  }

  /// Waits for every frame, closes the sink, and throws the first error.
  func finish() throws {
    try queue.sync(flags: .barrier) {
      if let error = self.error.withLock({ $0 }) { throw error }
      try self.sink.finish()
    }
  }
}

/// Where video frames go: ffmpeg (`.mp4`), numbered PNGs (a directory), or raw RGBA (`-`).
struct FrameSink {
  enum Kind {
    /// ffmpeg's input, and the splicer for it (nil: written through stdio).
    case ffmpeg(UnsafeMutablePointer<FILE>, PipeSplicer?)
    case directory(String)
    case stdout
  }
  var kind: Kind

  /// Refuses an output no sink takes, before anything is decoded: an unknown extension
  /// (`clip.webm` became a folder of PNGs), a file where a folder is meant, raw frames to a
  /// terminal.
  static func check(output: String) throws {
    let accepted = "OUT.mp4 (H.264, through ffmpeg), a folder for numbered PNGs, or - for raw RGBA on standard output"
    if output == "-" {
      guard isatty(1) == 0 else {
        throw CommandError(message: "-o -: standard output is a terminal; pipe the raw frames (| ffplay …) or write \(accepted)")
      }
      return
    }
    var status = stat()
    let exists = stat(output, &status) == 0
    let isDirectory = exists && (status.st_mode & S_IFMT) == S_IFDIR
    if output.lowercased().hasSuffix(".mp4") {
      guard !isDirectory else { throw CommandError(message: "-o \(output): that is a folder; an .mp4 is a file") }
      return
    }
    if exists && !isDirectory {
      throw CommandError(message: "-o \(output): that is a file; pano video writes \(accepted)")
    }
    let name = output.split(separator: "/").last.map(String.init) ?? output
    if !isDirectory, let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex {
      throw CommandError(message: "-o \(output): unknown video type \(name[dot...]); pano video writes \(accepted)")
    }
  }

  init(output: String, width: Int, height: Int, fps: Double) throws {
    if output == "-" {
      kind = .stdout
      #if os(Linux)
        // A 64 KB pipe wakes the reader 130 times for a 1080p frame; 1 MB (the unprivileged
        // limit) cuts that to 8. Not a pipe, or refused: nothing changes.
        let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ, hidden behind _GNU_SOURCE in Glibc
        _ = fcntl(1, setPipeSize, Int32(1 << 20))
      #endif
    } else if output.lowercased().hasSuffix(".mp4") {
      guard Self.findInPath("ffmpeg") else {
        throw CommandError(
          message: "ffmpeg not found on PATH: install it (apt-get install ffmpeg) or write PNGs to a directory")
      }
      let command =
        "ffmpeg -loglevel error -y -f rawvideo -pix_fmt rgba -s \(width)x\(height) -r \(JSONText.number(fps)) -i - -pix_fmt yuv420p -c:v libx264 -preset veryfast '\(output.replacingQuotes)'"
      guard let pipe = popen(command, "w") else { throw CommandError(message: "cannot start ffmpeg", code: 1) }
      // Spliced into ffmpeg's input as into standard output's pipe (nothing else goes
      // through `pipe`'s stdio buffer, so bypassing it keeps the order).
      kind = .ffmpeg(pipe, PipeSplicer(fd: fileno(pipe)))
    } else {
      try FileIO.makeDirectories(output)
      kind = .directory(output)
    }
  }

  static func findInPath(_ name: String) -> Bool {
    guard let path = getenv("PATH") else { return false }
    for dir in String(cString: path).split(separator: ":") where access("\(dir)/\(name)", X_OK) == 0 { return true }
    return false
  }

  mutating func write(_ frame: RGBAImage, index: Int) throws {
    switch kind {
    case .ffmpeg(let pipe, let splicer):
      let sent = frame.pixels.withUnsafeBytes { bytes in
        splicer.map { $0.send(bytes) } ?? (fwrite(bytes.baseAddress, 1, bytes.count, pipe) == bytes.count)
      }
      guard sent else { throw CommandError(message: "ffmpeg stopped accepting frames", code: 1) }
    case .directory(let dir):
      try Self.writePNG(frame, index: index, in: dir)
    case .stdout:
      let sent = frame.pixels.withUnsafeBytes { bytes in
        Self.splicer.map { $0.send(bytes) } ?? Console.writeAll(1, bytes)
      }
      guard sent else {
        throw CommandError(message: "standard output closed: the reader stopped taking frames", code: 1)
      }
    }
  }

  /// `vmsplice` into a pipe on standard output, when it is one (Linux): the pipe takes the
  /// frame's pages instead of a copy of them. Nil elsewhere, or with `IMAGESTAGE_PIPE=write`:
  /// frames are written.
  static let splicer: PipeSplicer? = PipeSplicer()

  /// Frame `index` as `DIR/frame-NNNNN.png`, numbered from 1.
  static func writePNG(_ frame: RGBAImage, index: Int, in dir: String) throws {
    let name = String(index + 1)
    let path = "\(dir)/frame-\(String(repeating: "0", count: max(0, 5 - name.count)))\(name).png"

    // A frame that cannot be written is the run failing, whatever the cause.
    do { try FileIO.writeAtomically(try Raster.encodePNG(frame, executor: InlineRows()), to: path) } catch {
      throw CommandError(message: "\(path): \(Failures.describe(error).message)", code: 1)
    }
  }

  func finish() throws {
    if case .ffmpeg(let pipe, _) = kind {
      let status = pclose(pipe)
      guard status == 0 else { throw CommandError(message: "ffmpeg failed (status \(status))", code: 1) }
    }
  }
}

/// A progress bar on stderr when it is a terminal.
struct Progress {
  let total: Int
  let enabled = isatty(2) != 0

  func update(_ done: Int) {
    guard enabled else { return }
    let width = 30
    let filled = total > 0 ? done * width / total : width
    let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
    Console.writeAll(2, Array("\r[\(bar)] \(done)/\(total) frames".utf8))
  }

  func finish() {
    if enabled { Console.writeAll(2, Array("\n".utf8)) }
  }
}

extension String {
  var replacingQuotes: String { split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") }
}

/// Hands frames to a pipe (standard output, or ffmpeg's input) by reference (`vmsplice`), saving the 8 MB copy
/// a 1080p frame costs. The pipe then refers to the frame's pages until the reader takes
/// them, so `send` returns only once the pipe is empty: the buffer is not reused (the next
/// frame rendered into it) before the reader has every byte of this one.
struct PipeSplicer {
  typealias Splice = @convention(c) (Int32, UnsafePointer<iovec>?, Int, UInt32) -> Int

  let splice: Splice

  let fd: Int32

  init?(fd: Int32 = 1) {
    self.fd = fd
    #if os(Linux)
      var status = stat()
      guard getenv("IMAGESTAGE_PIPE").map({ String(cString: $0) }) != "write",
        fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFIFO,
        let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "vmsplice")  // RTLD_DEFAULT
      else { return nil }
      splice = unsafeBitCast(symbol, to: Splice.self)
    #else
      return nil
    #endif
  }

  /// All of `bytes` into the pipe, then waits for the reader to empty it; false when the
  /// pipe closed.
  func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var offset = 0
    while offset < bytes.count {
      var piece = iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress! + offset), iov_len: bytes.count - offset)
      let sent = splice(fd, &piece, 1, 0)
      if sent < 0 {
        if errno == EINTR { continue }
        // A descriptor vmsplice does not take after all: write the rest.
        if errno == EINVAL || errno == EBADF || errno == ENOSYS {
          return Console.writeAll(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
        return false
      }
      offset += sent
    }
    // FIONREAD: bytes still in the pipe. Wait until the reader has them all (it is already
    // reading: vmsplice only returned once the last piece fit), or has gone (POLLERR on
    // the write end: the bytes would stay in the pipe for ever).
    let bytesQueued: UInt = 0x541B
    var waiting: Int32 = 1
    var pause = timespec(tv_sec: 0, tv_nsec: 50_000)
    while ioctl(fd, bytesQueued, &waiting) == 0 && waiting > 0 {
      var end = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
      if poll(&end, 1, 0) > 0 && end.revents & Int16(POLLERR | POLLHUP) != 0 { return false }
      nanosleep(&pause, nil)
    }
    return true
  }
}
