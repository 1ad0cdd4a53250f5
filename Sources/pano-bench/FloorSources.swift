import CKernels
import CoreMath
import Panorama
import Raster

#if canImport(Glibc)
  import Glibc
#endif

/// The floors of bench/reframe.sh and bench/cube.sh, as `FloorBench`'s for the fixed
/// equirectangular view: the same frame written once, and gathered from the renderer's own
/// tap addresses (recorded by a kernel that writes addresses instead of colours) with no
/// arithmetic, beside the renderers, interleaved round by round (`FloorBench.report`).
extension FloorBench {
  /// Fills the taps no kernel recorded (`missing`: pixels the renderer draws by its general
  /// loop: the seam, the poles, tile and face edges) from their row's nearest recorded one,
  /// else the row above's. Returns how many were filled.
  static func fillUnrecorded<T: Equatable>(
    _ taps: UnsafeMutableBufferPointer<T>, width: Int, height: Int, missing: T
  ) -> Int {
    var filled = 0
    for y in 0..<height {
      let row = y * width
      var last: T? = nil
      for x in 0..<width {
        if taps[row + x] == missing {
          filled += 1
          if let last { taps[row + x] = last }
        } else {
          last = taps[row + x]
        }
      }
      // The row's leading gap: from its first recorded pixel, or the row above.
      let first = (0..<width).first { taps[row + $0] != missing }
      for x in 0..<(first ?? width) {
        taps[row + x] = first.map { taps[row + $0] } ?? (y > 0 ? taps[row - width + x] : taps[row + x])
      }
    }
    return filled
  }

  /// Memory a benchmark keeps for the process's life: `count` copies of `value`.
  static func kept<T>(_ count: Int, _ value: T) -> UnsafeMutableBufferPointer<T> {
    let p = UnsafeMutableBufferPointer<T>.allocate(capacity: count)
    p.initialize(repeating: value)
    return p
  }

  /// Whether every tap stayed unrecorded: the frame's buffer was not the one the recorder
  /// was told of.
  static func checkRecorded<T: Equatable>(_ taps: UnsafeMutableBufferPointer<T>, missing: T) {
    guard taps.contains(where: { $0 != missing }) else {
      print("FLOOR no tap was recorded: the frame moved between naming it and drawing it")
      exit(2)
    }
  }

  // MARK: The video frame (bench/reframe.sh)

  /// Raw 4:2:0 planes (`ffmpeg -f rawvideo -pix_fmt yuv420p`, or `yuv420p10le` when `bitDepth`
  /// is 10), W×H luma, as `YUVPlanes` kept for the process's life.
  static func loadRawYUV(_ path: String, width w: Int, height h: Int, bitDepth: Int) -> YUVPlanes? {
    let cw = (w + 1) / 2, ch = (h + 1) / 2, bytes = bitDepth > 8 ? 2 : 1
    let count = bytes * (w * h + 2 * cw * ch)
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    let base = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
    guard fread(base, 1, count, f) == count else { return nil }
    return try? YUVPlanes(
      width: w, height: h, bitDepth: bitDepth, y: base, yStride: bytes * w, u: base + bytes * w * h,
      uStride: bytes * cw, v: base + bytes * (w * h + cw * ch), vStride: bytes * cw)
  }

  /// Output planes a band of rows can write: Y, U, V of a `width`×`height` frame.
  struct YUVBuffers: @unchecked Sendable {
    let y: UnsafeMutablePointer<UInt8>, u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>
    let luma: UnsafePointer<UInt32>, chroma: UnsafePointer<UInt32>
  }

