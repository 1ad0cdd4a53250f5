import CKernels
import CoreMath
import Panorama
import Raster

#if canImport(Glibc)
  import Glibc
#endif

/// The machine's floor for the renderer's fixed view (bench/pano.sh): beside every kernel's
/// frame, the same 1920×1080 frame (a) written once and (b) gathered from the same source
/// texels at the renderer's own tap addresses with no arithmetic, all interleaved round by
/// round at 1 and 2 threads. The renderer's ratio to the gather floor says how much of its
/// time is arithmetic and stepping rather than memory.
enum FloorBench {
  static let width = 1920, height = 1080
  /// The fixed view of pano-bench's `fixed` case.
  static let view = ViewAngles(yaw: 0.5, pitch: 0.17)
  static let hfov = Angle(degrees: 90).radians
  /// Rows per band, as the renderer's bands (its grid rows are 32 pixels).
  static let bandRows = 32

  /// Raw pointers handed to bands writing disjoint rows.
  struct Buffers: @unchecked Sendable {
    let source: UnsafePointer<UInt32>, taps: UnsafePointer<UInt32>, out: UnsafeMutablePointer<UInt32>
  }

  /// The renderer's top-left tap index for every pixel of the fixed view, through a kernel
  /// that records indices instead of colours. Pixels the kernel does not draw (the Swift
  /// loop's per-pixel runs: blocks not wholly inside the source, or a row's last pixels) keep
  /// the renderer's colour, opaque and so above any index; each takes its row neighbours'
  /// step instead (within a texel of the renderer's). Returns the taps and how many were
  /// extrapolated.
  static func taps(_ renderer: PanoramaRenderer) -> (taps: [UInt32], extrapolated: Int) {
    var recorder = renderer
    recorder.groupKernel = GroupKernel(name: "record", groups: imagestage_groups_record)
    var frame = RGBAImage(width: width, height: height, fill: 0xFFFF_FFFF)
    recorder.renderPerspective(view: view, hfov: hfov, into: &frame, executor: InlineRows())
    let srcW = renderer.source.width, count = UInt32(srcW * renderer.source.height)
    let last = count - UInt32(srcW) - 2  // the last index whose four taps lie inside
    var taps = frame.pixels, extrapolated = 0
    for y in 0..<height {
      let row = y * width
      for x in 0..<width where taps[row + x] >= count {
        extrapolated += 1
        // From the two recorded pixels before it (or after it, at a row's start).
        var guess = Int64(last / 2)
        if x >= 2, taps[row + x - 1] < count, taps[row + x - 2] < count {
          guess = 2 * Int64(taps[row + x - 1]) - Int64(taps[row + x - 2])
        } else if let next = (x + 1..<width).first(where: { taps[row + $0] < count }) {
          guess = Int64(taps[row + next])
        }
        taps[row + x] = UInt32(min(max(guess, 0), Int64(last)))
      }
    }
    return (taps, extrapolated)
  }

  /// The gather floor over the frame, a band of rows at a time as the renderer's bands, in its
  /// block order (`block` 0: whole rows), prefetching `ahead` pixels on when above 0.
  static func gather(_ b: Buffers, sourceWidth: Int, block: Int, ahead: Int, executor: ThreadedRows) {
    executor.run((height + bandRows - 1) / bandRows) { band in
      let y0 = band * bandRows, rows = min(bandRows, height - y0)
      imagestage_gather_floor(
        b.source, Int64(sourceWidth), b.taps + y0 * width, b.out + y0 * width, Int64(width), Int64(rows),
        Int64(block > 0 ? block : width), Int64(ahead))
    }
  }

  static func write(_ b: Buffers, value: UInt32, executor: ThreadedRows) {
    executor.run((height + bandRows - 1) / bandRows) { band in
      let y0 = band * bandRows, rows = min(bandRows, height - y0)
      imagestage_write_floor(b.out + y0 * width, Int64(rows * width), value)
    }
  }

