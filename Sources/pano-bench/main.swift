import CoreMath
import HostIO
import Panorama
import Raster
import StageJSON

#if canImport(Glibc)
  import Glibc
#endif

/// Perspective rendering speed, for `bench/pano.sh`: a panorama → 1920×1080 at hfov 90°,
/// bilinear, for a fixed view, yaw changing every frame, and yaw and pitch changing every
/// frame, at 1 and 2 threads. Prints ms per frame for each run (`RESULT ours CASE THREADS MS`,
/// the script interleaves rounds of this with the baselines), a min/median table, and memory.
/// Usage: pano-bench IN.jpg FRAMES OUT.png [RUNS]  (OUT: the frame at yaw 30°, pitch 10°)
///    or: pano-bench --frames IN WIDTH HEIGHT FRAMES  (bench/web.sh: one thread, beside wasm)

let args = CommandLine.arguments

/// `pano-bench --frames IN WIDTH HEIGHT FRAMES [THREADS] [yaw|fixed] [PITCH°|planet] [none|caps|mips+caps] [YAW°]`: one thread and yaw 1°
/// further every frame by default; prints the seconds FRAMES frames took after a first one
/// (bench/web.sh and bench/video.sh take slopes).
if args.count >= 6, args[1] == "--frames", let w = Int(args[3]), let h = Int(args[4]), let n = Int(args[5]) {
  let threads = args.count > 6 ? Int(args[6]) ?? 1 : 1
  let turning = args.count > 7 ? args[7] != "fixed" : true
  let pitch = args.count > 8 ? Angle(degrees: Double(args[8]) ?? 0).radians : 0
  let planet = args.count > 8 && args[8] == "planet"
  let baseYaw = args.count > 10 ? Angle(degrees: Double(args[10]) ?? 0).radians : 0
  let pano: LoadedPanorama
  do { pano = try LoadedPanorama.load(args[2]) } catch {
    Console.error(error.message)
    exit(2)
  }
  var renderer = try! PanoramaRenderer(source: pano.image, geometry: pano.geometry)
  renderer.groupKernel = BlendKernels.chosen()
  // A turning view reads mip levels (as the app's do); a fixed one the source alone.
  if turning { renderer.buildMipLevels(executor: InlineRows()) }
  // `caps` (or `mips+caps`) after the pitch: polar faces too (and mip levels).
  if args.count > 9, args[9].hasSuffix("caps") {
    renderer.buildPolarCaps(executor: ThreadedRows(threads: 2))
    if args[9].hasPrefix("mips") && !turning { renderer.buildMipLevels(executor: InlineRows()) }
  }
  var image = RGBAImage(width: w, height: h)
  let executor = ThreadedRows(threads: threads)
  func render(_ k: Int) {
    renderer.renderPerspective(
      view: ViewAngles(
        yaw: baseYaw + (turning ? Angle(degrees: Double(k)).radians : 0), pitch: planet ? -Elementary.halfPi : pitch),
      hfov: Angle(degrees: planet ? 300 : 90).radians, lens: planet ? .stereographic : .rectilinear,
      into: &image, executor: executor)
  }
  render(0)
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  let start = Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  for k in 1...n { render(k) }
  clock_gettime(CLOCK_MONOTONIC, &ts)
  print(Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9 - start)
  exit(0)
}

