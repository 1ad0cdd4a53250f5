import CKernels
import HostIO
import Panorama

#if canImport(Glibc)
  import Glibc
#endif

/// The renderer's inner loop per CPU: the C kernels this machine can run, and the one to use.
///
/// `IMAGESTAGE_KERNEL` chooses: `swift` (the portable loop, the reference), `avx2` (gathers,
/// where the CPU has AVX2), `prefetch` (SSE4.1 with software prefetches, for rows that read
/// the source out of order), `block` (SSE4.1, whole blocks a call, their rows stepped in C),
/// `block8` (the same eight lanes to an AVX2 register, scalar loads), `vendor` (the old rule:
/// AVX2 on Intel, `prefetch` elsewhere), or unset/`auto`: the one ``KernelWisdom`` measured
/// fastest on this CPU model. Which wins is
/// not the vendor's: gathers were 1.7× the Swift blend on one Intel Xeon and slower on AMD
/// EPYC (Zen); prefetching took views whose rows cross the source 15–35 % faster on the AMD.
public enum BlendKernels {
  /// The AVX2 kernel, when this CPU has AVX2.
  public static var avx2: GroupKernel? {
    imagestage_cpu_has_avx2() != 0 ? GroupKernel(name: "avx2", groups: imagestage_groups_avx2) : nil
  }

  /// SSE4.1 lane loads with software prefetches, when this CPU has SSE4.1.
  public static var prefetch: GroupKernel? {
    imagestage_cpu_has_sse41() != 0
      ? GroupKernel(name: "prefetch", groups: imagestage_groups_prefetch, scatteredRowsOnly: true) : nil
  }

  /// SSE4.1 lane loads, a whole block a call, its rows stepped in C; blocks whose rows
  /// scatter, or whose width is not whole groups, take `prefetch`'s row loop.
  public static var block: GroupKernel? {
    imagestage_cpu_has_sse41() != 0
      ? GroupKernel(name: "block", groups: imagestage_groups_prefetch, blocks: imagestage_block_sse41) : nil
  }

  /// `block` eight lanes to an AVX2 register, the texels by scalar loads (no gathers);
  /// scattered blocks, as there, take `prefetch`'s row loop.
  public static var block8: GroupKernel? {
    imagestage_cpu_has_avx2() != 0
      ? GroupKernel(name: "block8", groups: imagestage_groups_prefetch, blocks: imagestage_block_avx2) : nil
  }

  /// Every kernel this machine runs besides the Swift loop (for tests and benchmarks).
  public static var available: [GroupKernel] { [avx2, prefetch, block, block8].compactMap { $0 } }

  /// A kernel by name (`swift` is `nil`, the Swift loop); `nil` also when this CPU lacks it.
  public static func named(_ name: String) -> GroupKernel? { available.first { $0.name == name } }

  /// The kernel to use (`nil`: the Swift loop), from `IMAGESTAGE_KERNEL`, else measured.
  public static func chosen() -> GroupKernel? {
    let setting = getenv("IMAGESTAGE_KERNEL").map { String(cString: $0) } ?? "auto"
    switch setting {
    case "swift": return nil
    case "avx2": return avx2
    case "prefetch": return prefetch
    case "block": return block
    case "block8": return block8
    case "vendor": return imagestage_cpu_is_intel() != 0 ? avx2 ?? prefetch : prefetch
    default: return named(KernelWisdom.choice().kernel)
    }
  }
}

