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
    /// The band's block corner rays (top and bottom, a block `side` pixels apart) and its
    /// rows: a pixel `cut` casts a ray for is cast as the reference casts it, between them.
    let top: [Ray], bottom: [Ray]
    let side: Int, j0: Int, j1: Int

    typealias Stepper = PanoramaRenderer.BlockContext.BlockStepper

    /// How far (texels) a stepped patch may stray from the exact face point between its nodes.
    static var tolerance: Double { 0.01 }

    /// Pixels `xs` × `ys` of a block stepped if they can be, else cut into quarters and tried
    /// again, down to 4×4 pixels, else cast ray by ray (at face edges, and where the view
    /// bends the face too much for one patch).
    func piece(level: Int, size: Int, xs: Range<Int>, ys: Range<Int>, corners: Corners) {
      if !step(level: level, size: size, xs: xs, ys: ys) { split(level: level, size: size, xs: xs, ys: ys, corners: corners) }
    }

    /// `piece` for the quarters of pixels `xs` × `ys` (already found not to step as a whole).
    func split(level: Int, size: Int, xs: Range<Int>, ys: Range<Int>, corners: Corners) {
      // Halves a multiple of four pixels wide where they can be: whole four-pixel groups.
      let cutX = xs.count > 4, cutY = ys.count > 4
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

    /// Pixel (`i`, `j`)'s ray as `rays` casts it for the whole block (the reference): the
    /// same arithmetic, so that where a ray meets a cube's corner (three faces, and a fourth
    /// tap that is any of them) both pick the same texels.
    func referenceRay(_ i: Int, _ j: Int) -> Ray {
      let c = i / side, i0 = c * side
      let r00 = top[c], r10 = top[c + 1], r01 = bottom[c], r11 = bottom[c + 1]
      let spanX = Double(min(i0 + side, width) - i0), fy = (Double(j - j0) + 0.5) / Double(j1 - j0)
      let left = (x: r00.x + (r01.x - r00.x) * fy, y: r00.y + (r01.y - r00.y) * fy, z: r00.z + (r01.z - r00.z) * fy)
      let right = (x: r10.x + (r11.x - r10.x) * fy, y: r10.y + (r11.y - r10.y) * fy, z: r10.z + (r11.z - r10.z) * fy)
      let step = (x: (right.x - left.x) / spanX, y: (right.y - left.y) / spanX, z: (right.z - left.z) / spanX)
      var d = (x: left.x + step.x * 0.5, y: left.y + step.y * 0.5, z: left.z + step.z * 0.5)
      for _ in i0..<i { d = (x: d.x + step.x, y: d.y + step.y, z: d.z + step.z) }
      return d
    }

    /// A face a piece's pixels may lie on, and where they meet its plane (texels, 16.16).
    struct OnFace {
      let face: Int
      var u: Stepper, v: Stepper
    }

    /// Draws pixels `xs` × `ys` stepped, as the equirectangular renderer draws a block: the
    /// face coordinates of every face the piece's nodes look at, at 3×3 points, stepped in
    /// fixed point between them. False, drawing nothing, where the view bends a face too much
    /// for one patch (very wide views, fisheyes near their rim) or looks away from one.
    func step(level: Int, size: Int, xs: Range<Int>, ys: Range<Int>) -> Bool {
      let w = xs.count, h = ys.count, s = Double(size)
      // The pixel centres at 0, w/2 and w across and 0, h/2, h down (the stepper's nodes).
      // (fx, fy): 0 to 1 across and down, the nodes at 0, ½ and 1.
      @inline(__always) func ray(_ fx: Double, _ fy: Double) -> Ray {
        CubeMap.ray(
          x: Double(xs.lowerBound) + fx * Double(w) + 0.5, y: Double(ys.lowerBound) + fy * Double(h) + 0.5,
          width: width, height: height, focal: focal, lens: lens, yaw: yaw, pitch: pitch, roll: roll)
      }
      // The nine node rays, lane k node k (row by row), and the two checks.
      var rx = SIMD16<Double>(), ry = rx, rz = rx
      for j in 0..<3 {
        for i in 0..<3 {
          let r = ray(Double(i) / 2, Double(j) / 2)
          (rx[3 * j + i], ry[3 * j + i], rz[3 * j + i]) = r
        }
      }
      let checks = (ray(0.25, 0.25), ray(0.75, 0.75))
      // The faces the nodes and the checks look at (three at most: a cube corner).
      var faces = (-1, -1, -1)
      var faceCount = 0
      func add(_ r: Ray) {
        let f = faceOf(r)
        if f == faces.0 || f == faces.1 || f == faces.2 { return }
        if faceCount == 0 { faces.0 = f } else if faceCount == 1 { faces.1 = f } else { faces.2 = f }
        faceCount += 1
      }
      add((rx[4], ry[4], rz[4]))
      for k in 0..<9 { add((rx[k], ry[k], rz[k])) }
      add(checks.0)
      add(checks.1)
      // Each face's patch through the nodes, checked against the exact face point at the two
      // checks (a quarter and three quarters across and down): where the view bends the face
      // too much for a biquadratic, smaller pieces are tried.
      func patch(_ face: Int) -> (SIMD16<Double>, SIMD16<Double>)? {
        // onFace's projection, lane by lane with the face's axes read once.
        let (c, r, d) = CubeFace.frames[face]
        let along = rx * c.x + ry * c.y + rz * c.z
        for k in 0..<9 where !(along[k] > 1e-9) { return nil }
        let half = 0.5 * s
        var u = ((rx * r.x + ry * r.y + rz * r.z) / along + 1) * half - 0.5
        var v = ((rx * d.x + ry * d.y + rz * d.z) / along + 1) * half - 0.5
        for c in 0..<2 {
          let weights = c == 0 ? SIMD3<Double>(0.375, 0.75, -0.125) : SIMD3<Double>(-0.125, 0.75, 0.375)
          guard let exact = onFace(c == 0 ? checks.0 : checks.1, face, s) else { return nil }
          var pu = 0.0, pv = 0.0
          for j in 0..<3 {
            for i in 0..<3 {
              pu += weights[i] * weights[j] * u[3 * j + i]
              pv += weights[i] * weights[j] * v[3 * j + i]
            }
          }
          guard abs(pu - (exact.0 - 0.5)) < Self.tolerance, abs(pv - (exact.1 - 0.5)) < Self.tolerance else { return nil }
        }
        for k in 9..<16 {
          u[k] = u[0]
          v[k] = v[0]
        }
        // Fixed point holds a neighbouring face's plane only near the face: a node far out
        // there (a ray nearly along the plane) is a bend.
        guard u.min() > -s, u.max() < 2 * s, v.min() > -s, v.max() < 2 * s else { return nil }
        return (u, v)
      }
      guard let (u, v) = patch(faces.0) else { return false }
      let first = OnFace(face: faces.0, u: Stepper(u, width: w, height: h), v: Stepper(v, width: w, height: h))
      var kernel = self.kernel
      if let k = kernel, k.scatteredRowsOnly {
        let steps = (first.u.laneSteps()[0], first.v.laneSteps()[0])
        if !GroupKernel.scatters(across: Int32(bitPattern: steps.0), down: Int32(bitPattern: steps.1)) { kernel = nil }
      }
      if faceCount == 1 {
        // Between nodes the patch can bulge past them, by less than its second differences
        // (plus a quarter texel for the fixed point's rounding: a sample's texel and the
        // one right of and below it must be inside).
        let margin = 0.25 + Stepper.bulge(u) + Stepper.bulge(v)
        let cx = min(max(Int(u[4]), 0), size - 1), cy = min(max(Int(v[4]), 0), size - 1)
        var whole = false
        _ = cube.withRows(level: level, face: first.face, x: cx, y: cy) { rows in
          let x0 = Double(rows.x0), y0 = Double(rows.y0)
          guard Self.fits(rows), u.min() - margin >= x0, u.max() + margin < x0 + Double(rows.width - 1),
            v.min() - margin >= y0, v.max() + margin < y0 + Double(rows.height - 1)
          else { return }
          whole = true
          #if !hasFeature(Embedded)
            // Native hosts only (wasm has no C kernels): the whole piece in one call, its rows
            // stepped in C as below. The Swift walk's per-row lane set-up and call were the
            // largest part of the cube path beside its taps.
            if w & 3 == 0, let blocks = kernel?.blocks, !Self.scatters(first) {
              drawBlock(first, rows, blocks, out + (ys.lowerBound &* width &+ xs.lowerBound), rows: h, groups: w >> 2)
              return
            }
          #endif
          var uRows = first.u, vRows = first.v
          for y in ys {
            drawRow(uRows, vRows, rows, 0..<w, out + (y &* width &+ xs.lowerBound), kernel)
            uRows.nextRow()
            vRows.nextRow()
          }
        }
        if !whole { cut([first], level, size, xs: xs, ys: ys, kernel) }
        return true
      }
      var all = [first]
      for f in [faces.1, faces.2].prefix(faceCount - 1) {
        guard let (u, v) = patch(f) else { return false }
        all.append(OnFace(face: f, u: Stepper(u, width: w, height: h), v: Stepper(v, width: w, height: h)))
      }
      cut(all, level, size, xs: xs, ys: ys, kernel)
      return true
    }

    #if !hasFeature(Embedded)
      /// Whether a piece stepped as `f` reads its rows out of order (judged at its first row,
      /// as the equirectangular renderer judges a block): a whole-block kernel is for rows
      /// read in order, and scattered ones go row by row to its `groups`, which prefetch.
      @inline(__always) static func scatters(_ f: OnFace) -> Bool {
        let steps = (f.u.laneSteps()[0], f.v.laneSteps()[0])
        return GroupKernel.scatters(across: Int32(bitPattern: steps.0), down: Int32(bitPattern: steps.1))
      }

      /// Draws `count` rows of `groups` four-pixel groups of the piece stepped as `f` (every sample inside
      /// `rows`) from the first row of `out` through a whole-block kernel: face coordinates
      /// moved to the rows' own by the 32.32 values alone, a wrapping subtraction that leaves
      /// every lane as `drawRow` sets it up.
      func drawBlock(
        _ f: OnFace, _ rows: TexelRows, _ blocks: GroupKernel.BlockFunction, _ out: UnsafeMutablePointer<UInt32>,
        rows count: Int, groups: Int
      ) {
        var u = f.u, v = f.v
        u.a.value &-= Int64(rows.x0) &<< 32
        v.a.value &-= Int64(rows.y0) &<< 32
        var steppers = (u.quadratics(), v.quadratics())
        withUnsafeBytes(of: &steppers) { raw in
          blocks(
            rows.base, Int64(rows.stride), out, Int64(width), Int64(count), Int64(groups),
            raw.baseAddress!.assumingMemoryBound(to: Int64.self), 0)
        }
      }
    #endif

    /// Whether four-pixel groups can read `rows`: 16.16 coordinates and indices in 32-bit lanes.
    @inline(__always) static func fits(_ rows: TexelRows) -> Bool {
      rows.stride < 1 << 16 && Int64(rows.stride) &* Int64(rows.height) < 1 << 32
    }

    /// Pixels whose texels no one rectangle of rows holds (a face edge or a tile edge runs
    /// through, or a tile is shown by a coarser cover), on the faces `faces`: each row cut
    /// where its taps pass from one face or tile to the next, its runs drawn from their
    /// tile's rows as `step` draws a whole piece. A pixel whose taps straddle a tile edge (a
    /// texel wide) is looked up tap by tap through the cube, one whose taps straddle a face
    /// edge by its own ray, as the reference draws it. Cutting pieces into smaller pieces along
    /// the edges instead cast their nodes again and again, and sent the last ones ray by ray.
    func cut(_ faces: [OnFace], _ level: Int, _ size: Int, xs: Range<Int>, ys: Range<Int>, _ kernel: GroupKernel?) {
      var faces = faces
      let n = xs.count, s = Double(size)
      // A sixteenth of a texel (16.16): far more than four-pixel groups, stepped by rounded
      // differences, drift from `at` over a piece's row (under 0.003 texel for 64 pixels).
      let margin: Int64 = 1 << 12, last = Int64(size - 1) << 16 - margin
      for y in ys {
        let row = out + (y &* width &+ xs.lowerBound)
        var x = 0
        while x < n {
          var end = x
          for f in faces where end == x {
            let pu = f.u.wide(x), pv = f.v.wide(x)
            // Not on this face, or straddling its edge.
            guard pu >= margin, pu < last, pv >= margin, pv < last else { continue }
            let tx = Int(truncatingIfNeeded: pu >> 16), ty = Int(truncatingIfNeeded: pv >> 16)
            _ = cube.withRows(level: level, face: f.face, x: tx, y: ty) { rows in
              guard Self.fits(rows) else { return }
              let left = Int64(rows.x0) << 16 + margin, right = Int64(rows.x0 + rows.width - 1) << 16 - margin
              let top = Int64(rows.y0) << 16 + margin, bottom = Int64(rows.y0 + rows.height - 1) << 16 - margin
              @inline(__always) func inside(_ k: Int, _ slack: Int64) -> Bool {
                let a = f.u.wide(k), b = f.v.wide(k)
                return a >= left + slack && a < right - slack && b >= top + slack && b < bottom - slack
              }
              // Four pixels a check where the row bends little: along a row u and v are
              // quadratics, which stray from the chord between two pixels four apart by at
              // most 4|c| (c their x² coefficient), so the two ends inside by that much (and
              // a unit of rounding each) put every pixel between them inside.
              let slack = 4 * (max(abs(f.u.c.value), abs(f.v.c.value)) >> 16 + 1) + 2
              if slack < margin, inside(x, slack) {
                while end + 4 <= n, inside(end + 3, slack) { end += 4 }
              }
              while end < n, inside(end, 0) { end += 1 }
              if end > x { drawRow(f.u, f.v, rows, x..<end, row, kernel) }
            }
            if end == x {
              let wx = UInt32(truncatingIfNeeded: (pu >> 8) & 255), wy = UInt32(truncatingIfNeeded: (pv >> 8) & 255)
              let a = cube.texel(level: level, face: f.face, x: tx, y: ty)
              let b = cube.texel(level: level, face: f.face, x: tx + 1, y: ty)
              let c = cube.texel(level: level, face: f.face, x: tx, y: ty + 1)
              let d = cube.texel(level: level, face: f.face, x: tx + 1, y: ty + 1)
              row[x] = mix(mix(a, b, wx), mix(c, d, wx), wy)
              end = x + 1
            }
          }
          if end == x {
            let (face, u, v) = locate(referenceRay(xs.lowerBound + x, y))
            row[x] = bilinear(cube, level, face, u * s, v * s, size)
            end = x + 1
          }
          x = end
        }
        for k in faces.indices {
          faces[k].u.nextRow()
          faces[k].v.nextRow()
        }
      }
    }

    /// The equirectangular renderer's loop (`draw` in PanoramaRenderer+Blend.swift) over
    /// columns `columns` of the current row of `u`, `v` (face texels, 16.16), every sample
    /// inside `rows`; `row` is the piece's first pixel of the row. Not inlined: its two
    /// callers, specialised per cube source, added 6 KB gzipped to the viewer's CPU module,
    /// and a call a row of up to 64 pixels costs nothing measurable.
    func drawRow(
      _ u: Stepper, _ v: Stepper, _ rows: TexelRows, _ columns: Range<Int>, _ row: UnsafeMutablePointer<UInt32>,
      _ kernel: GroupKernel?
    ) {
      let source = rows.base, stride = rows.stride
      // Face coordinates to the rows' own: a wrapping subtraction in every lane.
      let ox = UInt32(truncatingIfNeeded: rows.x0 &<< 16), oy = UInt32(truncatingIfNeeded: rows.y0 &<< 16)
      let first = columns.lowerBound, groups = columns.count >> 2
      var o = row + first
      if groups > 0, let kernel {
        var lanes = (
          u.lanes(from: first) &- SIMD4(repeating: ox), v.lanes(from: first) &- SIMD4(repeating: oy),
          u.laneSteps(from: first), v.laneSteps(from: first), u.laneBend(), v.laneBend()
        )
        withUnsafeBytes(of: &lanes) { raw in
          let size = MemoryLayout<SIMD4<UInt32>>.stride
          func lane(_ k: Int) -> UnsafePointer<UInt32> { (raw.baseAddress! + k * size).assumingMemoryBound(to: UInt32.self) }
          kernel.groups(source, Int64(stride), o, Int64(groups), lane(0), lane(1), lane(2), lane(3), lane(4), lane(5), 0)
        }
        o += groups << 2
      } else if groups > 0 {
        var us = u.lanes(from: first) &- SIMD4(repeating: ox), vs = v.lanes(from: first) &- SIMD4(repeating: oy)
        var uStep = u.laneSteps(from: first), vStep = v.laneSteps(from: first)
        let uBend = u.laneBend(), vBend = v.laneBend()
        for _ in 0..<groups {
          UnsafeMutableRawPointer(o).storeBytes(of: bilinearFour(us, vs, source, stride), as: SIMD4<UInt32>.self)
          o += 4
          us &+= uStep
          vs &+= vStep
          uStep &+= uBend
          vStep &+= vBend
        }
      }
      for x in (first + groups << 2)..<columns.upperBound {
        // One pixel through the four-pixel blend (its lane 0), so a row's last pixels are
        // weighted as its groups are.
        let us = SIMD4<UInt32>(repeating: UInt32(truncatingIfNeeded: u.at(x)) &- ox)
        let vs = SIMD4<UInt32>(repeating: UInt32(truncatingIfNeeded: v.at(x)) &- oy)
        o.pointee = bilinearFour(us, vs, source, stride)[0]
        o += 1
      }
    }
  }
}