  /// The video renderer's contenders on `planes`, the fixed view into 1920×1080 Y′CbCr: the
  /// AVX2 kernel (where the CPU has it), the portable Swift loop, then the write floor and
  /// the gather floor in the renderer's order (blocks of 64 columns, bands of 32 rows) and in
  /// whole rows.
  static func yuvContenders(_ planes: YUVPlanes) -> (contenders: [Contender], extrapolated: Int) {
    let video = SphericalVideo(source: "bench")
    guard var renderer = try? YUVRenderer(width: planes.width, height: planes.height, video: video) else { exit(2) }
    // 10-bit planes: the Swift loop alone (the kernels and the recorder read bytes).
    if planes.bitDepth > 8 {
      var image = YUVImage(width: width, height: height)
      let body = { (e: ThreadedRows) in try? renderer.render(view: view, hfov: hfov, from: planes, into: &image, executor: e) }
      return ([Contender("swift-10bit", .renderer) { body($0) }], 0)
    }
    var frame = YUVImage(width: width, height: height)
    let (uOffset, vOffset) = frame.chromaOffsets
    let luma = kept(width * height, UInt32.max), chroma = kept(width * height / 4, UInt32.max)
    renderer.kernel = YUVKernel(name: "record", pair: imagestage_yuv_pair_record)
    // The recorder indexes by output address: the frame is drawn into the buffer it was told
    // of (an array keeps its buffer while it is uniquely held and not resized; checked).
    frame.bytes.withUnsafeBufferPointer { out in
      imagestage_yuv_record_into(
        out.baseAddress!, out.baseAddress! + uOffset, Int64(width), luma.baseAddress!, chroma.baseAddress!)
    }
    try? renderer.render(view: view, hfov: hfov, from: planes, into: &frame, executor: InlineRows())
    checkRecorded(luma, missing: .max)
    // Each luma sample the renderer draws lies within the four texels at its recorded tap.
    var drawn = YUVImage(width: width, height: height)
    renderer.kernel = YUVKernels.chosen()
    try? renderer.render(view: view, hfov: hfov, from: planes, into: &drawn, executor: InlineRows())
    var within = 0, recorded = 0
    for i in 0..<(width * height) where luma[i] != .max {
      let p = planes.y + Int(luma[i]), s = planes.yStride
      let texels = [p[0], p[1], p[s], p[s + 1]]
      recorded += 1
      if texels.min()! <= drawn.bytes[i] && drawn.bytes[i] <= texels.max()! { within += 1 }
    }
    print("FLOOR taps check: \(within) of \(recorded) recorded luma samples lie within their four texels")
    var extrapolated = fillUnrecorded(luma, width: width, height: height, missing: .max)
    extrapolated += fillUnrecorded(chroma, width: width / 2, height: height / 2, missing: .max)
    let out = kept(frame.bytes.count, UInt8(0)).baseAddress!
    let buffers = YUVBuffers(
      y: out, u: out + uOffset, v: out + vOffset, luma: UnsafePointer(luma.baseAddress!),
      chroma: UnsafePointer(chroma.baseAddress!))
    var list: [Contender] = []
    for kernel in [YUVKernels.avx2, nil] {
      var r = renderer
      r.kernel = kernel
      var image = YUVImage(width: width, height: height)
      list.append(
        Contender(kernel?.name ?? "swift", .renderer) { executor in
          try? r.render(view: view, hfov: hfov, from: planes, into: &image, executor: executor)
        })
      if YUVKernels.avx2 == nil { break }
    }
    var value: UInt8 = 0
    list.append(
      Contender("write", .write) { executor in
        value &+= 1
        let v = value
        executor.run((height + bandRows - 1) / bandRows) { band in
          let y0 = band * bandRows, rows = min(bandRows, height - y0)
          imagestage_write_floor_bytes(buffers.y + y0 * width, Int64(rows * width), v)
          imagestage_write_floor_bytes(buffers.u + y0 / 2 * width / 2, Int64(rows / 2 * width / 2), v)
          imagestage_write_floor_bytes(buffers.v + y0 / 2 * width / 2, Int64(rows / 2 * width / 2), v)
        }
      })
    for (name, block) in [("gather", renderer.blockSize.columns), ("gather-rows", width)] {
      list.append(
        Contender(name, .gather) { executor in
          executor.run((height + bandRows - 1) / bandRows) { band in
            let y0 = band * bandRows, rows = min(bandRows, height - y0), c = y0 / 2 * width / 2
            imagestage_yuv_gather_floor(
              planes.y, Int64(planes.yStride), planes.u, planes.v, Int64(planes.uStride), buffers.luma + y0 * width,
              buffers.chroma + c, buffers.y + y0 * width, buffers.u + c, buffers.v + c, Int64(width), Int64(rows),
              Int64(block))
          }
        })
    }
    return (list, extrapolated)
  }

