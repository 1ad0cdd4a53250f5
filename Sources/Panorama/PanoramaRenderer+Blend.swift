import CoreMath

extension PanoramaRenderer.BlockContext {
  func render(_ block: Block, _ px: SharedPixels) {
    guard let patch = block.patch else {
      subdivide(block.xs, block.ys, px)
      return
    }
    draw(patch, block, px, mixing: 0)
    if let upper = block.upper { draw(upper, block, px, mixing: block.upperWeight) }
  }

  /// Draws `patch` over the block's pixels, or with `mixing` > 0 blends it into what is
  /// there by `mixing` / 256.
  @inline(__always) func draw(_ patch: Patch, _ block: Block, _ px: SharedPixels, mixing: UInt32) {
    // The block's mapping is stepped in 32.32 fixed point: a row costs a few integer adds
    // and a pixel none (interpolating in doubles per row cost a fifth of the frame).
    var uRows = patch.u, vRows = patch.v
    let size = patch.plane == 0 ? levels[patch.level] : capLevels[patch.level]
    let plane = patch.plane == 0 ? (patch.level == 0 ? px.source : px.mips) : patch.plane == 1 ? px.north : px.south
    let source = plane + size.offset
    let x0 = block.xs.lowerBound
    let pixels = block.xs.count
    let groups = patch.inside ? pixels >> 2 : 0
    // The host's kernel, unless it only pays where rows scatter and these do not (judged at
    // the block's first row: a block is small enough to be one or the other). A whole-block
    // kernel takes blocks whose rows read in order; scattered ones go row by row to its
    // `groups` (which prefetches).
    var kernel = self.kernel
    var scattered = false
    if let k = kernel, k.scatteredRowsOnly || k.blocks != nil {
      let steps = (uRows.laneSteps()[0], vRows.laneSteps()[0])
      scattered = GroupKernel.scatters(across: Int32(bitPattern: steps.0), down: Int32(bitPattern: steps.1))
      if k.scatteredRowsOnly && !scattered { kernel = nil }
    }
    #if !hasFeature(Embedded)
      // Native hosts only: wasm has no C kernels, and the branch took its module over budget.
      if groups > 0, groups << 2 == pixels, !scattered, let blocks = kernel?.blocks {
        // The whole block in one call, its rows stepped there exactly as below.
        var steppers = (uRows.quadratics(), vRows.quadratics())
        withUnsafeBytes(of: &steppers) { raw in
          blocks(
            source, Int64(size.width), px.base + (block.ys.lowerBound &* width &+ x0), Int64(width),
            Int64(block.ys.count), Int64(groups), raw.baseAddress!.assumingMemoryBound(to: Int64.self), mixing)
        }
        return
      }
    #endif
    for y in block.ys {
      var out = px.base + (y &* width &+ x0)
      if groups > 0, let kernel {
        var lanes = (uRows.lanes(), vRows.lanes(), uRows.laneSteps(), vRows.laneSteps(), uRows.laneBend(), vRows.laneBend())
        withUnsafeBytes(of: &lanes) { raw in
          let stride = MemoryLayout<SIMD4<UInt32>>.stride
          func lane(_ k: Int) -> UnsafePointer<UInt32> { (raw.baseAddress! + k * stride).assumingMemoryBound(to: UInt32.self) }
          kernel.groups(
            source, Int64(size.width), out, Int64(groups), lane(0), lane(1), lane(2), lane(3), lane(4), lane(5), mixing)
        }
        out += groups << 2
      } else if groups > 0 {
        var us = uRows.lanes(), vs = vRows.lanes()
        var uStep = uRows.laneSteps(), vStep = vRows.laneSteps()
        let uBend = uRows.laneBend(), vBend = vRows.laneBend()
        for _ in 0..<groups {
          let four = bilinearFour(us, vs, source, size.width)
          let raw = UnsafeMutableRawPointer(out)
          if mixing == 0 {
            raw.storeBytes(of: four, as: SIMD4<UInt32>.self)
          } else {
            raw.storeBytes(of: Self.mix(raw.loadUnaligned(as: SIMD4<UInt32>.self), four, mixing), as: SIMD4<UInt32>.self)
          }
          out += 4
          us &+= uStep
          vs &+= vStep
          uStep &+= uBend
          vStep &+= vBend
        }
      }
      for x in (groups << 2)..<pixels {
        let value = sample(uRows.at(x), vRows.at(x), source, size.width, size.height)
        out.pointee = mixing == 0 ? value : lerp(out.pointee, value, mixing)
        out += 1
      }
      uRows.nextRow()
      vRows.nextRow()
    }
  }

  /// `a` blended towards `b` by `f` / 256, four pixels at once (as `lerp`).
  @inline(__always) static func mix(_ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ f: UInt32) -> SIMD4<UInt32> {
    let mask = SIMD4<UInt32>(repeating: 0x00FF_00FF)
    let g = SIMD4<UInt32>(repeating: 256 - f), h = SIMD4<UInt32>(repeating: f)
    let rb = ((a & mask) &* g &+ (b & mask) &* h) &>> 8 & mask
    let ga = (((a &>> 8) & mask) &* g &+ ((b &>> 8) & mask) &* h) & ~mask
    return rb | ga
  }

  /// Whether the source's top row is the north pole (360° around and reaching it): there a
  /// view above it clamps to that row. Anywhere else the rows beyond the source are
  /// background: a 360°-wide panorama that stops short of the poles drew its edge rows
  /// smeared over the sky and the ground.
  var clampsAbove: Bool { wraps && renderer.geometry.croppedTop <= 0.5 }
  /// Whether the source's bottom row is the south pole (as `clampsAbove`).
  var clampsBelow: Bool {
    wraps && renderer.geometry.croppedTop + renderer.geometry.croppedHeight >= renderer.geometry.fullHeight - 0.5
  }
}

/// Blends two RGBA pixels: `a` at f = 0, `b` at f = 256, two channels per multiply.
@inline(__always) func lerp(_ a: UInt32, _ b: UInt32, _ f: UInt32) -> UInt32 {
  let g = 256 &- f
  let rb = (((a & 0x00FF_00FF) &* g &+ (b & 0x00FF_00FF) &* f) >> 8) & 0x00FF_00FF
  let ga = (((a >> 8) & 0x00FF_00FF) &* g &+ ((b >> 8) & 0x00FF_00FF) &* f) & 0xFF00_FF00
  return rb | ga
}
