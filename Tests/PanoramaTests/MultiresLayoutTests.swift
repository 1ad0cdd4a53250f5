import CoreMath
import Panorama
import Testing

/// Pannellum's multiresolution layout, against its own example (examples/multires: 4 levels of
/// 256-pixel tiles from 2048-pixel faces, 6 + 24 + 96 + 384 files).
@Suite("Multires layout")
struct MultiresLayoutTests {
  @Test func pannellumsExamplePyramid() throws {
    let layout = try #require(MultiresLayout(cubeResolution: 2048, tileResolution: 256, maxLevel: 4))
    #expect((1...4).map { layout.faceSize(level: $0) } == [256, 512, 1024, 2048])
    #expect((1...4).map { layout.tileCount(level: $0) } == [6, 24, 96, 384], "the example's files per level")
    #expect(MultiresLayout.path("/%l/%s%x%y", level: 2, face: 2, x: 0, y: 1) == "/2/b01")
    #expect(MultiresLayout.path("/%l/%s%y_%x", level: 3, face: 5, x: 3, y: 2) == "/3/d2_3", "generate.py's default")
    #expect(MultiresLayout.path("100%%/%q", level: 1, face: 0, x: 0, y: 0) == "100%/%q")
  }

  /// Our level count is generate.py's (utils/multires/generate.py: levels =
  /// ceil(log2(cube / tile)) + 1, one fewer when cube / 2^(levels − 2) is exactly the tile),
  /// for the sizes its users pick and odd ones.
  @Test func theLevelCountIsGeneratePys() {
    func generatePy(_ cube: Int, _ tile: Int) -> Int {
      let tile = min(tile, cube)
      var levels = Int((Elementary.log(Double(cube) / Double(tile)) / Elementary.log(2)).rounded(.up)) + 1
      if levels >= 2 && Int(Double(cube) / Double(1 << (levels - 2))) == tile { levels -= 1 }
      return levels
    }
    for cube in [256, 512, 1000, 1024, 1296, 2048, 3432, 4096, 5208, 8184, 10184, 20000] {
      for tile in [256, 384, 500, 512, 1024] where tile <= cube {
        #expect(
          MultiresLayout.levels(cubeResolution: cube, tileResolution: tile) == generatePy(cube, tile),
          "cube \(cube), tile \(tile)")
      }
    }
  }

  @Test func oddSizesHalveUpAndEdgeTilesAreSmaller() throws {
    let layout = try #require(MultiresLayout(cubeResolution: 1000, tileResolution: 256, maxLevel: 3))
    #expect((1...3).map { layout.faceSize(level: $0) } == [250, 500, 1000])
    #expect(layout.tilesPerSide(level: 3) == 4)
    #expect(layout.tileSize(level: 3, x: 3, y: 0) == (1000 - 768, 256))
    #expect(layout.tileSize(level: 1, x: 0, y: 0) == (250, 250))
  }

  @Test func theLevelMatchesTheScreen() throws {
    let layout = try #require(MultiresLayout(cubeResolution: 2048, tileResolution: 256, maxLevel: 4))
    let degree = 3.141592653589793 / 180
    // A 1000-pixel view 90° wide puts 1000 pixels across a face's 90°: level 3 (1024).
    #expect(layout.level(viewWidth: 1000, hfov: 90 * degree) == 3)
    #expect(layout.level(viewWidth: 200, hfov: 120 * degree) == 1, "wide and small: the coarsest")
    #expect(layout.level(viewWidth: 4000, hfov: 30 * degree) == 4, "past the finest: the finest")
  }

  @Test func numbersThatMakeNoPyramidAreRefused() {
    #expect(MultiresLayout(cubeResolution: 0, tileResolution: 256, maxLevel: 1) == nil)
    #expect(MultiresLayout(cubeResolution: 512, tileResolution: 0, maxLevel: 1) == nil)
    #expect(MultiresLayout(cubeResolution: 4, tileResolution: 1, maxLevel: 4) == nil, "4 → 2 → 1 → below a pixel")
    #expect(MultiresLayout(cubeResolution: 1 << 20, tileResolution: 1, maxLevel: 2) == nil, "a million tiles a side")
    #expect(MultiresLayout(cubeResolution: Int.max, tileResolution: 256, maxLevel: 64) == nil)
    #expect(MultiresLayout(cubeResolution: Int.max, tileResolution: 256, maxLevel: 2) == nil, "no overflow on the way")
  }
}
