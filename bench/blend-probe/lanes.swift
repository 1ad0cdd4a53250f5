// The renderer's four-pixel blend (`bilinearFour`, compiled from Sources/Panorama/
// BilinearFour.swift beside this file, so the two cannot drift) on a fixed access pattern: bilinear RGBA, 1920×1080 from 8192×4096 at 1.07
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
    UnsafeMutableRawPointer(out).storeBytes(of: bilinearFour(us, vs, src, w), as: SIMD4<UInt32>.self)
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
