import CoreMath
import Glibc
import HostIO
import Panorama
import TestSupport
import Testing

@testable import Raster

@Suite("Per-CPU kernels")
struct KernelTests {
  /// Random views, lenses, sizes, mip levels and polar caps through the Swift loop and every kernel this
  /// machine has: the pixels must be identical.
  @Test func everyKernelDrawsTheSwiftPixels() {
    var rng = SeededRandom(seed: 0x9E37_79B9_7F4A_7C15)
    func random() -> Double { Double.random(in: 0..<1, using: &rng) }
    let source = try! SamplePanorama.make(width: 1024)
    var plain = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 1024, height: 512))
    plain.buildsMipLevelsWhenMinified = false  // the kernels without levels, too
    var mipped = plain
    mipped.buildMipLevels(executor: InlineRows())
    var capped = mipped
    capped.buildPolarCaps(executor: InlineRows())
    print("kernels on this machine:", BlendKernels.available.map(\.name), "chosen:", BlendKernels.chosen()?.name ?? "swift")
    for kernel in BlendKernels.available {
      for trial in 0..<24 {
        let lens = Lens.allCases[trial % Lens.allCases.count]
        let view = ViewAngles(yaw: (random() - 0.5) * 20, pitch: (random() - 0.5) * 3.1, roll: (random() - 0.5) * 0.6)
        let hfov = 0.3 + random() * (min(lens.maximumFieldOfView, 5) - 0.3)
        let width = 37 + Int(random() * 300), height = 29 + Int(random() * 200)
        for base in [plain, mipped, capped] {
          var swift = base, fast = base
          fast.groupKernel = kernel
          var a = RGBAImage(width: width, height: height), b = a
          swift.renderPerspective(view: view, hfov: hfov, lens: lens, into: &a, executor: InlineRows())
          fast.renderPerspective(view: view, hfov: hfov, lens: lens, into: &b, executor: InlineRows())
          let differing = zip(a.pixels, b.pixels).filter { $0 != $1 }.count
          #expect(differing == 0, "\(kernel.name): \(differing) pixels differ, \(lens) \(view) hfov \(hfov) \(width)×\(height)")
        }
      }
    }
  }
}

extension KernelTests {
  /// The cube renderer's stepped blocks through every kernel: the Swift loop's pixels, for a
  /// cube with mip levels and a tile pyramid, level views and views crossing the faces' rows.
  @Test func everyKernelDrawsTheSwiftPixelsOfACube() throws {
    let source = try! SamplePanorama.make(width: 1024)
    var renderer = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 1024, height: 512))
    let cube = CubeMap.faces(from: &renderer, size: 256, executor: InlineRows()).withMipLevels()
    let layout = try #require(MultiresLayout(cubeResolution: 256, tileResolution: 64, maxLevel: 3))
    let tiled = TiledCube.cut(from: cube, layout: layout)
    let views = [
      (ViewAngles(yaw: 0.4, pitch: 0.1), 1.6, Lens.rectilinear), (ViewAngles(yaw: 2, pitch: 1.2, roll: 0.5), 2.1, .rectilinear),
      (ViewAngles(yaw: -0.7, pitch: -0.9), 3.2, .fisheye), (ViewAngles(yaw: 1.1, pitch: -1.5), 5, .stereographic),
    ]
    for kernel in BlendKernels.available {
      for (view, hfov, lens) in views {
        var a = RGBAImage(width: 333, height: 187), b = a, c = a, d = a
        cube.render(view: view, hfov: hfov, lens: lens, into: &a, executor: InlineRows())
        cube.render(view: view, hfov: hfov, lens: lens, into: &b, executor: InlineRows(), kernel: kernel)
        tiled.render(view: view, hfov: hfov, lens: lens, into: &c, executor: InlineRows())
        tiled.render(view: view, hfov: hfov, lens: lens, into: &d, executor: InlineRows(), kernel: kernel)
        #expect(
          a == b, "\(kernel.name), cube: \(zip(a.pixels, b.pixels).filter { $0 != $1 }.count) pixels differ, \(view) \(lens)")
        #expect(
          c == d, "\(kernel.name), tiled: \(zip(c.pixels, d.pixels).filter { $0 != $1 }.count) pixels differ, \(view) \(lens)")
      }
    }
  }
}