  /// `pano-bench --yuv-floor RAW WxH FRAMES ROUNDS`: the video renderer against its floors.
  static func runYUV(path: String, size: String, frames: Int, rounds: Int) {
    print("FLOOR CPU: \(KernelWisdom.cpuModel); load average at start: \(load)")
    guard let planes = yuvSource(path: path, size: size) else {
      print("FLOOR cannot read \(path) as raw yuv420p of \(size)")
      exit(2)
    }
    let (list, extrapolated) = yuvContenders(planes)
    print(
      "FLOOR video: \(planes.width)×\(planes.height) yuv420p → \(width)×\(height) yuv420p, hfov 90°, yaw 0.5, pitch 0.17;"
        + " taps recorded from the kernel's stepping, \(extrapolated) of \(width * height * 5 / 4) samples"
        + " (\(fmt(100 * Double(extrapolated) / Double(width * height * 5 / 4))) %) filled from their row's")
    report(list, frames: frames, rounds: rounds, chosen: YUVKernels.chosen()?.name ?? "swift")
  }

  static func yuvSource(path: String, size: String) -> YUVPlanes? {
    // WxH, or WxHp10 for 10-bit samples.
    let deep = size.hasSuffix("p10")
    let sides = size.dropLast(deep ? 3 : 0).split(separator: "x").compactMap { Int($0) }
    // At most 16384 a side: the planes are allocated before the file is read.
    guard sides.count == 2, (2...16384).contains(sides[0]), (2...16384).contains(sides[1]) else { return nil }
    return loadRawYUV(path, width: sides[0], height: sides[1], bitDepth: deep ? 10 : 8)
  }

  // MARK: The cube and the pyramid (bench/cube.sh)

  /// Recorded tap addresses and a frame, handed to bands writing disjoint rows.
  struct RecordedTaps: @unchecked Sendable {
    let taps: UnsafePointer<UInt64>, out: UnsafeMutablePointer<UInt32>
  }