  static func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }

  /// `/proc/loadavg`'s three averages.
  static var load: String {
    guard let f = fopen("/proc/loadavg", "r") else { return "unknown" }
    defer { fclose(f) }
    var line = [CChar](repeating: 0, count: 128)
    guard fgets(&line, 128, f) != nil else { return "unknown" }
    let text = String(decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return text.split(separator: " ").prefix(3).joined(separator: " ")
  }

  /// One contender: a renderer (a kernel's render: `swift`, `avx2`, …) or a floor: `write`;
  /// `gather` in the renderer's block order; `gather-pf`, the same with software prefetches
  /// 32 pixels ahead; `gather-rows`, whole rows in order (how much the block order is worth).
  /// A renderer is held to the write floor and to the fastest gather floor of its `group`
  /// (the renderers of one source share their taps).
  final class Contender {
    enum Role { case renderer, write, gather }
    let name: String, role: Role, group: String
    let body: (ThreadedRows) -> Void
    init(_ name: String, _ role: Role, group: String = "", _ body: @escaping (ThreadedRows) -> Void) {
      self.name = name
      self.role = role
      self.group = group
      self.body = body
    }
  }

  /// Every contender on `pano`: the kernels this machine runs, then the two floors. The
  /// buffers live as long as the process (a benchmark's one set-up).
  static func contenders(_ pano: LoadedPanorama) -> (contenders: [Contender], extrapolated: Int) {
    let renderer = try! PanoramaRenderer(source: pano.image, geometry: pano.geometry)
    let (taps, extrapolated) = taps(renderer)
    let source = UnsafeMutablePointer<UInt32>.allocate(capacity: pano.image.pixels.count)
    source.initialize(from: pano.image.pixels, count: pano.image.pixels.count)
    let tapBuffer = UnsafeMutablePointer<UInt32>.allocate(capacity: taps.count)
    tapBuffer.initialize(from: taps, count: taps.count)
    let out = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
    out.initialize(repeating: 0, count: width * height)
    let buffers = Buffers(source: source, taps: tapBuffer, out: out)
    var list: [Contender] = []
    for name in ["swift"] + BlendKernels.available.map(\.name) {
      var r = renderer
      r.groupKernel = BlendKernels.named(name)
      var frame = RGBAImage(width: width, height: height)
      list.append(
        Contender(name, .renderer) { executor in r.renderPerspective(view: view, hfov: hfov, into: &frame, executor: executor) })
    }
    var value: UInt32 = 0xFF00_0000
    list.append(
      Contender("write", .write) { executor in
        value &+= 1
        write(buffers, value: value, executor: executor)
      })
    let blockWidth = renderer.gridSpacing.columns
    for (name, block, ahead) in [("gather", blockWidth, 0), ("gather-pf", blockWidth, 32), ("gather-rows", 0, 0)] {
      list.append(
        Contender(name, .gather) { executor in
          gather(buffers, sourceWidth: pano.image.width, block: block, ahead: ahead, executor: executor)
        })
    }
    return (list, extrapolated)
  }

  /// `pano-bench --floor IN FRAMES ROUNDS`: every contender, FRAMES frames a run, ROUNDS rounds.
  static func run(path: String, frames: Int, rounds: Int) {
    print("FLOOR CPU: \(KernelWisdom.cpuModel); load average at start: \(load)")
    let pano: LoadedPanorama
    do { pano = try LoadedPanorama.load(path) } catch {
      print("FLOOR cannot load \(path): \(error.message)")
      exit(2)
    }
    let (list, extrapolated) = contenders(pano)
    print(
      "FLOOR \(pano.image.width)×\(pano.image.height) → \(width)×\(height), hfov 90°, yaw 0.5, pitch 0.17 (the fixed view);"
        + " taps recorded from the kernels' stepping, \(extrapolated) of \(width * height) pixels"
        + " (\(fmt(100 * Double(extrapolated) / Double(width * height))) %) extrapolated along their row")
    report(list, frames: frames, rounds: rounds, chosen: BlendKernels.chosen()?.name ?? "swift")
  }

  /// Times `list` in ROUNDS interleaved rounds at 1 and 2 threads (a warm frame, then FRAMES
  /// frames each) and prints min / median ms a frame and each renderer's ratio to the write
  /// floor and to its group's fastest gather floor, per round; marks `chosen`.
  static func report(_ list: [Contender], frames: Int, rounds: Int, chosen: String) {
    var times = [[[Double]]](repeating: [[], []], count: list.count)
    for _ in 0..<rounds {
      for (t, threads) in [1, 2].enumerated() {
        let executor = ThreadedRows(threads: threads)
        for (c, contender) in list.enumerated() {
          contender.body(executor)  // warm: the grid, the caches
          let start = now()
          for _ in 0..<frames { contender.body(executor) }
          let ms = (now() - start) * 1000 / Double(frames)
          times[c][t].append(ms)
          print("RESULT floor-\(contender.name) \(threads) \(ms)")
        }
      }
    }
    print(
      "FLOOR ms/frame over \(rounds) interleaved rounds of \(frames) frames (min / median); ratio = median of per-round"
        + " ratios (min/min); the gather floor is each round's fastest gather")
    let writes = list.indices.filter { list[$0].role == .write }
    for (t, threads) in [1, 2].enumerated() {
      print("FLOOR \(threads) thread(s)")
      for (c, contender) in list.enumerated() {
        let sorted = times[c][t].sorted()
        var line = "FLOOR   \(pad(contender.name, 11)) \(pad(fmt(sorted[0]), 6)) / \(pad(fmt(sorted[sorted.count / 2]), 6))"
        if contender.role == .renderer {
          let gathers = list.indices.filter { list[$0].role == .gather && list[$0].group == contender.group }
          var floors: [(String, [Double])] = []
          if let w = writes.first { floors.append(("write", times[w][t])) }
          if let g = gathers.first {
            floors.append(("gather", gathers.map { times[$0][t] }.reduce(times[g][t]) { zip($0, $1).map { min($0, $1) } }))
          }
          for (label, floor) in floors {
            let ratios = zip(times[c][t], floor).map { $0 / $1 }.sorted()
            let minMin = sorted[0] / (floor.min() ?? 1)
            line += "  \(fmt(ratios[ratios.count / 2]))× \(label) (\(fmt(minMin))× min/min)"
          }
          if contender.name == chosen { line += "  ← chosen" }
        }
        print(line)
      }
    }
    print("FLOOR load average at end: \(load)")
  }

  /// `pano-bench --floor-one CASE THREADS IN FRAMES` (and `--yuv-floor-one`, `--cube-floor-one`):
  /// CASE of `list` alone for FRAMES frames after the set-up, for `perf stat` (two frame
  /// counts' counts give one frame's).
  static func runOne(_ list: [Contender], name: String, threads: Int, frames: Int) {
    guard let contender = list.first(where: { $0.name == name }) else {
      print("no case \(name): \(list.map(\.name).joined(separator: ", "))")
      exit(2)
    }
    let executor = ThreadedRows(threads: threads)
    for _ in 0..<frames { contender.body(executor) }
  }

  static func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
}
