import CKernels
import Panorama

#if canImport(Glibc)
  import Glibc
#endif

/// The video renderer's inner loop per CPU (`YUVRenderer.kernel`): `avx2` (gathers, where
/// the CPU has AVX2) or the portable Swift loop. `IMAGESTAGE_YUV_KERNEL` chooses: `swift`,
/// `avx2`, or unset/`auto`: AVX2 where the CPU has it. Measured by bench/reframe.sh.
public enum YUVKernels {
  /// The AVX2 kernel, when this CPU has AVX2.
  public static var avx2: YUVKernel? {
    imagestage_cpu_has_avx2() != 0 ? YUVKernel(name: "avx2", pair: imagestage_yuv_pair_avx2) : nil
  }

  /// The same arithmetic one pixel at a time in C (the vector loop's tail), for the tests.
  public static var scalar: YUVKernel { YUVKernel(name: "scalar", pair: imagestage_yuv_pair_scalar) }

  /// Every C kernel this machine runs (for tests and benchmarks).
  public static var available: [YUVKernel] { [avx2].compactMap { $0 } + [scalar] }

  /// The kernel to use (`nil`: the Swift loop), from `IMAGESTAGE_YUV_KERNEL`.
  public static func chosen() -> YUVKernel? {
    let setting = getenv("IMAGESTAGE_YUV_KERNEL").map { String(cString: $0) } ?? "auto"
    switch setting {
    case "swift": return nil
    case "scalar": return scalar
    default: return avx2
    }
  }
}