/// Which kernel is fastest on this CPU, measured once per CPU model and remembered, as FFTW's
/// wisdom is: the first run on a new CPU times each kernel (and the Swift loop) on a synthetic
/// source larger than the last-level cache (as real panoramas are: a small one fits in the
/// cache, where the prefetching kernel's gain does not show), a level view, one 60° up and
/// one 80° up, interleaved round by round until the rounds agree. A measurement whose rounds
/// spread wider (the machine busy) is not kept: the vendor's default is used and the next run
/// measures again. Later runs read the answer from `$IMAGESTAGE_CACHE` (default
/// `$XDG_CACHE_HOME/imagestage`, else `~/.cache/imagestage`), file `kernels.tsv`:
/// `KEY<TAB>KERNEL<TAB>figures<TAB>v2` per line, the key the CPU's model and the build
/// (``cacheKey``: a debug build's timings say nothing of a release build's, and the two share
/// the cache); a line without `v2` was measured the old way, on two small renders, and is
/// measured again, as is one whose figures leave out a kernel this build has (added since). A later timing on a real source that
/// contradicts the remembered kernel (``confirm(model:candidates:times:file:)``, which
/// `pano-bench` calls) replaces it.
public enum KernelWisdom {
  /// A choice and where it came from.
  public struct Choice: Equatable, Sendable {
    public var kernel: String
    /// `measured` (just now), `remembered` (from the cache), `vendor` (the measurement was
    /// taken under load and not kept), `re-measured` (a later timing replaced the remembered
    /// one) or `only` (nothing to choose).
    public var source: String
    /// Milliseconds per candidate when measured: "swift=1.92 avx2=1.41 prefetch=1.77".
    public var figures: String
  }

  /// What marks a cache line measured this way (larger than the cache, rounds that agree).
  static let version = "v2"

  /// Rounds whose median is more than this fraction above their minimum, for any candidate,
  /// are a busy machine's.
  static let maxSpread = 0.1

  /// The CPU's model name (`/proc/cpuinfo`), the key the choice is remembered under.
  public static var cpuModel: String {
    // /proc files report size 0, so they are read line by line, not as a whole file.
    guard let file = fopen("/proc/cpuinfo", "r") else { return "unknown CPU" }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 512)
    while fgets(&line, Int32(line.count), file) != nil {
      let text = String(decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if text.hasPrefix("model name"), let colon = text.firstIndex(of: ":") {
        return text[text.index(after: colon)...].trimmingSpaces()
      }
    }
    return "unknown CPU"
  }

  /// `debug` or `release`: how this binary was built.
  public static var build: String {
    #if DEBUG
      return "debug"
    #else
      return "release"
    #endif
  }

  /// What a choice is remembered under: the CPU's model and the build, e.g.
  /// `Intel(R) Xeon(R) … [release]`.
  public static var cacheKey: String { "\(cpuModel) [\(build)]" }

  /// The directory the choice is kept in.
  public static var cacheDirectory: String {
    if let dir = getenv("IMAGESTAGE_CACHE") { return String(cString: dir) }
    if let xdg = getenv("XDG_CACHE_HOME"), xdg.pointee != 0 { return String(cString: xdg) + "/imagestage" }
    return (getenv("HOME").map { String(cString: $0) } ?? "/tmp") + "/.cache/imagestage"
  }

  nonisolated(unsafe) static var memo: Choice?

  /// The kernel to use on this machine: remembered, else measured now and remembered.
  public static func choice() -> Choice {
    if let memo { return memo }
    let names = ["swift"] + BlendKernels.available.map(\.name)
    let choice = choose(
      model: cacheKey, candidates: names, file: cacheDirectory + "/kernels.tsv", vendor: vendorDefault,
      measure: measureRenders)
    memo = choice
    return choice
  }

  /// The old rule, used while no quiet measurement exists: AVX2 on Intel, `prefetch` elsewhere.
  static var vendorDefault: String {
    let names = BlendKernels.available.map(\.name)
    if imagestage_cpu_is_intel() != 0, names.contains("avx2") { return "avx2" }
    return names.contains("prefetch") ? "prefetch" : "swift"
  }

