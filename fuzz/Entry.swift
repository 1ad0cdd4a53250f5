import HostIO
import Panorama
import Raster
import Stage
import StageJSON

/// libFuzzer's entry point. The first byte picks what reads the rest: the pure-Swift readers
/// of PortableReaders.swift (JSON, a scenario run through the engine, a saved board state, a
/// saved state restored into the scene layer), a motion log (through the tracker and both
/// cameras), an image (with limits small enough that a claimed size cannot exhaust the
/// fuzzer's memory), or a geometry and view built from raw doubles. Every input must end in
/// a value or a thrown error, never a crash.
nonisolated(unsafe) var renderer = {
  var renderer = try! PanoramaRenderer(
    source: try! SamplePanorama.make(width: 64), geometry: PanoramaGeometry(width: 64, height: 32))
  renderer.buildPolarCaps(executor: InlineRows())
  return renderer
}()
nonisolated(unsafe) var frame = RGBAImage(width: 16, height: 8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let rest = Array(bytes.dropFirst())
  let selector = bytes.first ?? 0
  if PortableReaders.run(selector, rest, runFrames: (bytes.last ?? 0) & 1 == 1) { return 0 }
  switch selector % PortableReaders.count {
  case 2:
    // A motion log through the tracker into both cameras, as `pano video` does.
    guard let log = try? MotionLog.parse(rest, maxRows: 200) else { break }
    var tracker = MotionTracker(smoothing: rest.count & 1 == 0)
    for sample in log.samples {
      guard let view = tracker.feed(sample) else { continue }
      renderer.renderPerspective(view: view, hfov: view.roll, into: &frame, executor: InlineRows())
      renderer.renderStrip(yaw: view.yaw, edges: .repeat, into: &frame, executor: InlineRows())
    }
  case 3:
    // An image, with the geometry its GPano fields give, through both cameras.
    guard let decoded = try? Raster.decode(rest, limits: ImageLimits(maxDimension: 4096, maxPixels: 1 << 22)) else { break }
    let width = decoded.image.width, height = decoded.image.height
    let geometry = decoded.gpano?.geometry(width: width, height: height) ?? PanoramaGeometry(width: width, height: height)
    guard var viewer = try? PanoramaRenderer(source: decoded.image, geometry: geometry) else { break }
    if width % 4 == 0 { viewer.buildMipLevels(executor: InlineRows()) }
    if width % 8 == 0 { viewer.buildPolarCaps(executor: InlineRows()) }
    viewer.renderPerspective(view: ViewAngles(yaw: 1, pitch: 0.5), hfov: 1.5, into: &frame, executor: InlineRows())
    viewer.renderStrip(yaw: 1, edges: .clamp, into: &frame, executor: InlineRows())
  case 5:
    // Any geometry and view, as a library user might build them: the bytes are read as
    // doubles (bit patterns, so NaN, infinities and extremes all occur).
    var doubles: [Double] = []
    var index = rest.startIndex
    while index + 8 <= rest.endIndex {
      var bits: UInt64 = 0
      for k in 0..<8 { bits |= UInt64(rest[index + k]) << (8 * UInt64(k)) }
      doubles.append(Double(bitPattern: bits))
      index += 8
    }
    guard doubles.count >= 10 else { break }
    let geometry = PanoramaGeometry(
      projection: doubles[0].sign == .minus ? .cylindrical : .equirectangular, fullWidth: doubles[1],
      fullHeight: doubles[2], croppedLeft: doubles[3], croppedTop: doubles[4], croppedWidth: doubles[5],
      croppedHeight: doubles[6])
    var any = try! PanoramaRenderer(source: renderer.source, geometry: geometry)
    if doubles.count > 11 && doubles[11].sign == .minus { any.buildMipLevels(executor: InlineRows()) }
    // Caps exist for full spheres only; with any geometry here, building them exercises the
    // check as much as the faces.
    if doubles.count > 13 && doubles[13].sign == .minus { any.buildPolarCaps(executor: InlineRows()) }
    let view = ViewAngles(yaw: doubles[7], pitch: doubles[8], roll: doubles[9])
    let lens = doubles.count > 12 ? Lens.allCases[Int(doubles[12].bitPattern % UInt64(Lens.allCases.count))] : .rectilinear
    // Through the Swift loop and every per-CPU kernel this machine has: same pixels.
    var reference: RGBAImage?
    for kernel in [nil] + BlendKernels.available.map(Optional.some) {
      any.groupKernel = kernel
      any.renderPerspective(
        view: view, hfov: doubles.count > 10 ? doubles[10] : 1, lens: lens, into: &frame, executor: InlineRows())
      if let reference { precondition(frame == reference, "kernel \(kernel?.name ?? "swift") drew other pixels") }
      reference = frame
    }
    any.renderStrip(yaw: view.yaw, edges: .repeat, into: &frame, executor: InlineRows())
    any.renderStrip(yaw: view.yaw, edges: .clamp, into: &frame, executor: InlineRows())
    if doubles.count > 14 && doubles[14].sign == .minus,
      let layout = MultiresLayout(cubeResolution: 16, tileResolution: 8, maxLevel: 2)
    {
      // The streaming tiler on this geometry: its row plan and band must hold whatever it says.
      let source = renderer.source
      let plan = CubeTilePlan(layout: layout, geometry: geometry, sourceWidth: source.width, sourceHeight: source.height)
      var reducer = BoxReducer(sourceWidth: source.width, sourceHeight: source.height, factor: 3)
      var next = 0, tiles = 0
      let error = CubeTiler.run(
        plan: plan, geometry: geometry, sourceWidth: source.width, sourceHeight: source.height, reducer: &reducer,
        chunk: 5, executor: InlineRows(),
        read: { buffer, at, count in
          for i in 0..<(count * source.width) { buffer.pixels[at * source.width + i] = source.pixels[next * source.width + i] }
          next += count
          return nil
        },
        emit: { batch in
          tiles += batch.count
          return nil
        })
      precondition(
        error == nil && tiles == layout.tileCount(level: 1) + layout.tileCount(level: 2), "tiler: \(error ?? "tiles missing")")
    }
  default: break
  }
  return 0
}
