import Foundation
import Testing
@testable import Recording

/// Madgwick's IMU filter against motions whose attitude is known in closed form.
@Suite struct OrientationFilterTests {
    @Test("the first sample sets roll and pitch so that the predicted up is the measured direction (1e-12), for directions all round the sphere")
    func initialAttitude() {
        var worst = 0.0
        for k in 0..<200 {
            // Directions on a spiral over the whole sphere, in m/s².
            let z = 1 - 2 * (Double(k) + 0.5) / 200, r = (1 - z * z).squareRoot(), phi = Double(k) * 2.399963229728653
            let a = (x: 9.81 * r * cos(phi), y: 9.81 * r * sin(phi), z: 9.81 * z)
            var filter = OrientationFilter()
            filter.update(gyro: (0, 0, 0), accel: a, seconds: 0.01)
            let up = filter.up
            worst = max(worst, abs(up.x - a.x / 9.81), abs(up.y - a.y / 9.81), abs(up.z - a.z / 9.81))
        }
        #expect(worst < 1e-12, "\(worst)")
    }

    @Test("a device lying flat, turning at 0.5 rad/s about z for 2 s: q = (cos θ/2, 0, 0, sin θ/2) with θ = 0.5 t (first-order steps of 10 ms: within 1e-5), up stays (0, 0, 1)")
    func yawAtConstantRate() {
        var filter = OrientationFilter()
        for step in 0...200 {
            filter.update(gyro: (0, 0, 0.5), accel: (0, 0, 9.80665), seconds: 0.01)
            let theta = 0.5 * Double(step) * 0.01
            let q = filter.q
            #expect(abs(q.w - cos(theta / 2)) < 1e-5 && abs(q.z - sin(theta / 2)) < 1e-5 && abs(q.x) < 1e-12 && abs(q.y) < 1e-12,
                    "step \(step): \(q)")
        }
        #expect(abs(filter.up.z - 1) < 1e-12)
    }

    @Test("tilted 30° about x and still: q = (cos 15°, sin 15°, 0, 0), and a wrong start converges to it (β pulls the attitude to gravity, then it stays within one step's angle, 2β·Δt = 2 mrad)")
    func tiltAndConvergence() {
        let tilt = 30.0 * .pi / 180
        let a = (x: 0.0, y: 9.80665 * sin(tilt), z: 9.80665 * cos(tilt))
        var filter = OrientationFilter()
        filter.update(gyro: (0, 0, 0), accel: a, seconds: 0.01)
        #expect(abs(filter.q.w - cos(tilt / 2)) < 1e-12 && abs(filter.q.x - sin(tilt / 2)) < 1e-12)
        // Started flat, then held at 30°: the normalised gradient moves the quaternion at β = 0.1 /s,
        // the angle at twice that, so 0.52 rad take about 2.6 s; then it stays within a step's angle, 2β·Δt = 2e-3 rad.
        var late = OrientationFilter()
        late.update(gyro: (0, 0, 0), accel: (0, 0, 9.80665), seconds: 0.01)
        for step in 0..<2_000 {
            late.update(gyro: (0, 0, 0), accel: a, seconds: 0.01)
            let error = acos(min(1, late.up.y * sin(tilt) + late.up.z * cos(tilt)))
            if step == 99 { #expect(abs(error - (tilt - 0.2)) < 0.01, "\(error) rad after 1 s: the angle moves at 2β") }
            if step >= 1_000 { #expect(error <= 2e-3, "\(error) rad at step \(step)") }
        }
    }
}
