import CoreMath

extension CubeRendering {
  /// A block's corner rays and where it lies: what the per-pixel path interpolates between.
  struct Corners {
    let r00: Ray, r10: Ray, r01: Ray, r11: Ray
    let i0: Int, j0: Int
    let spanX: Double, spanY: Double
  }

  /// What a band draws with: the cube, the camera and the output.
  struct SteppedBlocks<T: CubeTexels> {
    let cube: T
    let width: Int, height: Int, focal: Double, lens: Lens
    let yaw: (Double, Double), pitch: (Double, Double), roll: (Double, Double)
    let kernel: GroupKernel?
    let out: UnsafeMutablePointer<UInt32>

    typealias Stepper = PanoramaRenderer.BlockContext.BlockStepper

    /// How far (texels) a stepped patch may stray from the exact face point between its nodes.
    static var tolerance: Double { 0.01 }

    /// Why pixels could not be stepped from one rectangle of rows: a tile edge down the
    /// picture (the texels straddle columns), one across it (rows), or anything else (a face
    /// edge, a bend, a coarser cover).
    enum Miss { case none, columns, rows, both }

    /// Pixels `xs` × `ys` of a block stepped if they can be, else cut where they miss (across a
    /// tile edge only, or into quarters) and tried again, down to 4×4 pixels (or one row),
    /// else cast ray by ray. Pieces of 64 pixels or less inside one face are stepped with
    /// each tap's texel looked up where no one tile holds them: a tile edge is a line.
    func piece(level: Int, size: Int, xs: Range<Int>, ys: Range<Int>, corners: Corners) {
      let miss = attempt(level: level, size: size, xs: xs, ys: ys, anyTile: xs.count * ys.count <= 64)
      if miss != .none { split(level: level, size: size, xs: xs, ys: ys, corners: corners, miss: miss) }
    }

    /// `piece` for the parts of pixels `xs` × `ys` (already found not to step as a whole, for
    /// `miss`).
    func split(level: Int, size: Int, xs: Range<Int>, ys: Range<Int>, corners: Corners, miss: Miss = .both) {
      // Halves a multiple of four pixels wide where they can be: whole four-pixel groups.
      let cutX = xs.count > 4 && miss != .rows, cutY = miss == .rows ? ys.count > 1 : ys.count > 4 && miss != .columns
      guard cutX || cutY else {
        rays(level: level, size: size, xs: xs, ys: ys, corners: corners)
        return
      }
      let midX = cutX ? xs.lowerBound + max(xs.count / 2 / 4 * 4, 4) : xs.upperBound
      let midY = cutY ? ys.lowerBound + ys.count / 2 : ys.upperBound
      for y in [ys.lowerBound..<midY, midY..<ys.upperBound] where !y.isEmpty {
        for x in [xs.lowerBound..<midX, midX..<xs.upperBound] where !x.isEmpty {
          piece(level: level, size: size, xs: x, ys: y, corners: corners)
        }
      }
    }

    /// The reference: each pixel's ray between the block's corner rays, met with its face.
    func rays(level: Int, size: Int, xs: Range<Int>, ys: Range<Int>, corners c: Corners) {
      let s = Double(size)
      for j in ys {
        let fy = (Double(j - c.j0) + 0.5) / c.spanY
        let left = (
          x: c.r00.x + (c.r01.x - c.r00.x) * fy, y: c.r00.y + (c.r01.y - c.r00.y) * fy,
          z: c.r00.z + (c.r01.z - c.r00.z) * fy
        )
        let right = (
          x: c.r10.x + (c.r11.x - c.r10.x) * fy, y: c.r10.y + (c.r11.y - c.r10.y) * fy,
          z: c.r10.z + (c.r11.z - c.r10.z) * fy
        )
        let step = (x: (right.x - left.x) / c.spanX, y: (right.y - left.y) / c.spanX, z: (right.z - left.z) / c.spanX)
        let first = Double(xs.lowerBound - c.i0) + 0.5
        var d = (x: left.x + step.x * first, y: left.y + step.y * first, z: left.z + step.z * first)
        let row = out + j * width
        for i in xs {
          let (face, u, v) = locate(d)
          row[i] = bilinear(cube, level, face, u * s, v * s, size)
          d = (x: d.x + step.x, y: d.y + step.y, z: d.z + step.z)
        }
      }
    }

