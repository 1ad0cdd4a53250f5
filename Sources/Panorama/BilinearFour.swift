// The renderer's inner loop, alone in a file with no dependencies: bench/blend-probe.sh
// compiles the probe against this file, so the probe measures exactly what renders.

/// Four bilinear samples along a row, all known to lie inside the source, at 16.16
/// coordinates in 32-bit lanes (inside blocks they are positive and below 2^32).
@inline(__always) func bilinearFour(
  _ us: SIMD4<UInt32>, _ vs: SIMD4<UInt32>, _ src: UnsafePointer<UInt32>, _ w: Int
) -> SIMD4<UInt32> {
  let fx = (us &>> 8) & 255, fy = (vs &>> 8) & 255
  let xi = us &>> 16, yi = vs &>> 16
  // Built from explicit loads: a loop writing lanes one by one goes through the stack.
  let index = yi &* UInt32(truncatingIfNeeded: w) &+ xi
  let p0 = src + Int(index[0]), p1 = src + Int(index[1]), p2 = src + Int(index[2]), p3 = src + Int(index[3])
  let t00 = SIMD4<UInt32>(p0[0], p1[0], p2[0], p3[0])
  let t01 = SIMD4<UInt32>(p0[1], p1[1], p2[1], p3[1])
  let t10 = SIMD4<UInt32>(p0[w], p1[w], p2[w], p3[w])
  let t11 = SIMD4<UInt32>(p0[w &+ 1], p1[w &+ 1], p2[w &+ 1], p3[w &+ 1])
  // Two channels per 32-bit lane (red and blue, then green and alpha), each in its own
  // 16-bit half, weighted by the four bilinear weights at once. The weights sum to 256, so
  // a channel's sum is at most 255 × 256 + 128: 16-bit multiplies (one cheap instruction,
  // where a 32-bit one is two slow ones on many x86 cores) never carry.
  @inline(__always) func halves(_ w: SIMD4<UInt32>) -> SIMD8<UInt16> {
    unsafeBitCast(w | w &<< 16, to: SIMD8<UInt16>.self)
  }
  let fx2 = halves(fx), fy2 = halves(fy)
  let w11 = (fx2 &* fy2 &+ 128) &>> 8
  let w01 = fx2 &- w11, w10 = fy2 &- w11
  let w00 = SIMD8<UInt16>(repeating: 256) &- fx2 &- fy2 &+ w11
  let mask = SIMD4<UInt32>(repeating: 0x00FF_00FF)
  @inline(__always) func weighted(
    _ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ c: SIMD4<UInt32>, _ d: SIMD4<UInt32>
  ) -> SIMD8<UInt16> {
    func channels(_ t: SIMD4<UInt32>) -> SIMD8<UInt16> { unsafeBitCast(t & mask, to: SIMD8<UInt16>.self) }
    return channels(a) &* w00 &+ channels(b) &* w01 &+ channels(c) &* w10 &+ channels(d) &* w11
      &+ SIMD8(repeating: 128)
  }
  let rb = unsafeBitCast(weighted(t00, t01, t10, t11) &>> 8, to: SIMD4<UInt32>.self)
  let ga16 = weighted(t00 &>> 8, t01 &>> 8, t10 &>> 8, t11 &>> 8) & SIMD8<UInt16>(repeating: 0xFF00)
  let ga = unsafeBitCast(ga16, to: SIMD4<UInt32>.self)
  return rb | ga
}
