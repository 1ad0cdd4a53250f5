import CoreMath

extension PanoramaRenderer.BlockContext {
  /// A biquadratic patch through a block's 3×3 nodes (edges and middles), stepped in 32.32
  /// fixed point. Along a row the value is `a + b·x + c·x²`; `a`, `b` and `c` are quadratics
  /// in the row, each stepped by forward differences (value, difference, second difference).
  /// Bilinear patches were 10× further off near the poles and at wide angles.
  struct BlockStepper {
    var a: Quadratic, b: Quadratic, c: Quadratic

    struct Quadratic {
      // Int64, not Int: Int is 32 bits on wasm32, where 32.32 would overflow at once.
      var value: Int64, difference: Int64
      let secondDifference: Int64

      /// Through `q0`, `q1`, `q2` at 0, n/2 and n, in steps of 1.
      init(_ q0: Double, _ q1: Double, _ q2: Double, over n: Int) {
        let one = 4_294_967_296.0, span = Double(max(n, 1))
        let square = 2 * (q0 - 2 * q1 + q2) / (span * span), linear = (4 * q1 - 3 * q0 - q2) / span
        value = Int64(q0 * one)
        difference = Int64((linear + square) * one)
        secondDifference = Int64(2 * square * one)
      }

      mutating func step() {
        value &+= difference
        difference &+= secondDifference
      }

      /// The value `n` steps on, as `n` calls of `step()` would leave it.
      func after(_ n: Int) -> Int64 {
        let n = Int64(n)
        return value &+ difference &* n &+ secondDifference &* (n &* (n &- 1) / 2)
      }
    }

    /// `nodes`: nine values, row by row, at x = 0, width/2, width and y = 0, height/2, height.
    init(_ nodes: SIMD16<Double>, width: Int, height: Int) {
      let w = Double(max(width, 1))
      var rowA = SIMD4<Double>(), rowB = rowA, rowC = rowA
      for j in 0..<3 {
        let f0 = nodes[3 * j], f1 = nodes[3 * j + 1], f2 = nodes[3 * j + 2]
        rowA[j] = f0
        rowB[j] = (4 * f1 - 3 * f0 - f2) / w
        rowC[j] = 2 * (f0 - 2 * f1 + f2) / (w * w)
      }
      a = Quadratic(rowA[0], rowA[1], rowA[2], over: height)
      b = Quadratic(rowB[0], rowB[1], rowB[2], over: height)
      c = Quadratic(rowC[0], rowC[1], rowC[2], over: height)
    }

    /// a, b and c, each as value, difference and second difference: what a whole-block
    /// kernel steps (`GroupKernel.BlockFunction`).
    func quadratics() -> (Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64) {
      (
        a.value, a.difference, a.secondDifference, b.value, b.difference, b.secondDifference, c.value, c.difference,
        c.secondDifference
      )
    }

    /// How far the patch can stray beyond its nodes: a bound from its second differences.
    static func bulge(_ nodes: SIMD16<Double>) -> Double {
      var most = 0.0
      for k in 0..<3 {
        most = max(most, abs(nodes[3 * k] - 2 * nodes[3 * k + 1] + nodes[3 * k + 2]))
        most = max(most, abs(nodes[k] - 2 * nodes[k + 3] + nodes[k + 6]))
      }
      return 2 * most
    }

    mutating func nextRow() {
      a.step()
      b.step()
      c.step()
    }

    /// The 16.16 value at column `x` of the current row.
    func at(_ x: Int) -> Int { Int(truncatingIfNeeded: wide(x)) }

    /// `at`, 64 bits wide everywhere (Int is 32 bits on wasm32).
    @inline(__always) func wide(_ x: Int) -> Int64 {
      let x = Int64(x)
      return (a.value &+ b.value &* x &+ c.value &* x &* x) >> 16
    }

    /// The 16.16 values at columns `first` to `first` + 3 of the current row.
    func lanes(from first: Int = 0) -> SIMD4<UInt32> {
      func lane(_ k: Int) -> UInt32 { UInt32(truncatingIfNeeded: at(first &+ k)) }
      return SIMD4(lane(0), lane(1), lane(2), lane(3))
    }

    /// How far each lane moves over four columns from columns `first` + k (k in 0–3):
    /// 4b + c·(8(`first` + k) + 16).
    func laneSteps(from first: Int = 0) -> SIMD4<UInt32> {
      func lane(_ k: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: (4 &* b.value &+ c.value &* Int64(8 &* (first &+ k) &+ 16)) >> 16)
      }
      return SIMD4(lane(0), lane(1), lane(2), lane(3))
    }

    /// How much `laneSteps` grows every four columns: 32c.
    func laneBend() -> SIMD4<UInt32> { SIMD4(repeating: UInt32(truncatingIfNeeded: (32 &* c.value) >> 16)) }

    /// The 16.16 value at `column`, `row` as the render loop reaches it: through four-pixel
    /// groups when `grouped`, else pixel by pixel.
    func value(column: Int, row: Int, grouped: Bool) -> Int {
      var moved = self
      moved.a.value = a.after(row)
      moved.b.value = b.after(row)
      moved.c.value = c.after(row)
      guard grouped else { return moved.at(column) }
      let k = column & 3, g = column >> 2
      let start = Int(moved.lanes()[k]), step = Int(moved.laneSteps()[k]), bend = Int(moved.laneBend()[k])
      return Int(UInt32(truncatingIfNeeded: start &+ step &* g &+ bend &* (g &* (g &- 1) / 2)))
    }
  }
}