    /// Draws pixels `xs` × `ys` stepped, as the equirectangular renderer draws a block, when
    /// every texel they read lies in one rectangle of rows in memory (one face, or one tile);
    /// false, drawing nothing, otherwise.
    func step(level: Int, size: Int, xs: Range<Int>, ys: Range<Int>) -> Bool {
      attempt(level: level, size: size, xs: xs, ys: ys, anyTile: false) == .none
    }

    /// `step`, saying why it drew nothing; with `anyTile`, pixels inside one face but not one
    /// tile are stepped with their taps looked up (`lookUp`).
    func attempt(level: Int, size: Int, xs: Range<Int>, ys: Range<Int>, anyTile: Bool) -> Miss {
      let w = xs.count, h = ys.count, s = Double(size)
      // The pixel centres at 0, w/2 and w across and 0, h/2, h down (the stepper's nodes).
      // (fx, fy): 0 to 1 across and down, the nodes at 0, ½ and 1.
      @inline(__always) func ray(_ fx: Double, _ fy: Double) -> Ray {
        CubeMap.ray(
          x: Double(xs.lowerBound) + fx * Double(w) + 0.5, y: Double(ys.lowerBound) + fy * Double(h) + 0.5,
          width: width, height: height, focal: focal, lens: lens, yaw: yaw, pitch: pitch, roll: roll)
      }
      let face = locate(ray(0.5, 0.5)).face
      var u = SIMD16<Double>(), v = u
      for j in 0..<3 {
        for i in 0..<3 {
          guard let p = onFace(ray(Double(i) / 2, Double(j) / 2), face, s) else { return .both }
          u[3 * j + i] = p.0 - 0.5
          v[3 * j + i] = p.1 - 0.5
        }
      }
      // The patch checked against the exact face point at two points between the nodes (a
      // quarter and three quarters across and down): where the view bends the face too much
      // for a biquadratic (very wide views, fisheyes near their rim), smaller pieces are tried.
      for (f, weights) in [(0.25, SIMD3<Double>(0.375, 0.75, -0.125)), (0.75, SIMD3<Double>(-0.125, 0.75, 0.375))] {
        guard let exact = onFace(ray(f, f), face, s) else { return .both }
        var pu = 0.0, pv = 0.0
        for j in 0..<3 {
          for i in 0..<3 {
            pu += weights[i] * weights[j] * u[3 * j + i]
            pv += weights[i] * weights[j] * v[3 * j + i]
          }
        }
        guard abs(pu - (exact.0 - 0.5)) < Self.tolerance, abs(pv - (exact.1 - 0.5)) < Self.tolerance else { return .both }
      }
      for k in 9..<16 {
        u[k] = u[0]
        v[k] = v[0]
      }
      let cx = min(max(Int(u[4]), 0), size - 1), cy = min(max(Int(v[4]), 0), size - 1)
      var miss = Miss.both
      _ = cube.withRows(level: level, face: face, x: cx, y: cy) { rows in
        let pu = u - SIMD16(repeating: Double(rows.x0)), pv = v - SIMD16(repeating: Double(rows.y0))
        // Between nodes the patch can bulge past them, by less than its second differences
        // (plus a quarter texel for the fixed point's rounding: a sample's texel and the
        // one right of and below it must be inside). A margin of a whole texel, as the
        // equirectangular blocks have, sent three times the pixels along tile edges ray by ray.
        let margin = 0.25 + Stepper.bulge(pu) + Stepper.bulge(pv)
        let columns = pu.min() - margin >= 0 && pu.max() + margin < Double(rows.width - 1)
        let lines = pv.min() - margin >= 0 && pv.max() + margin < Double(rows.height - 1)
        guard columns, lines, rows.stride < 1 << 16, Int64(rows.stride) &* Int64(rows.height) < 1 << 32 else {
          miss = columns == lines ? .both : columns ? .rows : .columns
          return
        }
        miss = .none
        draw(Stepper(pu, width: w, height: h), Stepper(pv, width: w, height: h), rows, xs: xs, ys: ys)
      }
      if miss != .none && anyTile {
        let margin = 0.25 + Stepper.bulge(u) + Stepper.bulge(v), limit = Double(size - 1)
        if u.min() - margin >= 0, u.max() + margin < limit, v.min() - margin >= 0, v.max() + margin < limit {
          miss = .none
          lookUp(Stepper(u, width: w, height: h), Stepper(v, width: w, height: h), level, face, xs: xs, ys: ys)
        }
      }
      return miss
    }