/// `pano-bench --floor IN FRAMES ROUNDS`: the fixed view's floor beside every kernel
/// (FloorBench); `pano-bench --floor-one CASE THREADS IN FRAMES`: one of them, for `perf stat`.
if args.count == 5, args[1] == "--floor", let frames = Int(args[3]), let rounds = Int(args[4]), frames > 0, rounds > 0 {
  FloorBench.run(path: args[2], frames: frames, rounds: rounds)
  exit(0)
}
/// `pano-bench --yuv-floor RAW WxH FRAMES ROUNDS`: the video renderer's floor on raw yuv420p
/// planes (bench/reframe.sh); `pano-bench --cube-floor FACE PITCH° FRAMES ROUNDS`: the cube
/// and pyramid paths' (bench/cube.sh).
if args.count == 6, args[1] == "--yuv-floor", let frames = Int(args[4]), let rounds = Int(args[5]), frames > 0, rounds > 0 {
  FloorBench.runYUV(path: args[2], size: args[3], frames: frames, rounds: rounds)
  exit(0)
}
if args.count == 6, args[1] == "--cube-floor", let face = Int(args[2]), let pitch = Double(args[3]),
  let frames = Int(args[4]), let rounds = Int(args[5]), face >= 8, frames > 0, rounds > 0
{
  FloorBench.runCube(face: face, pitch: pitch, frames: frames, rounds: rounds)
  exit(0)
}
/// The `-one` forms take `--MODE-one CASE THREADS IN FRAMES`, IN: a panorama; RAW:WxH; FACE:PITCH°.
if args.count == 6, let threads = Int(args[3]), let frames = Int(args[5]) {
  let list: [FloorBench.Contender]?
  let input = args[4]
  // IN's parts after its last colon (a raw frame's size, a cube's pitch).
  let cut = input.lastIndex(of: ":").map { (String(input[..<$0]), String(input[input.index(after: $0)...])) }
  switch args[1] {
  case "--floor-one":
    guard let pano = try? LoadedPanorama.load(input) else { exit(2) }
    list = FloorBench.contenders(pano).contenders
  case "--yuv-floor-one":
    list = cut.flatMap { FloorBench.yuvSource(path: $0.0, size: $0.1) }.map { FloorBench.yuvContenders($0).contenders }
  case "--cube-floor-one":
    list =
      cut.flatMap { c in Int(c.0).flatMap { f in Double(c.1).map { FloorBench.cubeContenders(face: f, pitch: $0) } } }?
      .contenders
  default: list = nil
  }
  if let list {
    FloorBench.runOne(list, name: args[2], threads: threads, frames: frames)
    exit(0)
  }
  if args[1].hasSuffix("-one") {
    Console.error("\(args[1]): cannot read \(input)")
    exit(2)
  }
}

