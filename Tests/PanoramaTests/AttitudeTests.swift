import CoreMath
import Foundation
import TestSupport
import Testing

@testable import Panorama

func degrees(_ d: Double) -> Double { Angle(degrees: d).radians }

/// Angles compare to 1e-9 rad: the round trip through a quaternion loses a few ulp per step.
func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

@Suite("Heading from attitude")
struct HeadingTests {
  static let holds: [(name: String, pitch: Double, roll: Double)] = [
    ("portrait", 0, 0), ("landscape left", 0, 90), ("landscape right", 0, -90), ("tilted", 30, 20),
    ("looking down", -60, 10), ("upside down", 10, 180),
  ]

  @Test(arguments: holds)
  func turningSeveralTimesBothWaysNeverJumps(hold: (name: String, pitch: Double, roll: Double)) {
    for direction in [1.0, -1.0] {
      var tracker = MotionTracker(smoothing: false, recenterOnStart: false)
      var t = 0.0
      var yaw = -170.0
      // Three full turns in 2° steps, through ±180° several times.
      for _ in 0..<540 {
        var q = ViewAngles(yaw: degrees(yaw), pitch: degrees(hold.pitch), roll: degrees(hold.roll)).attitude
        if Int(t * 100) % 2 == 1 { q = Quaternion(x: -q.x, y: -q.y, z: -q.z, w: -q.w) }  // the sign never matters
        let view = tracker.feed(.attitude(t: t, q))!
        #expect(close(view.yaw, degrees(yaw), 1e-7), "\(hold.name) yaw \(yaw)")
        #expect(close(view.pitch, degrees(hold.pitch), 1e-7), "\(hold.name) pitch")
        #expect(close(Angle(radians: view.roll - degrees(hold.roll)).wrapped.radians, 0, 1e-7), "\(hold.name) roll")
        yaw += 2 * direction
        t += 0.01
      }
    }
  }

  @Test func turningRightIncreasesYaw() {
    // Upright in portrait, the back of the device faces world +Y (yaw 0); turn a little
    // clockwise seen from above, towards +X.
    let upright = ViewAngles().attitude
    let turned = Quaternion(axis: Vector3(0, 0, 1), angle: -0.1) * upright
    #expect(close(ViewAngles(attitude: turned).yaw, 0.1))
    #expect(close(ViewAngles(attitude: upright).pitch, 0))
  }

  @Test func browserOrientationMatchesTheDeviceFrames() {
    // Portrait, upright, back to the north: beta 90. The page's readings give the same
    // angles as the desktop's attitudes.
    let upright = ViewAngles(attitude: .deviceOrientation(alpha: 0, beta: 90, gamma: 0, screenAngle: 0))
    #expect(close(upright.yaw, 0) && close(upright.pitch, 0) && close(upright.roll, 0))
    // Turning right lowers alpha (it counts counter-clockwise): yaw grows, however the
    // device is held and whatever the screen's rotation.
    for (beta, gamma, screen) in [(90.0, 0.0, 0.0), (90.0, 0.0, 90.0), (60.0, 45.0, 0.0), (70.0, -30.0, 270.0)] {
      let a = ViewAngles(attitude: .deviceOrientation(alpha: 10, beta: beta, gamma: gamma, screenAngle: screen))
      let b = ViewAngles(attitude: .deviceOrientation(alpha: -80, beta: beta, gamma: gamma, screenAngle: screen))
      #expect(close(Angle(radians: b.yaw - a.yaw).wrapped.radians, degrees(90), 1e-9), "beta \(beta) gamma \(gamma)")
    }
    // Held in landscape (its top to the left, screen angle 90): the device's x
    // axis points up, and level in the screen's frame means roll 0 and pitch 0.
    let landscape = ViewAngles(attitude: .deviceOrientation(alpha: 0, beta: 0, gamma: -90, screenAngle: 90))
    #expect(close(landscape.pitch, 0, 1e-9) && close(landscape.roll, 0, 1e-9), "\(landscape)")
  }