    /// Pixels stepped as `draw` steps them, inside `face` at `level`, each tap's texel looked
    /// up through the cube (rows in memory do not hold them all: a tile edge runs through).
    func lookUp(_ u: Stepper, _ v: Stepper, _ level: Int, _ face: Int, xs: Range<Int>, ys: Range<Int>) {
      var uRows = u, vRows = v
      for y in ys {
        let row = out + y &* width
        for x in 0..<xs.count {
          let pu = uRows.at(x), pv = vRows.at(x)
          let x0 = pu >> 16, y0 = pv >> 16
          let wx = UInt32(truncatingIfNeeded: (pu >> 8) & 255), wy = UInt32(truncatingIfNeeded: (pv >> 8) & 255)
          let a = cube.texel(level: level, face: face, x: x0, y: y0)
          let b = cube.texel(level: level, face: face, x: x0 + 1, y: y0)
          let c = cube.texel(level: level, face: face, x: x0, y: y0 + 1)
          let d = cube.texel(level: level, face: face, x: x0 + 1, y: y0 + 1)
          row[xs.lowerBound + x] = mix(mix(a, b, wx), mix(c, d, wx), wy)
        }
        uRows.nextRow()
        vRows.nextRow()
      }
    }

    /// The equirectangular renderer's loop (`draw` in PanoramaRenderer+Blend.swift) over rows
    /// whose every sample lies inside `rows`.
    @inline(__always) func draw(_ u: Stepper, _ v: Stepper, _ rows: TexelRows, xs: Range<Int>, ys: Range<Int>) {
      var uRows = u, vRows = v
      let source = rows.base, stride = rows.stride
      let pixels = xs.count, groups = pixels >> 2
      var kernel = self.kernel
      if let k = kernel, k.scatteredRowsOnly {
        let steps = (uRows.laneSteps()[0], vRows.laneSteps()[0])
        if !GroupKernel.scatters(across: Int32(bitPattern: steps.0), down: Int32(bitPattern: steps.1)) { kernel = nil }
      }
      for y in ys {
        var o = out + (y &* width &+ xs.lowerBound)
        if groups > 0, let kernel {
          var lanes = (uRows.lanes(), vRows.lanes(), uRows.laneSteps(), vRows.laneSteps(), uRows.laneBend(), vRows.laneBend())
          withUnsafeBytes(of: &lanes) { raw in
            let size = MemoryLayout<SIMD4<UInt32>>.stride
            func lane(_ k: Int) -> UnsafePointer<UInt32> { (raw.baseAddress! + k * size).assumingMemoryBound(to: UInt32.self) }
            kernel.groups(source, Int64(stride), o, Int64(groups), lane(0), lane(1), lane(2), lane(3), lane(4), lane(5), 0)
          }
          o += groups << 2
        } else if groups > 0 {
          var us = uRows.lanes(), vs = vRows.lanes()
          var uStep = uRows.laneSteps(), vStep = vRows.laneSteps()
          let uBend = uRows.laneBend(), vBend = vRows.laneBend()
          for _ in 0..<groups {
            UnsafeMutableRawPointer(o).storeBytes(of: bilinearFour(us, vs, source, stride), as: SIMD4<UInt32>.self)
            o += 4
            us &+= uStep
            vs &+= vStep
            uStep &+= uBend
            vStep &+= vBend
          }
        }
        for x in (groups << 2)..<pixels {
          // One pixel through the four-pixel blend (its lane 0), so a row's last pixels are
          // weighted as its groups are.
          let us = SIMD4<UInt32>(repeating: UInt32(truncatingIfNeeded: uRows.at(x)))
          let vs = SIMD4<UInt32>(repeating: UInt32(truncatingIfNeeded: vRows.at(x)))
          o.pointee = bilinearFour(us, vs, source, stride)[0]
          o += 1
        }
        uRows.nextRow()
        vRows.nextRow()
      }
    }
  }
}