/// What the process holds before the panorama: runtime, libraries, thread stacks.
/// `pano-bench --cube FACE ROUNDS [THREADS] [PITCH°]`: the cube renderers on SamplePanorama's
/// faces (`FACE` px, as a CubeMap with mip levels and as a fully loaded TiledCube of 512 px
/// tiles), 1920×1080 at hfov 90° turning 1° a frame, against the equirectangular grid renderer
/// on the source they were cut from (with mip levels), each with the portable Swift loop and
/// with the kernel KernelWisdom chose. Each case is timed as a slope: (time of 25 frames −
/// time of 5) / 20, rounds interleaving the cases; prints `RESULT cube CASE MS` per round, then
/// min and median, and the median of per-round ratios against the equirectangular path with
/// the same kernel (bench/cube.sh).
if args.count >= 4, args[1] == "--cube", let face = Int(args[2]), let rounds = Int(args[3]) {
  let threads = args.count > 4 ? Int(args[4]) ?? 2 : 2
  let pitch = Angle(degrees: args.count > 5 ? Double(args[5]) ?? 11.5 : 11.5).radians
  let executor = ThreadedRows(threads: threads)
  let source = try! SamplePanorama.make(width: 4 * face)
  var equirect = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: source.width, height: source.height))
  equirect.buildMipLevels(executor: executor)
  let cube = CubeMap.faces(from: &equirect, size: face, executor: executor).withMipLevels()
  // The same faces as a pyramid of 512 px tiles, every tile loaded.
  let layout = MultiresLayout(
    cubeResolution: face, tileResolution: min(512, face),
    maxLevel: MultiresLayout.levels(cubeResolution: face, tileResolution: min(512, face)))!
  let tiled = TiledCube.cut(from: cube, layout: layout)
  // Drawn from a kept tile table, as the hosts draw frames (ViewerTour.renderTiles, pano video).
  let tiledTable = tiled.texels()
  let kernel = BlendKernels.chosen()
  let kernelName = kernel?.name ?? "swift"
  var frame = RGBAImage(width: 1920, height: 1080)
  let hfov = Angle(degrees: 90).radians
  func view(_ k: Int) -> ViewAngles { ViewAngles(yaw: Double(k) * 0.0175, pitch: pitch) }
  var swiftEquirect = equirect
  swiftEquirect.groupKernel = nil
  equirect.groupKernel = kernel
  // (label, equirectangular case it is compared with, body)
  var cases: [(String, Int, (Int) -> Void)] = [
    (
      "equirectangular, swift", 0,
      { k in swiftEquirect.renderPerspective(view: view(k), hfov: hfov, into: &frame, executor: executor) }
    ),
    (
      "cube reference (ray a pixel)", 0,
      { k in cube.renderReference(view: view(k), hfov: hfov, into: &frame, executor: executor) }
    ),
    ("cube stepped, swift", 0, { k in cube.render(view: view(k), hfov: hfov, into: &frame, executor: executor) }),
    (
      "tiled reference (ray a pixel)", 0,
      { k in tiled.renderReference(view: view(k), hfov: hfov, into: &frame, executor: executor) }
    ),
    ("tiled stepped, swift", 0, { k in tiledTable.render(view: view(k), hfov: hfov, into: &frame, executor: executor) }),
  ]
  if kernel != nil {
    let first = cases.count
    cases += [
      (
        "equirectangular, \(kernelName)", first,
        { k in equirect.renderPerspective(view: view(k), hfov: hfov, into: &frame, executor: executor) }
      ),
      (
        "cube stepped, \(kernelName)", first,
        { k in cube.render(view: view(k), hfov: hfov, into: &frame, executor: executor, kernel: kernel) }
      ),
      (
        "tiled stepped, \(kernelName)", first,
        { k in tiledTable.render(view: view(k), hfov: hfov, into: &frame, executor: executor, kernel: kernel) }
      ),
    ]
  }
  // `CUBE_PROFILE=N`: case N alone, `CUBE_FRAMES` (200) frames, for a profiler (two frame
  // counts' instruction counts give one frame's, the set-up cancelled).
  if let only = getenv("CUBE_PROFILE").flatMap({ Int(String(cString: $0)) }), cases.indices.contains(only) {
    let frames = getenv("CUBE_FRAMES").flatMap { Int(String(cString: $0)) } ?? 200
    for k in 0..<frames { cases[only].2(k) }

    exit(0)
  }
  // How far the stepped frames are from the reference's, at this view and at a face corner.
  for (name, at) in [("this view", view(30)), ("a face corner", ViewAngles(yaw: 0.785, pitch: 0.615))] {
    var reference = RGBAImage(width: 1920, height: 1080), fast = reference, fastTiled = reference
    cube.renderReference(view: at, hfov: hfov, into: &reference, executor: executor)
    cube.render(view: at, hfov: hfov, into: &fast, executor: executor, kernel: kernel)
    tiled.render(view: at, hfov: hfov, into: &fastTiled, executor: executor, kernel: kernel)
    print(
      "stepped against the reference at \(name): cube \(fmt(fast.psnr(against: reference))) dB, tiled \(fmt(fastTiled.psnr(against: reference))) dB"
    )
  }
  let short = 5, long = 25
  var times = [[Double]](repeating: [], count: cases.count)
  for _ in 0..<rounds {
    for (c, (name, _, body)) in cases.enumerated() {
      body(0)
      var start = now()
      for k in 1...short { body(k) }
      let a = now() - start
      start = now()
      for k in 1...long { body(k) }
      let ms = (now() - start - a) * 1000 / Double(long - short)
      times[c].append(ms)
      print("RESULT cube \(name.split(separator: " ").joined(separator: "-")) \(fmt(ms))")
    }
  }
  print(
    "\(face) px faces (tiles of \(layout.tileResolution) px) → 1920×1080, hfov 90°, pitch \(fmt(pitch * 180 / Elementary.pi))°,"
      + " turning 1° a frame, \(threads) threads, \(rounds) rounds; ms/frame as slopes (\(long) frames − \(short)) / \(long - short)"
  )
  for (c, (name, base, _)) in cases.enumerated() {
    let sorted = times[c].sorted(), median = sorted[sorted.count / 2]
    let ratios = zip(times[c], times[base]).map { $0 / $1 }.sorted()
    let pad = name + String(repeating: " ", count: max(0, 32 - name.count))
    // The issue's aims (40): the stepped cube 1.1×, the stepped pyramid 1.2× the equirectangular path.
    let aim = name.hasPrefix("cube stepped") ? "  (aim 1.1×)" : name.hasPrefix("tiled stepped") ? "  (aim 1.2×)" : ""
    print(
      "  \(pad) min \(fmt(sorted[0])), median \(fmt(median)), \(fmt(ratios[ratios.count / 2]))× \(cases[base].0) (median of rounds)\(aim)"
    )
  }
  exit(0)
}

guard args.count == 4 || args.count == 5, let frames = Int(args[2]), frames > 0,
  let runs = args.count == 5 ? Int(args[4]) : 5, runs > 0
else {
  Console.error("usage: pano-bench IN.jpg FRAMES OUT.png [RUNS]")
  exit(2)
}
let baselineMB = residentMB()
let pano: LoadedPanorama
do { pano = try LoadedPanorama.load(args[1]) } catch {
  Console.error(error.message)
  exit(2)
}
let width = 1920, height = 1080
let hfov = Angle(degrees: 90).radians

