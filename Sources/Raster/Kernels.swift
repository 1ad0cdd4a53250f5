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
/// the source out of order), `vendor` (the old rule: AVX2 on Intel, `prefetch` elsewhere), or
/// unset/`auto`: the one ``KernelWisdom`` measured fastest on this CPU model. Which wins is
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

  /// Every kernel this machine runs besides the Swift loop (for tests and benchmarks).
  public static var available: [GroupKernel] { [avx2, prefetch].compactMap { $0 } }

  /// A kernel by name (`swift` is `nil`, the Swift loop); `nil` also when this CPU lacks it.
  public static func named(_ name: String) -> GroupKernel? { available.first { $0.name == name } }

  /// The kernel to use (`nil`: the Swift loop), from `IMAGESTAGE_KERNEL`, else measured.
  public static func chosen() -> GroupKernel? {
    let setting = getenv("IMAGESTAGE_KERNEL").map { String(cString: $0) } ?? "auto"
    switch setting {
    case "swift": return nil
    case "avx2": return avx2
    case "prefetch": return prefetch
    case "vendor": return imagestage_cpu_is_intel() != 0 ? avx2 ?? prefetch : prefetch
    default: return named(KernelWisdom.choice().kernel)
    }
  }
}

/// Which kernel is fastest on this CPU, measured once per CPU model and remembered, as FFTW's
/// wisdom is: the first run on a new CPU times each kernel (and the Swift loop) on two small
/// renders of a synthetic source, a level view (rows in order) and one looking up 60° (rows
/// crossing the source), interleaved round by round, minimum of each; later runs read the
/// answer from `$IMAGESTAGE_CACHE` (default `$XDG_CACHE_HOME/imagestage`, else
/// `~/.cache/imagestage`), file `kernels.tsv`: `MODEL<TAB>KERNEL<TAB>figures` per line.
public enum KernelWisdom {
  /// A choice and where it came from.
  public struct Choice: Equatable, Sendable {
    public var kernel: String
    /// `measured` (just now), `remembered` (from the cache) or `only` (nothing to choose).
    public var source: String
    /// Milliseconds per candidate when measured: "swift=1.92 avx2=1.41 prefetch=1.77".
    public var figures: String
  }

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
      model: cpuModel, candidates: names, file: cacheDirectory + "/kernels.tsv", measure: measureRenders)
    memo = choice
    return choice
  }

  /// `choice()` with its parts given: the remembered line for `model` when it names one of
  /// `candidates`, else `measure(candidates)` (ms each), the fastest kept in `file`. A cache
  /// that cannot be read or written costs a measurement, never a failure.
  public static func choose(
    model: String, candidates: [String], file: String, measure: ([String]) -> [Double]
  ) -> Choice {
    guard candidates.count > 1 else { return Choice(kernel: candidates.first ?? "swift", source: "only", figures: "") }
    var lines: [String] = []
    if let bytes = try? FileIO.read(file, limit: 1 << 20) {
      lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
      for line in lines {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        if fields.count >= 2, fields[0] == model, candidates.contains(fields[1]) {
          return Choice(kernel: fields[1], source: "remembered", figures: fields.count > 2 ? fields[2] : "")
        }
      }
    }
    let times = measure(candidates)
    var best = 0
    for k in times.indices where times[k] < times[best] { best = k }
    let figures = zip(candidates, times).map { "\($0)=\(format($1))" }.joined(separator: " ")
    // Keep other CPUs' lines (a home directory shared between machines), replace this one's.
    lines.removeAll { $0.hasPrefix(model + "\t") }
    lines.append("\(model)\t\(candidates[best])\t\(figures)")
    let directory = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    if !directory.isEmpty { try? FileIO.makeDirectories(directory) }
    try? FileIO.writeAtomically(Array((lines.joined(separator: "\n") + "\n").utf8), to: file)
    return Choice(kernel: candidates[best], source: "measured", figures: figures)
  }

  static func format(_ ms: Double) -> String {
    let hundredths = Int((ms * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }

  /// Milliseconds per candidate: two 480×270 views of a 2048×1024 source (8 MB, past the
  /// per-core caches, as real panoramas are), four rounds after a warm-up with the
  /// candidates interleaved, the minimum of each. Tens of milliseconds in a release build,
  /// once per CPU model.
  static func measureRenders(_ candidates: [String]) -> [Double] {
    var pixels = [UInt32](repeating: 0, count: 2048 * 1024)
    var state: UInt32 = 2_463_534_242
    for k in pixels.indices {
      state ^= state << 13
      state ^= state >> 17
      state ^= state << 5
      pixels[k] = state | 0xFF00_0000
    }
    let source = RGBAImage(width: 2048, height: 1024, pixels: pixels)
    var renderer = PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 2048, height: 1024))
    var frame = RGBAImage(width: 480, height: 270)
    let views = [ViewAngles(yaw: 0.5, pitch: 0.1), ViewAngles(yaw: 2, pitch: 1.05)]
    var best = [Double](repeating: .infinity, count: candidates.count)
    for round in 0..<5 {
      for (k, name) in candidates.enumerated() {
        renderer.groupKernel = BlendKernels.named(name)
        let start = seconds()
        for view in views {
          renderer.renderPerspective(view: view, hfov: 1.6, into: &frame, executor: InlineRows())
        }
        let ms = (seconds() - start) * 1000
        if round > 0 { best[k] = min(best[k], ms) }  // the first round warms the caches
      }
    }
    return best
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
