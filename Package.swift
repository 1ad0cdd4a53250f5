// swift-tools-version:6.0
import PackageDescription

// Arrows point one way (docs/architecture.md): executables → scene layer (Scenes) → cores, and
// executables → adapters (HostIO, Raster, StageSDL), which import cores at most, never Scenes.
// The cores (CoreMath, Stage, Panorama, StageJSON) use no Foundation and no C, so they also
// build in Embedded Swift (`make embedded`).
let libm: [LinkerSetting] = [.linkedLibrary("m", .when(platforms: [.linux]))]

var products: [Product] = [
  .library(name: "Stage", targets: ["Stage"]),
  .library(name: "Panorama", targets: ["Panorama"]),
  .executable(name: "imagestage", targets: ["imagestage"]),
  .executable(name: "imagestage-app", targets: ["imagestage-app"]),
]
// Image files in and out (Sources/Raster/README.md), vended where its C libraries are
// packaged: Linux (Debian's -dev packages) and macOS (Homebrew). Elsewhere (Windows) naming
// the product fails at resolution, not at a missing header. The manifest is read on the
// host, so an iOS build from a Mac sees the product but has no iOS build of the libraries.
// A package that uses only Stage or Panorama needs none of them.
#if os(Linux) || os(macOS)
  products.append(.library(name: "Raster", targets: ["Raster"]))
#endif

let package = Package(
  name: "ImageStage",
  products: products,
  targets: [
    // Cores
    .target(name: "CoreMath", exclude: ["README.md"], linkerSettings: libm),
    .target(name: "Stage", dependencies: ["CoreMath"], exclude: ["README.md"], linkerSettings: libm),
    // Built for x86-64-v2 by the Makefile and bench scripts (scripts/cpu-flags), not here:
    // SwiftPM refuses unsafe flags in a package used as a dependency.
    .target(name: "Panorama", dependencies: ["CoreMath"], exclude: ["README.md"], linkerSettings: libm),
    // The scene layer: the three scenes as values, for every host (SDL app, web page). A target,
    // not a product: the app's and the page's insides (docs/api.md).
    // Scenarios, saved states and event lines as JSON: pure Swift, so the page writes the same lines.
    .target(name: "StageJSON", dependencies: ["CoreMath", "Stage"], exclude: ["README.md"]),
    .target(
      name: "Scenes", dependencies: ["CoreMath", "Stage", "Panorama", "StageJSON"], exclude: ["README.md"], linkerSettings: libm),
    // C libraries from Debian, through thin module maps. No pkgConfig: a systemLibrary's
    // pkg-config look-up runs whenever the package is built, even from an outside package that
    // uses only Stage or Panorama, and warns for every library that is absent. On Debian the
    // .pc files add nothing beyond the compiler's default paths (libav*'s
    // -I/usr/include/x86_64-linux-gnu is one of them); the module maps name the libraries to
    // link. Packages: libturbojpeg0-dev, libspng-dev, zlib1g-dev, libavformat-dev,
    // libavcodec-dev, libavutil-dev (make deps-build).
    .systemLibrary(name: "CTurboJPEG"),
    .systemLibrary(name: "CSpng"),
    // zlib for the PNG encoder's bands (deflated in parallel, libspng decodes).
    .systemLibrary(name: "CZlib"),
    // FFmpeg 5.1's demuxers and decoders for 360° video (VideoDecoder in Raster).
    .systemLibrary(name: "CFFmpeg"),
    // No pkgConfig: sdl2.pc's only flag beyond the default include path is -D_REENTRANT, which
    // SwiftPM refuses with a warning on every build; the shim includes <SDL2/SDL.h> itself.
    .systemLibrary(name: "CSDL2", providers: [.apt(["libsdl2-dev", "libsdl2-ttf-dev"])]),
    // ISA-specific kernels in C (AVX2), chosen at run time by Raster.BlendKernels
    .target(name: "CKernels"),
    // libjpeg's scanline decoder behind a setjmp boundary: the tiler streams rows of big JPEGs.
    .target(name: "CJPEGRows", linkerSettings: [.linkedLibrary("jpeg")]),
    // Adapters
    .target(
      name: "Raster", dependencies: ["Panorama", "HostIO", "CTurboJPEG", "CSpng", "CZlib", "CKernels", "CJPEGRows", "CFFmpeg"],
      exclude: ["README.md"]),
    .target(name: "StageSDL", dependencies: ["CSDL2"], exclude: ["README.md"]),
    // Files (atomic writes), the console and argument parsing for the executables.
    .target(name: "HostIO", exclude: ["README.md"]),
    // Executables
    .executableTarget(name: "imagestage", dependencies: ["Stage", "HostIO", "StageJSON", "Panorama", "Scenes", "Raster"]),
    .executableTarget(
      name: "imagestage-app",
      dependencies: ["Stage", "HostIO", "StageJSON", "Panorama", "Scenes", "Raster", "StageSDL", "CoreMath"]),
    // Benchmarks (bench/*.sh run them in release mode)
    .executableTarget(name: "stage-bench", dependencies: ["Stage"]),
    .executableTarget(
      name: "pano-bench", dependencies: ["Panorama", "Raster", "HostIO", "StageJSON", "CoreMath", "CKernels"]),
    // Tests, and the helpers more than one of them uses (not a product)
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(name: "CoreMathTests", dependencies: ["CoreMath"]),
    .testTarget(name: "StageTests", dependencies: ["Stage", "TestSupport"]),
    .testTarget(name: "ScenesTests", dependencies: ["Scenes", "Stage", "Panorama", "TestSupport"]),
    .testTarget(name: "PanoramaTests", dependencies: ["Panorama", "CoreMath", "TestSupport"], resources: [.copy("Data")]),
    .testTarget(name: "RasterTests", dependencies: ["Raster", "Panorama", "CoreMath", "HostIO", "TestSupport"]),
    .testTarget(name: "StageJSONTests", dependencies: ["StageJSON"]),
    .testTarget(name: "HostIOTests", dependencies: ["HostIO"]),
    .testTarget(name: "ToolTests", dependencies: ["HostIO", "StageJSON", "Stage", "Raster", "Panorama", "TestSupport"]),
    // MacTypes.h's Point, Rect and Size, as a C module: the README examples compile beside it.
    .target(name: "CMacTypes", path: "Tests/CMacTypes"),
    // Every Swift example of the module READMEs and DocC articles, run and checked, and a test
    // that the documents show exactly these (scripts/readme-examples copies them across).
    .testTarget(
      name: "ReadmeExampleTests",
      dependencies: ["CMacTypes", "CoreMath", "Stage", "Panorama", "Scenes", "StageJSON", "HostIO", "Raster"]),
  ],
  swiftLanguageModes: [.v6]
)