func now() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func peakMemoryMB() -> Double { statusMB("VmHWM:") }
func residentMB() -> Double { statusMB("VmRSS:") }

/// A line of /proc/self/status, in MB.
func statusMB(_ key: String) -> Double {
  guard let f = fopen("/proc/self/status", "r") else { return 0 }
  defer { fclose(f) }
  var line = [CChar](repeating: 0, count: 256)
  while fgets(&line, 256, f) != nil {
    let s = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if s.hasPrefix(key) {
      let kb = s.split(separator: " ").compactMap { Double($0) }.first ?? 0
      return kb / 1024
    }
  }
  return 0
}

var renderer = try! PanoramaRenderer(source: pano.image, geometry: pano.geometry)
renderer.groupKernel = BlendKernels.chosen()
let wisdom = KernelWisdom.choice()
print(
  "KERNELS chosen: \(renderer.groupKernel?.name ?? "swift") on \(KernelWisdom.cacheKey) (\(wisdom.source): \(wisdom.figures);"
    + " IMAGESTAGE_KERNEL=swift|avx2|prefetch|block|block8|vendor)")
var frame = RGBAImage(width: width, height: height)

// Every kernel on this source beside the choice: a level view and one 80° up (rows crossing
// the source), 2 threads, 10 frames a run, the kernels interleaved over 7 rounds (the first
// warms up). A quiet timing that contradicts the remembered choice replaces it.
do {
  let names = ["swift"] + BlendKernels.available.map(\.name)
  let views = [ViewAngles(yaw: 0.5, pitch: 0.17), ViewAngles(yaw: 0.8, pitch: Angle(degrees: 80).radians)]
  var times = [[[Double]]](repeating: [[], []], count: names.count)
  let chosen = renderer.groupKernel
  for round in 0..<7 {
    for (k, name) in names.enumerated() {
      renderer.groupKernel = BlendKernels.named(name)
      for (v, view) in views.enumerated() {
        let start = now()
        for _ in 0..<10 {
          renderer.renderPerspective(view: view, hfov: hfov, into: &frame, executor: ThreadedRows(threads: 2))
        }
        if round > 0 { times[k][v].append((now() - start) * 100) }
      }
    }
  }
  renderer.groupKernel = chosen
  print("KERNELS on this source, 2 threads, ms/frame min/median: level view | 80° up")
  var sums: [Double] = [], quiet = true
  for (k, name) in names.enumerated() {
    let cells = times[k].map { t -> String in
      let sorted = t.sorted(), low = sorted[0], median = sorted[sorted.count / 2]
      if median > low * 1.1 { quiet = false }
      return "\(fmt(low))/\(fmt(median))"
    }
    sums.append(times[k].map { $0.min() ?? 0 }.reduce(0, +))
    let mark = name == (chosen?.name ?? "swift") ? "  ← chosen" : ""
    print("KERNELS   \(name + String(repeating: " ", count: max(0, 10 - name.count)))\(cells.joined(separator: " | "))\(mark)")
  }
  if quiet {
    let after = KernelWisdom.confirm(
      model: KernelWisdom.cacheKey, candidates: names, times: sums, file: KernelWisdom.cacheDirectory + "/kernels.tsv")
    print("KERNELS   remembered for this CPU now: \(after.kernel) (\(after.source))")
  } else {
    print("KERNELS   rounds spread over 10 %: the machine is busy, the remembered choice is left as it is")
  }
}

// The frame to compare with ffmpeg's.
renderer.renderPerspective(
  view: ViewAngles(yaw: Angle(degrees: 30).radians, pitch: Angle(degrees: 10).radians), hfov: hfov, into: &frame,
  executor: ThreadedRows(threads: 2))
do { try FileIO.writeAtomically(try Raster.encodePNG(frame), to: args[3]) } catch {
  Console.error("\(error)")
  exit(1)
}

