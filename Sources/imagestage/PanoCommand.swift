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
      case "tiles": try TilesCommand.run(args)
      case "reframe": try ReframeCommand.run(args)
      case "tag": try tag(args)
      default:
        throw CommandError(
          message: "unknown pano command \"\(sub)\"; expected info, render, video, reframe, tiles, tag or sample")
      }
    }
  }

  static func parse(_ args: [String], _ spec: CommandSpec) throws -> Arguments {
    try Arguments(args, valued: spec.valued, switches: spec.switches, aliases: ["o": "output"])
  }

  /// The config at `path` and the folder it may read from: its own, unless
  /// `--allow-outside-paths` trusts it (`ConfigFolder`).
  static func configFolder(_ path: String, _ parsed: Arguments) -> ConfigFolder {
    ConfigFolder(configPath: path, allowsOutside: parsed.flag("allow-outside-paths"))
  }

  static func input(_ parsed: Arguments, projection: SourceProjection?) throws -> LoadedPanorama {
    guard parsed.positional.count == 1 else { throw CommandError(message: "expected one input image (or \"sample\")") }
    var limits = ImageLimits()
    if let megapixels = try parsed.number("max-pixels", in: 0.001...1000) { limits.maxPixels = Int(megapixels * 1_000_000) }
    try TiledScene.refuseFolder(parsed.positional[0])
    return try LoadedPanorama.load(parsed.positional[0], projection: projection, limits: limits)
  }

  static func projection(_ parsed: Arguments) throws -> SourceProjection? {
    guard let name = parsed.value("projection") else { return nil }
    guard let p = SourceProjection(rawValue: name) else {
      throw CommandError(message: "--projection: \"\(name)\" is not equirect or cylindrical")
    }
    return p
  }

  // MARK: tag

  static func tag(_ args: [String]) throws {
    let parsed = try parse(args, Commands.spec("pano tag"))
    guard parsed.positional.count == 1 else { throw CommandError(message: "expected one input clip (an .mp4 or .mov)") }
    guard let output = parsed.value("output") else {
      throw CommandError(message: "-o OUT.mp4 is required (the input's own name to retag it in place)")
    }
    let input = parsed.positional[0]
    var tag = SphericalTag()
    if let name = parsed.value("stereo") {
      guard let stereo = SphericalVideo.Stereo(rawValue: name) else {
        throw CommandError(message: "--stereo: \"\(Console.escaped(name))\" is not mono, top-bottom or left-right")
      }
      tag.stereo = stereo
    }
    if let pose = parsed.value("pose") {
      let parts = pose.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
      guard parts.count == 3, let yaw = parts[0], let pitch = parts[1], let roll = parts[2],
        abs(yaw) <= 180, abs(pitch) <= 90, abs(roll) <= 180
      else {
        throw CommandError(
          message: "--pose: \"\(Console.escaped(pose))\" is not YAW,PITCH,ROLL in degrees (yaw and roll within ±180, pitch ±90)")
      }
      (tag.yaw, tag.pitch, tag.roll) = (yaw, pitch, roll)
    }
    if let crop = parsed.value("crop") {
      let parts = crop.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
      guard parts.count == 4, parts.allSatisfy({ $0 != nil && $0! >= 0 && $0! < 1 }),
        parts[0]! + parts[1]! < 1, parts[2]! + parts[3]! < 1
      else {
        throw CommandError(
          message:
            "--crop: \"\(Console.escaped(crop))\" is not T,B,L,R fractions (0 ≤ each < 1, top + bottom and left + right under 1)")
      }
      (tag.cropTop, tag.cropBottom, tag.cropLeft, tag.cropRight) = (parts[0]!, parts[1]!, parts[2]!, parts[3]!)
    }
    try FileIO.requireRegularFile(input)
    if output != input { try checkDestination(output) }
    let result: MP4Tagger.Result
    do { result = try MP4Tagger.tag(input: input, output: output, tag: tag) } catch let error as CommandError
      where error.code == 2
    {
      // What is wrong with the input's boxes, after the input's name.
      throw InFile(path: input, error: error)
    }
    var line = "tagged \(Console.escaped(output)): equirectangular, \(tag.stereo.rawValue)"
    if tag.yaw != 0 || tag.pitch != 0 || tag.roll != 0 { line += ", pose \(tag.yaw),\(tag.pitch),\(tag.roll)" }
    line += "; moov \(result.growth >= 0 ? "+" : "")\(result.growth) bytes"
    if result.tablesMoved > 0 { line += ", \(result.tablesMoved) chunk offset table(s) moved (moov before the media)" }
    Console.line(line)
    if let size = result.frameSize, tag.stereo == .mono, size.width != 2 * size.height,
      tag.cropTop + tag.cropBottom + tag.cropLeft + tag.cropRight == 0
    {
      Console.error("warning: the frame is \(size.width)×\(size.height), not 2:1; a viewer stretches it over the sphere")
    }
  }

  // MARK: info

  static func info(_ args: [String]) throws {
    let parsed = try parse(args, Commands.spec("pano info"))
    if parsed.positional.count == 1, let config = TiledScene.configPath(parsed.positional[0]) {
      return try TiledScene.info(configFolder(config, parsed))
    }
    if parsed.positional.count == 1, VideoSource.isVideo(parsed.positional[0]) {
      return try VideoSource.info(parsed.positional[0])
    }
    // The header and metadata only: a 16000 × 8000 JPEG was decoded whole (0.66 s, 539 MB)
    // to print its size.
    guard parsed.positional.count == 1 else { throw CommandError(message: "expected one input image (or \"sample\")") }
    var limits = ImageLimits()
    if let megapixels = try parsed.number("max-pixels", in: 0.001...1000) { limits.maxPixels = Int(megapixels * 1_000_000) }
    try TiledScene.refuseFolder(parsed.positional[0])
    let pano: ImageHeader
    do {
      pano = try ImageHeader.read(parsed.positional[0], projection: try projection(parsed), limits: limits)
    } catch let error as PanoramaLoadError {
      // Not an image but a media file without a picture (audio.m4a): say what `pano reframe`
      // says of it, not that it is no JPEG or PNG.
      do { _ = try VideoDecoder(path: parsed.positional[0], threads: 1) } catch let video where video.kind == .noVideo {
        throw video
      } catch {}
      throw error
    }
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
      "width": .number(pano.width), "height": .number(pano.height), "format": .string(pano.format),
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
    // Whole degrees within what the lens can show: 179, 359 or 360 (as keyframes are checked).
    let hfov = try parsed.number("hfov", in: lens.fieldOfViewDegrees) ?? 90
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

  /// The renderer for `pano`: mip levels up front when `--mipmaps` asks for them, and always
  /// for a video (`video`: without them a wide or tilted view of fine lines aliases, dashes
  /// that crawl from frame to frame, where a pyramid's levels or the app's show them whole);
  /// otherwise built by the first view that minifies (a strip lower than half the image, or
  /// a perspective view: `PanoramaRenderer.buildsMipLevelsWhenMinified`), so a still is
  /// antialiased as a pyramid's view of it is. `--no-mipmaps` never builds them. Polar caps
  /// for a video (views near a pole then cost what a level one does). Only a video gets
  /// caps: for one frame they cost more to build than they save (10800 × 5400 at 80° up:
  /// 0.45–0.49 s with, 0.28–0.32 s without).
  static func renderer(
    _ pano: LoadedPanorama, _ parsed: Arguments, _ camera: Camera, video: Bool = false
  ) throws -> PanoramaRenderer {
    let always = parsed.flag("mipmaps"), never = parsed.flag("no-mipmaps")
    if always && never { throw CommandError(message: "--mipmaps and --no-mipmaps: give one or neither") }
    var renderer = try PanoramaRenderer(source: pano.image, geometry: pano.geometry)
    renderer.groupKernel = BlendKernels.chosen()
    renderer.buildsMipLevelsWhenMinified = !never
    let executor = ThreadedRows(threads: camera.threads)
    if video && !camera.strip && !parsed.flag("no-polar-caps") { renderer.buildPolarCaps(executor: executor) }
    // The strip reads a level from a scale of 2 (it has no fade), and only while the image halves evenly.
    let stripMinifies = camera.strip && pano.image.height >= 2 * camera.height
    if !never && (video || always || stripMinifies) { renderer.buildMipLevels(executor: executor) }
    return renderer
  }

  /// Refuses an output an image cannot be written to before any work: an unknown extension
  /// was refused only after the render.
  static func checkImageOutput(_ path: String) throws {
    let lower = path.lowercased()
    guard lower.hasSuffix(".png") || lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") else {
      throw CommandError(message: "-o \(Console.escaped(path)): unknown image type; use OUT.png, OUT.jpg or OUT.jpeg")
    }
  }

  /// The one rule for every output (render, sample, video, tiles, a camera log): its folder
  /// must exist and be writable, checked before anything is decoded; no command creates
  /// folders the user did not name.
  static func checkDestination(_ path: String, option: String = "-o") throws {
    do { try FileIO.checkDestination(path) } catch {
      throw CommandError(message: "\(option) \(Console.escaped(path)): \(error.reason)")
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
    try checkDestination(output)
    Interrupts.install()
    if let config = parsed.value("config") {
      guard parsed.positional.isEmpty else {
        throw CommandError(message: "--config names the panorama: give no IN (found \"\(parsed.positional[0])\")")
      }
      return try renderScene(configFolder(try TiledScene.configArgument(config), parsed), parsed, output: output)
    }
    // A pyramid's folder (or a config) as IN, as `pano info` and `pano video` take it.
    if parsed.positional.count == 1, let config = TiledScene.configPath(parsed.positional[0]) {
      return try renderScene(configFolder(config, parsed), parsed, output: output)
    }
    if parsed.value("scene") != nil { throw CommandError(message: "--scene needs --config CONFIG.json") }
    let camera = try camera(parsed)
    if parsed.positional.count == 1, VideoSource.isVideo(parsed.positional[0]) {
      return try VideoSource.render(parsed.positional[0], parsed, camera: camera, output: output)
    }
    if parsed.value("time") != nil { throw CommandError(message: "--time: IN is an image; --time picks a video's frame") }
    let pano = try input(parsed, projection: try projection(parsed))
    var renderer = try renderer(pano, parsed, camera)
    var frame = RGBAImage(width: camera.width, height: camera.height)
    draw(&renderer, camera, view: camera.view, into: &frame)
    try write(frame, to: output, threads: camera.threads)
  }

  /// `pano render --config`: a scene of a viewer config, with its camera (the config's yaw,
  /// pitch, hfov, lens and limits, read by the same `ViewerTour` as the web viewer and the
  /// app); --yaw, --pitch, --hfov and --lens given on the command line win.
  static func renderScene(_ folder: ConfigFolder, _ parsed: Arguments, output: String) throws {
    let configPath = Console.escaped(folder.configPath)
    let config = try TiledScene.readConfig(folder.configPath)
    var tour = ViewerTour(config: config)
    if let id = parsed.value("scene") {
      guard tour.loadScene(id, yaw: nil, pitch: nil, hfov: nil) else {
        throw CommandError(
          message: "--scene: \(configPath) has no scene \"\(id)\"; its scenes: \(config.scenes.map(\.id).joined(separator: ", "))"
        )
      }
    }
    if let problem = tour.unsupported { throw CommandError(message: "\(configPath): scene \"\(tour.sceneID)\": \(problem)") }
    if tour.settings.type == .cubemap { try TiledScene.measureCube(&tour, in: folder) }
    if tour.tileLayout != nil { return try renderTiledScene(&tour, folder, parsed, output: output) }
    guard let ref = tour.imageReference, let image = try folder.file(ref.url, key: ref.key) else {
      if tour.settings[text: .panorama] == nil, let video = tour.videoURL {
        throw CommandError(
          message: "\(configPath): scene \"\(tour.sceneID)\" is a video (\(video)) without a still \"panorama\": "
            + "render its frames with pano render CLIP --time SECONDS, or pano reframe")
      }
      throw CommandError(
        message:
          "\(Console.escaped(tour.imageURL ?? "")): the CLI reads files, not web addresses; download it and point \"panorama\" at the file"
      )
    }
    let camera = try Self.camera(parsed)
    var limits = ImageLimits()
    if let megapixels = try parsed.number("max-pixels", in: 0.001...1000) { limits.maxPixels = Int(megapixels * 1_000_000) }
    let pano = try LoadedPanorama.load(image, projection: try projection(parsed), limits: limits)
    tour.layout(width: Double(camera.width), height: Double(camera.height))
    tour.open(width: pano.image.width, height: pano.image.height, gpano: pano.gpano, name: image)
    try look(&tour, parsed)
    if camera.strip { tour.update { $0.setMode(.strip) } }
    let viewer = tour.panorama!.viewer
    var scene = Camera(
      view: viewer.renderedView, hfov: viewer.hfov, lens: viewer.lens, width: camera.width, height: camera.height,
      strip: camera.strip, edges: camera.edges, threads: camera.threads)
    scene.view.roll = camera.view.roll
    var located = pano
    located.geometry = viewer.geometry
    var renderer = try renderer(located, parsed, scene)
    var frame = RGBAImage(width: camera.width, height: camera.height)
    draw(&renderer, scene, view: scene.view, into: &frame)
    try write(frame, to: output, threads: camera.threads)
  }

  /// The config's camera with --yaw, --pitch, --hfov and --lens given on the command line over it.
  static func look(_ tour: inout ViewerTour, _ parsed: Arguments) throws {
    let degree = Elementary.pi / 180
    let yaw = try parsed.number("yaw", in: -1e6...1e6), pitch = try parsed.number("pitch", in: -90...90)
    let hfov = try parsed.number("hfov", in: 1...360)
    tour.update { v in
      if let lens = parsed.value("lens").flatMap(Lens.init(rawValue:)) { v.setLens(lens) }
      v.look(yaw: yaw.map { $0 * degree }, pitch: pitch.map { $0 * degree }, hfov: hfov.map { $0 * degree }, duration: 0)
    }
  }

  /// A tiled scene: only the tiles the frame needs are read (`TiledScene`).
  static func renderTiledScene(_ tour: inout ViewerTour, _ folder: ConfigFolder, _ parsed: Arguments, output: String) throws {
    let camera = try Self.camera(parsed)
    guard !camera.strip else { throw CommandError(message: "--strip: a tiled panorama has no strip; leave it out") }
    tour.layout(width: Double(camera.width), height: Double(camera.height))
    tour.openTiles()
    try look(&tour, parsed)
    var frame = RGBAImage(width: camera.width, height: camera.height)
    try TiledScene.render(&tour, in: folder, into: &frame, threads: camera.threads)
    try write(frame, to: output, threads: camera.threads)
  }

  // MARK: sample

  static func sample(_ args: [String]) throws {
    let parsed = try parse(args, Commands.spec("pano sample"))
    guard let output = parsed.value("output") else { throw CommandError(message: "pano sample needs -o OUT.jpg|.png") }
    try checkImageOutput(output)
    try checkDestination(output)
    Interrupts.install()
    let size: (width: Int, height: Int)
    size = try parsed.size("size") ?? (4096, 2048)
    guard size.width == size.height * 2 else {
      throw CommandError(message: "--size: the sample is equirectangular, 2:1 (e.g. 4096x2048)")
    }
    try write(try SamplePanorama.make(width: size.width), to: output)
  }

  // MARK: video

  /// `pano video`'s IN before its options are known (a video takes `pano reframe`'s): the
  /// first argument that is neither an option nor the value of one.
  static func firstOperand(_ args: [String]) -> String? {
    let valued = Set(Commands.spec("pano video").valued + Commands.spec("pano reframe").valued + ["o"])
    var i = 0
    while i < args.count {
      let arg = args[i]
      if arg == "--" { return i + 1 < args.count ? args[i + 1] : nil }
      if arg.hasPrefix("-") && arg != "-" {
        let name = String(arg.drop { $0 == "-" })
        if !name.contains("="), valued.contains(name) { i += 1 }
      } else {
        return arg
      }
      i += 1
    }
    return nil
  }

  static func video(_ args: [String]) throws {
    // A 360° video as the source: reframed along the log, at the clip's own frame rate.
    if let input = firstOperand(args), VideoSource.isVideo(input) {
      return try ReframeCommand.run(args, spec: "pano reframe")
    }
    let parsed = try parse(args, Commands.spec("pano video"))
    guard let output = parsed.value("output") else { throw CommandError(message: "pano video needs -o OUT.mp4|DIR|-") }
    guard let motionPath = parsed.value("motion") else { throw CommandError(message: "pano video needs --motion LOG.csv") }
    try FrameSink.check(output: output)
    if let path = parsed.value("camera-log") { try checkDestination(path, option: "--camera-log") }
    Interrupts.install()
    let camera = try camera(parsed)
    let fps: Double
    fps = try parsed.number("fps", in: 1...240) ?? 30
    let log: MotionLog
    do { log = try MotionLog.parse(try FileIO.read(motionPath)) } catch let error as MotionLog.ParseError {
      throw InFile(path: motionPath, error: error)
    }
    // A tile pyramid (DIR or its config.json) reads the tiles each frame needs.
    var tiled: TiledScene.Frames?
    if parsed.positional.count == 1, let config = TiledScene.configPath(parsed.positional[0]) {
      guard !camera.strip else { throw CommandError(message: "--strip: a tiled panorama has no strip; leave it out") }
      tiled = try TiledScene.Frames(configFolder(config, parsed))
    }
    let pano = tiled == nil ? try input(parsed, projection: try projection(parsed)) : nil
    let geometry = tiled?.geometry ?? pano!.geometry
    let duration = log.samples.map(\.t).filter(\.isFinite).max() ?? 0
    // A single bad timestamp must not turn into a years-long render.
    let maxFrames = 1_000_000
    guard duration * fps < Double(maxFrames) else {
      throw CommandError(
        message:
          "\(motionPath): the log spans \(JSONText.number(duration)) s, over \(maxFrames) frames at \(JSONText.number(fps)) fps; check its timestamps"
      )
    }
    var cameraLog: [UInt8] = []

    // The viewers' own controller replays the log: the same timing as the app, once through,
    // at exactly the angles asked for (no coverage limits).
    var viewer = PanoramaViewer(geometry: geometry, smoothing: !parsed.flag("raw-motion"))
    viewer.keepsInsideCoverage = false
    viewer.levelsHorizon = parsed.flag("level-horizon")
    viewer.set(offset: camera.view)
    viewer.play(log, loops: false)
    var renderer = try pano.map { try Self.renderer($0, parsed, camera, video: true) }
    // The output is made under a temporary name from here on (`StagedOutput`).
    var sink = try FrameSink(output: output, width: camera.width, height: camera.height, fps: fps)
    // A 2:1 view of the whole sphere is itself a 360° clip: say so.
    if !camera.strip, MP4Tagger.isFullSphere(lens: camera.lens, hfov: camera.hfov, width: camera.width, height: camera.height) {
      sink.sphericalTag = SphericalTag()
    }
    let writer = FrameWriter(sink, threads: camera.threads)
    // Two frames in turn: one is written (to the pipe, PNGs or ffmpeg) while the next renders.
    let buffers = (0..<writer.buffers).map { _ in FrameWriter.Buffer(camera.width, camera.height) }
    let frameCount = max(1, Int((duration * fps).rounded(.down)) + 1)
    let progress = Progress(total: frameCount)
    do {
      for f in 0..<frameCount {
        let t = Double(f) / fps
        viewer.advance(to: t)
        let view = viewer.view
        let buffer = buffers[f % buffers.count]
        try writer.waitForFree()
        if tiled != nil {
          try tiled!.draw(view: view, camera: camera, into: &buffer.image)
        } else {
          draw(&renderer!, camera, view: view, into: &buffer.image)
        }
        writer.write(buffer, index: f)
        let entry: JSONValue = [
          "frame": .number(f), "t": .number(t), "yaw": .number(Angle(radians: view.yaw).degrees),
          "pitch": .number(Angle(radians: view.pitch).degrees), "roll": .number(Angle(radians: view.roll).degrees),
        ]
        cameraLog += Array((entry.text + "\n").utf8)
        progress.update(f + 1)
      }
      try writer.finish()
    } catch {
      progress.finish()
      writer.abandon()
      throw error
    }
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