  /// `choice()` with its parts given: the remembered line for `model` when it names one of
  /// `candidates` and was measured this way (`v2`), else `measure(candidates)` (ms each), the
  /// fastest kept in `file`. A measurement that comes back `nil` (taken under load) gives
  /// `vendor` (default the first candidate), keeps nothing, and so is tried again next run. A
  /// cache that cannot be read or written costs a measurement, never a failure.
  public static func choose(
    model: String, candidates: [String], file: String, vendor: String? = nil, measure: ([String]) -> [Double]?
  ) -> Choice {
    guard candidates.count > 1 else { return Choice(kernel: candidates.first ?? "swift", source: "only", figures: "") }
    if let line = remembered(model: model, file: file), candidates.contains(line.kernel), line.version == version,
      timedEvery(candidates, line.figures)
    {
      return Choice(kernel: line.kernel, source: "remembered", figures: line.figures)
    }
    guard let times = measure(candidates), times.count == candidates.count else {
      let fallback = vendor.flatMap { candidates.contains($0) ? $0 : nil } ?? candidates[0]
      return Choice(kernel: fallback, source: "vendor", figures: "the machine was busy; measured again next run")
    }
    let choice = Choice(kernel: candidates[fastest(times)], source: "measured", figures: figures(candidates, times))
    remember(model: model, choice: choice, file: file)
    return choice
  }

  /// A later timing of `candidates` (ms each, e.g. `pano-bench` on a real source, rounds
  /// that agreed) checked against the remembered kernel: when another is faster by more than
  /// ``maxSpread``, it replaces the remembered one. Returns the choice in force after.
  @discardableResult public static func confirm(model: String, candidates: [String], times: [Double], file: String)
    -> Choice
  {
    let best = fastest(times), figures = figures(candidates, times)
    guard let line = remembered(model: model, file: file), let kept = candidates.firstIndex(of: line.kernel) else {
      let choice = Choice(kernel: candidates[best], source: "measured", figures: figures)
      remember(model: model, choice: choice, file: file)
      return choice
    }
    guard times[best] * (1 + maxSpread) < times[kept] else {
      return Choice(kernel: line.kernel, source: "remembered", figures: line.figures)
    }
    let choice = Choice(kernel: candidates[best], source: "re-measured", figures: figures)
    remember(model: model, choice: choice, file: file)
    return choice
  }

  /// Whether `figures` ("swift=1.92 avx2=1.41 …") timed every one of `candidates`: a kernel
  /// added since the line was measured has not been weighed against the choice, so the line
  /// is measured again.
  static func timedEvery(_ candidates: [String], _ figures: String) -> Bool {
    let timed = Set(figures.split(separator: " ").compactMap { $0.split(separator: "=").first.map(String.init) })
    return candidates.allSatisfy { timed.contains($0) }
  }

  static func fastest(_ times: [Double]) -> Int {
    var best = 0
    for k in times.indices where times[k] < times[best] { best = k }
    return best
  }

  static func figures(_ candidates: [String], _ times: [Double]) -> String {
    zip(candidates, times).map { "\($0)=\(format($1))" }.joined(separator: " ")
  }

