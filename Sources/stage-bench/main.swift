import Stage

/// Hover-target lookup per pointer move, at 1 k, 100 k and 1 M slots: the engine's spatial
/// index against a linear scan and against seed 000's search (which recomputes the minimum
/// of the whole distance array at every slot, so it is quadratic). Run by `bench/board.sh`.

struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

func grid(_ count: Int) -> (Board, [StagePoint]) {
  let side = Int(Double(count).squareRoot().rounded(.up))
  var slots: [Slot] = []
  slots.reserveCapacity(count)
  for i in 0..<count {
    slots.append(
      Slot(id: String(i), frame: StageRect(x: Double(i % side) * 100, y: Double(i / side) * 100, width: 80, height: 80)))
  }
  let item = Item(id: "photo", frame: StageRect(x: 0, y: 0, width: 60, height: 60))
  let board = try! Board(
    canvas: StageSize(width: Double(side) * 100, height: Double(side) * 100), slots: slots, items: [item], itemSlots: ["0"])
  var rng = SplitMix(state: 42)
  var p = StagePoint(x: 40, y: 40)
  var path: [StagePoint] = []
  for _ in 0..<20_000 {
    p.x = min(max(p.x + Double.random(in: -30...30, using: &rng), 0), Double(side) * 100)
    p.y = min(max(p.y + Double.random(in: -30...30, using: &rng), 0), Double(side) * 100)
    path.append(p)
  }
  return (board, path)
}

/// Nanoseconds per call of `body` over `path`, best and median of `runs`.
func measure(runs: Int, moves: Int, _ body: () -> Int) -> (min: Double, median: Double, check: Int) {
  var samples: [Double] = []
  var check = 0
  for _ in 0..<runs {
    let clock = ContinuousClock()
    let start = clock.now
    check &+= body()
    let d = clock.now - start
    let ns = Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9
    samples.append(ns / Double(moves))
  }
  samples.sort()
  return (samples[0], samples[samples.count / 2], check)
}

func linearNearest(_ frames: [StageRect], _ p: StagePoint, radius: Double) -> Int {
  var best = -1
  var bestD = radius
  for (i, f) in frames.enumerated() {
    let d = f.center.distance(to: p)
    if d < bestD || (d == bestD && best >= 0) {
      best = i
      bestD = d
    }
  }
  return best
}

/// Seed 000's `getDistance()`: append each distance, then compare it with `minElement` of the
/// whole array so far.
func seedNearest(_ frames: [StageRect], _ p: StagePoint, radius: Double) -> Int {
  var distances: [Double] = []
  var minIndex = 0
  for (i, f) in frames.enumerated() {
    distances.append(f.center.distance(to: p))
    if distances[i] == distances.min()! { minIndex = i }
  }
  return distances.isEmpty || distances[minIndex] >= radius ? -1 : minIndex
}

let runs = 5
var checksum = 0
print("hover-target lookup per pointer move (ns/move; min / median of \(runs) runs)")
print("slots      index(min/med)   engine move    linear scan     seed quadratic   linear÷index  seed÷index")
for count in [1_000, 100_000, 1_000_000] {
  let (board, path) = grid(count)
  var engine = try! Engine(board: board, options: .preset(.locations))
  let frames = board.slots.map { $0.frame }
  let moves = path.count
  let index = measure(runs: runs, moves: moves) {
    var acc = 0
    var current: Int? = nil
    for p in path {
      current = try! engine.hoverTarget(
        item: 0, frame: StageRect(center: p, size: StageSize(width: 60, height: 60)), pointer: p, current: current)
      acc &+= current ?? -1
    }
    return acc
  }
  _ = try! engine.handle(.pointer(.down, id: 0, at: StagePoint(x: 40, y: 40)), at: 0)
  var t = 0.0
  let full = measure(runs: runs, moves: moves) {
    for p in path {
      t += 0.001
      _ = try! engine.handle(.pointer(.move, id: 0, at: p), at: t)
    }
    return 0
  }
  let linearMoves = count >= 1_000_000 ? 200 : 2_000
  let linear = measure(runs: 3, moves: linearMoves) {
    var acc = 0
    for p in path.prefix(linearMoves) { acc &+= linearNearest(frames, p, radius: 50) }
    return acc
  }
  var seedText = "   (skipped)  "
  var seedRatio = "—"
  if count <= 1_000 {
    let seedMoves = 50
    let seed = measure(runs: 3, moves: seedMoves) {
      var acc = 0
      for p in path.prefix(seedMoves) { acc &+= seedNearest(frames, p, radius: 50) }
      return acc
    }
    seedText = pad(seed.min) + "/" + pad(seed.median)
    seedRatio = ratio(seed.median / index.median)
  }
  checksum &+= index.check &+ linear.check
  print(
    "\(String(count).padding(9))  \(pad(index.min))/\(pad(index.median))  \(pad(full.median))   \(pad(linear.min))/\(pad(linear.median))  \(seedText)  \(ratio(linear.median / index.median).padding(12))  \(seedRatio)"
  )
}

print("checksum \(checksum) (keeps the optimiser from dropping the baselines)")

func pad(_ ns: Double) -> String {
  let text: String
  if ns >= 1e6 { text = "\(Int(ns / 1e6)) ms" } else if ns >= 1e3 { text = "\(Int(ns / 1e3)) µs" } else { text = "\(Int(ns)) ns" }
  return text.padding(7)
}

func ratio(_ r: Double) -> String { r >= 100 ? "\(Int(r))×" : "\(Double(Int(r * 10)) / 10)×" }

extension String {
  func padding(_ n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
}