@Suite("Kernel wisdom")
struct KernelWisdomTests {
  func temporaryFile() -> String {
    "/tmp/imagestage-wisdom-\(getpid())-\(Int.random(in: 0..<1_000_000))/kernels.tsv"
  }

  @Test func theFastestIsChosenRememberedPerModelAndMeasuredAgainForANewCPU() throws {
    let file = temporaryFile()
    var measured = 0
    let fake: ([String]) -> [Double] = { names in
      measured += 1
      return names.map { $0 == "avx2" ? 1.5 : 2.0 }
    }
    let first = KernelWisdom.choose(model: "Xeon", candidates: ["swift", "avx2", "prefetch"], file: file, measure: fake)
    #expect(first == .init(kernel: "avx2", source: "measured", figures: "swift=2.00 avx2=1.50 prefetch=2.00"))
    let again = KernelWisdom.choose(model: "Xeon", candidates: ["swift", "avx2", "prefetch"], file: file, measure: fake)
    #expect(again.kernel == "avx2" && again.source == "remembered" && measured == 1)
    // Another CPU in the same home directory: measured, and both lines kept.
    let other = KernelWisdom.choose(model: "EPYC", candidates: ["swift", "prefetch"], file: file) { names in
      names.map { $0 == "prefetch" ? 1 : 3 }
    }
    #expect(other.kernel == "prefetch" && other.source == "measured")
    let text = String(decoding: try FileIO.read(file), as: UTF8.self)
    #expect(text.hasPrefix("Xeon\tavx2\t") && text.contains("\nEPYC\tprefetch\t"))
    // A remembered kernel this build no longer has is measured again.
    let without = KernelWisdom.choose(model: "Xeon", candidates: ["swift", "prefetch"], file: file, measure: fake)
    #expect(without.source == "measured" && measured == 2)
  }

  @Test func anUnwritableCacheCostsAMeasurementNotAFailure() {
    let choice = KernelWisdom.choose(model: "X", candidates: ["swift", "avx2"], file: "/proc/forbidden/kernels.tsv") {
      _ in [1, 2]
    }
    #expect(choice.kernel == "swift" && choice.source == "measured")
  }

  /// Issue 27: a measurement taken under load is not remembered; the vendor's kernel is used
  /// and the next run measures again.
  @Test func aBusyMeasurementKeepsTheVendorsKernelAndIsTriedAgain() throws {
    let file = temporaryFile()
    var measured = 0
    let busy = KernelWisdom.choose(model: "EPYC", candidates: ["swift", "avx2", "prefetch"], file: file, vendor: "prefetch") {
      _ in
      measured += 1
      return nil
    }
    #expect(busy.kernel == "prefetch" && busy.source == "vendor")
    #expect((try? FileIO.read(file)) == nil, "nothing remembered")
    let quiet = KernelWisdom.choose(model: "EPYC", candidates: ["swift", "avx2", "prefetch"], file: file) { names in
      measured += 1
      return names.map { $0 == "swift" ? 1 : 2 }
    }
    #expect(quiet.kernel == "swift" && quiet.source == "measured" && measured == 2)
  }

  /// A line measured the old way (two small renders, no `v2`) is measured again.
  @Test func anOldMeasurementIsMeasuredAgain() throws {
    let file = temporaryFile()
    let directory = String(file.dropLast("/kernels.tsv".count))
    try FileIO.makeDirectories(directory)
    try FileIO.writeAtomically(Array("EPYC\tavx2\tswift=2.00 avx2=1.50\n".utf8), to: file)
    let choice = KernelWisdom.choose(model: "EPYC", candidates: ["swift", "avx2", "prefetch"], file: file) { names in
      names.map { $0 == "prefetch" ? 3 : 4 }
    }
    #expect(choice.kernel == "prefetch" && choice.source == "measured")
    let text = String(decoding: try FileIO.read(file), as: UTF8.self)
    #expect(text == "EPYC\tprefetch\tswift=4.00 avx2=4.00 prefetch=3.00\tv2\n", "\(text)")
  }