  /// The cube renderers' contenders, as `pano-bench --cube` builds them (SamplePanorama's
  /// faces of `face` px with mip levels, and a fully loaded pyramid of 512 px tiles), at a
  /// fixed view (pitch `pitch`, yaw 30°), each with the portable Swift loop and the chosen
  /// kernel; then the write floor and, for each, its gather floor (bands of whole rows).
  static func cubeContenders(face: Int, pitch: Double) -> (contenders: [Contender], extrapolated: Int) {
    let executor = ThreadedRows(threads: 2)
    guard let source = try? SamplePanorama.make(width: 4 * face),
      var equirect = try? PanoramaRenderer(
        source: source, geometry: PanoramaGeometry(width: source.width, height: source.height))
    else { exit(2) }
    equirect.buildMipLevels(executor: executor)
    let cube = CubeMap.faces(from: &equirect, size: face, executor: executor).withMipLevels()
    let layout = MultiresLayout(
      cubeResolution: face, tileResolution: min(512, face),
      maxLevel: MultiresLayout.levels(cubeResolution: face, tileResolution: min(512, face)))!
    let tiled = TiledCube.cut(from: cube, layout: layout).texels()
    let at = ViewAngles(yaw: Angle(degrees: 30).radians, pitch: Angle(degrees: pitch).radians)
    let kernel = BlendKernels.chosen()
    let record = GroupKernel(name: "record", groups: imagestage_groups_record_pointers)
    var list: [Contender] = []
    var extrapolated = 0
    var value: UInt32 = 0xFF00_0000
    let out = kept(width * height, UInt32(0)).baseAddress!
    list.append(
      Contender("write", .write) { executor in
        value &+= 1
        write(Buffers(source: UnsafePointer(out), taps: UnsafePointer(out), out: out), value: value, executor: executor)
      })
    let draws: [(String, (GroupKernel?, inout RGBAImage, ThreadedRows) -> Void)] = [
      ("cube", { k, frame, e in cube.render(view: at, hfov: hfov, into: &frame, executor: e, kernel: k) }),
      ("tiled", { k, frame, e in tiled.render(view: at, hfov: hfov, into: &frame, executor: e, kernel: k) }),
    ]
    for (group, draw) in draws {
      let taps = kept(width * height, UInt64(0))
      var frame = RGBAImage(width: width, height: height)
      frame.pixels.withUnsafeBufferPointer { imagestage_record_into($0.baseAddress!, taps.baseAddress!) }
      draw(record, &frame, ThreadedRows(threads: 1))
      checkRecorded(taps, missing: 0)
      // Each pixel the renderer draws lies, channel by channel, within its recorded texels.
      var drawn = RGBAImage(width: width, height: height)
      draw(kernel, &drawn, ThreadedRows(threads: 1))
      var within = 0, recorded = 0
      for i in 0..<(width * height) where taps[i] != 0 {
        let p = UnsafePointer<UInt32>(bitPattern: UInt(taps[i] & 0xFFFF_FFFF_FFFF))!, w = Int(taps[i] >> 48)
        let texels = [p[0], p[1], p[w], p[w + 1]]
        recorded += 1
        let inside = (0..<4).allSatisfy { c in
          let channel = texels.map { ($0 >> (8 * UInt32(c))) & 255 }, value = (drawn.pixels[i] >> (8 * UInt32(c))) & 255
          return channel.min()! <= value && value <= channel.max()!
        }
        if inside { within += 1 }
      }
      print("FLOOR taps check, \(group): \(within) of \(recorded) recorded pixels lie within their four texels")
      extrapolated += fillUnrecorded(taps, width: width, height: height, missing: 0)
      for k in [nil, kernel] {
        var image = RGBAImage(width: width, height: height)
        list.append(Contender("\(group)-\(k?.name ?? "swift")", .renderer, group: group) { e in draw(k, &image, e) })
        if kernel == nil { break }
      }
      let table = RecordedTaps(taps: UnsafePointer(taps.baseAddress!), out: out)
      list.append(
        Contender("gather-\(group)", .gather, group: group) { executor in
          executor.run((height + bandRows - 1) / bandRows) { band in
            let y0 = band * bandRows, rows = min(bandRows, height - y0)
            imagestage_gather_floor_pointers(table.taps + y0 * width, table.out + y0 * width, Int64(rows * width))
          }
        })
    }
    return (list, extrapolated)
  }

  /// `pano-bench --cube-floor FACE PITCH° FRAMES ROUNDS`: the cube paths against their floors.
  static func runCube(face: Int, pitch: Double, frames: Int, rounds: Int) {
    print("FLOOR CPU: \(KernelWisdom.cpuModel); load average at start: \(load)")
    let (list, extrapolated) = cubeContenders(face: face, pitch: pitch)
    print(
      "FLOOR cube: \(face) px faces with mip levels, and tiles of \(min(512, face)) px → \(width)×\(height),"
        + " hfov 90°, yaw 30°, pitch \(fmt(pitch))° (fixed); taps recorded from the kernels' stepping,"
        + " \(extrapolated) of \(2 * width * height) (\(fmt(50 * Double(extrapolated) / Double(width * height))) %)"
        + " filled from their row's (per-pixel edge runs)")
    report(list, frames: frames, rounds: rounds, chosen: BlendKernels.chosen()?.name ?? "swift")
  }
}