  /// The cache's line for `model`: kernel, figures and the measurement's version.
  static func remembered(model: String, file: String) -> (kernel: String, figures: String, version: String)? {
    guard let bytes = try? FileIO.read(file, limit: 1 << 20) else { return nil }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      if fields.count >= 2, fields[0] == model {
        return (fields[1], fields.count > 2 ? fields[2] : "", fields.count > 3 ? fields[3] : "")
      }
    }
    return nil
  }

  /// Writes `model`'s line, keeping other CPUs' (a home directory shared between machines).
  static func remember(model: String, choice: Choice, file: String) {
    var lines: [String] = []
    if let bytes = try? FileIO.read(file, limit: 1 << 20) {
      lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }
    lines.removeAll { $0.hasPrefix(model + "\t") }
    lines.append("\(model)\t\(choice.kernel)\t\(choice.figures)\t\(version)")
    let directory = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    if !directory.isEmpty { try? FileIO.makeDirectories(directory) }
    try? FileIO.writeAtomically(Array((lines.joined(separator: "\n") + "\n").utf8), to: file)
  }

  static func format(_ ms: Double) -> String {
    let hundredths = Int((ms * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }

  /// The last-level cache's size in bytes (`/sys`), or 32 MB when it is not said.
  static var lastLevelCacheBytes: Int {
    for index in stride(from: 4, through: 2, by: -1) {
      guard let file = fopen("/sys/devices/system/cpu/cpu0/cache/index\(index)/size", "r") else { continue }
      defer { fclose(file) }
      var line = [CChar](repeating: 0, count: 64)
      guard fgets(&line, Int32(line.count), file) != nil else { continue }
      let text = String(decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let digits = text.prefix { $0.isNumber }
      guard let n = Int(digits) else { continue }
      let unit = text.dropFirst(digits.count).first
      return n * (unit == "K" ? 1 << 10 : unit == "M" ? 1 << 20 : 1)
    }
    return 32 << 20
  }

  /// Milliseconds per candidate, or `nil` when the machine was too busy to tell: three
  /// 640×360 views (level, 60° up and 80° up) of a synthetic source at least twice the
  /// last-level cache (4096×2048 to 8192×4096), on 2 threads, the candidates interleaved
  /// round by round after a warm-up, the minimum of each; rounds go on (5 to 15) until every
  /// candidate's median is within ``maxSpread`` of its minimum, or one candidate wins
  /// outright (``decisive(_:)``). Some 0.1–0.5 s in a release
  /// build, once per CPU model.
  static func measureRenders(_ candidates: [String]) -> [Double]? {
    var width = 4096
    while width < 8192, width * width / 2 * 4 < 2 * lastLevelCacheBytes { width *= 2 }
    return measureRenders(candidates, sourceWidth: width, maxRounds: 15)
  }

  static func measureRenders(_ candidates: [String], sourceWidth width: Int, maxRounds: Int) -> [Double]? {
    let height = width / 2
    var pixels = [UInt32](repeating: 0, count: width * height)
    var state: UInt32 = 2_463_534_242
    for k in pixels.indices {
      state ^= state << 13
      state ^= state >> 17
      state ^= state << 5
      pixels[k] = state | 0xFF00_0000
    }
    guard let source = try? RGBAImage(width: width, height: height, pixels: pixels),
      var renderer = try? PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: width, height: height))
    else { return nil }
    var frame = RGBAImage(width: 640, height: 360)
    let views = [ViewAngles(yaw: 0.5, pitch: 0.1), ViewAngles(yaw: 2, pitch: 1.05), ViewAngles(yaw: 0.8, pitch: 1.4)]
    let executor = ThreadedRows(threads: 2)
    var rounds = [[Double]](repeating: [], count: candidates.count)
    for round in 0...maxRounds {
      for (k, name) in candidates.enumerated() {
        renderer.groupKernel = BlendKernels.named(name)
        let start = seconds()
        for view in views {
          renderer.renderPerspective(view: view, hfov: 1.6, into: &frame, executor: executor)
        }
        if round > 0 { rounds[k].append((seconds() - start) * 1000) }  // the first round warms the caches
      }
      if round >= 5, rounds.allSatisfy({ spread($0) <= maxSpread }) || decisive(rounds) {
        return rounds.map { $0.min() ?? 0 }
      }
    }
    return nil
  }

  /// Whether one candidate wins whatever the noise: its median is below every other
  /// candidate's minimum. On a quiet but ordinary machine the rounds of a 1 ms render rarely
  /// all fall within ``maxSpread`` (15 rounds at load 1 did not, and every run then measured
  /// again), yet a winner this clear is the same answer a quieter machine would give.
  static func decisive(_ rounds: [[Double]]) -> Bool {
    let minima = rounds.map { $0.min() ?? .infinity }
    guard let best = minima.indices.min(by: { minima[$0] < minima[$1] }), !rounds[best].isEmpty else { return false }
    let sorted = rounds[best].sorted()
    let median = sorted[sorted.count / 2]
    return minima.indices.allSatisfy { $0 == best || median < minima[$0] }
  }

  /// How far the median of `times` is above their minimum, as a fraction of it.
  static func spread(_ times: [Double]) -> Double {
    guard let low = times.min(), low > 0 else { return .infinity }
    let sorted = times.sorted()
    return (sorted[sorted.count / 2] - low) / low
  }

  static func seconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }
}

extension Substring {
  func trimmingSpaces() -> String {
    var s = self
    while s.first == " " || s.first == "\t" { s = s.dropFirst() }
    while s.last == " " || s.last == "\t" { s = s.dropLast() }
    return String(s)
  }
}