  /// Issue 40: a kernel added since the line was measured (its figures do not time it) has
  /// not been weighed against the choice: the line is measured again, every kernel timed.
  @Test func aLineThatDidNotTimeANewKernelIsMeasuredAgain() throws {
    let file = temporaryFile()
    let directory = String(file.dropLast("/kernels.tsv".count))
    try FileIO.makeDirectories(directory)
    try FileIO.writeAtomically(Array("EPYC\tprefetch\tswift=2.00 avx2=4.00 prefetch=1.90\tv2\n".utf8), to: file)
    let names = ["swift", "avx2", "prefetch", "block8"]
    let choice = KernelWisdom.choose(model: "EPYC", candidates: names, file: file) { names in
      names.map { $0 == "block8" ? 1.5 : 2 }
    }
    #expect(choice.kernel == "block8" && choice.source == "measured")
    let again = KernelWisdom.choose(model: "EPYC", candidates: names, file: file) { _ in
      Issue.record("remembered, not measured")
      return nil
    }
    #expect(again.kernel == "block8" && again.source == "remembered")
  }

  /// A later timing that contradicts the remembered kernel by more than the spread a quiet
  /// machine shows replaces it; one within it leaves it.
  @Test func aContradictedChoiceIsReplaced() throws {
    let file = temporaryFile()
    let names = ["swift", "avx2", "prefetch"]
    _ = KernelWisdom.choose(model: "EPYC", candidates: names, file: file) { _ in [2, 1, 3] }
    let close = KernelWisdom.confirm(model: "EPYC", candidates: names, times: [1.95, 2.0, 2.1], file: file)
    #expect(close.kernel == "avx2" && close.source == "remembered")
    let contradicted = KernelWisdom.confirm(model: "EPYC", candidates: names, times: [4.0, 8.7, 3.0], file: file)
    #expect(contradicted.kernel == "prefetch" && contradicted.source == "re-measured")
    let next = KernelWisdom.choose(model: "EPYC", candidates: names, file: file) { _ in
      Issue.record("remembered, not measured")
      return nil
    }
    #expect(next.kernel == "prefetch" && next.source == "remembered")
  }

  /// The real measurement: every kernel this machine has renders, in finite time, or the
  /// machine is too busy to tell (the shared test machine often is).
  @Test func theMeasurementTimesEveryKernelThisMachineHas() {
    let names = ["swift"] + BlendKernels.available.map(\.name)
    if let times = KernelWisdom.measureRenders(names, sourceWidth: 1024, maxRounds: 8) {
      #expect(times.count == names.count)
      // Finite, not fast: a debug build's Swift loop under ASan on a loaded machine took 2.2 s.
      #expect(times.allSatisfy { $0 > 0 && $0 < 60_000 })
    }
    #expect(KernelWisdom.spread([2, 2.1, 2.05, 3]) < 0.1)
    #expect(KernelWisdom.spread([2, 3, 4]) > 0.1)
    // Noisy rounds still decide when one candidate's median beats every other's best.
    #expect(KernelWisdom.decisive([[3, 4.5, 5], [1, 1.4, 2], [1.6, 2, 2.2]]))
    #expect(!KernelWisdom.decisive([[3, 4.5, 5], [1, 1.7, 2], [1.6, 2, 2.2]]))
    #expect(KernelWisdom.lastLevelCacheBytes >= 1 << 20)
  }
}

extension KernelWisdomTests {
  @Test func theCPUIsNamedAsProcCpuinfoNamesIt() {
    #expect(KernelWisdom.cpuModel != "unknown CPU")
    #expect(!KernelWisdom.cpuModel.hasPrefix(" "))
  }

  /// A debug build's timings are not a release build's: each is remembered under its own key,
  /// and one does not answer for the other.
  @Test func aDebugMeasurementIsNotReusedByARelease() {
    #expect(KernelWisdom.cacheKey == KernelWisdom.cpuModel + " [debug]")  // the tests are a debug build
    let file = temporaryFile(), model = "Some CPU"
    var measured = 0
    func measure(_ c: [String]) -> [Double]? {
      measured += 1
      return c.map { $0 == "avx2" ? 1 : 2 }
    }
    _ = KernelWisdom.choose(model: model + " [debug]", candidates: ["swift", "avx2"], file: file, measure: measure)
    let release = KernelWisdom.choose(model: model + " [release]", candidates: ["swift", "avx2"], file: file, measure: measure)
    #expect(measured == 2 && release.source == "measured")
    let again = KernelWisdom.choose(model: model + " [debug]", candidates: ["swift", "avx2"], file: file, measure: measure)
    #expect(measured == 2 && again.source == "remembered")
  }
}
