// The renderer's four-pixel blend (PanoramaRenderer.BlockContext.blendFour, copied so it
// runs alone on a fixed access pattern): bilinear RGBA, 1920×1080 from 8192×4096 at 1.07
// source px per pixel with a slight rotation, 64-pixel row segments, 16.16 coordinates, one
// thread. Prints the best of 10 frames in ms and a hash of the frame; gather.c does the same
// with AVX2 gathers and must print the same hash. Run by bench/blend-probe.sh.
#if canImport(Glibc)
  import Glibc
#endif
let W = 8192, H = 4096
var src = [UInt32](repeating: 0, count: W * H)
var seed: UInt32 = 1
for i in 0..<src.count { seed = seed &* 1664525 &+ 1013904223; src[i] = seed }
let ow = 1920, oh = 1080
var out = [UInt32](repeating: 0, count: ow * oh)

@inline(never)
func segment(
  _ src: UnsafePointer<UInt32>, _ w: Int, _ out: UnsafeMutablePointer<UInt32>, _ n: Int,
  _ u0: UInt32, _ du: UInt32, _ v0: UInt32, _ dv: UInt32
) {
  var us = SIMD4<UInt32>(u0, u0 &+ du, u0 &+ 2 &* du, u0 &+ 3 &* du)
  var vs = SIMD4<UInt32>(v0, v0 &+ dv, v0 &+ 2 &* dv, v0 &+ 3 &* dv)
  let ustep = SIMD4<UInt32>(repeating: 4 &* du), vstep = SIMD4<UInt32>(repeating: 4 &* dv)
  var out = out
  for _ in 0..<(n / 4) {
    let fx = (us &>> 8) & 255, fy = (vs &>> 8) & 255
    let xi = us &>> 16, yi = vs &>> 16
    let index = yi &* UInt32(truncatingIfNeeded: w) &+ xi
    let p0 = src + Int(index[0]), p1 = src + Int(index[1]), p2 = src + Int(index[2]), p3 = src + Int(index[3])
    let t00 = SIMD4<UInt32>(p0[0], p1[0], p2[0], p3[0])
    let t01 = SIMD4<UInt32>(p0[1], p1[1], p2[1], p3[1])
    let t10 = SIMD4<UInt32>(p0[w], p1[w], p2[w], p3[w])
    let t11 = SIMD4<UInt32>(p0[w &+ 1], p1[w &+ 1], p2[w &+ 1], p3[w &+ 1])
    @inline(__always) func halves(_ w: SIMD4<UInt32>) -> SIMD8<UInt16> { unsafeBitCast(w | w &<< 16, to: SIMD8<UInt16>.self) }
    let fx2 = halves(fx), fy2 = halves(fy)
    let w11 = (fx2 &* fy2 &+ 128) &>> 8
    let w01 = fx2 &- w11, w10 = fy2 &- w11
    let w00 = SIMD8<UInt16>(repeating: 256) &- fx2 &- fy2 &+ w11
    let mask = SIMD4<UInt32>(repeating: 0x00FF_00FF)
    @inline(__always) func weighted(_ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ c: SIMD4<UInt32>, _ d: SIMD4<UInt32>) -> SIMD8<
      UInt16
    > {
      func ch(_ t: SIMD4<UInt32>) -> SIMD8<UInt16> { unsafeBitCast(t & mask, to: SIMD8<UInt16>.self) }
      return ch(a) &* w00 &+ ch(b) &* w01 &+ ch(c) &* w10 &+ ch(d) &* w11 &+ SIMD8(repeating: 128)
    }
    let rb = unsafeBitCast(weighted(t00, t01, t10, t11) &>> 8, to: SIMD4<UInt32>.self)
    let ga = unsafeBitCast(
      weighted(t00 &>> 8, t01 &>> 8, t10 &>> 8, t11 &>> 8) & SIMD8<UInt16>(repeating: 0xFF00), to: SIMD4<UInt32>.self)
    UnsafeMutableRawPointer(out).storeBytes(of: rb | ga, as: SIMD4<UInt32>.self)
    out += 4
    us &+= ustep
    vs &+= vstep
  }
}

func now() -> Double {
  var ts = timespec(); clock_gettime(CLOCK_MONOTONIC, &ts); return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
var best = 1e9
for _ in 0..<10 {
  let t = now()
  src.withUnsafeBufferPointer { s in
    out.withUnsafeMutableBufferPointer { o in
      for y in 0..<oh {
        for bx in stride(from: 0, to: ow, by: 64) {
          // a mild rotation: u moves 1.07 px per pixel, v 0.01
          let u0 = UInt32((3000.0 + Double(bx) * 1.07 + Double(y) * 0.02) * 65536)
          let v0 = UInt32((1200.0 + Double(y) * 1.05 + Double(bx) * 0.01) * 65536)
          segment(
            s.baseAddress!, W, o.baseAddress! + y * ow + bx, min(64, ow - bx), u0, UInt32(1.07 * 65536), v0, UInt32(0.01 * 65536))
        }
      }
    }
  }
  best = min(best, now() - t)
}
var h: UInt32 = 0
for p in out { h = h &* 31 &+ p }
print("ms \(best * 1000) hash \(h)")