  @Test func straightUpAndDownStayFinite() {
    for pitch in [90.0, -90.0] {
      let v = ViewAngles(attitude: ViewAngles(yaw: degrees(30), pitch: degrees(pitch), roll: 0).attitude)
      #expect(v.yaw.isFinite && v.pitch.isFinite && v.roll.isFinite)
      #expect(close(abs(v.pitch), degrees(90), 1e-6))
      #expect(close(v.yaw, degrees(30), 1e-6))
    }
  }

  @Test func recenteringMakesTheCurrentHeadingZero() {
    var tracker = MotionTracker(smoothing: false)
    let first = tracker.feed(.attitude(t: 0, ViewAngles(yaw: degrees(123)).attitude))!
    #expect(close(first.yaw, 0), "the seed's adjX: no jump at start")
    let later = tracker.feed(.attitude(t: 0.1, ViewAngles(yaw: degrees(133)).attitude))!
    #expect(close(later.yaw, degrees(10)))
    tracker.recenter()
    let again = tracker.feed(.attitude(t: 0.2, ViewAngles(yaw: degrees(140)).attitude))!
    #expect(close(again.yaw, 0))
  }

  @Test func badSamplesAreDroppedAndCounted() {
    var tracker = MotionTracker(smoothing: false, recenterOnStart: false)
    let good = ViewAngles(yaw: 0.5).attitude
    #expect(tracker.feed(.attitude(t: 1, good)) != nil)
    #expect(tracker.feed(.attitude(t: 0.5, good)) == nil)
    #expect(tracker.feed(.attitude(t: 1, good)) == nil)
    #expect(tracker.feed(.attitude(t: 2, Quaternion(x: .nan, y: 0, z: 0, w: 1))) == nil)
    #expect(tracker.feed(.attitude(t: 3, Quaternion(x: 0, y: 0, z: 0, w: 2))) == nil)
    #expect(tracker.feed(.rate(t: .infinity, Vector3(0, 0, 0))) == nil)
    #expect(close(tracker.view.yaw, 0.5), "nothing dropped moved the camera")
    // Found by fuzzing `pano video`: a rate of 1e30 rad/s spun the view to a yaw the
    // renderer could not convert. No gyroscope turns over 100 rad/s.
    #expect(tracker.feed(.rate(t: 4, Vector3(0, 0, 1e30))) == nil)
    #expect(tracker.feed(.rate(t: 5, Vector3(0, 0, 99))) != nil)
    #expect(tracker.dropped == MotionTracker.Dropped(outOfOrder: 2, notFinite: 2, notUnit: 1, tooFast: 1))
    #expect(tracker.view.yaw.isFinite)
  }

  @Test func ratesIntegrateToTheSameHeadingAsAttitudes() {
    var tracker = MotionTracker(smoothing: false, recenterOnStart: false)
    // Upright, turning right = rotating about the device's −y axis (its y points up).
    for i in 0...100 {
      tracker.feed(.rate(t: Double(i) / 100, Vector3(0, -Elementary.halfPi, 0)))
    }
    #expect(close(tracker.view.yaw, Elementary.halfPi, 1e-9))
    #expect(close(tracker.view.pitch, 0, 1e-9))
    // Then look up 30° (about the device's +x axis).
    for i in 1...100 { tracker.feed(.rate(t: 1 + Double(i) / 100, Vector3(degrees(30), 0, 0))) }
    #expect(close(tracker.view.pitch, degrees(30), 1e-9))
    #expect(close(tracker.view.yaw, Elementary.halfPi, 1e-9))
  }
}