print(
  "source \(pano.image.width)×\(pano.image.height) → \(width)×\(height), hfov 90°, bilinear, \(frames) frames per run, \(runs) runs"
)
print("case                     threads   ms/frame min   median")
let cases = [
  ("fixed view", "fixed", 0), ("yaw every frame", "yaw", 1), ("yaw+pitch every frame", "yaw+pitch", 2),
  ("fixed, 30° up", "up30", 5), ("fixed, 60° up", "up60", 4), ("fixed, 80° up (pole)", "pole", 3),
  ("fixed, 90° up", "up90", 6), ("little planet (stereo 300°)", "planet", 7),
  ("fisheye 180°, 60° up", "fisheye", 8),
]
let sourceMB = Double(pano.image.pixels.count * 4) / 1_048_576
let frameMB = Double(width * height * 4) / 1_048_576
@MainActor func run(_ cases: [(String, String, Int)], on renderer: inout PanoramaRenderer) {
  for (name, label, moving) in cases {
    for threads in [1, 2] {
      let executor = ThreadedRows(threads: threads)
      var samples: [Double] = []
      for run in 0..<runs {
        let start = now()
        for f in 0..<frames {
          let k = Double(run * frames + f)
          let view: ViewAngles
          var fieldOfView = hfov, lens = Lens.rectilinear
          switch moving {
          case 0: view = ViewAngles(yaw: 0.5, pitch: 0.17)
          case 1: view = ViewAngles(yaw: 0.5 + k * 0.01, pitch: 0.17)
          case 2: view = ViewAngles(yaw: 0.5 + k * 0.01, pitch: 0.17 + 0.3 * Elementary.sin(k * 0.05))
          case 3: view = ViewAngles(yaw: 0.5, pitch: Angle(degrees: 80).radians)
          case 5: view = ViewAngles(yaw: 0.5, pitch: Angle(degrees: 30).radians)
          case 6: view = ViewAngles(yaw: 0.5, pitch: Angle(degrees: 90).radians)
          case 7:
            view = ViewAngles(yaw: 0.5, pitch: Angle(degrees: -90).radians)
            fieldOfView = Angle(degrees: 300).radians
            lens = .stereographic
          case 8:
            view = ViewAngles(yaw: 0.5, pitch: Angle(degrees: 60).radians)
            fieldOfView = Angle(degrees: 180).radians
            lens = .fisheye
          default: view = ViewAngles(yaw: 0.5, pitch: Angle(degrees: 60).radians)
          }
          renderer.renderPerspective(view: view, hfov: fieldOfView, lens: lens, into: &frame, executor: executor)
        }
        samples.append((now() - start) * 1000 / Double(frames))
        print("RESULT ours-\(label) \(threads) \(samples.last!)")
      }
      samples.sort()
      let pad = name + String(repeating: " ", count: max(0, 25 - name.count))
      print("\(pad)\(threads)         \(fmt(samples[0]))         \(fmt(samples[samples.count / 2]))")
    }
  }
}
run(cases, on: &renderer)
print(
  "peak memory \(fmt(peakMemoryMB())) MB, of which \(fmt(baselineMB)) MB before loading; decoded source \(fmt(sourceMB)) MB + two frames \(fmt(2 * frameMB)) MB = \(fmt(sourceMB + 2 * frameMB)) MB"
)
print("RESULT memory \(peakMemoryMB()) \(baselineMB) \(sourceMB + 2 * frameMB)")

// With mip levels (opt-in: they cost a third of the source): views that step two or more
// source pixels per output pixel read a smaller level.
renderer.buildMipLevels(executor: ThreadedRows(threads: 2))
print("with mip levels (+\(fmt(Double(renderer.mipLevels.byteCount) / 1_048_576)) MB):")
let stillCases = cases.filter { $0.2 != 2 }
run(stillCases.map { ($0.0 + ", mips", "mips-" + $0.1, $0.2) }, on: &renderer)
print("RESULT mips-memory \(peakMemoryMB()) \(Double(renderer.mipLevels.byteCount) / 1_048_576)")

// With the polar caps (opt-in: two faces and their levels): views near a pole read them.
var capped = try! PanoramaRenderer(source: pano.image, geometry: pano.geometry)
capped.groupKernel = renderer.groupKernel
let capStart = now()
capped.buildPolarCaps(executor: ThreadedRows(threads: 2))
let capBuild = (now() - capStart) * 1000
let capMB = Double(capped.polarCaps?.byteCount ?? 0) / 1_048_576
print("with polar caps (+\(fmt(capMB)) MB, built in \(fmt(capBuild)) ms at 2 threads):")
run(stillCases.map { ($0.0 + ", caps", "caps-" + $0.1, $0.2) }, on: &capped)
capped.buildMipLevels(executor: ThreadedRows(threads: 2))
print("with polar caps and mip levels:")
run(stillCases.map { ($0.0 + ", caps+mips", "caps-mips-" + $0.1, $0.2) }, on: &capped)
print("RESULT caps-memory \(peakMemoryMB()) \(capMB) \(capBuild)")

func fmt(_ v: Double) -> String {
  let r = (v * 100).rounded() / 100
  return String(r)
}