@Suite("One Euro filter")
struct OneEuroTests {
  /// Reference data from casiez/OneEuroFilter (see Data/one-euro-README.md): 120 Hz,
  /// mincutoff 1, beta 0.1, dcutoff 1. The file has 6 significant digits, so 1e-5.
  @Test func reproducesTheReferenceImplementation() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Data/one-euro-groundTruth.csv")
    let rows = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst()
    var filter = OneEuroFilter(minCutoff: 1, beta: 0.1, derivativeCutoff: 1)
    var worst = 0.0
    for (k, row) in rows.enumerated() {
      let f = row.split(separator: ",").map { Double($0)! }
      // The file prints timestamps to 6 digits; the reference ran on the exact k/120 s,
      // and its periods are what the filter sees.
      let t = Double(k) / 120
      #expect(abs(t - f[0]) < 1e-5)
      worst = max(worst, abs(filter.filter(f[2], at: t) - f[3]))
    }
    #expect(rows.count == 1200)
    #expect(worst < 1e-5, "largest difference \(worst)")
  }

  @Test func smoothsJitterAndFollowsFastMotion() {
    var filter = OneEuroFilter()
    var rng = SeededRandom(seed: 42)  // the same draws every run
    var spreadRaw = 0.0, spreadFiltered = 0.0
    for i in 0..<600 {
      let noise = Double.random(in: -0.01...0.01, using: &rng)
      let y = filter.filter(1 + noise, at: Double(i) / 120)
      if i > 300 {
        spreadRaw = max(spreadRaw, abs(noise))
        spreadFiltered = max(spreadFiltered, abs(y - 1))
      }
    }
    #expect(spreadFiltered < spreadRaw / 2)
  }
}

@Suite("Motion logs")
struct MotionLogTests {
  @Test func sensorLoggerOrientationIsZFirst() throws {
    let csv =
      "time,seconds_elapsed,qz,qy,qx,qw,roll,pitch,yaw\n1700000000000000000,0.5,0.3,0.2,0.1,0.927,0,0,0\n1700000000010000000,0.51,0.3,0.2,0.1,0.927,0,0,0\n"
    let log = try MotionLog.parse(Array(csv.utf8))
    #expect(log.format == .sensorLoggerOrientation)
    #expect(log.samples[0] == .attitude(t: 0, Quaternion(x: 0.1, y: 0.2, z: 0.3, w: 0.927)))
    #expect(close(log.samples[1].t, 0.01))
  }

  @Test func otherFormats() throws {
    let gyro = try MotionLog.parse(Array("time,seconds_elapsed,z,y,x\n1,0,3,2,1\n".utf8))
    #expect(gyro.format == .sensorLoggerGyroscope)
    #expect(gyro.samples[0] == .rate(t: 0, Vector3(1, 2, 3)))
    let sensorLog = try MotionLog.parse(
      Array(
        "loggingTime(txt),motionTimestamp_sinceReboot(s),motionQuaternionX(R),motionQuaternionY(R),motionQuaternionZ(R),motionQuaternionW(R)\r\nx,100.5,0,0,0,1\r\n"
          .utf8))
    #expect(sensorLog.format == .sensorLog)
    #expect(sensorLog.samples == [.attitude(t: 0, .identity)])
    let plain = try MotionLog.parse(Array("t,qx,qy,qz,qw\n0,0,0,0,1\n\n0.1,0,0,0,1\n".utf8))
    #expect(plain.format == .plainAttitude && plain.samples.count == 2)
    let rate = try MotionLog.parse(Array("t,gx,gy,gz\n0,0.1,0.2,0.3\n".utf8))
    #expect(rate.format == .plainRate)
  }

  @Test(arguments: [
    ("a,b,c\n1,2,3\n", "line 1: unknown motion log header"),
    ("t,qx,qy,qz,qw\n0,0,0,0,1\n0.1,0,zero,0,1\n", "line 3: column \"qy\": \"zero\" is not a number"),
    ("t,qx,qy,qz,qw\n0,0,0\n", "line 2: expected 5 columns, found 3"),
    ("t,qx,qy,qz,qw\n", "no samples after the header"),
  ])
  func badLogsNameTheLine(csv: String, message: String) {
    #expect {
      try MotionLog.parse(Array(csv.utf8))
    } throws: { error in
      "\(error)".contains(message)
    }
  }
}
